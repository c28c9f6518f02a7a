//! `describe_stack_status`: one deploy unit by its stack label, across workload kinds.

use crate::kinds::builtin_at;
use crate::lexicon::{DEFAULT_TIMEOUT, K8sLexicon};
use chant_lexicon::ownership::LABEL_OWNERSHIP_KEYS;
use chant_lexicon::{StackStatus, StackStatusRequest, bounded_concurrently};
use serde_json::Value;

const KINDS: [(&str, &str); 13] = [
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "DaemonSet"),
    ("v1", "Service"),
    ("v1", "ConfigMap"),
    ("v1", "Secret"),
    ("v1", "ServiceAccount"),
    ("v1", "Namespace"),
    ("networking.k8s.io/v1", "Ingress"),
    ("policy/v1", "PodDisruptionBudget"),
    ("autoscaling/v2", "HorizontalPodAutoscaler"),
    ("batch/v1", "CronJob"),
    ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
];

/// `None` when nothing could be listed; `present: false` when every list answered empty.
pub async fn describe(lexicon: &K8sLexicon, request: &StackStatusRequest) -> Option<StackStatus> {
    let session = lexicon
        .session(&request.environment, DEFAULT_TIMEOUT, lexicon.pool(None))
        .await
        .ok()?;
    let selector = format!(
        "{}=chant,{}={}",
        LABEL_OWNERSHIP_KEYS.managed_by, LABEL_OWNERSHIP_KEYS.stack, request.stack
    );
    let infos: Vec<_> = KINDS
        .iter()
        .filter_map(|(v, k)| builtin_at(v, k).cloned())
        .collect();
    let results = bounded_concurrently(infos, lexicon.pool(None), |info| {
        let session = &session;
        let selector = &selector;
        async move {
            session
                .binding
                .cluster
                .list(&info.collection_path(None), Some(selector))
                .await
        }
    })
    .await;
    if results.iter().all(Result::is_err) {
        return None;
    }
    let objects: Vec<Value> = results
        .into_iter()
        .flatten()
        .flat_map(|items| items.iter().cloned().collect::<Vec<_>>())
        .collect();
    Some(summarize(&request.stack, &objects))
}

pub fn summarize(stack: &str, objects: &[Value]) -> StackStatus {
    if objects.is_empty() {
        return StackStatus {
            stack: stack.to_owned(),
            present: false,
            status: None,
            healthy: None,
        };
    }
    let verdicts: Vec<bool> = objects.iter().filter_map(workload_ready).collect();
    let status = if verdicts.is_empty() {
        format!("{} objects present", objects.len())
    } else {
        format!(
            "{}/{} workloads ready",
            verdicts.iter().filter(|r| **r).count(),
            verdicts.len()
        )
    };
    StackStatus {
        stack: stack.to_owned(),
        present: true,
        status: Some(status),
        healthy: Some(verdicts.iter().all(|r| *r)),
    }
}

fn workload_ready(object: &Value) -> Option<bool> {
    let status = &object["status"];
    if let Some(replicas) = status["replicas"]
        .as_u64()
        .or_else(|| object["spec"]["replicas"].as_u64())
    {
        return Some(status["readyReplicas"].as_u64().unwrap_or(0) >= replicas);
    }
    let desired = status["desiredNumberScheduled"].as_u64()?;
    Some(status["numberReady"].as_u64().unwrap_or(0) >= desired)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summarizes_workload_readiness() {
        let ready = json!({"kind": "Deployment", "status": {"replicas": 2, "readyReplicas": 2}});
        let behind =
            json!({"kind": "DaemonSet", "status": {"desiredNumberScheduled": 3, "numberReady": 1}});
        let cm = json!({"kind": "ConfigMap"});
        let s = summarize("shop", &[ready.clone(), behind, cm.clone()]);
        assert_eq!(s.status.as_deref(), Some("1/2 workloads ready"));
        assert_eq!(s.healthy, Some(false));
        let s = summarize("shop", &[cm]);
        assert_eq!(s.status.as_deref(), Some("1 objects present"));
        assert_eq!(s.healthy, Some(true));
        assert!(!summarize("shop", &[]).present);
    }
}
