//! CloudFormation intrinsic functions in declared properties.
//!
//! A value such as `{"Fn::GetAtt": ["Role", "Arn"]}` is only known after deploying, so it
//! must never be compared with the live value it evaluates to: declared props keep it
//! literally, and the normalization hooks mark any single-key object whose key is `Ref`
//! or `Fn::*` unresolved, so the deep diff skips the path instead of reporting permanent
//! drift.
//!
//! [`references`] finds the logical ids an intrinsic names (`Ref`, `Fn::GetAtt`, the
//! `${…}` of `Fn::Sub`), for the declared edges `lifecycle predict` sends.

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

/// A pseudo parameter (`AWS::Region`, `AWS::StackName`, …): neither a resource nor a
/// parameter of the template.
fn is_pseudo(name: &str) -> bool {
    name.starts_with("AWS::")
}

/// Every logical id an intrinsic inside `value` names, with the path (`props.Role`,
/// `props.Layers.Fn::If[][]`) of the intrinsic that names it: `{"Ref": X}`,
/// `{"Fn::GetAtt": [X, Attr]}` or `"X.Attr"`, and `${X}` / `${X.Attr}` inside `Fn::Sub`
/// (not `${!Literal}`, not the variables of the long form's map). Pseudo parameters are
/// left out; a parameter's name is returned like any other, for the caller to resolve.
pub fn references(value: &Value, path: &str, found: &mut Vec<(String, String)>) {
    if let Some((name, args)) = as_intrinsic(value) {
        match (name, args) {
            ("Ref", Value::String(target)) => {
                if !is_pseudo(target) {
                    found.push((path.to_owned(), target.clone()));
                }
                return;
            }
            ("GetAtt", Value::String(text)) => {
                let target = text.split_once('.').map_or(text.as_str(), |(id, _)| id);
                found.push((path.to_owned(), target.to_owned()));
                return;
            }
            ("GetAtt", Value::Array(items)) => {
                if let Some(Value::String(target)) = items.first() {
                    found.push((path.to_owned(), target.clone()));
                }
                // The attribute name may itself be an intrinsic.
                for item in items.iter().skip(1) {
                    references(item, &format!("{path}.Fn::GetAtt[]"), found);
                }
                return;
            }
            ("Sub", Value::String(text)) => {
                sub_references(text, &[], path, found);
                return;
            }
            ("Sub", Value::Array(items)) => {
                let variables = items.get(1).and_then(Value::as_object);
                let local: Vec<&str> = variables
                    .map(|v| v.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                if let Some(Value::String(text)) = items.first() {
                    sub_references(text, &local, path, found);
                }
                for (key, child) in variables.into_iter().flatten() {
                    references(child, &format!("{path}.Fn::Sub.{key}"), found);
                }
                return;
            }
            _ => {}
        }
    }
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                references(child, &format!("{path}.{key}"), found);
            }
        }
        Value::Array(items) => {
            for child in items {
                references(child, &format!("{path}[]"), found);
            }
        }
        _ => {}
    }
}

/// The `${X}` and `${X.Attr}` of a `Fn::Sub` string, less `${!Literal}`, pseudo
/// parameters and the long form's own variables.
fn sub_references(text: &str, local: &[&str], path: &str, found: &mut Vec<(String, String)>) {
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        let inner = after[..end].trim();
        rest = &after[end + 1..];
        if inner.is_empty() || inner.starts_with('!') || is_pseudo(inner) {
            continue;
        }
        if local.contains(&inner) {
            continue;
        }
        let target = inner.split_once('.').map_or(inner, |(id, _)| id);
        if local.contains(&target) {
            continue;
        }
        found.push((path.to_owned(), target.to_owned()));
    }
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

    fn targets(value: Value) -> Vec<(String, String)> {
        let mut found = Vec::new();
        references(&value, "props", &mut found);
        found
    }

    fn pair(path: &str, target: &str) -> (String, String) {
        (path.to_owned(), target.to_owned())
    }

    #[test]
    fn ref_and_both_forms_of_get_att_name_their_resource() {
        assert_eq!(
            targets(json!({"Queue": {"Ref": "Jobs"}, "Stack": {"Ref": "AWS::StackName"}})),
            [pair("props.Queue", "Jobs")]
        );
        assert_eq!(
            targets(
                json!({"Role": {"Fn::GetAtt": ["Role", "Arn"]}, "Dlq": {"Fn::GetAtt": "Dead.Arn"}})
            ),
            [pair("props.Dlq", "Dead"), pair("props.Role", "Role")]
        );
        assert_eq!(
            targets(
                json!({"Layers": {"Fn::If": ["Has", [{"Ref": "Layer"}], {"Ref": "AWS::NoValue"}]}})
            ),
            [pair("props.Layers.Fn::If[][]", "Layer")]
        );
    }

    #[test]
    fn sub_names_resources_but_not_pseudo_parameters_literals_or_its_own_variables() {
        assert_eq!(
            targets(
                json!({"Name": {"Fn::Sub": "${AWS::StackName}-${Bucket}-${Role.Arn}-${!Literal}-${AWS::Region}"}})
            ),
            [pair("props.Name", "Bucket"), pair("props.Name", "Role")]
        );
        assert!(targets(json!({"Name": {"Fn::Sub": "${AWS::Region}-only"}})).is_empty());
        assert_eq!(
            targets(
                json!({"Name": {"Fn::Sub": ["${Local}-${Queue.Arn}", {"Local": {"Ref": "Topic"}}]}})
            ),
            [
                pair("props.Name", "Queue"),
                pair("props.Name.Fn::Sub.Local", "Topic")
            ]
        );
    }

    #[test]
    fn plain_strings_that_look_like_references_are_not_references() {
        assert!(
            targets(json!({"Name": "Role.Arn", "Text": "${Bucket}", "Tag": "!Ref Queue"}))
                .is_empty()
        );
    }
}
