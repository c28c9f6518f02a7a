//! `lifecycle predict` for the AWS lexicon: the declared estate's edges, read from the
//! CloudFormation references inside each resource's `Properties`
//! ([`intrinsics::references`]), and the estate sent to the behaviour engine in the
//! example engine's wire version (`chant_behaviour::ExampleWire`).
//!
//! A reference to a declared logical id is an edge (`from` the resource that writes it,
//! `to` the one it names, labelled with where it is written); one to anything else — a
//! template parameter, a resource of no configured stack — is a dangling ref, never an
//! edge. Pseudo parameters (`AWS::Region`) are neither. `DependsOn` is not kept by the
//! declared reader (entities carry `Properties` only), so it adds no edges.

use crate::template::intrinsics;
use chant_lexicon::DeclaredEntity;
use chant_lexicon::behaviour::{Edges, edges_from_references};

pub fn declared_edges(entities: &[DeclaredEntity]) -> Edges {
    edges_from_references(entities, |entity| {
        let mut found = Vec::new();
        intrinsics::references(&entity.props, "props", &mut found);
        found
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::behaviour::{CoverageVerdict, DanglingRef};
    use chant_testkit::behaviour::declared_edge_triples;
    use serde_json::json;

    fn estate() -> Vec<DeclaredEntity> {
        vec![
            DeclaredEntity::new(
                "Api",
                "AWS::Lambda::Function",
                json!({
                    "Role": {"Fn::GetAtt": ["Role", "Arn"]},
                    "Environment": {"Variables": {
                        "QUEUE": {"Ref": "Jobs"},
                        "TOPIC": {"Fn::GetAtt": "Alerts.TopicArn"},
                        "REGION": {"Ref": "AWS::Region"},
                        "STAGE": {"Ref": "Stage"}
                    }},
                    "FunctionName": {"Fn::Sub": "${AWS::StackName}-${Jobs.QueueName}-${!Literal}"}
                }),
            ),
            DeclaredEntity::new(
                "Role",
                "AWS::IAM::Role",
                json!({"RoleName": {"Fn::Sub": "${AWS::Region}-api"}}),
            ),
            DeclaredEntity::new("Jobs", "AWS::SQS::Queue", json!({})),
            DeclaredEntity::new("Alerts", "AWS::SNS::Topic", json!({})),
        ]
    }

    #[test]
    fn ref_get_att_and_sub_become_edges() {
        let edges = declared_edges(&estate());
        let (list, _) = declared_edge_triples(&edges);
        assert_eq!(
            list,
            [
                ("Api", "Alerts", "props.Environment.Variables.TOPIC"),
                ("Api", "Jobs", "props.Environment.Variables.QUEUE"),
                ("Api", "Jobs", "props.FunctionName"),
                ("Api", "Role", "props.Role"),
            ]
        );
        assert_eq!(edges.coverage().verdict, CoverageVerdict::Complete);
        assert_eq!(edges.coverage().edges, Some(4));
    }

    #[test]
    fn a_sub_of_pseudo_parameters_only_names_nothing() {
        let edges = declared_edges(&estate());
        let (list, dangling) = declared_edge_triples(&edges);
        assert!(!list.iter().any(|(from, ..)| *from == "Role"));
        assert!(!dangling.iter().any(|d| d.from == "Role"));
    }

    #[test]
    fn a_ref_to_a_parameter_dangles() {
        let edges = declared_edges(&estate());
        let (_, dangling) = declared_edge_triples(&edges);
        assert_eq!(
            dangling,
            [DanglingRef {
                from: "Api".into(),
                path: "props.Environment.Variables.STAGE".into(),
                value: "Stage".into(),
            }]
        );
    }

    #[test]
    fn an_estate_without_references_has_computed_empty_edges() {
        let edges = declared_edges(&[DeclaredEntity::new("Jobs", "AWS::SQS::Queue", json!({}))]);
        assert_eq!(edges.list(), Some(&[][..]));
    }
}
