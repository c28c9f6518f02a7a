//! `whoami`: who chant would act as, and where.

use crate::reason::UnobservedReason;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug)]
pub struct IdentityRequest {
    pub environment: String,
    pub region: Option<String>,
}

/// A principal and its scope — never a token, key, password or certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The principal as the substrate names it (an STS ARN, a `system:serviceaccount:…` subject).
    pub identity: String,
    /// What it is scoped to here (account + region, context + namespace, server + database).
    pub scope: String,
    /// Where the binding came from, in the project's vocabulary.
    pub source: String,
    /// The address the self-query went to — the one the reads use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// The target checked against the environment's `allowed_targets` (an account id, a
    /// cluster server, a database server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum IdentityAnswer {
    Unresolved {
        reason: UnobservedReason,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    #[serde(untagged)]
    Resolved(Identity),
}

impl IdentityAnswer {
    pub fn unresolved(reason: UnobservedReason, detail: impl Into<String>) -> Self {
        IdentityAnswer::Unresolved {
            reason,
            detail: Some(detail.into()),
        }
    }

    /// An empty principal is not an identity: core forces it to unresolved.
    pub fn sanitized(self) -> Self {
        match self {
            IdentityAnswer::Resolved(id) if id.identity.trim().is_empty() => {
                IdentityAnswer::Unresolved {
                    reason: UnobservedReason::ReadFailed,
                    detail: Some("the substrate named no principal".to_owned()),
                }
            }
            other => other,
        }
    }
}
