//! `observe_dependencies`: what the estate relies on without declaring it. Depth one by
//! reference — EC2 ids written literally in declared properties (a shared subnet, a VPC)
//! and the VPC of each observed security group — plus the chain the reference catalog
//! marks as meaningful: SubnetId → RouteTableId → GatewayId. Every node names the
//! declared entities that pulled it in.

use crate::errors::classify;
use crate::lexicon::{AwsLexicon, Unbound, unbound_error};
use crate::session::Session;
use chant_lexicon::reference::{IdentityPaths, Relation};
use chant_lexicon::{
    DependencyRequest, HookError, HookResult, ReferenceCatalog, ReferenceRule, ResourceMetadata,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub fn reference_catalog() -> ReferenceCatalog {
    let identity = |kind: &str, ids: &[&str]| IdentityPaths {
        kind: kind.to_owned(),
        ids: ids.iter().map(|i| (*i).to_owned()).collect(),
    };
    let rule = |from: &str, path: &str, target: &str, relation, label: &str, via: &str, chained| {
        ReferenceRule {
            from: from.to_owned(),
            path: path.to_owned(),
            target_kind: Some(target.to_owned()),
            relation,
            label: label.to_owned(),
            via_attr: Some(via.to_owned()),
            chained,
        }
    };
    ReferenceCatalog {
        identities: vec![
            identity("AWS::EC2::VPC", &["VpcId"]),
            identity("AWS::EC2::Subnet", &["SubnetId"]),
            identity("AWS::EC2::SecurityGroup", &["GroupId"]),
            identity("AWS::EC2::RouteTable", &["RouteTableId"]),
            identity("AWS::EC2::InternetGateway", &["InternetGatewayId"]),
            identity("AWS::EC2::NetworkInterface", &["NetworkInterfaceId"]),
            identity("AWS::EC2::Instance", &["InstanceId"]),
            identity("AWS::Lambda::Function", &["FunctionName", "Arn"]),
            identity("AWS::IAM::Role", &["RoleName", "Arn"]),
        ],
        refs: vec![
            rule(
                "AWS::EC2::SecurityGroup",
                "VpcId",
                "AWS::EC2::VPC",
                Relation::Containment,
                "in VPC",
                "VpcId",
                false,
            ),
            rule(
                "AWS::EC2::Subnet",
                "VpcId",
                "AWS::EC2::VPC",
                Relation::Containment,
                "in VPC",
                "VpcId",
                false,
            ),
            rule(
                "AWS::EC2::Instance",
                "SubnetId",
                "AWS::EC2::Subnet",
                Relation::Containment,
                "in subnet",
                "SubnetId",
                true,
            ),
            rule(
                "AWS::EC2::Instance",
                "SecurityGroupIds[]",
                "AWS::EC2::SecurityGroup",
                Relation::Reference,
                "sg",
                "SecurityGroupIds",
                false,
            ),
            rule(
                "AWS::Lambda::Function",
                "VpcConfig.SubnetIds[]",
                "AWS::EC2::Subnet",
                Relation::Reference,
                "in subnet",
                "SubnetIds",
                true,
            ),
            rule(
                "AWS::Lambda::Function",
                "VpcConfig.SecurityGroupIds[]",
                "AWS::EC2::SecurityGroup",
                Relation::Reference,
                "sg",
                "SecurityGroupIds",
                false,
            ),
            rule(
                "AWS::Lambda::Function",
                "Role",
                "AWS::IAM::Role",
                Relation::Reference,
                "assumes",
                "Role",
                false,
            ),
            rule(
                "AWS::EC2::SubnetRouteTableAssociation",
                "RouteTableId",
                "AWS::EC2::RouteTable",
                Relation::Reference,
                "routes via",
                "RouteTableId",
                true,
            ),
            rule(
                "AWS::EC2::Route",
                "GatewayId",
                "AWS::EC2::InternetGateway",
                Relation::Reference,
                "via",
                "GatewayId",
                true,
            ),
        ],
    }
}

pub async fn observe(
    lexicon: &AwsLexicon,
    request: &DependencyRequest,
) -> HookResult<BTreeMap<String, ResourceMetadata>> {
    let session = env_session(
        lexicon,
        &request.environment,
        request.stack.as_deref(),
        request.region.as_deref(),
    )
    .await?;
    let observed_ids: BTreeSet<&str> = request
        .observed
        .values()
        .filter_map(|m| m.physical_id.as_deref())
        .collect();
    // id → declared entities referring to it.
    let mut referrers: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entity in request.entities.iter() {
        let mut ids = Vec::new();
        ec2_ids(&entity.props, &mut ids);
        for id in ids
            .into_iter()
            .filter(|id| !observed_ids.contains(id.as_str()))
        {
            referrers.entry(id).or_default().insert(entity.name.clone());
        }
    }
    let observed_groups: Vec<(String, String)> = request
        .observed
        .iter()
        .filter(|(_, m)| m.entity_type == "AWS::EC2::SecurityGroup")
        .filter_map(|(name, m)| Some((name.clone(), m.physical_id.clone()?)))
        .collect();
    let ec2 = session.ec2();
    if !observed_groups.is_empty() {
        let ids: Vec<String> = observed_groups.iter().map(|(_, id)| id.clone()).collect();
        if let Ok(answer) = ec2
            .describe_security_groups()
            .set_group_ids(Some(ids))
            .send()
            .await
        {
            for group in answer.security_groups() {
                let (Some(gid), Some(vpc)) = (group.group_id(), group.vpc_id()) else {
                    continue;
                };
                for (name, _) in observed_groups.iter().filter(|(_, id)| id == gid) {
                    referrers
                        .entry(vpc.to_owned())
                        .or_default()
                        .insert(name.clone());
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    let by_prefix = |prefix: &str| -> Vec<String> {
        referrers
            .keys()
            .filter(|k| k.starts_with(prefix))
            .cloned()
            .collect()
    };
    let fail = |e: String| HookError::Failed(format!("observe_dependencies: {e}"));
    let vpcs = by_prefix("vpc-");
    if !vpcs.is_empty() {
        let answer = ec2
            .describe_vpcs()
            .set_vpc_ids(Some(vpcs))
            .send()
            .await
            .map_err(|e| fail(classify(&e).detail))?;
        for v in answer.vpcs() {
            insert(&mut out, ec2_node::vpc(v, lexicon), &referrers);
        }
    }
    let groups = by_prefix("sg-");
    if !groups.is_empty() {
        let answer = ec2
            .describe_security_groups()
            .set_group_ids(Some(groups))
            .send()
            .await
            .map_err(|e| fail(classify(&e).detail))?;
        for g in answer.security_groups() {
            insert(&mut out, ec2_node::security_group(g, lexicon), &referrers);
        }
    }
    let subnets = by_prefix("subnet-");
    if !subnets.is_empty() {
        let answer = ec2
            .describe_subnets()
            .set_subnet_ids(Some(subnets.clone()))
            .send()
            .await
            .map_err(|e| fail(classify(&e).detail))?;
        for s in answer.subnets() {
            insert(&mut out, ec2_node::subnet(s, lexicon), &referrers);
            // The chain: the subnet's route table (its own, else its VPC's main one) and its gateway.
            let Some(subnet_id) = s.subnet_id() else {
                continue;
            };
            let pulled_by = referrers.get(subnet_id).cloned().unwrap_or_default();
            let tables = route_tables_of(&session, subnet_id, s.vpc_id()).await;
            for table in tables {
                let Some(table_id) = table.route_table_id().map(str::to_owned) else {
                    continue;
                };
                let (_, meta) = ec2_node::route_table(&table, lexicon);
                merge(&mut out, table_id, meta, &pulled_by);
                for route in table.routes() {
                    if let Some(gateway) = route.gateway_id().filter(|g| g.starts_with("igw-")) {
                        let meta = ResourceMetadata::new("AWS::EC2::InternetGateway", "OBSERVED")
                            .with_physical_id(gateway)
                            .with_ownership(chant_lexicon::Ownership::Foreign);
                        merge(&mut out, gateway.to_owned(), meta, &pulled_by);
                    }
                }
            }
        }
    }
    Ok(out)
}

async fn route_tables_of(
    session: &Session,
    subnet: &str,
    vpc: Option<&str>,
) -> Vec<aws_sdk_ec2::types::RouteTable> {
    use aws_sdk_ec2::types::Filter;
    let ec2 = session.ec2();
    let own = ec2
        .describe_route_tables()
        .filters(
            Filter::builder()
                .name("association.subnet-id")
                .values(subnet)
                .build(),
        )
        .send()
        .await
        .map(|a| a.route_tables().to_vec())
        .unwrap_or_default();
    if !own.is_empty() {
        return own;
    }
    let Some(vpc) = vpc else { return Vec::new() };
    ec2.describe_route_tables()
        .filters(Filter::builder().name("vpc-id").values(vpc).build())
        .filters(
            Filter::builder()
                .name("association.main")
                .values("true")
                .build(),
        )
        .send()
        .await
        .map(|a| a.route_tables().to_vec())
        .unwrap_or_default()
}

fn insert(
    out: &mut BTreeMap<String, ResourceMetadata>,
    node: (String, ResourceMetadata),
    referrers: &BTreeMap<String, BTreeSet<String>>,
) {
    let (id, meta) = node;
    let pulled_by = referrers.get(&id).cloned().unwrap_or_default();
    merge(out, id, meta, &pulled_by);
}

fn merge(
    out: &mut BTreeMap<String, ResourceMetadata>,
    id: String,
    meta: ResourceMetadata,
    pulled_by: &BTreeSet<String>,
) {
    if pulled_by.is_empty() {
        return;
    }
    let entry = out.entry(id).or_insert(meta);
    for name in pulled_by {
        if !entry.referenced_by.contains(name) {
            entry.referenced_by.push(name.clone());
        }
    }
    entry.referenced_by.sort();
}

/// EC2 ids written literally anywhere in declared properties.
fn ec2_ids(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => {
            let is_id = ["vpc-", "subnet-", "sg-"].iter().any(|p| {
                s.strip_prefix(p).is_some_and(|rest| {
                    !rest.is_empty() && rest.chars().all(|c| c.is_ascii_hexdigit())
                })
            });
            if is_id && !out.contains(s) {
                out.push(s.clone());
            }
        }
        Value::Array(items) => items.iter().for_each(|v| ec2_ids(v, out)),
        Value::Object(map) => map.values().for_each(|v| ec2_ids(v, out)),
        _ => {}
    }
}

/// A session for environment-wide reads (the first stack's region, else the environment's).
pub async fn env_session(
    lexicon: &AwsLexicon,
    environment: &str,
    stack: Option<&str>,
    region: Option<&str>,
) -> HookResult<Session> {
    let target = lexicon.targets(environment, stack).into_iter().next();
    lexicon
        .bind(
            environment,
            target.as_ref(),
            region,
            std::time::Duration::from_secs(30),
        )
        .await
        .map_err(|e| match e {
            Unbound::Hole(h) => HookError::Failed(format!("{}: {}", h.reason, h.detail)),
            refused => unbound_error(refused),
        })
}

/// EC2 objects as dependency / ambient nodes, keyed by their id.
pub mod ec2_node {
    use crate::lexicon::AwsLexicon;
    use crate::ownership::marker_in_pairs;
    use aws_sdk_ec2::types::{NetworkInterface, RouteTable, SecurityGroup, Subnet, Tag, Vpc};
    use chant_lexicon::{Ownership, ProjectMarker, ResourceMetadata};

    fn node(
        lexicon: &AwsLexicon,
        entity_type: &str,
        id: &str,
        tags: &[Tag],
        provider_default: bool,
    ) -> (String, ResourceMetadata) {
        let marker = marker_in_pairs(
            tags.iter()
                .map(|t| (t.key().unwrap_or_default(), t.value().unwrap_or_default())),
        );
        let ownership = match &marker {
            // The environment is unknown here: a marker of this stack is owned in some env.
            Some(m) if m.stack == lexicon.settings().project_stack => {
                ProjectMarker::new(&m.stack, m.env.clone().unwrap_or_default()).classify(Some(m))
            }
            _ => Ownership::Foreign,
        };
        let mut meta = ResourceMetadata::new(entity_type, "OBSERVED")
            .with_physical_id(id)
            .with_ownership(ownership)
            .with_marker(marker);
        meta.provider_default = provider_default;
        (id.to_owned(), meta)
    }

    pub fn vpc(v: &Vpc, l: &AwsLexicon) -> (String, ResourceMetadata) {
        node(
            l,
            "AWS::EC2::VPC",
            v.vpc_id().unwrap_or_default(),
            v.tags(),
            v.is_default().unwrap_or(false),
        )
    }

    pub fn subnet(s: &Subnet, l: &AwsLexicon) -> (String, ResourceMetadata) {
        let (id, meta) = node(
            l,
            "AWS::EC2::Subnet",
            s.subnet_id().unwrap_or_default(),
            s.tags(),
            s.default_for_az().unwrap_or(false),
        );
        (
            id,
            meta.with_attribute("VpcId", s.vpc_id().unwrap_or_default()),
        )
    }

    pub fn security_group(g: &SecurityGroup, l: &AwsLexicon) -> (String, ResourceMetadata) {
        let (id, meta) = node(
            l,
            "AWS::EC2::SecurityGroup",
            g.group_id().unwrap_or_default(),
            g.tags(),
            g.group_name() == Some("default"),
        );
        (
            id,
            meta.with_attribute("VpcId", g.vpc_id().unwrap_or_default())
                .with_attribute("GroupName", g.group_name().unwrap_or_default()),
        )
    }

    pub fn network_interface(n: &NetworkInterface, l: &AwsLexicon) -> (String, ResourceMetadata) {
        node(
            l,
            "AWS::EC2::NetworkInterface",
            n.network_interface_id().unwrap_or_default(),
            n.tag_set(),
            false,
        )
    }

    pub fn route_table(t: &RouteTable, l: &AwsLexicon) -> (String, ResourceMetadata) {
        let main = t.associations().iter().any(|a| a.main().unwrap_or(false));
        node(
            l,
            "AWS::EC2::RouteTable",
            t.route_table_id().unwrap_or_default(),
            t.tags(),
            main,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn literal_ec2_ids_are_found_anywhere_in_props() {
        let mut ids = Vec::new();
        ec2_ids(
            &json!({"VpcId": "vpc-0abc", "VpcConfig": {"SubnetIds": ["subnet-1f", "!Ref Subnet"], "SecurityGroupIds": ["sg-99"]}, "Name": "vpc-not-an-id"}),
            &mut ids,
        );
        assert_eq!(ids, ["sg-99", "subnet-1f", "vpc-0abc"]);
    }

    #[test]
    fn the_catalog_chains_subnet_route_table_gateway() {
        let catalog = reference_catalog();
        let chained: Vec<&str> = catalog
            .refs
            .iter()
            .filter(|r| r.chained)
            .filter_map(|r| r.via_attr.as_deref())
            .collect();
        assert!(
            chained.contains(&"SubnetId")
                && chained.contains(&"RouteTableId")
                && chained.contains(&"GatewayId")
        );
    }
}
