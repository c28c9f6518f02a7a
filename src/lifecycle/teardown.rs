//! Teardown planning: what this project owns that it no longer declares, in the order it
//! can be deleted, and a re-check against a fresh read before anything is deleted.
//!
//! Only a candidate carrying this project's marker (its stack, and its environment when
//! the marker names one) and not declared survives. A kind that could not be listed is a
//! hole: unknown, never "nothing there".

use chant_lexicon::observation::Observation;
use chant_lexicon::{
    OwnershipMarker, ProjectMarker, TeardownCandidate, TeardownHole, TeardownPlan, UnobservedReason,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Why a marked object is not a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExclusionReason {
    /// The project still declares it.
    Declared,
    /// A chant marker of another stack or environment.
    ForeignMarker,
    /// Created at runtime by a declared object, which owns its lifetime.
    RuntimeChild,
    /// Declared objects still reference it.
    Dependency,
    /// The same name was listed twice; the first one counts.
    Duplicate,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExcludedCandidate {
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub reason: ExclusionReason,
    pub detail: String,
}

/// A teardown plan for one lexicon, ready to show and to confirm.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeardownProposal {
    /// In deletion order: every candidate before anything it depends on.
    pub candidates: Vec<TeardownCandidate>,
    pub holes: Vec<TeardownHole>,
    /// Marked objects left alone, and why; sorted by name.
    pub excluded: Vec<ExcludedCandidate>,
}

impl TeardownProposal {
    /// No kind went unlisted: the candidates are the whole answer.
    pub fn is_complete(&self) -> bool {
        self.holes.is_empty()
    }
}

/// Candidates that depend on each other in a circle; none of them can go first.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("teardown candidates depend on each other in a cycle: {}", cycle_text(.cycle))]
pub struct DependencyCycle {
    /// Each depends on the next; the last depends on the first.
    pub cycle: Vec<String>,
}

fn cycle_text(cycle: &[String]) -> String {
    let mut names = cycle.to_vec();
    names.extend(cycle.first().cloned());
    names.join(" → ")
}

/// Filter a lexicon's `teardown_owned` answer to this project's undeclared objects and
/// order it for deletion. Holes pass through.
pub fn plan_teardown(
    plan: &TeardownPlan,
    declared: &[String],
    project: &ProjectMarker,
) -> Result<TeardownProposal, DependencyCycle> {
    let declared: BTreeSet<&str> = declared.iter().map(String::as_str).collect();
    let mut seen = BTreeSet::new();
    let mut kept = Vec::new();
    let mut excluded = Vec::new();
    for candidate in &plan.candidates {
        let exclusion = if !seen.insert(candidate.name.as_str()) {
            Some((
                ExclusionReason::Duplicate,
                "listed more than once".to_owned(),
            ))
        } else if declared.contains(candidate.name.as_str()) {
            Some((ExclusionReason::Declared, "still declared".to_owned()))
        } else if !project.matches(&candidate.marker) {
            Some((
                ExclusionReason::ForeignMarker,
                format!(
                    "marked {}, not this project's {}",
                    marker_text(&candidate.marker),
                    project_text(project)
                ),
            ))
        } else {
            None
        };
        match exclusion {
            Some((reason, detail)) => excluded.push(ExcludedCandidate {
                name: candidate.name.clone(),
                entity_type: candidate.entity_type.clone(),
                reason,
                detail,
            }),
            None => kept.push(candidate.clone()),
        }
    }
    excluded.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(TeardownProposal {
        candidates: deletion_order(&kept)?,
        holes: plan.holes.clone(),
        excluded,
    })
}

fn marker_text(marker: &OwnershipMarker) -> String {
    match &marker.env {
        Some(env) => format!("stack \"{}\" env \"{env}\"", marker.stack),
        None => format!("stack \"{}\"", marker.stack),
    }
}

fn project_text(project: &ProjectMarker) -> String {
    format!("stack \"{}\" env \"{}\"", project.stack, project.env)
}

/// For a lexicon without `teardown_owned`: the thin read's marked objects as candidates.
///
/// Runtime children and objects declared entities still reference are excluded; objects
/// with no marker are not teardown material at all. Each unread kind is a hole.
pub fn teardown_plan_from_observation(
    observation: &Observation,
) -> (TeardownPlan, Vec<ExcludedCandidate>) {
    let mut plan = TeardownPlan::default();
    let mut excluded = Vec::new();
    for (name, meta) in &observation.resources {
        let Some(marker) = &meta.marker else {
            continue;
        };
        let exclusion = if let Some(owner) = meta.runtime_owner() {
            Some((
                ExclusionReason::RuntimeChild,
                format!("created at runtime by {owner}, which owns its lifetime"),
            ))
        } else if meta.is_dependency() {
            Some((
                ExclusionReason::Dependency,
                format!("referenced by {}", meta.referenced_by.join(", ")),
            ))
        } else {
            None
        };
        match exclusion {
            Some((reason, detail)) => excluded.push(ExcludedCandidate {
                name: name.clone(),
                entity_type: meta.entity_type.clone(),
                reason,
                detail,
            }),
            None => plan.candidates.push(TeardownCandidate {
                name: name.clone(),
                entity_type: meta.entity_type.clone(),
                physical_id: meta.physical_id.clone(),
                marker: marker.clone(),
                depends_on: Vec::new(),
                queried: observation.queried.get(name).cloned(),
            }),
        }
    }
    let mut unread: BTreeMap<(String, UnobservedReason), Option<String>> = BTreeMap::new();
    for (name, entry) in &observation.unobserved {
        if observation.resources.contains_key(name) {
            continue;
        }
        let kind = entry.entity_type.clone().unwrap_or_else(|| name.clone());
        unread
            .entry((kind, entry.reason))
            .or_insert_with(|| entry.detail.clone());
    }
    plan.holes = unread
        .into_iter()
        .map(|((kind, reason), detail)| TeardownHole {
            kind,
            reason,
            detail,
        })
        .collect();
    (plan, excluded)
}

/// [`teardown_plan_from_observation`] then [`plan_teardown`], exclusions merged.
pub fn plan_teardown_from_observation(
    observation: &Observation,
    declared: &[String],
    project: &ProjectMarker,
) -> Result<TeardownProposal, DependencyCycle> {
    let (plan, mut excluded) = teardown_plan_from_observation(observation);
    let mut proposal = plan_teardown(&plan, declared, project)?;
    excluded.append(&mut proposal.excluded);
    excluded.sort_by(|a, b| a.name.cmp(&b.name));
    proposal.excluded = excluded;
    Ok(proposal)
}

/// Reverse dependency order: a candidate comes before everything it `depends_on`.
/// Dependencies outside the list and on itself are ignored; among candidates free to go,
/// the input order is kept.
pub fn deletion_order(
    candidates: &[TeardownCandidate],
) -> Result<Vec<TeardownCandidate>, DependencyCycle> {
    let index: BTreeMap<&str, usize> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    let depends: Vec<BTreeSet<usize>> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            c.depends_on
                .iter()
                .filter_map(|d| index.get(d.as_str()).copied())
                .filter(|&j| j != i)
                .collect()
        })
        .collect();
    let mut waiting_on = vec![0usize; candidates.len()];
    for deps in &depends {
        for &j in deps {
            waiting_on[j] += 1;
        }
    }
    let mut ready: BTreeSet<usize> = (0..candidates.len())
        .filter(|&i| waiting_on[i] == 0)
        .collect();
    let mut order = Vec::with_capacity(candidates.len());
    while let Some(i) = ready.pop_first() {
        order.push(i);
        for &j in &depends[i] {
            waiting_on[j] -= 1;
            if waiting_on[j] == 0 {
                ready.insert(j);
            }
        }
    }
    if order.len() < candidates.len() {
        return Err(find_cycle(candidates, &depends, &waiting_on));
    }
    Ok(order.into_iter().map(|i| candidates[i].clone()).collect())
}

/// Every candidate still waiting is depended on by another waiting one, so walking from
/// a candidate to one that depends on it must come back round.
fn find_cycle(
    candidates: &[TeardownCandidate],
    depends: &[BTreeSet<usize>],
    waiting_on: &[usize],
) -> DependencyCycle {
    let stuck = |i: usize| waiting_on[i] > 0;
    let start = (0..candidates.len()).find(|&i| stuck(i)).unwrap_or(0);
    let mut walk = vec![start];
    loop {
        let current = *walk.last().unwrap_or(&start);
        let Some(depender) =
            (0..candidates.len()).find(|&a| stuck(a) && depends[a].contains(&current))
        else {
            break;
        };
        if let Some(at) = walk.iter().position(|&i| i == depender) {
            walk.drain(..at);
            break;
        }
        walk.push(depender);
    }
    // The walk runs dependency → depender; the cycle is reported depender → dependency.
    walk.reverse();
    let first = (0..walk.len())
        .min_by_key(|&k| &candidates[walk[k]].name)
        .unwrap_or(0);
    walk.rotate_left(first);
    DependencyCycle {
        cycle: walk
            .into_iter()
            .map(|i| candidates[i].name.clone())
            .collect(),
    }
}

/// Why a planned candidate will not be deleted after the re-read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnverifiedReason {
    /// Not listed any more, and its kind was listed: already gone.
    Gone,
    /// Not listed, and its kind could not be listed: unknown.
    Unread,
    /// Now carries another project's marker, or none of ours.
    MarkerChanged,
    /// A different object under the same name (another physical id).
    Replaced,
    TypeChanged,
    /// The project declares it again.
    NowDeclared,
    /// Something that depends on it is staying.
    HeldBack,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Unverified {
    pub name: String,
    pub reason: UnverifiedReason,
    pub detail: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeardownVerification {
    /// Still ours, still undeclared, in deletion order.
    pub verified: Vec<String>,
    pub unverified: Vec<Unverified>,
}

impl TeardownVerification {
    /// For `TeardownOutcome::skipped`.
    pub fn skipped(&self) -> Vec<String> {
        self.unverified.iter().map(|u| u.name.clone()).collect()
    }
}

/// Re-check a confirmed proposal against a fresh listing just before deleting.
///
/// A candidate is verified when the fresh listing still has it with this project's
/// marker, the same type and the same physical id, and the project does not declare it.
/// Anything a staying candidate depends on stays too (a candidate that is simply gone
/// holds nothing back). New objects in the fresh listing are never added.
pub fn verify_teardown(
    proposal: &TeardownProposal,
    fresh: &TeardownPlan,
    declared: &[String],
    project: &ProjectMarker,
) -> TeardownVerification {
    let declared: BTreeSet<&str> = declared.iter().map(String::as_str).collect();
    let fresh_by_name: BTreeMap<&str, &TeardownCandidate> = fresh
        .candidates
        .iter()
        .map(|c| (c.name.as_str(), c))
        .collect();
    let mut held: BTreeMap<&str, &str> = BTreeMap::new();
    let mut out = TeardownVerification::default();
    for planned in &proposal.candidates {
        let name = planned.name.as_str();
        let failure = if declared.contains(name) {
            Some((UnverifiedReason::NowDeclared, "declared again".to_owned()))
        } else if let Some(now) = fresh_by_name.get(name) {
            recheck(planned, now, project)
        } else if let Some(hole) = fresh.holes.iter().find(|h| h.kind == planned.entity_type) {
            Some((
                UnverifiedReason::Unread,
                match &hole.detail {
                    Some(d) => format!(
                        "{} could not be re-read: {}: {d}",
                        hole.kind,
                        hole.reason.text()
                    ),
                    None => format!("{} could not be re-read: {}", hole.kind, hole.reason.text()),
                },
            ))
        } else {
            Some((UnverifiedReason::Gone, "no longer listed".to_owned()))
        };
        let failure = failure.or_else(|| {
            held.get(name).map(|by| {
                (
                    UnverifiedReason::HeldBack,
                    format!("{by} depends on it and stays"),
                )
            })
        });
        match failure {
            None => out.verified.push(planned.name.clone()),
            Some((reason, detail)) => {
                if reason != UnverifiedReason::Gone {
                    for dependency in &planned.depends_on {
                        held.entry(dependency.as_str()).or_insert(name);
                    }
                }
                out.unverified.push(Unverified {
                    name: planned.name.clone(),
                    reason,
                    detail,
                });
            }
        }
    }
    out
}

fn recheck(
    planned: &TeardownCandidate,
    now: &TeardownCandidate,
    project: &ProjectMarker,
) -> Option<(UnverifiedReason, String)> {
    if !project.matches(&now.marker) {
        return Some((
            UnverifiedReason::MarkerChanged,
            format!("now marked {}", marker_text(&now.marker)),
        ));
    }
    if now.entity_type != planned.entity_type {
        return Some((
            UnverifiedReason::TypeChanged,
            format!("now a {}", now.entity_type),
        ));
    }
    if let (Some(was), Some(is)) = (&planned.physical_id, &now.physical_id)
        && was != is
    {
        return Some((
            UnverifiedReason::Replaced,
            format!("physical id {was} is now {is}"),
        ));
    }
    None
}

/// The plan handed to `execute_teardown`: only the verified candidates, in order.
pub fn verified_plan(
    proposal: &TeardownProposal,
    verification: &TeardownVerification,
) -> TeardownPlan {
    let verified: BTreeSet<&str> = verification.verified.iter().map(String::as_str).collect();
    TeardownPlan {
        candidates: proposal
            .candidates
            .iter()
            .filter(|c| verified.contains(c.name.as_str()))
            .cloned()
            .collect(),
        holes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::{OwnerChain, ResourceMetadata, UnobservedEntity};

    fn project() -> ProjectMarker {
        ProjectMarker::new("shop", "prod")
    }

    fn ours() -> OwnershipMarker {
        OwnershipMarker {
            stack: "shop".into(),
            env: Some("prod".into()),
        }
    }

    fn candidate(name: &str, depends_on: &[&str]) -> TeardownCandidate {
        TeardownCandidate {
            name: name.into(),
            entity_type: "T".into(),
            physical_id: Some(format!("id-{name}")),
            marker: ours(),
            depends_on: depends_on.iter().map(|d| (*d).to_owned()).collect(),
            queried: None,
        }
    }

    fn plan(candidates: Vec<TeardownCandidate>) -> TeardownPlan {
        TeardownPlan {
            candidates,
            holes: Vec::new(),
        }
    }

    fn names(candidates: &[TeardownCandidate]) -> Vec<&str> {
        candidates.iter().map(|c| c.name.as_str()).collect()
    }

    fn decl(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn only_this_projects_undeclared_objects_are_candidates() {
        let mut sibling = candidate("sibling", &[]);
        sibling.marker.stack = "blog".into();
        let mut other_env = candidate("staging-copy", &[]);
        other_env.marker.env = Some("dev".into());
        let mut env_less = candidate("env-less", &[]);
        env_less.marker.env = None;
        let input = plan(vec![
            candidate("orphan", &[]),
            candidate("web", &[]),
            sibling,
            other_env,
            env_less,
        ]);
        let proposal = plan_teardown(&input, &decl(&["web"]), &project()).unwrap();
        assert_eq!(names(&proposal.candidates), ["orphan", "env-less"]);
        let excluded: Vec<(&str, ExclusionReason)> = proposal
            .excluded
            .iter()
            .map(|e| (e.name.as_str(), e.reason))
            .collect();
        assert_eq!(
            excluded,
            [
                ("sibling", ExclusionReason::ForeignMarker),
                ("staging-copy", ExclusionReason::ForeignMarker),
                ("web", ExclusionReason::Declared),
            ]
        );
        assert_eq!(
            proposal.excluded[0].detail,
            "marked stack \"blog\" env \"prod\", not this project's stack \"shop\" env \"prod\""
        );
    }

    #[test]
    fn holes_pass_through_and_make_the_proposal_incomplete() {
        let mut input = plan(vec![candidate("a", &[])]);
        input.holes.push(TeardownHole {
            kind: "K8s::Batch::CronJob".into(),
            reason: UnobservedReason::ReadFailed,
            detail: Some("403".into()),
        });
        let proposal = plan_teardown(&input, &[], &project()).unwrap();
        assert_eq!(proposal.holes, input.holes);
        assert!(!proposal.is_complete());
    }

    #[test]
    fn a_candidate_is_deleted_before_what_it_depends_on() {
        let input = vec![
            candidate("vpc", &[]),
            candidate("subnet", &["vpc"]),
            candidate("instance", &["subnet", "sg"]),
            candidate("sg", &["vpc"]),
        ];
        let ordered = deletion_order(&input).unwrap();
        assert_eq!(names(&ordered), ["instance", "subnet", "sg", "vpc"]);
    }

    #[test]
    fn independent_candidates_keep_their_input_order() {
        let input = vec![
            candidate("c", &[]),
            candidate("a", &[]),
            candidate("b", &[]),
        ];
        assert_eq!(names(&deletion_order(&input).unwrap()), ["c", "a", "b"]);
    }

    #[test]
    fn dependencies_outside_the_candidates_and_on_oneself_are_ignored() {
        let input = vec![
            candidate("a", &["declared-db", "a"]),
            candidate("b", &["a"]),
        ];
        assert_eq!(names(&deletion_order(&input).unwrap()), ["b", "a"]);
    }

    #[test]
    fn a_dependency_cycle_is_an_error_naming_the_cycle() {
        let input = vec![
            candidate("root", &["a"]),
            candidate("a", &["b"]),
            candidate("b", &["c"]),
            candidate("c", &["a"]),
            candidate("free", &[]),
        ];
        let err = deletion_order(&input).unwrap_err();
        assert_eq!(err.cycle, ["a", "b", "c"]);
        assert_eq!(
            err.to_string(),
            "teardown candidates depend on each other in a cycle: a → b → c → a"
        );
        assert!(plan_teardown(&plan(input), &[], &project()).is_err());
    }

    #[test]
    fn a_name_listed_twice_is_planned_once() {
        let proposal = plan_teardown(
            &plan(vec![candidate("a", &[]), candidate("a", &[])]),
            &[],
            &project(),
        )
        .unwrap();
        assert_eq!(names(&proposal.candidates), ["a"]);
        assert_eq!(proposal.excluded[0].reason, ExclusionReason::Duplicate);
    }

    fn marked(meta: ResourceMetadata, marker: OwnershipMarker) -> ResourceMetadata {
        meta.with_marker(Some(marker))
    }

    #[test]
    fn a_thin_read_yields_marked_objects_and_leaves_runtime_children_and_dependencies_alone() {
        let mut obs = Observation::new();
        obs.present(
            "orphan",
            marked(
                ResourceMetadata::new("T", "OK").with_physical_id("p"),
                ours(),
            ),
        );
        obs.present("unmarked", ResourceMetadata::new("T", "OK"));
        let mut child = marked(ResourceMetadata::new("T", "OK"), ours());
        child.owner_chain = Some(OwnerChain::Declared {
            entity: "web".into(),
        });
        obs.present("web-rs", child);
        let mut dep = marked(ResourceMetadata::new("T", "OK"), ours());
        dep.referenced_by = vec!["api".into()];
        obs.present("shared-sg", dep);
        obs.queried("orphan", "/x/orphan");
        let (thin, excluded) = teardown_plan_from_observation(&obs);
        assert_eq!(names(&thin.candidates), ["orphan"]);
        assert_eq!(thin.candidates[0].physical_id.as_deref(), Some("p"));
        assert_eq!(thin.candidates[0].queried.as_deref(), Some("/x/orphan"));
        let reasons: Vec<(&str, ExclusionReason)> = excluded
            .iter()
            .map(|e| (e.name.as_str(), e.reason))
            .collect();
        assert_eq!(
            reasons,
            [
                ("shared-sg", ExclusionReason::Dependency),
                ("web-rs", ExclusionReason::RuntimeChild)
            ]
        );
    }

    #[test]
    fn a_thin_read_hole_becomes_a_teardown_hole_per_kind() {
        let mut obs = Observation::new();
        for name in ["a", "b"] {
            obs.unobserved(
                name,
                UnobservedEntity::new(UnobservedReason::NoCredentials)
                    .typed("K8s::Core::Secret")
                    .detail("forbidden"),
            );
        }
        let (thin, _) = teardown_plan_from_observation(&obs);
        assert_eq!(
            thin.holes,
            vec![TeardownHole {
                kind: "K8s::Core::Secret".into(),
                reason: UnobservedReason::NoCredentials,
                detail: Some("forbidden".into()),
            }]
        );
    }

    #[test]
    fn planning_from_a_thin_read_merges_every_exclusion() {
        let mut obs = Observation::new();
        obs.present("web", marked(ResourceMetadata::new("T", "OK"), ours()));
        obs.present("old", marked(ResourceMetadata::new("T", "OK"), ours()));
        let mut child = marked(ResourceMetadata::new("T", "OK"), ours());
        child.owner_chain = Some(OwnerChain::Declared {
            entity: "web".into(),
        });
        obs.present("web-rs", child);
        let proposal = plan_teardown_from_observation(&obs, &decl(&["web"]), &project()).unwrap();
        assert_eq!(names(&proposal.candidates), ["old"]);
        let excluded: Vec<&str> = proposal.excluded.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(excluded, ["web", "web-rs"]);
    }

    fn proposal_of(candidates: Vec<TeardownCandidate>) -> TeardownProposal {
        plan_teardown(&plan(candidates), &[], &project()).unwrap()
    }

    #[test]
    fn a_candidate_still_listed_unchanged_is_verified() {
        let proposal = proposal_of(vec![candidate("a", &[]), candidate("b", &[])]);
        let fresh = plan(vec![
            candidate("b", &[]),
            candidate("a", &[]),
            candidate("new", &[]),
        ]);
        let v = verify_teardown(&proposal, &fresh, &[], &project());
        assert_eq!(v.verified, ["a", "b"]);
        assert!(v.unverified.is_empty());
        assert_eq!(names(&verified_plan(&proposal, &v).candidates), ["a", "b"]);
    }

    #[test]
    fn a_changed_marker_type_or_physical_id_or_a_new_declaration_fails_verification() {
        let proposal = proposal_of(vec![
            candidate("adopted", &[]),
            candidate("retyped", &[]),
            candidate("replaced", &[]),
            candidate("redeclared", &[]),
        ]);
        let mut adopted = candidate("adopted", &[]);
        adopted.marker.stack = "blog".into();
        let mut retyped = candidate("retyped", &[]);
        retyped.entity_type = "U".into();
        let mut replaced = candidate("replaced", &[]);
        replaced.physical_id = Some("id-new".into());
        let fresh = plan(vec![
            adopted,
            retyped,
            replaced,
            candidate("redeclared", &[]),
        ]);
        let v = verify_teardown(&proposal, &fresh, &decl(&["redeclared"]), &project());
        assert!(v.verified.is_empty());
        let reasons: Vec<UnverifiedReason> = v.unverified.iter().map(|u| u.reason).collect();
        assert_eq!(
            reasons,
            [
                UnverifiedReason::MarkerChanged,
                UnverifiedReason::TypeChanged,
                UnverifiedReason::Replaced,
                UnverifiedReason::NowDeclared
            ]
        );
        assert_eq!(
            v.unverified[2].detail,
            "physical id id-replaced is now id-new"
        );
        assert_eq!(
            v.skipped(),
            ["adopted", "retyped", "replaced", "redeclared"]
        );
    }

    #[test]
    fn a_candidate_missing_from_the_re_read_is_gone_unless_its_kind_was_unread() {
        let proposal = proposal_of(vec![candidate("a", &[])]);
        let gone = verify_teardown(&proposal, &plan(vec![]), &[], &project());
        assert_eq!(gone.unverified[0].reason, UnverifiedReason::Gone);
        let mut unread = plan(vec![]);
        unread.holes.push(TeardownHole {
            kind: "T".into(),
            reason: UnobservedReason::ReadFailed,
            detail: Some("timeout".into()),
        });
        let v = verify_teardown(&proposal, &unread, &[], &project());
        assert_eq!(v.unverified[0].reason, UnverifiedReason::Unread);
        assert_eq!(
            v.unverified[0].detail,
            "T could not be re-read: read failed: timeout"
        );
    }

    #[test]
    fn what_a_staying_candidate_depends_on_stays_too_but_a_gone_one_holds_nothing() {
        let proposal = proposal_of(vec![
            candidate("vpc", &[]),
            candidate("subnet", &["vpc"]),
            candidate("instance", &["subnet"]),
            candidate("bucket", &[]),
            candidate("object", &["bucket"]),
        ]);
        let mut adopted = candidate("instance", &["subnet"]);
        adopted.marker.stack = "blog".into();
        // "object" is already gone; "instance" was adopted by another stack
        let fresh = plan(vec![
            candidate("vpc", &[]),
            candidate("subnet", &["vpc"]),
            adopted,
            candidate("bucket", &[]),
        ]);
        let v = verify_teardown(&proposal, &fresh, &[], &project());
        assert_eq!(v.verified, ["bucket"]);
        let reasons: Vec<(&str, UnverifiedReason)> = v
            .unverified
            .iter()
            .map(|u| (u.name.as_str(), u.reason))
            .collect();
        assert_eq!(
            reasons,
            [
                ("instance", UnverifiedReason::MarkerChanged),
                ("subnet", UnverifiedReason::HeldBack),
                ("vpc", UnverifiedReason::HeldBack),
                ("object", UnverifiedReason::Gone),
            ]
        );
        assert_eq!(v.unverified[1].detail, "instance depends on it and stays");
    }

    #[test]
    fn a_proposal_serializes_in_camel_case() {
        let json = serde_json::to_value(proposal_of(vec![candidate("a", &[])])).unwrap();
        assert_eq!(json["candidates"][0]["physicalId"], "id-a");
        assert_eq!(json["excluded"], serde_json::json!([]));
    }
}
