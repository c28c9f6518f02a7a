//! The observation tri-state and its envelope.

use crate::metadata::ResourceMetadata;
use crate::reason::UnobservedReason;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A declared entity chant could not look at, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnobservedEntity {
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    pub reason: UnobservedReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queried: Option<String>,
}

impl UnobservedEntity {
    pub fn new(reason: UnobservedReason) -> Self {
        UnobservedEntity {
            entity_type: None,
            reason,
            detail: None,
            queried: None,
        }
    }

    pub fn typed(mut self, entity_type: impl Into<String>) -> Self {
        self.entity_type = Some(entity_type.into());
        self
    }

    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    pub fn queried(mut self, address: impl Into<String>) -> Self {
        self.queried = Some(address.into());
        self
    }
}

/// The normalized answer of a thin read.
///
/// A declared name that is a key of `resources` is observed present; a key of
/// `unobserved` is not observed; in neither map it is observed absent — the only
/// verdict that may become a create. `queried` never changes a verdict.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub resources: BTreeMap<String, ResourceMetadata>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unobserved: BTreeMap<String, UnobservedEntity>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub queried: BTreeMap<String, String>,
    /// Qualifications printed once per run, after the answer (e.g. "no marker on this stack").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Observation {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn present(&mut self, name: impl Into<String>, meta: ResourceMetadata) {
        let name = name.into();
        self.unobserved.remove(&name);
        self.resources.insert(name, meta);
    }

    pub fn unobserved(&mut self, name: impl Into<String>, entry: UnobservedEntity) {
        let name = name.into();
        if !self.resources.contains_key(&name) {
            self.unobserved.insert(name, entry);
        }
    }

    pub fn queried(&mut self, name: impl Into<String>, address: impl Into<String>) {
        self.queried.insert(name.into(), address.into());
    }

    pub fn note(&mut self, note: impl Into<String>) {
        let note = note.into();
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// Every named entity not observed, for one reason (a whole-lexicon failure).
    pub fn all_unobserved<'a>(
        entities: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
        reason: UnobservedReason,
        detail: Option<&str>,
    ) -> Self {
        let mut out = Observation::new();
        for (name, entity_type) in entities {
            let mut entry = UnobservedEntity::new(reason);
            entry.entity_type = entity_type.map(str::to_owned);
            entry.detail = detail.map(str::to_owned);
            out.unobserved.insert(name.to_owned(), entry);
        }
        out
    }

    /// Union of several partial reads (one per stack or region): present beats
    /// not-observed beats absent; later `queried` entries win.
    pub fn merge(parts: impl IntoIterator<Item = Observation>) -> Observation {
        let mut out = Observation::new();
        for part in parts {
            out.resources.extend(part.resources);
            out.unobserved.extend(part.unobserved);
            out.queried.extend(part.queried);
            for note in part.notes {
                out.note(note);
            }
        }
        let resources = &out.resources;
        out.unobserved
            .retain(|name, _| !resources.contains_key(name));
        out
    }

    /// The address an entity's read went to: the entry's own, else the map's.
    pub fn queried_for(&self, name: &str) -> Option<&str> {
        self.unobserved
            .get(name)
            .and_then(|e| e.queried.as_deref())
            .or_else(|| self.queried.get(name).map(String::as_str))
    }
}

/// What `describe_resources` may return: the bare map ("everything I was asked about, I
/// looked at") or the envelope, which can name holes.
#[derive(Clone, Debug, PartialEq)]
pub enum DescribeResult {
    Bare(BTreeMap<String, ResourceMetadata>),
    Envelope(Observation),
}

impl DescribeResult {
    pub fn normalize(self) -> Observation {
        match self {
            DescribeResult::Bare(resources) => Observation {
                resources,
                ..Default::default()
            },
            DescribeResult::Envelope(mut obs) => {
                let resources = &obs.resources;
                obs.unobserved
                    .retain(|name, _| !resources.contains_key(name));
                obs
            }
        }
    }
}

impl From<Observation> for DescribeResult {
    fn from(value: Observation) -> Self {
        DescribeResult::Envelope(value)
    }
}

/// `web (K8s::Apps::Deployment) — read failed: HTTP 500 [queried /apis/…]`
pub fn format_unobserved(name: &str, entry: &UnobservedEntity) -> String {
    let mut line = name.to_owned();
    if let Some(t) = &entry.entity_type {
        line.push_str(&format!(" ({t})"));
    }
    line.push_str(" — ");
    line.push_str(entry.reason.text());
    if let Some(d) = &entry.detail {
        line.push_str(": ");
        line.push_str(d);
    }
    if let Some(q) = &entry.queried {
        line.push_str(&format!(" [queried {q}]"));
    }
    line
}

/// How the engine settles a thin read: an answer is normalized; a whole-lexicon failure
/// marks every declared entity `read-failed` (never an empty estate). `Unsupported` and
/// `Refused` are handed back for the caller to report.
pub fn settle_describe(
    result: crate::lexicon::HookResult<DescribeResult>,
    entities: &[crate::declared::DeclaredEntity],
) -> Result<Observation, crate::lexicon::HookError> {
    match result {
        Ok(answer) => Ok(answer.normalize()),
        Err(crate::lexicon::HookError::Failed(message)) => Ok(Observation::all_unobserved(
            entities
                .iter()
                .map(|e| (e.name.as_str(), Some(e.entity_type.as_str()))),
            UnobservedReason::ReadFailed,
            Some(&message),
        )),
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_map_normalizes_to_everything_observed() {
        let mut map = BTreeMap::new();
        map.insert(
            "observation".to_owned(),
            ResourceMetadata::new("T", "READY"),
        );
        let obs = DescribeResult::Bare(map).normalize();
        assert!(obs.resources.contains_key("observation"));
        assert!(obs.unobserved.is_empty());
    }

    #[test]
    fn merge_prefers_present_over_unobserved_and_unions_queried() {
        let mut a = Observation::new();
        a.unobserved("a", UnobservedEntity::new(UnobservedReason::ReadFailed));
        a.unobserved("b", UnobservedEntity::new(UnobservedReason::NoBinding));
        a.queried("a", "q1");
        let mut b = Observation::new();
        b.present("a", ResourceMetadata::new("T", "OK"));
        b.queried("c", "q2");
        let merged = Observation::merge([a, b]);
        assert!(merged.resources.contains_key("a"));
        assert!(!merged.unobserved.contains_key("a"));
        assert_eq!(merged.unobserved["b"].reason, UnobservedReason::NoBinding);
        assert_eq!(merged.queried.len(), 2);
    }

    #[test]
    fn formats_an_unobserved_row() {
        let entry = UnobservedEntity::new(UnobservedReason::ReadFailed)
            .detail("HTTP 500")
            .queried("/apis/apps/v1/namespaces/default/deployments/web");
        assert_eq!(
            format_unobserved("web", &entry),
            "web — read failed: HTTP 500 [queried /apis/apps/v1/namespaces/default/deployments/web]"
        );
        let typed = UnobservedEntity::new(UnobservedReason::UnsupportedKind)
            .typed("K8s::X::Widget")
            .detail("no mapping");
        assert_eq!(
            format_unobserved("widget", &typed),
            "widget (K8s::X::Widget) — no reader for this resource kind: no mapping"
        );
    }

    #[test]
    fn envelope_serializes_without_empty_maps() {
        let mut obs = Observation::new();
        obs.present("a", ResourceMetadata::new("T", "OK"));
        let json = serde_json::to_string(&obs).unwrap();
        assert_eq!(json, r#"{"resources":{"a":{"type":"T","status":"OK"}}}"#);
    }
}
