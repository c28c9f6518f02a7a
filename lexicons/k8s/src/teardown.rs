//! `teardown_owned` (read-only: owned-and-undeclared objects found by label selector per
//! kind, and holes for kinds that cannot be listed) and `execute_teardown` (a re-read
//! that the marker is still ours, a server-side dry run of every delete, then deletes in
//! reverse dependency order with `propagationPolicy=Foreground`).

use crate::describe::type_of;
use crate::export::DEFAULT_TYPES;
use crate::kinds::{self, KindInfo};
use crate::lexicon::{DEFAULT_TIMEOUT, K8sLexicon, bind_failed};
use crate::naming::{self, Nameable};
use crate::ownership::{marker_of, selector};
use crate::session::{Session, detail, reason_of};
use chant_lexicon::teardown::TeardownFailure;
use chant_lexicon::{
    HookError, HookResult, Lexicon, TeardownCandidate, TeardownHole, TeardownOutcome, TeardownPlan,
    TeardownRequest, bounded_concurrently,
};
use serde_json::Value;
use std::collections::BTreeSet;

/// Deletion order: higher deletes later (the things others depend on).
fn rank(kind: &str) -> u8 {
    match kind {
        "CustomResourceDefinition" => 9,
        "Namespace" => 8,
        "ClusterRole" | "Role" | "StorageClass" | "PriorityClass" => 6,
        "ServiceAccount" | "ClusterRoleBinding" | "RoleBinding" => 5,
        "ConfigMap" | "Secret" | "PersistentVolumeClaim" | "PersistentVolume" => 4,
        "Service" => 3,
        "Deployment" | "StatefulSet" | "DaemonSet" | "CronJob" | "Job" | "ReplicaSet" | "Pod" => 1,
        _ => 2,
    }
}

pub async fn plan(lexicon: &K8sLexicon, request: &TeardownRequest) -> HookResult<TeardownPlan> {
    let session = lexicon
        .session(&request.environment, DEFAULT_TIMEOUT, lexicon.pool(None))
        .await
        .map_err(|e| bind_failed(&e))?;
    let declared = lexicon
        .declared()
        .await
        .map_err(|d| HookError::Failed(d.to_string()))?;
    let mut kinds: Vec<KindInfo> = Vec::new();
    let mut declared_objects = BTreeSet::new();
    for entity in declared
        .iter()
        .filter(|e| request.declared.contains(&e.name))
    {
        if let Ok(target) = session.target(entity, None).await {
            declared_objects.insert(identity(
                &target.info.group,
                &target.info.kind,
                target.namespace.as_deref(),
                &target.name,
            ));
            if !kinds.contains(&target.info) {
                kinds.push(target.info);
            }
        }
    }
    for t in DEFAULT_TYPES {
        if let Some(info) = kinds::for_entity_type(t)
            && !kinds
                .iter()
                .any(|k| k.group == info.group && k.kind == info.kind)
        {
            kinds.push(info.clone());
        }
    }
    let label_selector = selector(&request.project, false);
    let lists = bounded_concurrently(kinds, lexicon.pool(None), |info| {
        let session = &session;
        let label_selector = &label_selector;
        async move {
            let result = session
                .binding
                .cluster
                .list(&info.collection_path(None), Some(label_selector))
                .await;
            (info, result)
        }
    })
    .await;
    let mut found = Vec::new();
    let mut holes = Vec::new();
    for (info, result) in lists {
        match result {
            Ok(items) => found.extend(items.iter().map(|o| (info.clone(), o.clone()))),
            Err(e) if e.is_not_found() => {}
            Err(e) => holes.push(TeardownHole {
                kind: info.entity_type(),
                reason: reason_of(&e),
                detail: Some(detail(&session.binding.context_note(), &e.to_string())),
            }),
        }
    }
    let found: Vec<(KindInfo, Value, chant_lexicon::OwnershipMarker)> = found
        .into_iter()
        .filter_map(|(info, o)| {
            let marker = marker_of(&o)?;
            request
                .project
                .matches(&marker)
                .then_some((info, o, marker))
        })
        .filter(|(info, o, _)| {
            let meta = &o["metadata"];
            !declared_objects.contains(&identity(
                &info.group,
                &info.kind,
                meta["namespace"].as_str(),
                meta["name"].as_str().unwrap_or_default(),
            ))
        })
        .collect();
    let nameables: Vec<Nameable<'_>> = found.iter().map(|(_, o, _)| Nameable::of(o)).collect();
    let taken: BTreeSet<String> = request.declared.iter().cloned().collect();
    let names = naming::assign(&nameables, &taken);
    let mut candidates: Vec<(u8, TeardownCandidate, Option<String>, String)> = found
        .iter()
        .zip(names)
        .map(|((info, o, marker), name)| {
            let namespace = o["metadata"]["namespace"].as_str().map(str::to_owned);
            let candidate = TeardownCandidate {
                name,
                entity_type: type_of(o),
                physical_id: o["metadata"]["uid"].as_str().map(str::to_owned),
                marker: marker.clone(),
                depends_on: Vec::new(),
                queried: Some(info.object_path(
                    namespace.as_deref(),
                    o["metadata"]["name"].as_str().unwrap_or_default(),
                )),
            };
            (rank(&info.kind), candidate, namespace, info.kind.clone())
        })
        .collect();
    candidates.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
    let snapshot: Vec<(u8, String, Option<String>, String, String)> = candidates
        .iter()
        .map(|(r, c, ns, kind)| (*r, c.name.clone(), ns.clone(), kind.clone(), object_name(c)))
        .collect();
    for (rank_a, candidate, namespace, _) in &mut candidates {
        candidate.depends_on = snapshot
            .iter()
            .filter(|(rank_b, name, ns_b, kind_b, object)| {
                *rank_b > *rank_a
                    && *name != candidate.name
                    && (ns_b == namespace
                        || (kind_b == "Namespace" && namespace.as_deref() == Some(object.as_str()))
                        || ns_b.is_none())
            })
            .map(|(_, name, ..)| name.clone())
            .collect();
    }
    Ok(TeardownPlan {
        candidates: candidates.into_iter().map(|(_, c, ..)| c).collect(),
        holes,
    })
}

fn object_name(candidate: &TeardownCandidate) -> String {
    candidate
        .queried
        .as_deref()
        .and_then(|q| q.rsplit('/').next())
        .unwrap_or_default()
        .to_owned()
}

fn identity(group: &str, kind: &str, namespace: Option<&str>, name: &str) -> String {
    format!("{group}/{kind}/{}/{name}", namespace.unwrap_or(""))
}

pub async fn execute(
    lexicon: &K8sLexicon,
    request: &TeardownRequest,
    plan: &TeardownPlan,
) -> HookResult<TeardownOutcome> {
    let session = lexicon
        .session(&request.environment, DEFAULT_TIMEOUT, lexicon.pool(None))
        .await
        .map_err(|e| bind_failed(&e))?;
    guard_target(lexicon, &request.environment, &session)?;
    let mut outcome = TeardownOutcome::default();
    let mut verified = Vec::new();
    for candidate in &plan.candidates {
        let Some(path) = &candidate.queried else {
            outcome.skipped.push(candidate.name.clone());
            continue;
        };
        match session.binding.cluster.get(path).await {
            Ok(live) if marker_of(&live).is_some_and(|m| request.project.matches(&m)) => {
                match session
                    .binding
                    .cluster
                    .delete(path, true, "Foreground")
                    .await
                {
                    Ok(_) => verified.push((candidate, path)),
                    Err(e) => outcome.failed.push(TeardownFailure {
                        name: candidate.name.clone(),
                        detail: format!("the server-side dry run refused the delete: {e}"),
                    }),
                }
            }
            Ok(_) => outcome.skipped.push(candidate.name.clone()),
            Err(e) if e.is_not_found() => outcome.skipped.push(candidate.name.clone()),
            Err(e) => outcome.failed.push(TeardownFailure {
                name: candidate.name.clone(),
                detail: e.to_string(),
            }),
        }
    }
    for (candidate, path) in verified {
        match session
            .binding
            .cluster
            .delete(path, false, "Foreground")
            .await
        {
            Ok(_) => outcome.deleted.push(candidate.name.clone()),
            Err(e) if e.is_not_found() => outcome.deleted.push(candidate.name.clone()),
            Err(e) => outcome.failed.push(TeardownFailure {
                name: candidate.name.clone(),
                detail: e.to_string(),
            }),
        }
    }
    Ok(outcome)
}

/// `allowed_targets` names servers (by URL) or context names; anything else is refused.
fn guard_target(lexicon: &K8sLexicon, environment: &str, session: &Session) -> HookResult<()> {
    let Some(allowed) = lexicon.allowed_targets(environment) else {
        return Ok(());
    };
    let binding = &session.binding;
    let server = binding.server.trim_end_matches('/');
    let ok = allowed.iter().any(|a| {
        a.trim_end_matches('/') == server || binding.context.as_deref() == Some(a.as_str())
    });
    if ok {
        return Ok(());
    }
    Err(HookError::Refused(format!(
        "k8s: environment \"{environment}\" resolves to {server} (context {}), which is not in its allowed_targets ({})",
        binding.context.as_deref().unwrap_or("(none)"),
        allowed.join(", ")
    )))
}
