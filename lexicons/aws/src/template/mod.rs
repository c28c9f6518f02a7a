//! The declared side: CloudFormation templates (JSON or YAML) → declared entities.
//!
//! Logical id = entity name, `Type` = entity type, `Properties` = props, literally
//! (intrinsics stay as written; the hooks mark them unresolved, see [`intrinsics`]). A
//! nested stack
//! (`AWS::CloudFormation::Stack`) whose template is a local file — its `TemplateURL`, or
//! `<LogicalId>.template.json|yaml` beside the parent — contributes its own resources.

pub mod intrinsics;
pub mod yaml;

use crate::settings::StackConfig;
use chant_lexicon::{DeclaredEntity, SourceDiagnostic};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const NESTED_STACK: &str = "AWS::CloudFormation::Stack";
const MAX_NESTING: usize = 8;

/// One template file, parsed.
#[derive(Debug)]
pub struct Template {
    pub path: PathBuf,
    pub text: String,
    pub value: Value,
    pub resource_lines: BTreeMap<String, usize>,
}

impl Template {
    pub fn read(path: &Path) -> Result<Template, SourceDiagnostic> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            SourceDiagnostic::new(path, format!("cannot read {}: {e}", path.display()))
                .help("build the template first, or fix `source` under [lexicons.aws]")
        })?;
        Template::parse(path, text)
    }

    pub fn parse(path: &Path, text: String) -> Result<Template, SourceDiagnostic> {
        let (value, resource_lines) = if looks_like_json(path, &text) {
            let value: Value = serde_json::from_str(&text).map_err(|e| {
                SourceDiagnostic::new(
                    path,
                    format!("not a CloudFormation template: {}", json_message(&e)),
                )
                .at_line(&text, e.line(), Some(e.column()))
                .label("here")
            })?;
            let lines = json_resource_lines(&text, &value);
            (value, lines)
        } else {
            let parsed = yaml::parse(&text).map_err(|e| {
                SourceDiagnostic::new(
                    path,
                    format!("not a CloudFormation template: {}", e.message),
                )
                .at_line(&text, e.line, Some(e.column))
                .label("here")
            })?;
            (parsed.value, parsed.resource_lines)
        };
        let template = Template {
            path: path.to_path_buf(),
            text,
            value,
            resource_lines,
        };
        template.validate()?;
        Ok(template)
    }

    pub fn resources(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        self.value
            .get("Resources")
            .and_then(Value::as_object)
            .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
    }

    fn diagnostic(&self, logical_id: Option<&str>, message: String) -> SourceDiagnostic {
        let d = SourceDiagnostic::new(&self.path, message);
        match logical_id.and_then(|id| self.resource_lines.get(id)) {
            Some(line) => d.at_line(&self.text, *line, None).label("declared here"),
            None => d,
        }
    }

    fn validate(&self) -> Result<(), SourceDiagnostic> {
        if !self.value.is_object() {
            return Err(SourceDiagnostic::new(
                &self.path,
                "a CloudFormation template is a mapping at the top level",
            ));
        }
        let Some(resources) = self.value.get("Resources") else {
            return Err(SourceDiagnostic::new(
                &self.path,
                "the template has no `Resources` section",
            )
            .help("a CloudFormation template declares at least one resource under `Resources`"));
        };
        let Some(resources) = resources.as_object() else {
            return Err(
                self.diagnostic(None, "`Resources` must be a mapping of logical ids".into())
            );
        };
        for (id, resource) in resources {
            if !id.chars().all(|c| c.is_ascii_alphanumeric()) || id.is_empty() {
                return Err(self.diagnostic(
                    Some(id),
                    format!("resource `{id}`: a logical id is alphanumeric (A-Za-z0-9)"),
                ));
            }
            let Some(resource) = resource.as_object() else {
                return Err(self.diagnostic(Some(id), format!("resource `{id}` must be a mapping")));
            };
            match resource.get("Type") {
                Some(Value::String(t)) if !t.is_empty() => {}
                Some(_) => {
                    return Err(self.diagnostic(
                        Some(id),
                        format!("resource `{id}`: `Type` must be a string such as AWS::S3::Bucket"),
                    ));
                }
                None => {
                    return Err(self.diagnostic(Some(id), format!("resource `{id}` has no `Type`")));
                }
            }
            if let Some(props) = resource.get("Properties")
                && !props.is_object()
                && intrinsics::as_intrinsic(props).is_none()
            {
                return Err(self.diagnostic(
                    Some(id),
                    format!("resource `{id}`: `Properties` must be a mapping"),
                ));
            }
        }
        Ok(())
    }
}

/// What one configured stack declares.
#[derive(Debug, Default)]
pub struct DeclaredStack {
    pub entities: Vec<DeclaredEntity>,
    /// Entity name → the logical id of the nested stack it belongs to (`None`: the root).
    pub nested_in: BTreeMap<String, Option<String>>,
}

/// Read a configured stack's template and its nested templates.
pub fn declared_stack(config: &StackConfig) -> Result<DeclaredStack, SourceDiagnostic> {
    let mut out = DeclaredStack::default();
    let mut seen = BTreeMap::new();
    collect(&config.template, None, 0, &mut out, &mut seen)?;
    Ok(out)
}

fn collect(
    path: &Path,
    parent: Option<&str>,
    depth: usize,
    out: &mut DeclaredStack,
    seen: &mut BTreeMap<String, PathBuf>,
) -> Result<(), SourceDiagnostic> {
    let template = Template::read(path)?;
    for (id, resource) in template.resources() {
        if let Some(first) = seen.get(id) {
            return Err(template.diagnostic(
                Some(id),
                format!(
                    "logical id `{id}` is also declared in {}; entity names must be unique",
                    first.display()
                ),
            ));
        }
        seen.insert(id.clone(), template.path.clone());
        let entity_type = resource["Type"].as_str().unwrap_or_default();
        let props = resource
            .get("Properties")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        out.entities
            .push(DeclaredEntity::new(id, entity_type, props).from_file(&template.path));
        out.nested_in.insert(id.clone(), parent.map(str::to_owned));
    }
    for (id, resource) in template.resources() {
        if resource["Type"] != NESTED_STACK {
            continue;
        }
        let Some(child) = nested_template(&template.path, id, resource) else {
            continue;
        };
        if depth + 1 > MAX_NESTING {
            return Err(template.diagnostic(
                Some(id),
                format!("nested stack `{id}` is nested more than {MAX_NESTING} deep"),
            ));
        }
        collect(&child, Some(id), depth + 1, out, seen)?;
    }
    Ok(())
}

/// The local file a nested stack's template is in, when there is one.
fn nested_template(parent: &Path, logical_id: &str, resource: &Value) -> Option<PathBuf> {
    let dir = parent.parent().unwrap_or(Path::new("."));
    let url = resource
        .pointer("/Properties/TemplateURL")
        .and_then(Value::as_str);
    if let Some(url) = url
        && !url.contains("://")
    {
        let candidate = dir.join(url);
        if candidate.is_file() {
            return Some(candidate);
        }
    }
    ["template.json", "template.yaml", "template.yml"]
        .iter()
        .map(|ext| dir.join(format!("{logical_id}.{ext}")))
        .find(|p| p.is_file())
}

fn looks_like_json(path: &Path, text: &str) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") => true,
        Some("yaml" | "yml") => false,
        _ => text.trim_start().starts_with('{'),
    }
}

fn json_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// The line of each key of the top-level `Resources` object, found in the text.
fn json_resource_lines(text: &str, value: &Value) -> BTreeMap<String, usize> {
    let mut lines = BTreeMap::new();
    let Some(resources) = value.get("Resources").and_then(Value::as_object) else {
        return lines;
    };
    let start = text.find("\"Resources\"").unwrap_or(0);
    for id in resources.keys() {
        let needle = format!("\"{id}\"");
        let mut from = start;
        while let Some(found) = text[from..].find(&needle) {
            let at = from + found;
            let after = text[at + needle.len()..].trim_start();
            if after.starts_with(':') {
                lines.insert(id.clone(), text[..at].matches('\n').count() + 1);
                break;
            }
            from = at + needle.len();
        }
    }
    lines
}

/// Write resources as a CloudFormation JSON template this reader reads back.
pub fn write_template(resources: &[(String, String, Value)]) -> String {
    let mut out = Map::new();
    for (id, entity_type, props) in resources {
        let mut resource = Map::new();
        resource.insert("Type".into(), Value::String(entity_type.clone()));
        if props.as_object().is_some_and(|p| !p.is_empty()) {
            resource.insert("Properties".into(), props.clone());
        }
        out.insert(id.clone(), Value::Object(resource));
    }
    let template = serde_json::json!({
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": out,
    });
    serde_json::to_string_pretty(&template).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config(path: &Path) -> StackConfig {
        StackConfig {
            key: "t".into(),
            template: path.to_path_buf(),
            name_pattern: None,
            region: None,
        }
    }

    #[test]
    fn json_and_yaml_templates_give_the_same_entities() {
        let dir = tempfile::tempdir().unwrap();
        let json_path = dir.path().join("t.json");
        std::fs::write(
            &json_path,
            r#"{"Resources": {"Bucket": {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": "b", "Tags": [{"Key": "k", "Value": {"Ref": "AWS::StackName"}}]}}, "Queue": {"Type": "AWS::SQS::Queue"}}}"#,
        )
        .unwrap();
        let yaml_path = dir.path().join("t.yaml");
        std::fs::write(
            &yaml_path,
            "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: b\n      Tags:\n        - Key: k\n          Value: !Ref AWS::StackName\n  Queue:\n    Type: AWS::SQS::Queue\n",
        )
        .unwrap();
        let a = declared_stack(&config(&json_path)).unwrap();
        let b = declared_stack(&config(&yaml_path)).unwrap();
        let shape = |d: &DeclaredStack| {
            d.entities
                .iter()
                .map(|e| (e.name.clone(), e.entity_type.clone(), e.props.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(shape(&a), shape(&b));
        assert_eq!(
            a.entities[0].props,
            json!({"BucketName": "b", "Tags": [{"Key": "k", "Value": {"Ref": "AWS::StackName"}}]})
        );
        assert_eq!(a.entities[1].props, json!({}));
        assert_eq!(a.entities[0].origin.as_deref(), Some(json_path.as_path()));
    }

    #[test]
    fn bad_templates_name_the_file_the_logical_id_and_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.yaml");
        std::fs::write(
            &path,
            "Resources:\n  Good:\n    Type: AWS::SQS::Queue\n  Broken:\n    Properties: {}\n",
        )
        .unwrap();
        let err = declared_stack(&config(&path)).unwrap_err();
        assert_eq!(err.file, path);
        assert!(
            err.message.contains("`Broken` has no `Type`"),
            "{}",
            err.message
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(err.line_in(&text), Some(4));

        let json_path = dir.path().join("t.json");
        let text = "{\n  \"Resources\": {\n    \"Bad\": {\"Type\": 3}\n  }\n}\n";
        std::fs::write(&json_path, text).unwrap();
        let err = declared_stack(&config(&json_path)).unwrap_err();
        assert!(err.message.contains("`Bad`"), "{}", err.message);
        assert_eq!(err.line_in(text), Some(3));

        std::fs::write(&json_path, "{\"Resources\": {\n  \"A\": }").unwrap();
        let err = declared_stack(&config(&json_path)).unwrap_err();
        assert_eq!(err.line_in("{\"Resources\": {\n  \"A\": }"), Some(2));

        std::fs::write(&json_path, "{\"Outputs\": {}}").unwrap();
        assert!(
            declared_stack(&config(&json_path))
                .unwrap_err()
                .message
                .contains("no `Resources`")
        );

        let missing = dir.path().join("nope.json");
        let err = declared_stack(&config(&missing)).unwrap_err();
        assert!(err.message.contains("cannot read"), "{}", err.message);
    }

    #[test]
    fn nested_stacks_contribute_their_resources() {
        let dir = tempfile::tempdir().unwrap();
        let parent = dir.path().join("main.json");
        std::fs::write(
            &parent,
            r#"{"Resources": {"Network": {"Type": "AWS::CloudFormation::Stack", "Properties": {"TemplateURL": "https://s3.example/x"}}, "Web": {"Type": "AWS::CloudFormation::Stack", "Properties": {"TemplateURL": "web.yaml"}}}}"#,
        )
        .unwrap();
        std::fs::write(dir.path().join("Network.template.json"), r#"{"Resources": {"Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}}}}"#).unwrap();
        std::fs::write(dir.path().join("web.yaml"), "Resources:\n  Sg:\n    Type: AWS::EC2::SecurityGroup\n    Properties:\n      GroupDescription: web\n      VpcId: !ImportValue vpc\n").unwrap();
        let d = declared_stack(&config(&parent)).unwrap();
        let names: Vec<&str> = d.entities.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Network", "Web", "Vpc", "Sg"]);
        assert_eq!(d.nested_in["Vpc"].as_deref(), Some("Network"));
        assert_eq!(d.nested_in["Sg"].as_deref(), Some("Web"));
        assert_eq!(d.nested_in["Web"], None);
        assert_eq!(
            d.entities[3].props["VpcId"],
            json!({"Fn::ImportValue": "vpc"})
        );

        std::fs::write(
            dir.path().join("web.yaml"),
            "Resources:\n  Network:\n    Type: AWS::SQS::Queue\n",
        )
        .unwrap();
        let err = declared_stack(&config(&parent)).unwrap_err();
        assert!(err.message.contains("unique"), "{}", err.message);
    }

    #[test]
    fn the_writer_round_trips_through_the_reader() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("template.json");
        let resources = vec![
            (
                "Bucket".to_owned(),
                "AWS::S3::Bucket".to_owned(),
                json!({"BucketName": "b"}),
            ),
            ("Queue".to_owned(), "AWS::SQS::Queue".to_owned(), json!({})),
        ];
        std::fs::write(&path, write_template(&resources)).unwrap();
        let d = declared_stack(&config(&path)).unwrap();
        let back: Vec<_> = d
            .entities
            .into_iter()
            .map(|e| (e.name, e.entity_type, e.props))
            .collect();
        assert_eq!(back, resources);
    }
}
