//! The declared digest: a hash of every declared entity's properties, recorded with each
//! snapshot so `diff` without `--live` can say what the declaration changed since.
//!
//! chant has no build step: the declared entities per lexicon are the build.

use super::canonical::canonical_sha256;
use chant_lexicon::DeclaredEntity;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceDigest {
    #[serde(rename = "type")]
    pub entity_type: String,
    pub lexicon: String,
    pub props_hash: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildDigest {
    /// Keyed by entity name; `<lexicon>/<name>` where two lexicons declare one name.
    pub resources: BTreeMap<String, ResourceDigest>,
    /// Absent only in a digest written before versions were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lexicon_versions: Option<BTreeMap<String, String>>,
}

impl BuildDigest {
    /// The part of the digest that belongs to one lexicon.
    pub fn only(&self, lexicon: &str) -> BuildDigest {
        BuildDigest {
            resources: self
                .resources
                .iter()
                .filter(|(_, r)| r.lexicon == lexicon)
                .map(|(name, r)| (name.clone(), r.clone()))
                .collect(),
            lexicon_versions: self.lexicon_versions.as_ref().map(|versions| {
                versions
                    .iter()
                    .filter(|(lex, _)| lex.as_str() == lexicon)
                    .map(|(lex, v)| (lex.clone(), v.clone()))
                    .collect()
            }),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LexiconVersionChange {
    pub lexicon: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
}

/// Every list sorted by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DigestDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
    pub unchanged: Vec<String>,
    pub lexicon_version_changes: Vec<LexiconVersionChange>,
}

/// Lowercase hex SHA-256 of the canonical JSON of the properties; missing (`null`)
/// properties hash as `{}`.
pub fn hash_props(props: &Value) -> String {
    if props.is_null() {
        canonical_sha256(&Value::Object(Default::default()))
    } else {
        canonical_sha256(props)
    }
}

/// The digest of everything declared, lexicon → entities, with the lexicon versions that
/// read it.
pub fn compute_digest<E: AsRef<[DeclaredEntity]>>(
    declared: &BTreeMap<String, E>,
    lexicon_versions: &BTreeMap<String, String>,
) -> BuildDigest {
    let mut seen = BTreeSet::new();
    let shared: BTreeSet<&str> = declared
        .values()
        .flat_map(|entities| {
            // a name counts once per lexicon, so a name repeated inside one lexicon is not "shared"
            entities
                .as_ref()
                .iter()
                .map(|e| e.name.as_str())
                .collect::<BTreeSet<_>>()
        })
        .filter(|name| !seen.insert(*name))
        .collect();
    let mut resources = BTreeMap::new();
    for (lexicon, entities) in declared {
        for entity in entities.as_ref() {
            let key = if shared.contains(entity.name.as_str()) {
                format!("{lexicon}/{}", entity.name)
            } else {
                entity.name.clone()
            };
            resources.insert(
                key,
                ResourceDigest {
                    entity_type: entity.entity_type.clone(),
                    lexicon: lexicon.clone(),
                    props_hash: hash_props(&entity.props),
                },
            );
        }
    }
    BuildDigest {
        resources,
        lexicon_versions: Some(lexicon_versions.clone()),
    }
}

/// What the declaration changed since the previous digest. With no previous digest,
/// everything is added and no version change is claimed.
pub fn diff_digests(current: &BuildDigest, previous: Option<&BuildDigest>) -> DigestDiff {
    let Some(previous) = previous else {
        return DigestDiff {
            added: current.resources.keys().cloned().collect(),
            ..Default::default()
        };
    };
    let mut diff = DigestDiff::default();
    for (name, now) in &current.resources {
        match previous.resources.get(name) {
            None => diff.added.push(name.clone()),
            Some(then) if then.props_hash != now.props_hash => diff.changed.push(name.clone()),
            Some(_) => diff.unchanged.push(name.clone()),
        }
    }
    diff.removed = previous
        .resources
        .keys()
        .filter(|name| !current.resources.contains_key(*name))
        .cloned()
        .collect();
    diff.lexicon_version_changes = version_changes(
        current.lexicon_versions.as_ref(),
        previous.lexicon_versions.as_ref(),
    );
    diff
}

/// [`diff_digests`] restricted to one lexicon's entities and version.
pub fn diff_lexicon_digests(
    current: &BuildDigest,
    previous: Option<&BuildDigest>,
    lexicon: &str,
) -> DigestDiff {
    let previous = previous.map(|p| p.only(lexicon));
    diff_digests(&current.only(lexicon), previous.as_ref())
}

fn version_changes(
    current: Option<&BTreeMap<String, String>>,
    previous: Option<&BTreeMap<String, String>>,
) -> Vec<LexiconVersionChange> {
    // A digest without versions predates them: it cannot say what changed.
    let (Some(current), Some(previous)) = (current, previous) else {
        return Vec::new();
    };
    let lexicons: BTreeSet<&String> = current.keys().chain(previous.keys()).collect();
    lexicons
        .into_iter()
        .filter(|lex| current.get(*lex) != previous.get(*lex))
        .map(|lex| LexiconVersionChange {
            lexicon: lex.clone(),
            previous: previous.get(lex).cloned(),
            current: current.get(lex).cloned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entity(name: &str, props: Value) -> DeclaredEntity {
        DeclaredEntity::new(name, "K8s::Apps::Deployment", props)
    }

    fn digest(entities: Vec<DeclaredEntity>, versions: &[(&str, &str)]) -> BuildDigest {
        let declared = BTreeMap::from([("k8s".to_owned(), entities)]);
        let versions = versions
            .iter()
            .map(|(l, v)| ((*l).to_owned(), (*v).to_owned()))
            .collect();
        compute_digest(&declared, &versions)
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_props_hash_ignores_key_order() {
        // scenario 25
        assert_eq!(
            hash_props(&json!({"a": 1, "b": {"c": 2, "d": 3}})),
            hash_props(&json!({"b": {"d": 3, "c": 2}, "a": 1}))
        );
        assert_ne!(hash_props(&json!({"a": 1})), hash_props(&json!({"a": 2})));
    }

    #[test]
    fn missing_props_hash_as_an_empty_object() {
        // scenario 25
        assert_eq!(hash_props(&Value::Null), hash_props(&json!({})));
    }

    #[test]
    fn a_digest_records_type_lexicon_hash_and_versions() {
        let d = digest(vec![entity("web", json!({"a": 1}))], &[("k8s", "0.1.0")]);
        assert_eq!(
            d.resources["web"],
            ResourceDigest {
                entity_type: "K8s::Apps::Deployment".into(),
                lexicon: "k8s".into(),
                props_hash: hash_props(&json!({"a": 1})),
            }
        );
        assert_eq!(
            d.lexicon_versions,
            Some(BTreeMap::from([("k8s".to_owned(), "0.1.0".to_owned())]))
        );
        let json = serde_json::to_value(&d).unwrap();
        assert!(json["resources"]["web"]["propsHash"].is_string());
        assert_eq!(json["lexiconVersions"]["k8s"], "0.1.0");
    }

    #[test]
    fn one_name_declared_by_two_lexicons_keeps_both_entries() {
        let declared = BTreeMap::from([
            ("aws".to_owned(), vec![entity("web", json!({}))]),
            (
                "k8s".to_owned(),
                vec![entity("web", json!({})), entity("db", json!({}))],
            ),
        ]);
        let d = compute_digest(&declared, &BTreeMap::new());
        let keys: Vec<&String> = d.resources.keys().collect();
        assert_eq!(keys, ["aws/web", "db", "k8s/web"]);
    }

    #[test]
    fn with_no_previous_digest_everything_is_added() {
        // scenario 25
        let d = digest(vec![entity("b", json!({})), entity("a", json!({}))], &[]);
        let diff = diff_digests(&d, None);
        assert_eq!(diff.added, names(&["a", "b"]));
        assert!(diff.removed.is_empty() && diff.changed.is_empty() && diff.unchanged.is_empty());
        assert!(diff.lexicon_version_changes.is_empty());
    }

    #[test]
    fn digests_diff_into_added_removed_changed_and_unchanged() {
        let previous = digest(
            vec![
                entity("kept", json!({"r": 1})),
                entity("edited", json!({"r": 1})),
                entity("dropped", json!({})),
            ],
            &[("k8s", "1")],
        );
        let current = digest(
            vec![
                entity("kept", json!({"r": 1})),
                entity("edited", json!({"r": 2})),
                entity("new", json!({})),
            ],
            &[("k8s", "1")],
        );
        let diff = diff_digests(&current, Some(&previous));
        assert_eq!(
            diff,
            DigestDiff {
                added: names(&["new"]),
                removed: names(&["dropped"]),
                changed: names(&["edited"]),
                unchanged: names(&["kept"]),
                lexicon_version_changes: vec![],
            }
        );
    }

    #[test]
    fn a_lexicon_version_bump_with_unchanged_resources_is_reported() {
        // scenario 26
        let previous = digest(vec![entity("web", json!({}))], &[("k8s", "0.38.0")]);
        let current = digest(vec![entity("web", json!({}))], &[("k8s", "0.39.0")]);
        let diff = diff_digests(&current, Some(&previous));
        assert_eq!(diff.unchanged, names(&["web"]));
        assert_eq!(
            diff.lexicon_version_changes,
            vec![LexiconVersionChange {
                lexicon: "k8s".into(),
                previous: Some("0.38.0".into()),
                current: Some("0.39.0".into()),
            }]
        );
    }

    #[test]
    fn a_digest_without_versions_claims_no_version_change() {
        // scenario 26
        let mut previous = digest(vec![entity("web", json!({}))], &[]);
        previous.lexicon_versions = None;
        let current = digest(vec![entity("web", json!({}))], &[("k8s", "0.39.0")]);
        assert!(
            diff_digests(&current, Some(&previous))
                .lexicon_version_changes
                .is_empty()
        );
        assert!(
            diff_digests(&previous, Some(&current))
                .lexicon_version_changes
                .is_empty()
        );
    }

    #[test]
    fn version_changes_are_sorted_by_lexicon_and_keep_an_absent_side_absent() {
        // scenario 26
        let previous = digest(vec![], &[("sql", "1"), ("aws", "1")]);
        let current = digest(vec![], &[("k8s", "2"), ("aws", "2")]);
        let changes = diff_digests(&current, Some(&previous)).lexicon_version_changes;
        let lexicons: Vec<&str> = changes.iter().map(|c| c.lexicon.as_str()).collect();
        assert_eq!(lexicons, ["aws", "k8s", "sql"]);
        assert_eq!(changes[1].previous, None);
        assert_eq!(changes[2].current, None);
        let json = serde_json::to_value(&changes[1]).unwrap();
        assert_eq!(json, json!({"lexicon": "k8s", "current": "2"}));
    }

    #[test]
    fn a_per_lexicon_diff_lists_only_that_lexicons_entities_and_version() {
        let declared = BTreeMap::from([
            ("aws".to_owned(), vec![entity("bucket", json!({}))]),
            ("k8s".to_owned(), vec![entity("web", json!({}))]),
        ]);
        let versions = BTreeMap::from([
            ("aws".to_owned(), "2".to_owned()),
            ("k8s".to_owned(), "1".to_owned()),
        ]);
        let old_versions = BTreeMap::from([
            ("aws".to_owned(), "1".to_owned()),
            ("k8s".to_owned(), "1".to_owned()),
        ]);
        let current = compute_digest(&declared, &versions);
        let previous = compute_digest(&declared, &old_versions);
        let k8s = diff_lexicon_digests(&current, Some(&previous), "k8s");
        assert_eq!(k8s.unchanged, names(&["web"]));
        assert!(k8s.lexicon_version_changes.is_empty());
        let aws = diff_lexicon_digests(&current, Some(&previous), "aws");
        assert_eq!(aws.unchanged, names(&["bucket"]));
        assert_eq!(aws.lexicon_version_changes.len(), 1);
    }

    #[test]
    fn a_digest_round_trips_through_json() {
        let d = digest(vec![entity("web", json!({"a": 1}))], &[("k8s", "1")]);
        let text = serde_json::to_string(&d).unwrap();
        assert_eq!(serde_json::from_str::<BuildDigest>(&text).unwrap(), d);
    }
}
