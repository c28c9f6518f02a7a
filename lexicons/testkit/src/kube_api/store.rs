//! The fake cluster's objects, keyed by served resource, namespace and name.

use super::resources::Served;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// `(apiVersion-group, plural, namespace or "", name)`.
type Key = (String, String, String, String);

#[derive(Default)]
pub struct Store {
    objects: BTreeMap<Key, Value>,
    next_version: u64,
}

impl Store {
    /// Insert (or replace) an object of a served kind, stamping the server-written
    /// metadata a real apiserver adds: uid, resourceVersion, creationTimestamp,
    /// generation, and the namespace of a namespaced object that named none.
    pub fn put(&mut self, served: &Served, mut object: Value) -> Value {
        self.next_version += 1;
        let version = self.next_version;
        let meta = object
            .as_object_mut()
            .map(|o| o.entry("metadata").or_insert_with(|| json!({})))
            .and_then(Value::as_object_mut);
        let Some(meta) = meta else {
            return object;
        };
        if served.namespaced {
            meta.entry("namespace").or_insert_with(|| json!("default"));
        } else {
            meta.remove("namespace");
        }
        let name = meta
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let namespace = meta
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        meta.entry("uid")
            .or_insert_with(|| json!(format!("uid-{}-{namespace}-{name}", served.plural)));
        meta.insert("resourceVersion".into(), json!(version.to_string()));
        meta.entry("creationTimestamp")
            .or_insert_with(|| json!("2026-01-01T00:00:00Z"));
        meta.entry("generation").or_insert_with(|| json!(1));
        object["apiVersion"] = json!(served.api_version());
        object["kind"] = json!(served.kind);
        self.objects.insert(
            (served.group.clone(), served.plural.clone(), namespace, name),
            object.clone(),
        );
        object
    }

    pub fn get(&self, served: &Served, namespace: &str, name: &str) -> Option<&Value> {
        self.objects.get(&key(served, namespace, name))
    }

    pub fn remove(&mut self, served: &Served, namespace: &str, name: &str) -> Option<Value> {
        self.objects.remove(&key(served, namespace, name))
    }

    /// Every object of a resource, in one namespace or (with `None`) all of them, in
    /// namespace/name order — the order a continue token indexes into.
    pub fn list(&self, served: &Served, namespace: Option<&str>) -> Vec<&Value> {
        self.objects
            .iter()
            .filter(|((group, plural, ns, _), _)| {
                *group == served.group
                    && *plural == served.plural
                    && namespace.is_none_or(|want| want == ns)
            })
            .map(|(_, v)| v)
            .collect()
    }

    pub fn count(&self) -> usize {
        self.objects.len()
    }

    pub fn resource_version(&self) -> String {
        self.next_version.to_string()
    }
}

fn key(served: &Served, namespace: &str, name: &str) -> Key {
    let ns = if served.namespaced { namespace } else { "" };
    (
        served.group.clone(),
        served.plural.clone(),
        ns.to_owned(),
        name.to_owned(),
    )
}
