//! `describe_identity`: SelfSubjectReview (authentication.k8s.io/v1) — the subject the
//! API server maps this credential to — through the same binding the reads use.

use crate::lexicon::{DEFAULT_TIMEOUT, K8sLexicon};
use crate::session::{bind_reason, detail, reason_of};
use chant_lexicon::{Identity, IdentityAnswer, IdentityRequest, UnobservedReason};
use serde_json::json;

pub const REVIEW_PATH: &str = "/apis/authentication.k8s.io/v1/selfsubjectreviews";

pub async fn describe(lexicon: &K8sLexicon, request: &IdentityRequest) -> IdentityAnswer {
    let session = match lexicon
        .session(&request.environment, DEFAULT_TIMEOUT, lexicon.pool(None))
        .await
    {
        Ok(s) => s,
        Err(e) => return IdentityAnswer::unresolved(bind_reason(&e), e.to_string()),
    };
    let binding = &session.binding;
    let review = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"});
    let answer = match binding.cluster.post(REVIEW_PATH, &review).await {
        Ok(answer) => answer,
        Err(e) => {
            let reason = if e.is_not_found() {
                UnobservedReason::ReadFailed
            } else {
                reason_of(&e)
            };
            return IdentityAnswer::unresolved(
                reason,
                detail(&binding.context_note(), &e.to_string()),
            );
        }
    };
    let user = &answer["status"]["userInfo"];
    let Some(username) = user["username"].as_str().filter(|u| !u.is_empty()) else {
        return IdentityAnswer::unresolved(
            UnobservedReason::ReadFailed,
            "the SelfSubjectReview named no user",
        );
    };
    let groups: Vec<&str> = user["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|g| g.as_str())
        .collect();
    let mut identity = username.to_owned();
    if !groups.is_empty() {
        identity.push_str(&format!(" (groups: {})", groups.join(", ")));
    }
    IdentityAnswer::Resolved(Identity {
        identity,
        scope: format!(
            "context {} on {}, namespace {}",
            binding.context.as_deref().unwrap_or("(in-cluster)"),
            binding.server,
            binding.default_namespace
        ),
        source: format!("{}; credential {}", binding.source, binding.credential),
        endpoint: Some(binding.server.clone()),
        target: Some(binding.server.clone()),
    })
}
