//! `observe_ambient`: what is simply there — security groups, VPCs, subnets and network
//! interfaces of the region that nothing observed accounts for. Default-VPC objects are
//! marked `provider_default`.

use crate::dependencies::{ec2_node, env_session};
use crate::errors::classify;
use crate::lexicon::AwsLexicon;
use chant_lexicon::{AmbientRequest, HookError, HookResult, ResourceMetadata};
use std::collections::{BTreeMap, BTreeSet};

pub const AMBIENT_KINDS: [&str; 4] = [
    "AWS::EC2::SecurityGroup",
    "AWS::EC2::VPC",
    "AWS::EC2::NetworkInterface",
    "AWS::EC2::Subnet",
];

pub async fn observe(
    lexicon: &AwsLexicon,
    request: &AmbientRequest,
) -> HookResult<BTreeMap<String, ResourceMetadata>> {
    let session = env_session(
        lexicon,
        &request.environment,
        request.stack.as_deref(),
        request.region.as_deref(),
    )
    .await?;
    let observed: BTreeSet<&str> = request
        .observed
        .values()
        .filter_map(|m| m.physical_id.as_deref())
        .chain(request.observed.keys().map(String::as_str))
        .collect();
    let wanted = |kind: &str| {
        AMBIENT_KINDS.contains(&kind)
            && (request.kinds.is_empty() || request.kinds.iter().any(|k| k == kind))
    };
    let ec2 = session.ec2();
    let mut rows = Vec::new();
    let failed = |e: String| HookError::Failed(e);
    if wanted("AWS::EC2::SecurityGroup") {
        let answer = ec2
            .describe_security_groups()
            .send()
            .await
            .map_err(|e| failed(classify(&e).detail))?;
        rows.extend(
            answer
                .security_groups()
                .iter()
                .map(|g| ec2_node::security_group(g, lexicon)),
        );
    }
    if wanted("AWS::EC2::VPC") {
        let answer = ec2
            .describe_vpcs()
            .send()
            .await
            .map_err(|e| failed(classify(&e).detail))?;
        rows.extend(answer.vpcs().iter().map(|v| ec2_node::vpc(v, lexicon)));
    }
    if wanted("AWS::EC2::Subnet") {
        let answer = ec2
            .describe_subnets()
            .send()
            .await
            .map_err(|e| failed(classify(&e).detail))?;
        rows.extend(
            answer
                .subnets()
                .iter()
                .map(|s| ec2_node::subnet(s, lexicon)),
        );
    }
    if wanted("AWS::EC2::NetworkInterface") {
        let answer = ec2
            .describe_network_interfaces()
            .send()
            .await
            .map_err(|e| failed(classify(&e).detail))?;
        rows.extend(
            answer
                .network_interfaces()
                .iter()
                .map(|n| ec2_node::network_interface(n, lexicon)),
        );
    }
    Ok(rows
        .into_iter()
        .filter(|(id, _)| !observed.contains(id.as_str()))
        .map(|(id, mut meta)| {
            meta.ambient = true;
            meta = meta.with_attribute("region", session.region.clone());
            (id, meta)
        })
        .collect())
}
