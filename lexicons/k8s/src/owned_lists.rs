//! Owned objects nothing declares any more, where the declared reads cannot see them: a
//! kind and namespace holding one declared object is read with a GET, so it is listed
//! once more by this project's marker (a label selector: only its owned objects come
//! back). Without this, an owned orphan would be visible to `plan` beside two declared
//! siblings and invisible beside one.

use crate::ownership::selector;
use crate::reader::{ListJob, Listed, list_collections};
use crate::session::{Session, Target, Unaddressable};
use chant_lexicon::ProjectMarker;
use std::collections::BTreeMap;

/// LIST by marker every collection read with a single GET, except those `skip` names
/// (the runtime-children sweep lists them already). Failures come back as notes.
pub async fn owned_beside_gets(
    session: &Session,
    targets: &[Result<Target, Unaddressable>],
    project: &ProjectMarker,
    skip: impl Fn(&Target) -> bool,
    pool: usize,
) -> (Vec<Listed>, Vec<String>) {
    let mut per_collection: BTreeMap<String, (usize, &Target)> = BTreeMap::new();
    for target in targets.iter().flatten() {
        per_collection
            .entry(target.collection())
            .or_insert((0, target))
            .0 += 1;
    }
    let jobs = per_collection
        .into_iter()
        .filter(|(_, (count, target))| *count == 1 && !skip(target))
        .map(|(collection, (_, target))| ListJob {
            looking_for: format!(
                "owned {} no longer declared could not be looked for ({collection})",
                target.info.plural
            ),
            info: target.info.clone(),
            collection,
        })
        .collect();
    list_collections(session, jobs, Some(&selector(project, true)), pool).await
}
