//! EC2 security groups read with DescribeSecurityGroups and mapped to the CloudFormation
//! `AWS::EC2::SecurityGroup` shape: one flat rule per source, as a template writes them.

use aws_sdk_ec2::types::{IpPermission, SecurityGroup};
use serde_json::{Map, Value, json};

pub fn to_cloudformation(group: &SecurityGroup) -> Value {
    let mut out = Map::new();
    if let Some(d) = group.description() {
        out.insert("GroupDescription".into(), json!(d));
    }
    if let Some(n) = group.group_name() {
        out.insert("GroupName".into(), json!(n));
    }
    if let Some(v) = group.vpc_id() {
        out.insert("VpcId".into(), json!(v));
    }
    if let Some(id) = group.group_id() {
        out.insert("GroupId".into(), json!(id));
        out.insert("Id".into(), json!(id));
    }
    let tags: Vec<Value> = group
        .tags()
        .iter()
        .filter(|t| !t.key().unwrap_or_default().starts_with("aws:"))
        .map(
            |t| json!({"Key": t.key().unwrap_or_default(), "Value": t.value().unwrap_or_default()}),
        )
        .collect();
    if !tags.is_empty() {
        out.insert("Tags".into(), Value::Array(tags));
    }
    let ingress = flat_rules(group.ip_permissions(), Direction::Ingress);
    if !ingress.is_empty() {
        out.insert("SecurityGroupIngress".into(), Value::Array(ingress));
    }
    let egress = flat_rules(group.ip_permissions_egress(), Direction::Egress);
    if !egress.is_empty() {
        out.insert("SecurityGroupEgress".into(), Value::Array(egress));
    }
    Value::Object(out)
}

#[derive(Clone, Copy)]
enum Direction {
    Ingress,
    Egress,
}

fn flat_rules(permissions: &[IpPermission], direction: Direction) -> Vec<Value> {
    let mut rules = Vec::new();
    for p in permissions {
        let base = || {
            let mut rule = Map::new();
            rule.insert("IpProtocol".into(), json!(p.ip_protocol().unwrap_or("-1")));
            if let Some(from) = p.from_port() {
                rule.insert("FromPort".into(), json!(from));
            }
            if let Some(to) = p.to_port() {
                rule.insert("ToPort".into(), json!(to));
            }
            rule
        };
        let mut push =
            |mut rule: Map<String, Value>, key: &str, value: &str, description: Option<&str>| {
                rule.insert(key.into(), json!(value));
                if let Some(d) = description {
                    rule.insert("Description".into(), json!(d));
                }
                rules.push(Value::Object(rule));
            };
        for r in p.ip_ranges() {
            push(
                base(),
                "CidrIp",
                r.cidr_ip().unwrap_or_default(),
                r.description(),
            );
        }
        for r in p.ipv6_ranges() {
            push(
                base(),
                "CidrIpv6",
                r.cidr_ipv6().unwrap_or_default(),
                r.description(),
            );
        }
        let (group_key, prefix_key) = match direction {
            Direction::Ingress => ("SourceSecurityGroupId", "SourcePrefixListId"),
            Direction::Egress => ("DestinationSecurityGroupId", "DestinationPrefixListId"),
        };
        for r in p.user_id_group_pairs() {
            push(
                base(),
                group_key,
                r.group_id().unwrap_or_default(),
                r.description(),
            );
        }
        for r in p.prefix_list_ids() {
            push(
                base(),
                prefix_key,
                r.prefix_list_id().unwrap_or_default(),
                r.description(),
            );
        }
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_ec2::types::{IpRange, Tag, UserIdGroupPair};

    #[test]
    fn rules_flatten_one_per_source() {
        let group = SecurityGroup::builder()
            .group_id("sg-1")
            .group_name("web")
            .description("web tier")
            .vpc_id("vpc-1")
            .tags(Tag::builder().key("env").value("dev").build())
            .tags(
                Tag::builder()
                    .key("aws:cloudformation:logical-id")
                    .value("Web")
                    .build(),
            )
            .ip_permissions(
                IpPermission::builder()
                    .ip_protocol("tcp")
                    .from_port(443)
                    .to_port(443)
                    .ip_ranges(IpRange::builder().cidr_ip("0.0.0.0/0").build())
                    .ip_ranges(
                        IpRange::builder()
                            .cidr_ip("10.0.0.0/8")
                            .description("vpn")
                            .build(),
                    )
                    .user_id_group_pairs(UserIdGroupPair::builder().group_id("sg-2").build())
                    .build(),
            )
            .ip_permissions_egress(
                IpPermission::builder()
                    .ip_protocol("-1")
                    .ip_ranges(IpRange::builder().cidr_ip("0.0.0.0/0").build())
                    .build(),
            )
            .build();
        let model = to_cloudformation(&group);
        assert_eq!(
            model,
            json!({
                "GroupDescription": "web tier", "GroupName": "web", "VpcId": "vpc-1",
                "GroupId": "sg-1", "Id": "sg-1",
                "Tags": [{"Key": "env", "Value": "dev"}],
                "SecurityGroupIngress": [
                    {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "CidrIp": "0.0.0.0/0"},
                    {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "CidrIp": "10.0.0.0/8", "Description": "vpn"},
                    {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "SourceSecurityGroupId": "sg-2"}
                ],
                "SecurityGroupEgress": [{"IpProtocol": "-1", "CidrIp": "0.0.0.0/0"}]
            })
        );
    }
}
