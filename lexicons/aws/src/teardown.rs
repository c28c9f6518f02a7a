//! `teardown_owned` / `execute_teardown`: what this project owns in the environment that
//! nothing declares, found by its marker through the Resource Groups Tagging API (IAM
//! roles, which that API does not list, through IAM's own tags), and deleted through each
//! service's own API in reverse dependency order. A kind this project stamps but neither
//! can list is a hole: unknown, never "safe".

use crate::delete;
use crate::errors::{Failure, classify};
use crate::lexicon::{AwsLexicon, Unbound, unbound_error};
use crate::ownership::{AWS_TAG_OWNERSHIP_KEYS, marker_in_pairs};
use crate::session::{Service, Session};
use crate::stack;
use chant_lexicon::teardown::TeardownFailure;
use chant_lexicon::{
    HookResult, Lexicon, OwnershipMarker, TeardownCandidate, TeardownHole, TeardownOutcome,
    TeardownPlan, TeardownRequest, UnobservedReason, bounded_concurrently,
};
use std::collections::{BTreeMap, BTreeSet};

const ROLE: &str = "AWS::IAM::Role";
const STACK: &str = "AWS::CloudFormation::Stack";

/// One live object carrying this project's marker.
#[derive(Clone, Debug)]
struct Marked {
    arn: String,
    entity_type: Option<&'static str>,
    physical_id: String,
    marker: OwnershipMarker,
    logical_id: Option<String>,
}

pub async fn plan(lexicon: &AwsLexicon, request: &TeardownRequest) -> HookResult<TeardownPlan> {
    let stamped = stamped_kinds(lexicon).await;
    let session = match bind(lexicon, request).await {
        Ok(session) => session,
        Err(Unbound::Hole(e)) => {
            return Ok(TeardownPlan {
                candidates: Vec::new(),
                holes: stamped
                    .iter()
                    .map(|kind| hole(kind, e.reason, &e.detail))
                    .collect(),
            });
        }
        Err(refused) => return Err(unbound_error(refused)),
    };
    let (marked, mut holes) = list_marked(lexicon, request, &session, &stamped).await;
    let names = logical_names(lexicon, request, &session).await;
    let declared: BTreeSet<&str> = request.declared.iter().map(String::as_str).collect();
    let mut candidates: Vec<TeardownCandidate> = Vec::new();
    for m in marked {
        let name = m
            .logical_id
            .clone()
            .or_else(|| names.get(&m.physical_id).cloned())
            .or_else(|| names.get(&m.arn).cloned())
            .unwrap_or_else(|| m.arn.clone());
        if declared.contains(name.as_str()) {
            continue;
        }
        let entity_type = m.entity_type.unwrap_or("unknown");
        if entity_type == STACK && stack_still_declared(&names, &declared) {
            continue;
        }
        candidates.push(TeardownCandidate {
            name,
            entity_type: entity_type.to_owned(),
            physical_id: Some(m.arn.clone()),
            marker: m.marker,
            depends_on: Vec::new(),
            queried: Some(session.address(
                Service::Tagging,
                "GetResources(TagFilters=chant:managed-by=chant)",
            )),
        });
    }
    candidates.sort_by(|a, b| {
        (delete::rank(&a.entity_type), &a.name).cmp(&(delete::rank(&b.entity_type), &b.name))
    });
    // A candidate depends on what is deleted after it (a function on its role).
    let snapshot: Vec<(String, u8)> = candidates
        .iter()
        .map(|c| (c.name.clone(), delete::rank(&c.entity_type)))
        .collect();
    for c in &mut candidates {
        let mine = delete::rank(&c.entity_type);
        c.depends_on = snapshot
            .iter()
            .filter(|(_, rank)| *rank > mine)
            .map(|(name, _)| name.clone())
            .collect();
    }
    holes.sort_by(|a, b| a.kind.cmp(&b.kind));
    Ok(TeardownPlan { candidates, holes })
}

pub async fn execute(
    lexicon: &AwsLexicon,
    request: &TeardownRequest,
    plan: &TeardownPlan,
) -> HookResult<TeardownOutcome> {
    let session = bind(lexicon, request).await.map_err(unbound_error)?;
    let stamped: BTreeSet<String> = plan
        .candidates
        .iter()
        .map(|c| c.entity_type.clone())
        .collect();
    // Re-read: delete only what still carries this project's marker right now.
    let (still_marked, _) = list_marked(lexicon, request, &session, &stamped).await;
    let marked_now: BTreeSet<String> = still_marked.into_iter().map(|m| m.arn).collect();
    let mut order: Vec<&TeardownCandidate> = plan.candidates.iter().collect();
    order.sort_by_key(|c| delete::rank(&c.entity_type));
    let mut outcome = TeardownOutcome::default();
    for candidate in order {
        let Some(arn) = candidate.physical_id.as_deref() else {
            outcome.skipped.push(candidate.name.clone());
            continue;
        };
        if !marked_now.contains(arn) || !request.project.matches(&candidate.marker) {
            outcome.skipped.push(candidate.name.clone());
            continue;
        }
        match delete::delete(&session, &candidate.entity_type, arn).await {
            Ok(()) => outcome.deleted.push(candidate.name.clone()),
            Err(f) => outcome.failed.push(TeardownFailure {
                name: candidate.name.clone(),
                detail: f.detail,
            }),
        }
    }
    Ok(outcome)
}

async fn bind(lexicon: &AwsLexicon, request: &TeardownRequest) -> Result<Session, Unbound> {
    let target = lexicon
        .targets(&request.environment, request.stack.as_deref())
        .into_iter()
        .next();
    lexicon
        .bind(
            &request.environment,
            target.as_ref(),
            request.region.as_deref(),
            std::time::Duration::from_secs(30),
        )
        .await
}

/// The kinds this project stamps: declared types with a tag property.
async fn stamped_kinds(lexicon: &AwsLexicon) -> BTreeSet<String> {
    lexicon
        .declared()
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|e| e.entity_type)
        .filter(|t| crate::schema::facts(t).is_some_and(|f| f.tag_property.is_some()))
        .collect()
}

fn hole(kind: &str, reason: UnobservedReason, detail: &str) -> TeardownHole {
    TeardownHole {
        kind: kind.to_owned(),
        reason,
        detail: Some(detail.to_owned()),
    }
}

/// Everything carrying this project's marker, and a hole per stamped kind that could not be listed.
async fn list_marked(
    lexicon: &AwsLexicon,
    request: &TeardownRequest,
    session: &Session,
    stamped: &BTreeSet<String>,
) -> (Vec<Marked>, Vec<TeardownHole>) {
    let mut holes = Vec::new();
    let mut marked = Vec::new();
    match tagged(session, &request.project.stack).await {
        Ok(found) => marked.extend(found),
        Err(f) => {
            for kind in stamped.iter().filter(|k| delete::listed_by_tagging(k)) {
                holes.push(hole(
                    kind,
                    f.reason,
                    &format!("GetResources failed: {}", f.detail),
                ));
            }
        }
    }
    if stamped.contains(ROLE) {
        match tagged_roles(lexicon, session).await {
            Ok(found) => marked.extend(found),
            Err(f) => holes.push(hole(
                ROLE,
                f.reason,
                &format!("IAM ListRoles/ListRoleTags failed: {}", f.detail),
            )),
        }
    }
    for kind in stamped {
        if kind != ROLE && !delete::listed_by_tagging(kind) {
            holes.push(hole(
                kind,
                UnobservedReason::UnsupportedKind,
                &format!("the Resource Groups Tagging API does not list {kind}, so its marker cannot be read back"),
            ));
        }
    }
    marked.retain(|m| request.project.matches(&m.marker));
    (marked, holes)
}

async fn tagged(session: &Session, project_stack: &str) -> Result<Vec<Marked>, Failure> {
    use aws_sdk_resourcegroupstagging::types::TagFilter;
    let mut pages = session
        .tagging()
        .get_resources()
        .tag_filters(
            TagFilter::builder()
                .key(AWS_TAG_OWNERSHIP_KEYS.managed_by)
                .values("chant")
                .build(),
        )
        .tag_filters(
            TagFilter::builder()
                .key(AWS_TAG_OWNERSHIP_KEYS.stack)
                .values(project_stack)
                .build(),
        )
        .into_paginator()
        .send();
    let mut out = Vec::new();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| classify(&e))?;
        for mapping in page.resource_tag_mapping_list() {
            let Some(arn) = mapping.resource_arn() else {
                continue;
            };
            let tags: Vec<(&str, &str)> = mapping
                .tags()
                .iter()
                .map(|t| (t.key(), t.value()))
                .collect();
            let Some(marker) = marker_in_pairs(tags.iter().copied()) else {
                continue;
            };
            let logical_id = tags
                .iter()
                .find(|(k, _)| *k == "aws:cloudformation:logical-id")
                .map(|(_, v)| (*v).to_owned());
            out.push(Marked {
                arn: arn.to_owned(),
                entity_type: delete::type_of_arn(arn),
                physical_id: delete::physical_id_of_arn(arn),
                marker,
                logical_id,
            });
        }
    }
    Ok(out)
}

async fn tagged_roles(lexicon: &AwsLexicon, session: &Session) -> Result<Vec<Marked>, Failure> {
    let iam = session.iam();
    let mut roles = Vec::new();
    let mut pages = iam.list_roles().into_paginator().send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| classify(&e))?;
        roles.extend(
            page.roles()
                .iter()
                .map(|r| (r.role_name().to_owned(), r.arn().to_owned())),
        );
    }
    let answers = bounded_concurrently(roles, lexicon.concurrency(), |(name, arn)| {
        let iam = iam.clone();
        async move {
            let tags = iam.list_role_tags().role_name(&name).send().await;
            (name, arn, tags)
        }
    })
    .await;
    let mut out = Vec::new();
    for (name, arn, tags) in answers {
        let tags = tags.map_err(|e| classify(&e))?;
        let pairs: Vec<(&str, &str)> = tags.tags().iter().map(|t| (t.key(), t.value())).collect();
        if let Some(marker) = marker_in_pairs(pairs) {
            out.push(Marked {
                arn,
                entity_type: Some(ROLE),
                physical_id: name,
                marker,
                logical_id: None,
            });
        }
    }
    Ok(out)
}

/// Physical id (and stack ARN) → logical id, from the environment's stacks.
async fn logical_names(
    lexicon: &AwsLexicon,
    request: &TeardownRequest,
    session: &Session,
) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for target in lexicon.targets(&request.environment, request.stack.as_deref()) {
        if let Ok(info) = stack::info(session, &target.name).await
            && let Some(id) = info.id
        {
            names.insert(id, format!("stack/{}", target.name));
        }
        if let Ok(members) = stack::members(session, &target.name).await {
            for m in members {
                if let Some(p) = m.physical_id {
                    names.insert(p.clone(), m.logical_id.clone());
                    // Queues are listed by URL in the stack and by ARN in the tagging API.
                    if let Some(last) = p.rsplit('/').next()
                        && p.starts_with("http")
                    {
                        names.insert(last.to_owned(), m.logical_id.clone());
                    }
                }
            }
        }
    }
    names
}

/// A stack is never a candidate while any of the environment's stack members is still declared.
fn stack_still_declared(names: &BTreeMap<String, String>, declared: &BTreeSet<&str>) -> bool {
    names
        .values()
        .any(|logical| declared.contains(logical.as_str()))
}
