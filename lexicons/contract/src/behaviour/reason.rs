//! Why an entity got no prediction. Derived from [`UnobservedReason`]: the four shared
//! verdicts keep their exact spelling, `no-credentials` is excluded (a prediction is handed
//! no credential, so none can be missing), and the predictor's own reasons are added, one
//! per remedy: set a variable, check an address, pay, or wait.

use crate::reason::UnobservedReason;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BehaviourUnpredictedReason {
    ReadFailed,
    NoBinding,
    UnsupportedKind,
    Filtered,
    /// No variable names an engine, or the engine needs a token that is unset or rejected.
    NoEngine,
    /// A variable named an engine and it did not answer (or answered nonsense).
    EngineUnreachable,
    /// The engine answered and refused: the account has no balance.
    EngineOutOfCredit,
    /// The engine answered and refused: a rate or volume limit is spent.
    EngineOverQuota,
    /// The request carried something that must not leave the process; nothing was sent.
    CredentialInRequest,
}

impl BehaviourUnpredictedReason {
    pub const ALL: [BehaviourUnpredictedReason; 9] = [
        Self::ReadFailed,
        Self::NoBinding,
        Self::UnsupportedKind,
        Self::Filtered,
        Self::NoEngine,
        Self::EngineUnreachable,
        Self::EngineOutOfCredit,
        Self::EngineOverQuota,
        Self::CredentialInRequest,
    ];

    /// The shared verdict this is, when it is one.
    pub fn shared(self) -> Option<UnobservedReason> {
        match self {
            Self::ReadFailed => Some(UnobservedReason::ReadFailed),
            Self::NoBinding => Some(UnobservedReason::NoBinding),
            Self::UnsupportedKind => Some(UnobservedReason::UnsupportedKind),
            Self::Filtered => Some(UnobservedReason::Filtered),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        if let Some(shared) = self.shared() {
            return shared.as_str();
        }
        match self {
            Self::NoEngine => "no-engine",
            Self::EngineUnreachable => "engine-unreachable",
            Self::EngineOutOfCredit => "engine-out-of-credit",
            Self::EngineOverQuota => "engine-over-quota",
            _ => "credential-in-request",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Self::ReadFailed => "the engine was reached and the prediction errored",
            Self::NoBinding => UnobservedReason::NoBinding.text(),
            Self::UnsupportedKind => "the engine has no model for this kind",
            Self::Filtered => UnobservedReason::Filtered.text(),
            Self::NoEngine => "no behaviour engine",
            Self::EngineUnreachable => "the behaviour engine did not answer",
            Self::EngineOutOfCredit => "the behaviour engine's account is out of credit",
            Self::EngineOverQuota => "the behaviour engine's quota is spent",
            Self::CredentialInRequest => "the request carried a credential; nothing was sent",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

impl TryFrom<UnobservedReason> for BehaviourUnpredictedReason {
    /// `no-credentials` has no behaviour counterpart.
    type Error = UnobservedReason;

    fn try_from(reason: UnobservedReason) -> Result<Self, Self::Error> {
        Self::ALL
            .into_iter()
            .find(|r| r.shared() == Some(reason))
            .ok_or(reason)
    }
}

impl fmt::Display for BehaviourUnpredictedReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for BehaviourUnpredictedReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for BehaviourUnpredictedReason {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a behaviour reason")))
    }
}

/// One asked-about entity that got no figure, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnpredictedEntity {
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    pub reason: BehaviourUnpredictedReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl UnpredictedEntity {
    pub fn new(reason: BehaviourUnpredictedReason) -> Self {
        UnpredictedEntity {
            entity_type: None,
            reason,
            detail: None,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_reasons_keep_their_spelling_and_no_credentials_has_no_counterpart() {
        for reason in UnobservedReason::ALL {
            match BehaviourUnpredictedReason::try_from(reason) {
                Ok(behaviour) => assert_eq!(behaviour.as_str(), reason.as_str()),
                Err(_) => assert_eq!(reason, UnobservedReason::NoCredentials),
            }
        }
        assert!(BehaviourUnpredictedReason::parse("no-credentials").is_none());
    }

    #[test]
    fn every_reason_round_trips_through_its_wire_spelling() {
        for reason in BehaviourUnpredictedReason::ALL {
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(
                serde_json::from_str::<BehaviourUnpredictedReason>(&json).unwrap(),
                reason
            );
        }
        assert_eq!(
            serde_json::to_string(&BehaviourUnpredictedReason::EngineOverQuota).unwrap(),
            "\"engine-over-quota\""
        );
    }
}
