//! `export_resources` (a cluster-wide LIST per kind, stripped to the declared shape unless
//! `--verbatim`) and the generator that writes it back as YAML this lexicon reads under
//! the same entity names.

use crate::kinds::{self, KindInfo};
use crate::lexicon::{K8sLexicon, bind_failed};
use crate::naming::{self, Nameable};
use crate::ownership::selector;
use crate::{NAME, describe};
use chant_lexicon::export::{IrResource, TemplateIr};
use chant_lexicon::{
    ExportRequest, ExportedTemplate, GeneratedFile, HookError, HookResult, bounded_concurrently,
};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// What `import --from` reads when no `--type` is given.
pub const DEFAULT_TYPES: [&str; 20] = [
    "K8s::Core::Namespace",
    "K8s::Core::ServiceAccount",
    "K8s::Core::ConfigMap",
    "K8s::Core::Secret",
    "K8s::Core::PersistentVolumeClaim",
    "K8s::Core::Service",
    "K8s::Core::Pod",
    "K8s::Apps::Deployment",
    "K8s::Apps::StatefulSet",
    "K8s::Apps::DaemonSet",
    "K8s::Apps::ReplicaSet",
    "K8s::Batch::Job",
    "K8s::Batch::CronJob",
    "K8s::Networking::Ingress",
    "K8s::Networking::NetworkPolicy",
    "K8s::Rbac::Role",
    "K8s::Rbac::RoleBinding",
    "K8s::Rbac::ClusterRole",
    "K8s::Rbac::ClusterRoleBinding",
    "K8s::Policy::PodDisruptionBudget",
];

/// The generated file, relative to the output directory.
pub const GENERATED_FILE: &str = "k8s/imported.yaml";

pub async fn export(lexicon: &K8sLexicon, request: &ExportRequest) -> HookResult<ExportedTemplate> {
    let types: Vec<String> = match &request.selector.entity_type {
        Some(t) => vec![t.clone()],
        None => DEFAULT_TYPES.iter().map(|t| (*t).to_owned()).collect(),
    };
    let mut infos: Vec<KindInfo> = Vec::new();
    for t in &types {
        let info = kinds::for_entity_type(t)
            .ok_or_else(|| HookError::Failed(format!("k8s: no built-in kind for the type {t}")))?;
        infos.push(info.clone());
    }
    let session = lexicon
        .session(
            &request.environment,
            crate::lexicon::DEFAULT_TIMEOUT,
            lexicon.pool(None),
        )
        .await
        .map_err(|e| bind_failed(&e))?;
    let label_selector = request.owned.then(|| selector(&request.project, false));
    let pool = lexicon.pool(None);
    let lists = bounded_concurrently(infos, pool, |info| {
        let session = &session;
        let label_selector = label_selector.clone();
        async move {
            let result = session
                .binding
                .cluster
                .list(&info.collection_path(None), label_selector.as_deref())
                .await;
            (info, result)
        }
    })
    .await;
    let mut objects = Vec::new();
    for (info, result) in lists {
        match result {
            Ok(items) => objects.extend(items.iter().cloned()),
            Err(e) if e.is_not_found() => {}
            Err(e) => {
                return Err(HookError::Failed(format!(
                    "k8s: cannot list {}: {}",
                    info.plural,
                    crate::session::detail(&session.binding.context_note(), &e.to_string())
                )));
            }
        }
    }
    let objects: Vec<Value> = objects
        .into_iter()
        .filter(|o| !made_by_a_controller(o))
        .filter(|o| {
            !request.owned
                || crate::ownership::marker_of(o).is_some_and(|m| request.project.matches(&m))
        })
        .filter(|o| {
            request.selector.accepts(
                &describe::type_of(o),
                o["metadata"]["name"].as_str().unwrap_or_default(),
            )
        })
        .map(|o| if request.verbatim { o } else { strip(o) })
        .collect();
    let nameables: Vec<Nameable<'_>> = objects.iter().map(Nameable::of).collect();
    let names = naming::assign(&nameables, &BTreeSet::new());
    let resources = objects
        .iter()
        .zip(names)
        .map(|(object, name)| IrResource {
            logical_id: name,
            entity_type: describe::type_of(object),
            properties: object.clone(),
            metadata: Some(json!({
                "originalName": object["metadata"]["name"],
                "namespace": object["metadata"]["namespace"],
            })),
        })
        .collect();
    Ok(ExportedTemplate::new(
        NAME,
        TemplateIr {
            resources,
            ..Default::default()
        },
    ))
}

/// A ReplicaSet of a Deployment, a Pod of a ReplicaSet: runtime, not source.
fn made_by_a_controller(object: &Value) -> bool {
    object["metadata"]["ownerReferences"]
        .as_array()
        .is_some_and(|refs| refs.iter().any(|r| r["controller"] == true))
}

/// Remove what the server wrote, keeping the declared shape.
pub fn strip(mut object: Value) -> Value {
    if let Some(map) = object.as_object_mut() {
        map.remove("status");
    }
    if let Some(meta) = object["metadata"].as_object_mut() {
        for key in [
            "managedFields",
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "selfLink",
            "ownerReferences",
            "finalizers",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
        ] {
            meta.remove(key);
        }
        if let Some(annotations) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            annotations.remove("kubectl.kubernetes.io/last-applied-configuration");
            annotations.remove("deployment.kubernetes.io/revision");
            if annotations.is_empty() {
                meta.remove("annotations");
            }
        }
    }
    object
}

/// One multi-document YAML file, in export order (the order names were assigned in).
pub fn generate(template: &ExportedTemplate) -> HookResult<Vec<GeneratedFile>> {
    let mut content = String::from(
        "# Imported by chant from a live cluster. Review before applying:\n# live configuration may carry secrets.\n",
    );
    for resource in &template.ir().resources {
        let yaml = serde_saphyr::to_string(&resource.properties)
            .map_err(|e| HookError::Failed(format!("k8s: cannot write YAML: {e}")))?;
        content.push_str("---\n");
        content.push_str(&yaml);
        if !yaml.ends_with('\n') {
            content.push('\n');
        }
    }
    Ok(vec![GeneratedFile {
        path: PathBuf::from(GENERATED_FILE),
        content,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_removes_server_fields_and_bookkeeping_annotations() {
        let live = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "a", "namespace": "x", "uid": "u", "resourceVersion": "3",
                "managedFields": [], "creationTimestamp": "t",
                "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}},
            "data": {"k": "v"}, "status": {}});
        assert_eq!(
            strip(live),
            json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "a", "namespace": "x"}, "data": {"k": "v"}})
        );
    }

    #[test]
    fn every_default_type_is_a_built_in_kind() {
        for t in DEFAULT_TYPES {
            assert!(kinds::for_entity_type(t).is_some(), "{t}");
        }
    }

    #[test]
    fn generated_yaml_reads_back_as_the_same_values() {
        let strings = [
            "y",
            "n",
            "Y",
            "N",
            "yes",
            "NO",
            "on",
            "Off",
            "true",
            "False",
            "014",
            "0o7",
            "1_000",
            "0b1",
            "-0b1",
            "null",
            "Null",
            "NULL",
            "~",
            "",
            "1e3",
            "0x1F",
            ".5",
            "+1",
            "08",
            "12:30",
            "-",
            "1.",
            "-.inf",
            ".NaN",
            "<<",
            "2024-01-01",
            "a: b",
            "# c",
            "x\ny",
            " lead",
            "trail ",
        ];
        let values: Vec<Value> = strings
            .iter()
            .map(|s| json!(s))
            .chain([
                json!(12),
                json!(-3),
                json!(1.5),
                json!(true),
                json!(null),
                json!(1e300),
            ])
            .collect();
        for value in values {
            let object = json!({"v": value});
            let text = serde_saphyr::to_string(&object).unwrap();
            let back = crate::yaml::parse_documents(&text)
                .unwrap_or_else(|e| panic!("{value}: {text:?}: {e:?}"));
            assert_eq!(back[0].value, object, "{text:?}");
        }
    }
}
