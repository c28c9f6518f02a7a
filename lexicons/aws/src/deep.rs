//! `observe_resources_deep`: each declared stack member's full live model — Cloud Control
//! GetResource by its physical id, and EC2 security groups through DescribeSecurityGroups
//! (one call for all of them) mapped to the CloudFormation shape. Ownership per resource
//! from its own `chant:managed-by` tags. Policies that arrive as JSON in a string are
//! parsed, so they compare as documents.

use crate::cloudcontrol::{self, Lookup};
use crate::errors::{Failure, classify};
use crate::lexicon::AwsLexicon;
use crate::ownership::{describe_marker, marker_in_tag_array};
use crate::security_groups;
use crate::session::Session;
use crate::stack::{self, Member};
use chant_lexicon::{
    DeclaredEntity, DeepObservation, DeepResourceObservation, HookResult, ObserveRequest,
    Ownership, UnobservedEntity, UnobservedReason, bounded_concurrently,
};
use serde_json::Value;
use std::collections::BTreeMap;

const SECURITY_GROUP: &str = "AWS::EC2::SecurityGroup";

pub async fn observe(
    lexicon: &AwsLexicon,
    request: &ObserveRequest,
) -> HookResult<DeepObservation> {
    let mut out = DeepObservation::default();
    for scope in lexicon.stack_scopes(request).await? {
        let (target, entities) = (&scope.target, &scope.entities);
        let session = match scope.session {
            Ok(session) => session,
            Err(e) => {
                hole_all(&mut out, entities, e.reason, &e.detail);
                continue;
            }
        };
        let members = match stack::members(&session, &target.name).await {
            Ok(members) => members,
            Err(f) if f.is_missing_stack() => continue,
            Err(f) => {
                let detail = format!(
                    "DescribeStackResources failed for stack \"{}\": {}",
                    target.name, f.detail
                );
                hole_all(&mut out, entities, f.reason, &detail);
                continue;
            }
        };
        let by_name: BTreeMap<&str, &Member> = members
            .iter()
            .filter(|m| m.exists())
            .map(|m| (m.logical_id.as_str(), m))
            .collect();
        let in_stack: Vec<(DeclaredEntity, Member)> = entities
            .iter()
            .filter_map(|e| {
                by_name
                    .get(e.name.as_str())
                    .map(|m| ((*e).clone(), (*m).clone()))
            })
            .collect();
        let groups = security_groups_of(&session, &in_stack).await;
        let client = &session.cloudcontrol();
        let reads = bounded_concurrently(in_stack, request.pool(AWS_POOL), |(entity, member)| {
            let session = &session;
            let groups = &groups;
            async move {
                let answer = read_one(session, client, &entity, &member, groups).await;
                (entity, answer)
            }
        })
        .await;
        for (entity, answer) in reads {
            match answer {
                Read::Present(mut resource) => {
                    let marker = resource
                        .properties
                        .get("Tags")
                        .and_then(marker_in_tag_array);
                    let verdict = request.project.classify(marker.as_ref());
                    if request.owned && verdict != Ownership::Owned {
                        out.unobserved.insert(
                            entity.name.clone(),
                            UnobservedEntity::new(UnobservedReason::Filtered)
                                .typed(&entity.entity_type)
                                .detail(format!(
                                    "live resource carries {}",
                                    describe_marker(marker.as_ref())
                                )),
                        );
                        continue;
                    }
                    resource.ownership = Some(verdict);
                    resource.marker = marker;
                    out.resources.insert(entity.name.clone(), resource);
                }
                Read::Absent => {}
                Read::Hole(entry) => {
                    out.unobserved.insert(entity.name.clone(), entry);
                }
            }
        }
    }
    Ok(out)
}

const AWS_POOL: usize = crate::lexicon::AWS_CONCURRENCY;

enum Read {
    Present(DeepResourceObservation),
    Absent,
    Hole(UnobservedEntity),
}

fn hole_all(
    out: &mut DeepObservation,
    entities: &[&DeclaredEntity],
    reason: UnobservedReason,
    detail: &str,
) {
    for e in entities {
        out.unobserved.insert(
            e.name.clone(),
            UnobservedEntity::new(reason)
                .typed(&e.entity_type)
                .detail(detail),
        );
    }
}

type GroupAnswer = Result<BTreeMap<String, aws_sdk_ec2::types::SecurityGroup>, Failure>;

/// All the stack's declared security groups in one DescribeSecurityGroups.
async fn security_groups_of(
    session: &Session,
    in_stack: &[(DeclaredEntity, Member)],
) -> GroupAnswer {
    let ids: Vec<String> = in_stack
        .iter()
        .filter(|(e, _)| e.entity_type == SECURITY_GROUP)
        .filter_map(|(_, m)| m.physical_id.clone())
        .collect();
    if ids.is_empty() {
        return Ok(BTreeMap::new());
    }
    let answer = session
        .ec2()
        .describe_security_groups()
        .set_group_ids(Some(ids))
        .send()
        .await;
    match answer {
        Ok(answer) => Ok(answer
            .security_groups()
            .iter()
            .filter_map(|g| Some((g.group_id()?.to_owned(), g.clone())))
            .collect()),
        Err(e) => Err(classify(&e)),
    }
}

async fn read_one(
    session: &Session,
    client: &aws_sdk_cloudcontrol::Client,
    entity: &DeclaredEntity,
    member: &Member,
    groups: &GroupAnswer,
) -> Read {
    let hole = |reason, detail: String| {
        Read::Hole(
            UnobservedEntity::new(reason)
                .typed(&entity.entity_type)
                .detail(detail),
        )
    };
    let Some(id) = member.physical_id.as_deref().filter(|id| !id.is_empty()) else {
        return hole(
            UnobservedReason::ReadFailed,
            "the stack reports no physical id, so the live resource cannot be addressed".into(),
        );
    };
    if entity.entity_type == SECURITY_GROUP {
        return match groups {
            Ok(found) => match found.get(id) {
                Some(group) => Read::Present(DeepResourceObservation {
                    entity_type: entity.entity_type.clone(),
                    physical_id: Some(id.to_owned()),
                    properties: security_groups::to_cloudformation(group),
                    ..Default::default()
                }),
                None => Read::Absent,
            },
            Err(f) => hole(
                f.reason,
                format!(
                    "DescribeSecurityGroups failed, so {SECURITY_GROUP} could not be read deeply: {}",
                    f.detail
                ),
            ),
        };
    }
    if crate::schema::facts(&entity.entity_type).is_none() {
        return hole(
            UnobservedReason::UnsupportedKind,
            format!(
                "no deep reader for {}: Cloud Control knows no schema for it",
                entity.entity_type
            ),
        );
    }
    let address = cloudcontrol::address(session, &entity.entity_type, id);
    match cloudcontrol::get(client, &entity.entity_type, id).await {
        Ok(Lookup::Found { properties, .. }) => Read::Present(DeepResourceObservation {
            entity_type: entity.entity_type.clone(),
            physical_id: Some(id.to_owned()),
            properties: parse_embedded_json(properties),
            ..Default::default()
        }),
        Ok(Lookup::NotFound) => Read::Absent,
        Err(f) if f.is_unsupported_type() => Read::Hole(
            UnobservedEntity::new(UnobservedReason::UnsupportedKind)
                .typed(&entity.entity_type)
                .detail(format!(
                    "Cloud Control cannot read {}: {}",
                    entity.entity_type, f.detail
                ))
                .queried(address),
        ),
        Err(f) => Read::Hole(
            UnobservedEntity::new(f.reason)
                .typed(&entity.entity_type)
                .detail(format!(
                    "GetResource failed for {} \"{id}\": {}",
                    entity.entity_type, f.detail
                ))
                .queried(address),
        ),
    }
}

/// A policy document that arrives as JSON text becomes the document itself.
fn parse_embedded_json(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = match v {
                        Value::String(s)
                            if k.contains("Policy") && s.trim_start().starts_with('{') =>
                        {
                            serde_json::from_str::<Value>(&s).unwrap_or(Value::String(s))
                        }
                        other => parse_embedded_json(other),
                    };
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(parse_embedded_json).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_in_string_policies_are_parsed() {
        let live = json!({
            "PolicyDocument": "{\"Statement\": [{\"Sid\": \"a\"}]}",
            "Policies": [{"PolicyName": "p", "PolicyDocument": "{\"Version\": \"2012-10-17\"}"}],
            "Description": "{not json}",
            "RedrivePolicy": "not json at all"
        });
        let parsed = parse_embedded_json(live);
        assert_eq!(parsed["PolicyDocument"]["Statement"][0]["Sid"], "a");
        assert_eq!(
            parsed["Policies"][0]["PolicyDocument"]["Version"],
            "2012-10-17"
        );
        assert_eq!(parsed["Description"], "{not json}");
        assert_eq!(parsed["RedrivePolicy"], "not json at all");
    }
}
