//! CloudFormation intrinsic functions in declared properties.
//!
//! A value such as `{"Fn::GetAtt": ["Role", "Arn"]}` is only known after deploying, so it
//! must never be compared with the live value it evaluates to: declared props keep it
//! literally, and the normalization hooks mark any single-key object whose key is `Ref`
//! or `Fn::*` unresolved, so the deep diff skips the path instead of reporting permanent
//! drift.

use serde_json::Value;

/// The key regex (for the unresolved-object hook) of an intrinsic function.
pub const INTRINSIC_KEY: &str = r"^(Ref|Fn::[A-Za-z0-9]+)$";

/// `{"Ref": X}` or `{"Fn::Name": args}`: the function's short name and its arguments.
pub fn as_intrinsic(value: &Value) -> Option<(&str, &Value)> {
    let map = value.as_object()?;
    if map.len() != 1 {
        return None;
    }
    let (key, args) = map.iter().next()?;
    if key == "Ref" {
        return Some(("Ref", args));
    }
    key.strip_prefix("Fn::").map(|name| (name, args))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn intrinsics_are_single_key_ref_or_fn_objects() {
        assert_eq!(
            as_intrinsic(&json!({"Ref": "Queue"})).map(|i| i.0),
            Some("Ref")
        );
        assert_eq!(
            as_intrinsic(&json!({"Fn::GetAtt": ["R", "Arn"]})).map(|i| i.0),
            Some("GetAtt")
        );
        assert!(as_intrinsic(&json!({"Ref": "x", "Other": 1})).is_none());
        assert!(as_intrinsic(&json!({"Key": "env"})).is_none());
        assert!(as_intrinsic(&json!("!Ref x")).is_none());
    }
}
