//! `metadata.managedFields` → who wrote each field, in the diff's path grammar
//! (`spec.replicas`, `spec.template.spec.containers[#web].image`, `spec.args[0]`).

use serde_json::Value;
use std::collections::BTreeMap;

/// Path → manager. Later entries (more recent writers) win for a path.
pub fn field_owners(object: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for entry in object["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let Some(manager) = entry["manager"].as_str() else {
            continue;
        };
        let mut paths = Vec::new();
        collect(&entry["fieldsV1"], String::new(), &mut paths);
        for path in paths {
            out.insert(path, manager.to_owned());
        }
    }
    out
}

fn collect(node: &Value, prefix: String, out: &mut Vec<String>) {
    let Some(map) = node.as_object() else {
        return;
    };
    let children: Vec<(&String, &Value)> = map.iter().filter(|(k, _)| *k != ".").collect();
    if children.is_empty() {
        if !prefix.is_empty() {
            out.push(prefix);
        }
        return;
    }
    for (key, child) in children {
        let Some(path) = segment(&prefix, key) else {
            continue;
        };
        collect(child, path, out);
    }
}

fn segment(prefix: &str, key: &str) -> Option<String> {
    if let Some(field) = key.strip_prefix("f:") {
        return Some(if prefix.is_empty() {
            field.to_owned()
        } else {
            format!("{prefix}.{field}")
        });
    }
    let element = if let Some(json) = key.strip_prefix("k:") {
        let keyed: Value = serde_json::from_str(json).ok()?;
        let parts: Vec<String> = keyed.as_object()?.values().map(scalar).collect();
        format!("#{}", parts.join("/"))
    } else if let Some(json) = key.strip_prefix("v:") {
        format!("#{}", scalar(&serde_json::from_str(json).ok()?))
    } else if let Some(index) = key.strip_prefix("i:") {
        index.to_owned()
    } else {
        return None;
    };
    Some(format!("{prefix}[{element}]"))
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_sets_become_paths_with_their_manager() {
        let object = json!({"metadata": {"managedFields": [
            {"manager": "chant:shop", "operation": "Apply", "fieldsV1": {
                "f:metadata": {"f:labels": {"f:app": {}}},
                "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
                    "k:{\"name\":\"web\"}": {".": {}, "f:image": {}}}}}}}},
            {"manager": "hpa-controller", "operation": "Update", "fieldsV1": {
                "f:spec": {"f:replicas": {}, "f:args": {"i:0": {}}, "f:finalizers": {"v:\"x\"": {}}}}}
        ]}});
        let owners = field_owners(&object);
        assert_eq!(owners["metadata.labels.app"], "chant:shop");
        assert_eq!(
            owners["spec.template.spec.containers[#web].image"],
            "chant:shop"
        );
        assert_eq!(owners["spec.replicas"], "hpa-controller");
        assert_eq!(owners["spec.args[0]"], "hpa-controller");
        assert_eq!(owners["spec.finalizers[#x]"], "hpa-controller");
    }
}
