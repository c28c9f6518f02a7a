//! `describe_resources`: DescribeStackResources for each of the environment's stacks.
//!
//! - A missing stack is pre-first-apply: its declared entities are absent (unless the
//!   identity fallback finds one outside the stack).
//! - Every other failure makes the stack's declared entities not observed, with
//!   no-credentials or read-failed decided from the error code.
//! - DescribeStackResources carries no per-resource tags, so ownership is read from the
//!   stack's own tags: every member of a marked stack carries that stack's marker. A stack
//!   with no marker says so in a note; `unknown` is left for a DescribeStacks that did not
//!   answer.
//! - Every member of the stack is returned, declared or not, so `plan` can propose
//!   `delete` for owned orphans and `adopt` for the rest.

use crate::cloudcontrol::{self, Lookup};
use crate::errors::Failure;
use crate::lexicon::{AwsLexicon, StackTarget};
use crate::ownership::{describe_marker, marker_in_pairs};
use crate::session::Session;
use crate::stack::{self, Member, StackInfo};
use chant_lexicon::{
    DeclaredEntity, DescribeResult, HookResult, Observation, ObserveRequest, Ownership,
    OwnershipMarker, ResourceMetadata, UnobservedEntity, UnobservedReason, bounded_concurrently,
};
use std::collections::BTreeSet;

const NESTED_STACK: &str = "AWS::CloudFormation::Stack";

pub async fn describe(
    lexicon: &AwsLexicon,
    request: &ObserveRequest,
) -> HookResult<DescribeResult> {
    let mut parts = Vec::new();
    let mut claimed = BTreeSet::new();
    for scope in lexicon.stack_scopes(request).await? {
        claimed.extend(scope.entities.iter().map(|e| e.name.clone()));
        match &scope.session {
            Ok(session) => parts
                .push(read_stack(lexicon, request, session, &scope.target, &scope.entities).await),
            Err(e) => parts.push(all_unobserved(&scope.entities, e.reason, &e.detail, None)),
        }
    }
    let unplaced: Vec<&DeclaredEntity> = request
        .entities
        .iter()
        .filter(|e| !claimed.contains(&e.name))
        .collect();
    if !unplaced.is_empty() {
        parts.push(all_unobserved(
            &unplaced,
            UnobservedReason::NoBinding,
            "no configured stack declares this entity",
            None,
        ));
    }
    Ok(Observation::merge(parts).into())
}

fn all_unobserved(
    entities: &[&DeclaredEntity],
    reason: UnobservedReason,
    detail: &str,
    queried: Option<&str>,
) -> Observation {
    let mut out = Observation::new();
    for entity in entities {
        let mut entry = UnobservedEntity::new(reason)
            .typed(&entity.entity_type)
            .detail(detail);
        if let Some(q) = queried {
            entry = entry.queried(q);
        }
        out.unobserved(&entity.name, entry);
    }
    out
}

/// How the stack's own tags classify its members.
enum StackOwnership {
    Read(Option<OwnershipMarker>),
    Unread(Failure),
}

async fn read_stack(
    lexicon: &AwsLexicon,
    request: &ObserveRequest,
    session: &Session,
    target: &StackTarget,
    entities: &[&DeclaredEntity],
) -> Observation {
    let address = stack::describe_address(session, &target.name);
    let (info, members) = tokio::join!(
        stack::info(session, &target.name),
        stack::members(session, &target.name)
    );
    let mut out = Observation::new();
    let members = match members {
        Ok(members) => members,
        Err(f) if f.is_missing_stack() => {
            // Pre-first-apply: nothing of this stack exists yet.
            for entity in entities {
                out.queried(&entity.name, &address);
            }
            fallback(request, session, entities, &mut out).await;
            return out;
        }
        Err(f) => {
            let detail = format!(
                "DescribeStackResources failed for stack \"{}\": {}",
                target.name, f.detail
            );
            return all_unobserved(entities, f.reason, &detail, Some(&address));
        }
    };
    let ownership = match info {
        Ok(StackInfo { tags, .. }) => StackOwnership::Read(marker_in_pairs(
            tags.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        )),
        Err(f) => StackOwnership::Unread(f),
    };
    let mut all_members: Vec<(String, Member)> = members
        .iter()
        .map(|m| (m.logical_id.clone(), m.clone()))
        .collect();
    for nested in members
        .iter()
        .filter(|m| m.resource_type == NESTED_STACK && m.exists())
    {
        let Some(id) = &nested.physical_id else {
            continue;
        };
        match stack::members(session, id).await {
            Ok(children) => {
                for child in children {
                    let taken = all_members
                        .iter()
                        .any(|(name, _)| *name == child.logical_id);
                    let name = if taken {
                        format!("{}/{}", nested.logical_id, child.logical_id)
                    } else {
                        child.logical_id.clone()
                    };
                    all_members.push((name, child));
                }
            }
            Err(f) => {
                let declared_stack = lexicon.declared_stack(target);
                let inside: Vec<&DeclaredEntity> = entities
                    .iter()
                    .copied()
                    .filter(|e| {
                        declared_stack
                            .nested_in
                            .get(&e.name)
                            .and_then(|p| p.as_deref())
                            == Some(nested.logical_id.as_str())
                    })
                    .collect();
                let detail = format!(
                    "DescribeStackResources failed for nested stack \"{}\": {}",
                    nested.logical_id, f.detail
                );
                let nested_address = stack::describe_address(session, id);
                let holes = all_unobserved(&inside, f.reason, &detail, Some(&nested_address));
                out.unobserved.extend(holes.unobserved);
            }
        }
    }

    let declared: BTreeSet<&str> = entities.iter().map(|e| e.name.as_str()).collect();
    for entity in entities {
        out.queried(&entity.name, &address);
    }
    for (name, member) in all_members.iter().filter(|(_, m)| m.exists()) {
        if out.unobserved.contains_key(name) {
            continue;
        }
        let is_declared = declared.contains(name.as_str());
        let (verdict, marker) = match &ownership {
            StackOwnership::Read(marker) => {
                (request.project.classify(marker.as_ref()), marker.clone())
            }
            StackOwnership::Unread(_) => (Ownership::Unknown, None),
        };
        if request.owned && verdict != Ownership::Owned {
            if is_declared {
                let detail = match &ownership {
                    StackOwnership::Read(marker) => format!(
                        "present, {verdict}: stack \"{}\" carries {}",
                        target.name,
                        describe_marker(marker.as_ref())
                    ),
                    StackOwnership::Unread(f) => format!(
                        "present, but the stack's tags (its ownership) could not be read: {}",
                        f.detail
                    ),
                };
                let reason = match ownership {
                    StackOwnership::Read(_) => UnobservedReason::Filtered,
                    StackOwnership::Unread(ref f) => f.reason,
                };
                out.unobserved(
                    name,
                    UnobservedEntity::new(reason)
                        .typed(&member.resource_type)
                        .detail(detail)
                        .queried(&address),
                );
            }
            continue;
        }
        let mut meta = ResourceMetadata::new(&member.resource_type, &member.status)
            .with_ownership(verdict)
            .with_marker(marker)
            .with_attribute("stack", target.name.clone())
            .with_attribute("region", session.region.clone());
        meta.physical_id = member.physical_id.clone();
        meta.last_updated = member.last_updated.clone();
        meta.bound_by = Some("logical id".to_owned());
        out.present(name, meta);
    }
    match &ownership {
        StackOwnership::Read(None) => out.note(format!(
            "stack \"{}\" carries no chant:managed-by tag: its members are read as foreign (describe_resources takes ownership from the stack's own tags, since DescribeStackResources returns no per-resource tags); tag the stack with chant:managed-by, chant:stack and chant:env to own it",
            target.name
        )),
        StackOwnership::Unread(f) => out.note(format!(
            "the tags of stack \"{}\" could not be read ({}), so ownership of its members is unknown",
            target.name, f.detail
        )),
        StackOwnership::Read(Some(_)) => {}
    }
    let missing: Vec<&DeclaredEntity> = entities
        .iter()
        .copied()
        .filter(|e| !out.resources.contains_key(&e.name) && !out.unobserved.contains_key(&e.name))
        .collect();
    fallback(request, session, &missing, &mut out).await;
    out
}

/// The identity fallback for declared entities outside the stack: Cloud Control
/// GetResource by primary identifier. Found → present and (unless it carries our marker)
/// foreign. The stack already answered for these entities, so a failed lookup leaves
/// them absent, with a note saying the outside check could not be made.
async fn fallback(
    request: &ObserveRequest,
    session: &Session,
    entities: &[&DeclaredEntity],
    out: &mut Observation,
) {
    let lookups: Vec<(DeclaredEntity, String)> = entities
        .iter()
        .filter_map(|e| {
            cloudcontrol::declared_identifier(&e.entity_type, &e.props).map(|id| ((*e).clone(), id))
        })
        .collect();
    let client = &session.cloudcontrol();
    let answers = bounded_concurrently(
        lookups,
        request.pool(crate::lexicon::AWS_CONCURRENCY),
        |(entity, identifier)| async move {
            let answer = cloudcontrol::get(client, &entity.entity_type, &identifier).await;
            (entity, identifier, answer)
        },
    )
    .await;
    let mut unchecked = Vec::new();
    for (entity, identifier, answer) in answers {
        match answer {
            Ok(Lookup::Found {
                identifier: found,
                properties,
            }) => {
                let marker = properties
                    .get("Tags")
                    .and_then(crate::ownership::marker_in_tag_array);
                let verdict = request.project.classify(marker.as_ref());
                let address = cloudcontrol::address(session, &entity.entity_type, &identifier);
                if request.owned && verdict != Ownership::Owned {
                    out.unobserved(
                        &entity.name,
                        UnobservedEntity::new(UnobservedReason::Filtered)
                            .typed(&entity.entity_type)
                            .detail(format!(
                                "exists outside the stack, {verdict}: {}",
                                describe_marker(marker.as_ref())
                            ))
                            .queried(address),
                    );
                    continue;
                }
                let mut meta = ResourceMetadata::new(&entity.entity_type, "EXTERNAL")
                    .with_physical_id(found)
                    .with_ownership(verdict)
                    .with_marker(marker)
                    .with_attribute("region", session.region.clone());
                meta.bound_by = Some("primary identifier (outside the stack)".to_owned());
                out.queried(&entity.name, address);
                out.present(&entity.name, meta);
            }
            Ok(Lookup::NotFound) => {}
            Err(failure) => unchecked.push(format!("{} ({})", entity.name, failure.detail)),
        }
    }
    if !unchecked.is_empty() {
        out.note(format!(
            "declared resources not in the stack could not be looked up outside it through Cloud Control, so they read as not yet created: {}",
            unchecked.join("; ")
        ));
    }
}
