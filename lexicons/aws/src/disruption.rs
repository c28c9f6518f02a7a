//! `classify_disruption` from the CloudFormation resource schemas: a changed
//! `createOnlyProperties` path replaces the resource, a `conditionalCreateOnlyProperties`
//! path may (unknown), any other writable property updates in place. Every verdict names
//! the schema fact behind it; a type or path the schemas do not cover is unknown.

use crate::schema::{self, TypeFacts};
use chant_lexicon::{Disruption, DisruptionQuery, DisruptionVerdict};
use std::collections::BTreeMap;

pub fn classify(changes: &[DisruptionQuery]) -> BTreeMap<String, DisruptionVerdict> {
    changes
        .iter()
        .filter_map(|q| {
            let entity_type = q.entity_type.as_deref()?;
            let facts = schema::facts(entity_type)?;
            if q.deltas.is_empty() {
                return None;
            }
            let mut worst: Option<(Disruption, Vec<String>)> = None;
            for delta in &q.deltas {
                let (level, because) = path_verdict(entity_type, facts, &delta.path);
                match &mut worst {
                    Some((w, reasons)) if w.severity() == level.severity() => reasons.push(because),
                    Some((w, _)) if w.severity() > level.severity() => {}
                    _ => worst = Some((level, vec![because])),
                }
            }
            let (level, mut reasons) = worst?;
            reasons.dedup();
            Some((
                q.name.clone(),
                DisruptionVerdict {
                    disruption: level,
                    because: Some(reasons.join("; ")),
                    detail: Some(format!(
                        "from the CloudFormation resource schema ({})",
                        schema::provenance()
                    )),
                },
            ))
        })
        .collect()
}

/// One changed path against one type's facts.
fn path_verdict(entity_type: &str, facts: &TypeFacts, path: &str) -> (Disruption, String) {
    let path = canonical(path);
    let root = path.split(['.', '[']).next().unwrap_or_default();
    if let Some(p) = covering(&facts.create_only, &path) {
        return (
            Disruption::Replace,
            format!("createOnlyProperties of {entity_type} lists {p}"),
        );
    }
    if let Some(p) = covering(&facts.conditional_create_only, &path) {
        return (
            Disruption::Unknown,
            format!(
                "conditionalCreateOnlyProperties of {entity_type} lists {p}: replacement depends on the change"
            ),
        );
    }
    if let Some(p) = facts
        .create_only
        .iter()
        .find(|c| c.starts_with(&format!("{path}.")))
    {
        return (
            Disruption::Unknown,
            format!("{path} of {entity_type} contains the createOnlyProperties path {p}"),
        );
    }
    if facts.writable.iter().any(|w| w == root) {
        return (
            Disruption::InPlace,
            format!(
                "{root} is a writable property of {entity_type} and in no createOnlyProperties"
            ),
        );
    }
    if covering(&facts.read_only, &path).is_some() {
        return (
            Disruption::Unknown,
            format!("{path} is in readOnlyProperties of {entity_type}: no update sets it"),
        );
    }
    (
        Disruption::Unknown,
        format!("{path} is not a property of {entity_type} in its schema"),
    )
}

/// `Tags[#env].Value` and `Tags[0].Value` → `Tags[].Value`; a leading `Properties.` goes.
fn canonical(path: &str) -> String {
    let path = path
        .strip_prefix("Properties.")
        .or_else(|| path.strip_prefix("properties."))
        .unwrap_or(path);
    let mut out = String::new();
    let mut in_brackets = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_brackets = true;
                out.push('[');
            }
            ']' => {
                in_brackets = false;
                out.push(']');
            }
            _ if in_brackets => {}
            c => out.push(c),
        }
    }
    out
}

/// The schema path equal to `path` or containing it (`A.B` covers `A.B.C` and `A.B[].C`).
fn covering<'a>(paths: &'a [String], path: &str) -> Option<&'a str> {
    paths
        .iter()
        .find(|p| {
            path == p.as_str()
                || path
                    .strip_prefix(p.as_str())
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
        })
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::AttributeChange;

    fn query(entity_type: &str, paths: &[&str]) -> DisruptionQuery {
        DisruptionQuery {
            name: "r".into(),
            entity_type: Some(entity_type.into()),
            deltas: paths
                .iter()
                .map(|p| AttributeChange {
                    path: (*p).into(),
                    old_value: None,
                    new_value: None,
                })
                .collect(),
        }
    }

    fn verdict(entity_type: &str, paths: &[&str]) -> Option<DisruptionVerdict> {
        classify(&[query(entity_type, paths)]).remove("r")
    }

    #[test]
    fn create_only_replaces_and_names_the_fact() {
        let v = verdict("AWS::S3::Bucket", &["BucketName"]).unwrap();
        assert_eq!(v.disruption, Disruption::Replace);
        assert_eq!(
            v.because.as_deref(),
            Some("createOnlyProperties of AWS::S3::Bucket lists BucketName")
        );
        assert!(v.detail.unwrap().contains("cfn-lint"));
    }

    #[test]
    fn writable_is_in_place_and_the_worst_change_wins() {
        let v = verdict(
            "AWS::SQS::Queue",
            &["VisibilityTimeout", "Tags[#env].Value"],
        )
        .unwrap();
        assert_eq!(v.disruption, Disruption::InPlace);
        assert!(
            v.because
                .unwrap()
                .contains("VisibilityTimeout is a writable property")
        );
        let v = verdict("AWS::SQS::Queue", &["VisibilityTimeout", "QueueName"]).unwrap();
        assert_eq!(v.disruption, Disruption::Replace);
        assert!(v.because.unwrap().contains("lists QueueName"));
    }

    #[test]
    fn conditional_and_unknown_paths_are_unknown() {
        let conditional = schema::table_types_with_conditional().next().unwrap();
        let path = schema::facts(conditional).unwrap().conditional_create_only[0].clone();
        let v = verdict(conditional, &[&path]).unwrap();
        assert_eq!(v.disruption, Disruption::Unknown);
        assert!(
            v.because
                .unwrap()
                .starts_with("conditionalCreateOnlyProperties")
        );
        let v = verdict("AWS::S3::Bucket", &["status"]).unwrap();
        assert_eq!(v.disruption, Disruption::Unknown);
        assert!(v.because.unwrap().contains("not a property"));
        assert!(verdict("Custom::Thing", &["X"]).is_none());
        let nested = verdict(
            "AWS::EC2::SecurityGroup",
            &["Properties.SecurityGroupIngress[1].CidrIp"],
        )
        .unwrap();
        assert_eq!(nested.disruption, Disruption::InPlace);
    }
}
