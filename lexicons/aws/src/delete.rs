//! Deleting one resource through its own service's API (Cloud Control for the rest), and
//! what an ARN says about the resource behind it.

use crate::errors::{Failure, classify};
use crate::session::Session;
use chant_lexicon::UnobservedReason;

/// `(service, resource prefix)` of an ARN → the CloudFormation type; the tagging API
/// lists these.
const ARN_TYPES: [(&str, &str, &str); 16] = [
    ("s3", "", "AWS::S3::Bucket"),
    ("sqs", "", "AWS::SQS::Queue"),
    ("sns", "", "AWS::SNS::Topic"),
    ("lambda", "function:", "AWS::Lambda::Function"),
    ("ec2", "security-group/", "AWS::EC2::SecurityGroup"),
    ("ec2", "vpc/", "AWS::EC2::VPC"),
    ("ec2", "subnet/", "AWS::EC2::Subnet"),
    ("ec2", "instance/", "AWS::EC2::Instance"),
    ("ec2", "internet-gateway/", "AWS::EC2::InternetGateway"),
    ("ec2", "route-table/", "AWS::EC2::RouteTable"),
    ("ec2", "volume/", "AWS::EC2::Volume"),
    ("dynamodb", "table/", "AWS::DynamoDB::Table"),
    ("logs", "log-group:", "AWS::Logs::LogGroup"),
    ("kms", "key/", "AWS::KMS::Key"),
    ("cloudformation", "stack/", "AWS::CloudFormation::Stack"),
    ("secretsmanager", "secret:", "AWS::SecretsManager::Secret"),
];

/// Deletion order: lower first (a function before its role, members before the stack).
pub fn rank(entity_type: &str) -> u8 {
    match entity_type {
        "AWS::Lambda::Function" => 0,
        "AWS::SNS::Subscription" => 1,
        "AWS::SNS::Topic" | "AWS::SQS::Queue" | "AWS::S3::Bucket" | "AWS::DynamoDB::Table" => 2,
        "AWS::EC2::Instance" => 3,
        "AWS::EC2::SecurityGroup" => 4,
        "AWS::EC2::Subnet" | "AWS::EC2::RouteTable" | "AWS::EC2::InternetGateway" => 5,
        "AWS::EC2::VPC" => 6,
        "AWS::IAM::Role" | "AWS::IAM::ManagedPolicy" => 7,
        "AWS::CloudFormation::Stack" => 9,
        _ => 8,
    }
}

pub fn listed_by_tagging(entity_type: &str) -> bool {
    ARN_TYPES.iter().any(|(_, _, t)| *t == entity_type)
}

fn arn_parts(arn: &str) -> Option<(&str, &str)> {
    let mut parts = arn.splitn(6, ':');
    let (_arn, _partition, service, _region, _account) = (
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
    );
    Some((service, parts.next()?))
}

pub fn type_of_arn(arn: &str) -> Option<&'static str> {
    let (service, resource) = arn_parts(arn)?;
    ARN_TYPES
        .iter()
        .find(|(s, prefix, _)| {
            *s == service
                && if prefix.is_empty() {
                    !resource.contains([':', '/'])
                } else {
                    resource.starts_with(prefix)
                }
        })
        .map(|(_, _, t)| *t)
}

/// The id CloudFormation reports for it (a bucket's name, a group's `sg-…`, a function's name).
pub fn physical_id_of_arn(arn: &str) -> String {
    let Some((service, resource)) = arn_parts(arn) else {
        return arn.to_owned();
    };
    match service {
        "sns" | "cloudformation" => arn.to_owned(),
        _ => resource
            .rsplit(['/', ':'])
            .next()
            .unwrap_or(resource)
            .to_owned(),
    }
}

pub async fn delete(session: &Session, entity_type: &str, arn: &str) -> Result<(), Failure> {
    let id = physical_id_of_arn(arn);
    match entity_type {
        "AWS::S3::Bucket" => delete_bucket(session, &id).await,
        "AWS::SQS::Queue" => {
            let sqs = session.sqs();
            let url = sqs
                .get_queue_url()
                .queue_name(&id)
                .send()
                .await
                .map_err(|e| classify(&e))?;
            sqs.delete_queue()
                .queue_url(url.queue_url().unwrap_or_default())
                .send()
                .await
                .map(|_| ())
                .map_err(|e| classify(&e))
        }
        "AWS::SNS::Topic" => session
            .sns()
            .delete_topic()
            .topic_arn(arn)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| classify(&e)),
        "AWS::EC2::SecurityGroup" => session
            .ec2()
            .delete_security_group()
            .group_id(&id)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| classify(&e)),
        "AWS::Lambda::Function" => session
            .lambda()
            .delete_function()
            .function_name(&id)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| classify(&e)),
        "AWS::IAM::Role" => delete_role(session, &id).await,
        "AWS::CloudFormation::Stack" => session
            .cloudformation()
            .delete_stack()
            .stack_name(arn)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| classify(&e)),
        "unknown" => Err(Failure::new(
            UnobservedReason::UnsupportedKind,
            format!("no deleter for {arn}: its CloudFormation type is not known"),
        )),
        other => session
            .cloudcontrol()
            .delete_resource()
            .type_name(other)
            .identifier(&id)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| classify(&e)),
    }
}

/// A bucket must be empty before it can go.
async fn delete_bucket(session: &Session, bucket: &str) -> Result<(), Failure> {
    let s3 = session.s3();
    let mut pages = s3.list_objects_v2().bucket(bucket).into_paginator().send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| classify(&e))?;
        for object in page.contents() {
            if let Some(key) = object.key() {
                s3.delete_object()
                    .bucket(bucket)
                    .key(key)
                    .send()
                    .await
                    .map_err(|e| classify(&e))?;
            }
        }
    }
    s3.delete_bucket()
        .bucket(bucket)
        .send()
        .await
        .map(|_| ())
        .map_err(|e| classify(&e))
}

/// A role must lose its policies and instance profiles before it can go.
async fn delete_role(session: &Session, role: &str) -> Result<(), Failure> {
    let iam = session.iam();
    let attached = iam
        .list_attached_role_policies()
        .role_name(role)
        .send()
        .await
        .map_err(|e| classify(&e))?;
    for policy in attached.attached_policies() {
        if let Some(arn) = policy.policy_arn() {
            iam.detach_role_policy()
                .role_name(role)
                .policy_arn(arn)
                .send()
                .await
                .map_err(|e| classify(&e))?;
        }
    }
    let inline = iam
        .list_role_policies()
        .role_name(role)
        .send()
        .await
        .map_err(|e| classify(&e))?;
    for name in inline.policy_names() {
        iam.delete_role_policy()
            .role_name(role)
            .policy_name(name)
            .send()
            .await
            .map_err(|e| classify(&e))?;
    }
    let profiles = iam
        .list_instance_profiles_for_role()
        .role_name(role)
        .send()
        .await
        .map_err(|e| classify(&e))?;
    for profile in profiles.instance_profiles() {
        iam.remove_role_from_instance_profile()
            .role_name(role)
            .instance_profile_name(profile.instance_profile_name())
            .send()
            .await
            .map_err(|e| classify(&e))?;
    }
    iam.delete_role()
        .role_name(role)
        .send()
        .await
        .map(|_| ())
        .map_err(|e| classify(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arns_name_their_type_and_physical_id() {
        let cases = [
            ("arn:aws:s3:::shop-assets", "AWS::S3::Bucket", "shop-assets"),
            ("arn:aws:sqs:eu-west-1:1:jobs", "AWS::SQS::Queue", "jobs"),
            (
                "arn:aws:sns:eu-west-1:1:events",
                "AWS::SNS::Topic",
                "arn:aws:sns:eu-west-1:1:events",
            ),
            (
                "arn:aws:ec2:eu-west-1:1:security-group/sg-1",
                "AWS::EC2::SecurityGroup",
                "sg-1",
            ),
            (
                "arn:aws:lambda:eu-west-1:1:function:fn",
                "AWS::Lambda::Function",
                "fn",
            ),
        ];
        for (arn, entity_type, id) in cases {
            assert_eq!(type_of_arn(arn), Some(entity_type), "{arn}");
            assert_eq!(physical_id_of_arn(arn), id, "{arn}");
        }
        assert_eq!(type_of_arn("arn:aws:sns:eu-west-1:1:events:uuid"), None);
        assert!(listed_by_tagging("AWS::S3::Bucket"));
        assert!(!listed_by_tagging("AWS::IAM::Role"));
        assert!(rank("AWS::Lambda::Function") < rank("AWS::IAM::Role"));
        assert!(rank("AWS::EC2::SecurityGroup") < rank("AWS::CloudFormation::Stack"));
    }
}
