//! The deep normalization hooks, as data: core applies the same rules to the declared and
//! the live tree.

use crate::schema;
use crate::template::intrinsics::INTRINSIC_KEY;
use chant_lexicon::NormalizationHooks;
use chant_lexicon::deep::TypeMatch;
use serde_json::json;

/// Server-written on every object of a kind, whatever the type.
const READ_ONLY_ANYWHERE: [&str; 16] = [
    "**.Arn",
    "**.RoleId",
    "**.PolicyId",
    "**.OwnerId",
    "**.AttachmentCount",
    "**.PermissionsBoundaryUsageCount",
    "**.DefaultVersionId",
    "**.IsAttachable",
    "**.CreateDate",
    "**.CreationDate",
    "**.UpdateDate",
    "**.LastModified",
    "**.LastModifiedTime",
    "**.DualStackDomainName",
    "**.RegionalDomainName",
    "**.WebsiteURL",
];

/// Types read deeply whose schema `readOnlyProperties` are pruned on both sides.
const DEEP_TYPES: [&str; 9] = [
    "AWS::S3::Bucket",
    "AWS::IAM::Role",
    "AWS::IAM::ManagedPolicy",
    "AWS::EC2::SecurityGroup",
    "AWS::SQS::Queue",
    "AWS::SNS::Topic",
    "AWS::Lambda::Function",
    "AWS::DynamoDB::Table",
    "AWS::Logs::LogGroup",
];

pub fn normalization_hooks() -> NormalizationHooks {
    let mut hooks =
        NormalizationHooks::default().prune_always(TypeMatch::any(), &READ_ONLY_ANYWHERE);
    for entity_type in DEEP_TYPES {
        if let Some(facts) = schema::facts(entity_type) {
            let globs: Vec<String> = facts
                .read_only
                .iter()
                .filter(|p| !facts.primary_identifier.contains(p))
                .cloned()
                .collect();
            let globs: Vec<&str> = globs.iter().map(String::as_str).collect();
            hooks = hooks.prune_always(TypeMatch::of(&[entity_type]), &globs);
        }
    }
    let sg = TypeMatch::of(&["AWS::EC2::SecurityGroup"]);
    hooks = hooks
        .prune_live_undeclared(sg.clone(), &["GroupName", "Id"])
        .default_value(
            sg.clone(),
            "GroupDescription",
            json!("default VPC security group"),
        )
        .default_value(
            sg.clone(),
            "SecurityGroupEgress[].CidrIp",
            json!("0.0.0.0/0"),
        )
        .default_value(sg.clone(), "SecurityGroupEgress[].IpProtocol", json!("-1"));
    let defaults: [(&str, &str, serde_json::Value); 17] = [
        (
            "AWS::S3::Bucket",
            "VersioningConfiguration.Status",
            json!("Suspended"),
        ),
        (
            "AWS::S3::Bucket",
            "AccelerateConfiguration.AccelerationStatus",
            json!("Suspended"),
        ),
        ("AWS::S3::Bucket", "ObjectLockEnabled", json!(false)),
        ("AWS::IAM::Role", "Path", json!("/")),
        ("AWS::IAM::Role", "MaxSessionDuration", json!(3600)),
        ("AWS::IAM::ManagedPolicy", "Path", json!("/")),
        ("AWS::SQS::Queue", "DelaySeconds", json!(0)),
        ("AWS::SQS::Queue", "MaximumMessageSize", json!(262144)),
        ("AWS::SQS::Queue", "MessageRetentionPeriod", json!(345600)),
        ("AWS::SQS::Queue", "ReceiveMessageWaitTimeSeconds", json!(0)),
        ("AWS::SQS::Queue", "VisibilityTimeout", json!(30)),
        ("AWS::SQS::Queue", "SqsManagedSseEnabled", json!(true)),
        ("AWS::Lambda::Function", "MemorySize", json!(128)),
        ("AWS::Lambda::Function", "Timeout", json!(3)),
        ("AWS::Lambda::Function", "PackageType", json!("Zip")),
        ("AWS::Lambda::Function", "Architectures", json!(["x86_64"])),
        (
            "AWS::Lambda::Function",
            "TracingConfig.Mode",
            json!("PassThrough"),
        ),
    ];
    for (entity_type, path, value) in defaults {
        hooks = hooks.default_value(TypeMatch::of(&[entity_type]), path, value);
    }
    let rule_key = [
        "IpProtocol",
        "?FromPort",
        "?ToPort",
        "?CidrIp",
        "?CidrIpv6",
        "?SourceSecurityGroupId",
        "?DestinationSecurityGroupId",
        "?SourcePrefixListId",
        "?DestinationPrefixListId",
    ];
    hooks
        .order_by(TypeMatch::any(), "**.Tags", &["Key"])
        .order_by(TypeMatch::any(), "**.Statement", &["Sid"])
        .order_by(TypeMatch::any(), "**.Action", &[])
        .order_by(TypeMatch::any(), "**.NotAction", &[])
        .order_by(TypeMatch::any(), "**.Resource", &[])
        .order_by(TypeMatch::any(), "**.NotResource", &[])
        .order_by(sg.clone(), "SecurityGroupIngress", &rule_key)
        .order_by(sg, "SecurityGroupEgress", &rule_key)
        .unresolved_object(TypeMatch::any(), None, INTRINSIC_KEY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::{Counterpart, DeepArrayElement, DeepNode, Side};

    #[test]
    fn read_only_paths_and_undeclared_defaults_are_pruned() {
        let hooks = normalization_hooks();
        let v = json!("x");
        assert!(hooks.prunes(&DeepNode::at(
            "AWS::S3::Bucket",
            "Arn",
            &v,
            Side::Declared,
            Counterpart::Unknown
        )));
        assert!(!hooks.prunes(&DeepNode::at(
            "AWS::SQS::Queue",
            "QueueUrl",
            &v,
            Side::Live,
            Counterpart::Absent
        )));
        assert!(hooks.prunes(&DeepNode::at(
            "AWS::SQS::Queue",
            "Arn",
            &v,
            Side::Live,
            Counterpart::Absent
        )));
        let thirty = json!(30);
        assert!(hooks.prunes(&DeepNode::at(
            "AWS::SQS::Queue",
            "VisibilityTimeout",
            &thirty,
            Side::Live,
            Counterpart::Absent
        )));
        assert!(!hooks.prunes(&DeepNode::at(
            "AWS::SQS::Queue",
            "VisibilityTimeout",
            &thirty,
            Side::Live,
            Counterpart::Present
        )));
        let sixty = json!(60);
        assert!(!hooks.prunes(&DeepNode::at(
            "AWS::SQS::Queue",
            "VisibilityTimeout",
            &sixty,
            Side::Live,
            Counterpart::Absent
        )));
    }

    #[test]
    fn intrinsics_are_unresolved_and_sets_are_keyed() {
        let hooks = normalization_hooks();
        let text = json!({"Fn::GetAtt": ["Role", "Arn"]});
        assert!(hooks.is_unresolved(&DeepNode::at(
            "AWS::Lambda::Function",
            "Role",
            &text,
            Side::Declared,
            Counterpart::Present
        )));
        let plain = json!("arn:aws:iam::1:role/x");
        assert!(!hooks.is_unresolved(&DeepNode::at(
            "AWS::Lambda::Function",
            "Role",
            &plain,
            Side::Live,
            Counterpart::Present
        )));
        let rule =
            json!({"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "CidrIp": "0.0.0.0/0"});
        let element = DeepArrayElement {
            entity_type: "AWS::EC2::SecurityGroup",
            pattern: "SecurityGroupIngress",
            path: "SecurityGroupIngress",
            element: &rule,
            index: 0,
            side: Side::Live,
        };
        assert_eq!(
            hooks.order_key(&element).as_deref(),
            Some("tcp/443/443/0.0.0.0/0/*/*/*/*/*")
        );
        let tag = json!({"Key": "env", "Value": "dev"});
        let element = DeepArrayElement {
            entity_type: "AWS::S3::Bucket",
            pattern: "Tags",
            path: "Tags",
            element: &tag,
            index: 0,
            side: Side::Live,
        };
        assert_eq!(hooks.order_key(&element).as_deref(), Some("env"));
    }
}
