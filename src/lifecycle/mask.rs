//! Secret masking by key name (and by the lexicon's structural mask rules) for anything
//! compared, printed, or written to the snapshot branch.
//!
//! [`is_sensitive_key`] is the one definition of "a secret-shaped name": the deep
//! normalization pass uses it too.

use super::deep::path::{child_path, element_pattern, index_path};
use chant_lexicon::observation::Observation;
use chant_lexicon::{
    Counterpart, DeepNode, DeepResourceObservation, NormalizationHooks, ResourceMetadata, Side,
};
use regex::Regex;
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// What a secret value is replaced with.
pub const MASKED: &str = "[REDACTED]";

static SENSITIVE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)password|secret|token|private.?key|credential|connection.?string")
        .expect("the sensitive-key pattern is valid")
});

/// Does this property name hold secret material? `MasterUserPassword`, `ClientSecret`,
/// `private_key`, `ConnectionString` do; `Key`, `KeyName`, `KmsKeyId`, `Value`, `Name`
/// do not.
///
/// Asked of every key of every tree a deep diff reads, so an ASCII key (nearly all of
/// them) is matched by hand; anything else goes through the pattern, whose `(?i)` folds
/// Unicode case as well.
pub fn is_sensitive_key(key: &str) -> bool {
    if !key.is_ascii() {
        return SENSITIVE_KEY.is_match(key);
    }
    let bytes = key.as_bytes();
    (0..bytes.len()).any(|i| {
        let rest = &bytes[i..];
        match bytes[i].to_ascii_lowercase() {
            b'p' => starts(rest, b"password") || joined(rest, b"private", b"key"),
            b's' => starts(rest, b"secret"),
            b't' => starts(rest, b"token"),
            b'c' => starts(rest, b"credential") || joined(rest, b"connection", b"string"),
            _ => false,
        }
    })
}

fn starts(text: &[u8], word: &[u8]) -> bool {
    text.len() >= word.len() && text[..word.len()].eq_ignore_ascii_case(word)
}

/// `first`, at most one character (not a newline), then `second`: the pattern's `.?`.
fn joined(text: &[u8], first: &[u8], second: &[u8]) -> bool {
    if !starts(text, first) {
        return false;
    }
    let rest = &text[first.len()..];
    starts(rest, second)
        || (rest.first().is_some_and(|b| *b != b'\n') && starts(&rest[1..], second))
}

fn masked() -> Value {
    Value::String(MASKED.to_owned())
}

/// Every value under a secret-named key, at any depth, replaced by [`MASKED`]. The
/// key itself stays, so presence is still visible.
pub fn mask_secrets(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(mask_attributes(map)),
        Value::Array(items) => Value::Array(items.iter().map(mask_secrets).collect()),
        other => other.clone(),
    }
}

/// [`mask_secrets`] over a thin read's attribute map.
pub fn mask_attributes(attributes: &Map<String, Value>) -> Map<String, Value> {
    attributes
        .iter()
        .map(|(key, value)| {
            let value = if is_sensitive_key(key) {
                masked()
            } else {
                mask_secrets(value)
            };
            (key.clone(), value)
        })
        .collect()
}

/// A thin reading with its attributes masked; every other field is an identity, not a secret.
pub fn mask_metadata(meta: &ResourceMetadata) -> ResourceMetadata {
    ResourceMetadata {
        attributes: mask_attributes(&meta.attributes),
        ..meta.clone()
    }
}

/// A whole thin observation, masked (what a snapshot stores and a report prints).
pub fn mask_observation(mut observation: Observation) -> Observation {
    for meta in observation.resources.values_mut() {
        mask_in_place(&mut meta.attributes);
    }
    observation
}

/// [`mask_attributes`] without copying what needs no mask.
fn mask_in_place(attributes: &mut Map<String, Value>) {
    for (key, value) in attributes.iter_mut() {
        if is_sensitive_key(key) {
            *value = masked();
        } else {
            mask_value_in_place(value);
        }
    }
}

fn mask_value_in_place(value: &mut Value) {
    match value {
        Value::Object(map) => mask_in_place(map),
        Value::Array(items) => items.iter_mut().for_each(mask_value_in_place),
        _ => {}
    }
}

/// A property tree masked by key name and by the lexicon's structural mask rules
/// (a Kubernetes Secret's `data.*`), with nothing pruned: what a deep snapshot stores.
pub fn mask_tree(tree: &Value, entity_type: &str, hooks: &NormalizationHooks) -> Value {
    let walk = TreeMask { entity_type, hooks };
    walk.children(tree, "", "")
}

/// A deep reading with its property tree masked.
pub fn mask_deep_resource(
    resource: &DeepResourceObservation,
    hooks: &NormalizationHooks,
) -> DeepResourceObservation {
    DeepResourceObservation {
        properties: mask_tree(&resource.properties, &resource.entity_type, hooks),
        ..resource.clone()
    }
}

struct TreeMask<'a> {
    entity_type: &'a str,
    hooks: &'a NormalizationHooks,
}

impl TreeMask<'_> {
    fn children(&self, value: &Value, path: &str, pattern: &str) -> Value {
        match value {
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, child)| {
                        let masked = self.node(
                            child,
                            &child_path(path, key),
                            &child_path(pattern, key),
                            key,
                        );
                        (key.clone(), masked)
                    })
                    .collect(),
            ),
            Value::Array(items) => {
                let element_pattern = element_pattern(pattern);
                Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, child)| {
                            self.node(
                                child,
                                &index_path(path, i),
                                &element_pattern,
                                &i.to_string(),
                            )
                        })
                        .collect(),
                )
            }
            other => other.clone(),
        }
    }

    fn node(&self, value: &Value, path: &str, pattern: &str, key: &str) -> Value {
        let node = DeepNode {
            entity_type: self.entity_type,
            path,
            pattern,
            key,
            value,
            side: Side::Live,
            counterpart: Counterpart::Unknown,
        };
        if is_sensitive_key(key) || self.hooks.masks(&node) {
            masked()
        } else {
            self.children(value, path, pattern)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::deep::TypeMatch;
    use serde_json::json;

    #[test]
    fn secret_shaped_names_are_sensitive_and_key_like_names_are_not() {
        // scenario 30
        for key in [
            "MasterUserPassword",
            "ClientSecret",
            "accessToken",
            "private_key",
            "PrivateKey",
            "credentials",
            "ConnectionString",
            "connection_string",
        ] {
            assert!(is_sensitive_key(key), "{key} should be sensitive");
        }
        for key in ["Key", "KeyName", "KmsKeyId", "Value", "Name", "Tags"] {
            assert!(!is_sensitive_key(key), "{key} should not be sensitive");
        }
    }

    #[test]
    fn the_hand_matcher_answers_as_the_pattern_does() {
        let keys = [
            "MasterUserPassword",
            "ClientSecret",
            "private_key",
            "PrivateKey",
            "private-key",
            "privatekey",
            "private__key",
            "private\nkey",
            "ConnectionString",
            "connection string",
            "connection__string",
            "apiToken",
            "Credentials",
            "Key",
            "KeyName",
            "KmsKeyId",
            "Value",
            "Name",
            "",
            "p",
            "privat",
            "key",
            "PASSWORD",
            "token.",
            "xsecretx",
            "private",
            "connection",
            "stringconnection",
            "keyprivate",
            "ſecret",
            "pässword",
        ];
        for key in keys {
            assert_eq!(
                is_sensitive_key(key),
                SENSITIVE_KEY.is_match(key),
                "{key:?}"
            );
        }
    }

    #[test]
    fn masking_replaces_secret_values_at_any_depth_and_keeps_the_key() {
        let value = json!({
            "Name": "db",
            "Auth": {"Password": {"nested": "x"}, "User": "admin"},
            "List": [{"token": "t"}, "plain"]
        });
        assert_eq!(
            mask_secrets(&value),
            json!({
                "Name": "db",
                "Auth": {"Password": "[REDACTED]", "User": "admin"},
                "List": [{"token": "[REDACTED]"}, "plain"]
            })
        );
    }

    #[test]
    fn metadata_attributes_are_masked_and_identity_fields_kept() {
        let meta = ResourceMetadata::new("AWS::RDS::DBInstance", "available")
            .with_physical_id("db-1")
            .with_attribute("MasterUserPassword", "hunter2")
            .with_attribute("Endpoint", json!({"Address": "db.example"}));
        let masked = mask_metadata(&meta);
        assert_eq!(masked.attributes["MasterUserPassword"], json!("[REDACTED]"));
        assert_eq!(
            masked.attributes["Endpoint"],
            json!({"Address": "db.example"})
        );
        assert_eq!(masked.physical_id.as_deref(), Some("db-1"));
        let mut obs = Observation::new();
        obs.present("db", meta);
        assert_eq!(
            mask_observation(obs).resources["db"].attributes["MasterUserPassword"],
            json!("[REDACTED]")
        );
    }

    #[test]
    fn structural_mask_rules_hide_values_whose_names_are_arbitrary() {
        // `data.*` alone would miss `tls.crt`: a glob segment stops at a dot
        let hooks = NormalizationHooks::default()
            .mask(TypeMatch::of(&["K8s::Core::Secret"]), &["data.*.**"]);
        let tree = json!({"data": {"tls.crt": "AAAA", "api": "BBBB"}, "type": "Opaque"});
        assert_eq!(
            mask_tree(&tree, "K8s::Core::Secret", &hooks),
            json!({"data": {"tls.crt": "[REDACTED]", "api": "[REDACTED]"}, "type": "Opaque"})
        );
        // the rule is typed: a ConfigMap's data is not secret material
        assert_eq!(mask_tree(&tree, "K8s::Core::ConfigMap", &hooks), tree);
    }

    #[test]
    fn a_deep_reading_is_masked_by_name_and_keeps_its_field_owners() {
        let resource = DeepResourceObservation {
            entity_type: "T".into(),
            properties: json!({"spec": {"clientSecret": "s"}}),
            field_owners: [("spec.clientSecret".to_owned(), "me".to_owned())].into(),
            ..Default::default()
        };
        let masked = mask_deep_resource(&resource, &NormalizationHooks::default());
        assert_eq!(
            masked.properties,
            json!({"spec": {"clientSecret": "[REDACTED]"}})
        );
        assert_eq!(masked.field_owners, resource.field_owners);
    }
}
