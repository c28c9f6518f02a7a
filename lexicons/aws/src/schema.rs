//! Facts from the CloudFormation resource provider schemas, compiled into the binary.
//!
//! `data/resource-facts.tsv` is generated at authoring time by
//! `tools/gen_resource_facts.py` from the schemas shipped in the PyPI package cfn-lint;
//! its header names the package version and the date. Each column is one schema key, so
//! every answer built from it can name the fact it came from.

use std::collections::BTreeMap;
use std::sync::OnceLock;

const TABLE: &str = include_str!("../data/resource-facts.tsv");

/// One resource type's facts. Paths use the diff's grammar (`A.B`, `A[].B`).
#[derive(Debug, Default, PartialEq)]
pub struct TypeFacts {
    pub create_only: Vec<String>,
    pub conditional_create_only: Vec<String>,
    pub read_only: Vec<String>,
    pub writable: Vec<String>,
    pub primary_identifier: Vec<String>,
    /// `tagging.tagProperty`, when the type is taggable.
    pub tag_property: Option<String>,
}

/// Where the table came from (its first header line, without `# source: `).
pub fn provenance() -> &'static str {
    TABLE
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# source: "))
        .unwrap_or("unknown")
}

pub fn facts(entity_type: &str) -> Option<&'static TypeFacts> {
    table().get(entity_type)
}

fn table() -> &'static BTreeMap<&'static str, TypeFacts> {
    static PARSED: OnceLock<BTreeMap<&'static str, TypeFacts>> = OnceLock::new();
    PARSED.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .filter_map(|line| {
                let cols: Vec<&str> = line.split('\t').collect();
                let [
                    name,
                    create,
                    conditional,
                    read_only,
                    writable,
                    primary,
                    tags,
                ] = cols[..]
                else {
                    return None;
                };
                Some((
                    name,
                    TypeFacts {
                        create_only: list(create),
                        conditional_create_only: list(conditional),
                        read_only: list(read_only),
                        writable: list(writable),
                        primary_identifier: list(primary),
                        tag_property: (tags != "-").then(|| tags.to_owned()),
                    },
                ))
            })
            .collect()
    })
}

fn list(column: &str) -> Vec<String> {
    if column == "-" {
        Vec::new()
    } else {
        column.split(',').map(str::to_owned).collect()
    }
}

/// Types with conditionally create-only properties (for tests that need a real one).
#[cfg(test)]
pub fn table_types_with_conditional() -> impl Iterator<Item = &'static str> {
    table()
        .iter()
        .filter(|(_, f)| !f.conditional_create_only.is_empty())
        .map(|(name, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_complete_and_names_its_source() {
        assert!(
            provenance().starts_with("PyPI cfn-lint "),
            "{}",
            provenance()
        );
        assert!(table().len() > 1000, "{} types", table().len());
        let bucket = facts("AWS::S3::Bucket").unwrap();
        assert!(bucket.create_only.contains(&"BucketName".to_owned()));
        assert_eq!(bucket.primary_identifier, ["BucketName"]);
        assert!(bucket.read_only.contains(&"Arn".to_owned()));
        assert!(
            bucket
                .writable
                .contains(&"VersioningConfiguration".to_owned())
        );
        assert_eq!(bucket.tag_property.as_deref(), Some("Tags"));
        assert_eq!(
            facts("AWS::SQS::Queue").unwrap().primary_identifier,
            ["QueueUrl"]
        );
        assert!(facts("Custom::Thing").is_none());
    }
}
