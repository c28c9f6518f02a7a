//! Canonical JSON: object keys sorted at every depth, so the same value always has the
//! same bytes (for files on the snapshot branch, and for hashes).
//!
//! Keys sort by Unicode scalar value (Rust's `str` order). That equals UTF-16 code-unit
//! order except between astral characters and U+E000..U+FFFF, which no entity name or
//! property key we read uses.

use serde::Serialize;
use serde_json::{Map, Number, Value};
use sha2::{Digest, Sha256};

/// Largest integer a float represents exactly (2^53).
const EXACT_FLOAT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// The value with every object's keys in sorted order and every integral float written
/// as an integer, so `1.0` and `1` are one value, as they are in JSON's own number model.
pub fn canonicalize(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), canonicalize(v)))
                    .collect::<Map<String, Value>>(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonicalize).collect()),
        Value::Number(n) => Value::Number(canonical_number(n)),
        other => other.clone(),
    }
}

fn canonical_number(n: &Number) -> Number {
    match n.as_f64() {
        Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() <= EXACT_FLOAT_INTEGER => {
            Number::from(f as i64)
        }
        _ => n.clone(),
    }
}

/// Compact canonical JSON: `{"a":1,"b":[2]}`.
pub fn to_canonical_string(value: &Value) -> String {
    serde_json::to_string(&canonicalize(value)).expect("a JSON value always serializes")
}

/// Two-space indented canonical JSON, no trailing newline.
pub fn to_canonical_pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&canonicalize(value)).expect("a JSON value always serializes")
}

/// Two-space indented canonical JSON ending in one newline: the form of every file chant writes.
pub fn to_canonical_file(value: &Value) -> String {
    let mut text = to_canonical_pretty(value);
    text.push('\n');
    text
}

/// Any serializable value as canonical JSON (a map with non-string keys is an error).
pub fn canonical_value<T: Serialize>(value: &T) -> serde_json::Result<Value> {
    serde_json::to_value(value).map(|v| canonicalize(&v))
}

/// Lowercase hex SHA-256 of the compact canonical JSON.
pub fn canonical_sha256(value: &Value) -> String {
    hex::encode(Sha256::digest(to_canonical_string(value).as_bytes()))
}

/// JSON equality: key order never matters, array order does, `1` equals `1.0`, `1` is
/// not `"1"`, `null` is a value.
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => numbers_equal(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

fn numbers_equal(x: &Number, y: &Number) -> bool {
    if x.is_f64() || y.is_f64() {
        x.as_f64() == y.as_f64()
    } else {
        x == y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_at_every_depth() {
        let value: Value =
            serde_json::from_str(r#"{"b":{"z":1,"a":[{"y":2,"x":3}]},"a":null}"#).unwrap();
        assert_eq!(
            to_canonical_string(&value),
            r#"{"a":null,"b":{"a":[{"x":3,"y":2}],"z":1}}"#
        );
    }

    #[test]
    fn the_file_form_is_two_space_indented_with_one_trailing_newline() {
        assert_eq!(
            to_canonical_file(&json!({"b": [1], "a": {}})),
            "{\n  \"a\": {},\n  \"b\": [\n    1\n  ]\n}\n"
        );
    }

    #[test]
    fn an_integral_float_is_the_same_number_as_the_integer() {
        assert_eq!(to_canonical_string(&json!({"n": 1.0})), r#"{"n":1}"#);
        assert_eq!(to_canonical_string(&json!({"n": 1.5})), r#"{"n":1.5}"#);
        assert!(json_equal(&json!(1), &json!(1.0)));
        assert!(!json_equal(&json!(1), &json!("1")));
    }

    #[test]
    fn the_hash_ignores_key_order_and_is_hex_sha256() {
        // scenario 25
        let a = canonical_sha256(&json!({"x": 1, "y": {"b": 2, "a": 1}}));
        let b = canonical_sha256(&json!({"y": {"a": 1, "b": 2}, "x": 1}));
        assert_eq!(a, b);
        assert_eq!(
            canonical_sha256(&json!({})),
            // sha256("{}")
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }

    #[test]
    fn json_equality_ignores_key_order_but_not_array_order_or_null() {
        assert!(json_equal(
            &json!({"a": 1, "b": 2}),
            &json!({"b": 2, "a": 1})
        ));
        assert!(!json_equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!json_equal(&json!({"a": null}), &json!({})));
    }

    #[test]
    fn serializable_types_become_canonical_values() {
        #[derive(Serialize)]
        struct S {
            zeta: u8,
            alpha: u8,
        }
        let v = canonical_value(&S { zeta: 1, alpha: 2 }).unwrap();
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"alpha":2,"zeta":1}"#
        );
    }
}
