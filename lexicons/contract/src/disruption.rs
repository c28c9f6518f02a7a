//! What applying an update costs.

use crate::metadata::AttributeChange;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Disruption {
    InPlace,
    Rolling,
    Replace,
    Destroy,
    /// Where the spec does not say. Any answer outside the vocabulary becomes this.
    #[default]
    #[serde(other)]
    Unknown,
}

impl Disruption {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InPlace => "in-place",
            Self::Rolling => "rolling",
            Self::Replace => "replace",
            Self::Destroy => "destroy",
            Self::Unknown => "unknown",
        }
    }

    /// Parse an answer; anything outside the vocabulary is unknown.
    pub fn parse(text: &str) -> Self {
        match text {
            "in-place" => Self::InPlace,
            "rolling" => Self::Rolling,
            "replace" => Self::Replace,
            "destroy" => Self::Destroy,
            _ => Self::Unknown,
        }
    }

    /// Higher is more disruptive (for folding several field verdicts into one).
    pub fn severity(self) -> u8 {
        match self {
            Self::InPlace => 0,
            Self::Rolling => 1,
            Self::Unknown => 2,
            Self::Replace => 3,
            Self::Destroy => 4,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DisruptionQuery {
    pub name: String,
    pub entity_type: Option<String>,
    pub deltas: Vec<AttributeChange>,
}

#[derive(Clone, Debug)]
pub struct DisruptionRequest {
    pub environment: String,
    pub changes: Vec<DisruptionQuery>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisruptionVerdict {
    pub disruption: Disruption,
    /// The spec fact behind the answer (`createOnlyProperties: BucketName`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub because: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl DisruptionVerdict {
    pub fn new(disruption: Disruption, because: impl Into<String>) -> Self {
        DisruptionVerdict {
            disruption,
            because: Some(because.into()),
            detail: None,
        }
    }
}

/// Fold a lexicon's (partial, possibly failed) answer into a verdict for every query:
/// a name it said nothing about, a failed call, or an absent hook is unknown.
pub fn settle_verdicts(
    queries: &[DisruptionQuery],
    answer: Option<BTreeMap<String, DisruptionVerdict>>,
) -> BTreeMap<String, DisruptionVerdict> {
    let mut answer = answer.unwrap_or_default();
    queries
        .iter()
        .map(|q| (q.name.clone(), answer.remove(&q.name).unwrap_or_default()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_vocabulary_is_unknown() {
        assert_eq!(Disruption::parse("explode"), Disruption::Unknown);
        let v: DisruptionVerdict = serde_json::from_str(r#"{"disruption":"teleport"}"#).unwrap();
        assert_eq!(v.disruption, Disruption::Unknown);
        let q = DisruptionQuery {
            name: "a".into(),
            entity_type: None,
            deltas: vec![],
        };
        assert_eq!(
            settle_verdicts(&[q], None)["a"].disruption,
            Disruption::Unknown
        );
    }
}
