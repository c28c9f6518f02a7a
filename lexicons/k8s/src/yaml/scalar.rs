//! What a scalar means, as kubectl reads it. Kubernetes turns YAML into JSON with
//! sigs.k8s.io/yaml, whose resolution is go-yaml v2's YAML 1.1 one: `yes`/`no`/`on`/`off`
//! (and `y`/`n`) are booleans, `Null` and `~` are null, `0`-prefixed integers are octal,
//! `0b` binary, `_` separates digits. chant reads declared manifests the same way, so a
//! value means in a plan what it will mean when it is applied.
//!
//! Timestamps stay strings (the API server's own fields carry them as strings).

use serde_json::{Number, Value};

/// The resolved value of a plain, untagged scalar.
pub fn plain(text: &str) -> Result<Value, String> {
    if let Some(value) = keyword(text) {
        return value;
    }
    match text.as_bytes().first() {
        Some(b'0'..=b'9' | b'+' | b'-') => Ok(number(text).unwrap_or_else(|| string(text))),
        Some(b'.') => Ok(float(text).map_or_else(|| string(text), Value::Number)),
        _ => Ok(string(text)),
    }
}

/// A scalar with a `tag:yaml.org,2002:` tag (`!!int`, `!!str`, …). The tag says what the
/// text must be; text that is not that is an error, as it is for kubectl.
pub fn tagged(text: &str, suffix: &str) -> Result<Value, String> {
    let wrong = || format!("`{text}` is not a valid !!{suffix}");
    match suffix {
        "str" | "binary" | "timestamp" => Ok(string(text)),
        "null" => match keyword(text) {
            Some(Ok(Value::Null)) => Ok(Value::Null),
            _ => Err(wrong()),
        },
        "bool" => match keyword(text) {
            Some(Ok(value @ Value::Bool(_))) => Ok(value),
            _ => Err(wrong()),
        },
        "int" => match number(text) {
            Some(value) if !value.is_f64() => Ok(value),
            _ => Err(wrong()),
        },
        "float" => match number(text).and_then(|n| n.as_f64()) {
            Some(f) => Number::from_f64(f).map(Value::Number).ok_or_else(wrong),
            None => Err(wrong()),
        },
        // `!!map` / `!!seq` on a scalar, or a tag of another schema: read it as untagged.
        _ => plain(text),
    }
}

fn string(text: &str) -> Value {
    Value::String(text.to_owned())
}

/// The words go-yaml v2 resolves by lookup. Non-finite floats have no JSON form.
fn keyword(text: &str) -> Option<Result<Value, String>> {
    let value = match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Value::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF"
        | "-.inf" | "-.Inf" | "-.INF" => {
            return Some(Err(format!(
                "`{text}` is not a finite number, and JSON (what Kubernetes stores) has no other kind"
            )));
        }
        _ => return None,
    };
    Some(Ok(value))
}

/// An integer (with go's base prefixes, `_` removed) or, failing that, a decimal float.
fn number(text: &str) -> Option<Value> {
    let digits: String = text.chars().filter(|c| *c != '_').collect();
    if let Some(n) = integer(&digits) {
        return Some(Value::Number(n));
    }
    if is_decimal_float(&digits) {
        return float(&digits).map(Value::Number);
    }
    None
}

/// go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint`: `0x`, `0o`, `0b` and a leading
/// `0` (octal) choose the base.
fn integer(text: &str) -> Option<Number> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let lower = unsigned.get(..2).map(str::to_ascii_lowercase);
    let (radix, body) = match lower.as_deref() {
        Some("0x") => (16, &unsigned[2..]),
        Some("0o") => (8, &unsigned[2..]),
        Some("0b") => (2, &unsigned[2..]),
        _ if unsigned.len() > 1 && unsigned.starts_with('0') => (8, &unsigned[1..]),
        _ => (10, unsigned),
    };
    if body.is_empty() || !body.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(body, radix).ok()?;
    if !negative {
        return Some(Number::from(magnitude));
    }
    if magnitude <= i64::MAX as u64 + 1 {
        return Some(Number::from((magnitude as i64).wrapping_neg()));
    }
    None
}

/// go-yaml v2's float pattern: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_decimal_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
    let digits = |i: &mut usize| {
        let start = *i;
        while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if bytes.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == bytes.len()
}

fn float(text: &str) -> Option<Number> {
    text.parse::<f64>().ok().and_then(Number::from_f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_scalars_resolve_as_kubectl_reads_them() {
        let cases = [
            ("yes", json!(true)),
            ("Off", json!(false)),
            ("y", json!(true)),
            ("N", json!(false)),
            ("True", json!(true)),
            ("NULL", Value::Null),
            ("~", Value::Null),
            ("", Value::Null),
            ("12", json!(12)),
            ("+12", json!(12)),
            ("-12", json!(-12)),
            ("014", json!(12)),
            ("0o14", json!(12)),
            ("0x1F", json!(31)),
            ("-0x1F", json!(-31)),
            ("0b101", json!(5)),
            ("1_000", json!(1000)),
            ("08", json!(8.0)),
            ("1e3", json!(1000.0)),
            ("1.10", json!(1.1)),
            (".5", json!(0.5)),
            ("-1.", json!(-1.0)),
            ("9223372036854775808", json!(9223372036854775808u64)),
            ("-9223372036854775808", json!(i64::MIN)),
            ("12:30", json!("12:30")),
            ("2024-01-01", json!("2024-01-01")),
            ("1.2.3", json!("1.2.3")),
            ("-", json!("-")),
            ("0x", json!("0x")),
            ("nginx", json!("nginx")),
            ("yesterday", json!("yesterday")),
        ];
        for (text, expected) in cases {
            assert_eq!(plain(text).unwrap(), expected, "{text:?}");
        }
    }

    #[test]
    fn non_finite_floats_have_no_json_form() {
        for text in [".inf", "-.Inf", ".NaN"] {
            assert!(
                plain(text).unwrap_err().contains("not a finite number"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_tag_says_what_the_text_must_be() {
        assert_eq!(tagged("12", "str").unwrap(), json!("12"));
        assert_eq!(tagged("yes", "str").unwrap(), json!("yes"));
        assert_eq!(tagged("12", "int").unwrap(), json!(12));
        assert_eq!(tagged("12", "float").unwrap(), json!(12.0));
        assert_eq!(tagged("on", "bool").unwrap(), json!(true));
        assert_eq!(tagged("~", "null").unwrap(), Value::Null);
        assert!(tagged("abc", "int").unwrap_err().contains("!!int"));
        assert!(tagged("1.5", "int").is_err());
        assert!(tagged("maybe", "bool").is_err());
        assert_eq!(tagged("x", "map").unwrap(), json!("x"));
    }
}
