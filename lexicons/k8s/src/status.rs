//! What a live object's status says, in one word, plus its unhappy conditions and GitOps
//! revisions. Pure functions of the object.

use serde_json::{Map, Value, json};

/// First match wins: a container waiting reason, an unschedulable pod, a phase, ready
/// replicas, a Ready condition, Argo health and sync, else `PRESENT`.
pub fn status_word(object: &Value) -> String {
    let status = &object["status"];
    let waiting = status["containerStatuses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["state"]["waiting"]["reason"].as_str())
        .find(|r| !r.is_empty() && *r != "ContainerCreating" && *r != "PodInitializing");
    if let Some(reason) = waiting {
        return reason.to_owned();
    }
    let conditions = status["conditions"].as_array();
    let condition = |kind: &str| {
        conditions
            .into_iter()
            .flatten()
            .find(|c| c["type"].as_str() == Some(kind))
    };
    if let Some(scheduled) = condition("PodScheduled")
        && scheduled["status"] == "False"
    {
        return scheduled["reason"]
            .as_str()
            .unwrap_or("Unschedulable")
            .to_owned();
    }
    if let Some(phase) = status["phase"].as_str() {
        return phase.to_owned();
    }
    if let Some(replicas) = status["replicas"].as_u64() {
        // A workload with nothing ready omits readyReplicas.
        let ready = status["readyReplicas"].as_u64().unwrap_or(0);
        return if ready == replicas {
            "READY".to_owned()
        } else {
            format!("PROGRESSING({ready}/{replicas})")
        };
    }
    if let Some(ready) = condition("Ready") {
        return match ready["status"].as_str() {
            Some("True") => "READY".to_owned(),
            _ => ready["reason"].as_str().unwrap_or("NOT-READY").to_owned(),
        };
    }
    if let Some(health) = status["health"]["status"].as_str() {
        if health != "Healthy" {
            return health.to_owned();
        }
        if let Some(sync) = status["sync"]["status"].as_str()
            && sync != "Synced"
        {
            return sync.to_owned();
        }
        return "READY".to_owned();
    }
    "PRESENT".to_owned()
}

/// Conditions that say something is wrong, as `Type[=Reason][: message]`. A condition is
/// happy when `True`, except pressure-like types, which are happy when `False`.
pub fn unhappy_conditions(object: &Value) -> Vec<String> {
    object["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let kind = c["type"].as_str()?;
            let message = c["message"].as_str().filter(|m| !m.is_empty());
            let happy = match c["status"].as_str() {
                Some(s) if inverted(kind) => s == "False",
                Some(s) => s == "True",
                None => message.is_none(),
            };
            if happy {
                return None;
            }
            let mut line = kind.to_owned();
            if let Some(reason) = c["reason"].as_str().filter(|r| !r.is_empty()) {
                line.push('=');
                line.push_str(reason);
            }
            if let Some(message) = message {
                line.push_str(": ");
                line.push_str(message);
            }
            Some(line)
        })
        .collect()
}

fn inverted(kind: &str) -> bool {
    let lower = kind.to_ascii_lowercase();
    lower.ends_with("pressure")
        || lower == "networkunavailable"
        || lower == "unschedulable"
        || lower.contains("failed")
}

/// `namespace`, `labels`, `resourceVersion`, unhappy `conditions`, GitOps revisions and a
/// Flux HelmRepository's `type`.
pub fn attributes(object: &Value) -> Map<String, Value> {
    let meta = &object["metadata"];
    let status = &object["status"];
    let mut out = Map::new();
    let mut put = |key: &str, value: &Value| {
        if !value.is_null() {
            out.insert(key.to_owned(), value.clone());
        }
    };
    put("namespace", &meta["namespace"]);
    put("labels", &meta["labels"]);
    put("resourceVersion", &meta["resourceVersion"]);
    let conditions = unhappy_conditions(object);
    if !conditions.is_empty() {
        put("conditions", &json!(conditions));
    }
    let nonempty = |v: &Value| v.as_str().filter(|s| !s.is_empty()).map(|s| json!(s));
    for (key, value) in [
        ("lastAppliedRevision", &status["lastAppliedRevision"]),
        ("lastAttemptedRevision", &status["lastAttemptedRevision"]),
        ("artifactRevision", &status["artifact"]["revision"]),
    ] {
        if let Some(v) = nonempty(value) {
            put(key, &v);
        }
    }
    let is_helm_repository = object["kind"] == "HelmRepository"
        && object["apiVersion"]
            .as_str()
            .is_some_and(|v| v.starts_with("source.toolkit.fluxcd.io/"));
    if is_helm_repository {
        put("type", &object["spec"]["type"]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_words_in_order() {
        let crash = json!({"status": {"phase": "Running", "containerStatuses": [
            {"state": {"waiting": {"reason": "ContainerCreating"}}},
            {"state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}});
        assert_eq!(status_word(&crash), "CrashLoopBackOff");
        let pending = json!({"status": {"phase": "Pending", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}});
        assert_eq!(status_word(&pending), "Unschedulable");
        assert_eq!(
            status_word(&json!({"status": {"phase": "Active"}})),
            "Active"
        );
        assert_eq!(
            status_word(&json!({"status": {"replicas": 3, "readyReplicas": 1}})),
            "PROGRESSING(1/3)"
        );
        assert_eq!(
            status_word(&json!({"status": {"replicas": 2}})),
            "PROGRESSING(0/2)"
        );
        assert_eq!(
            status_word(&json!({"status": {"replicas": 2, "readyReplicas": 2}})),
            "READY"
        );
        let not_ready = json!({"status": {"conditions": [
            {"type": "Ready", "status": "False", "reason": "ArtifactFailed"}]}});
        assert_eq!(status_word(&not_ready), "ArtifactFailed");
        let argo =
            json!({"status": {"health": {"status": "Healthy"}, "sync": {"status": "OutOfSync"}}});
        assert_eq!(status_word(&argo), "OutOfSync");
        assert_eq!(status_word(&json!({"data": {}})), "PRESENT");
    }

    #[test]
    fn only_unhappy_conditions_are_reported() {
        let node = json!({"status": {"conditions": [
            {"type": "Ready", "status": "True"},
            {"type": "MemoryPressure", "status": "False"},
            {"type": "DiskPressure", "status": "True", "reason": "Full", "message": "disk"},
            {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"},
            {"type": "Note"},
            {"type": "Odd", "message": "something"}]}});
        assert_eq!(
            unhappy_conditions(&node),
            [
                "DiskPressure=Full: disk",
                "Available=MinimumReplicasUnavailable",
                "Odd: something"
            ]
        );
    }

    #[test]
    fn attributes_carry_revisions_and_helm_repository_type() {
        let repo = json!({"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "HelmRepository",
            "metadata": {"namespace": "flux", "resourceVersion": "7"},
            "spec": {"type": "oci"},
            "status": {"artifact": {"revision": "sha256:abc"}, "lastAppliedRevision": ""}});
        let attrs = attributes(&repo);
        assert_eq!(attrs["type"], "oci");
        assert_eq!(attrs["artifactRevision"], "sha256:abc");
        assert!(!attrs.contains_key("lastAppliedRevision"));
        assert_eq!(attrs["namespace"], "flux");
    }
}
