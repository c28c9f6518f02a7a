//! CloudFormation reads of one deployed stack: its own tags and status, and its members.

use crate::errors::{Failure, classify};
use crate::session::{Service, Session};
use aws_sdk_cloudformation::primitives::{DateTime, DateTimeFormat};

/// DescribeStackResources returns at most this many; beyond it ListStackResources pages.
const DESCRIBE_LIMIT: usize = 100;

/// The stack's own record.
#[derive(Clone, Debug, PartialEq)]
pub struct StackInfo {
    pub name: String,
    pub id: Option<String>,
    pub status: String,
    pub tags: Vec<(String, String)>,
}

/// One member resource of a stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub logical_id: String,
    pub physical_id: Option<String>,
    pub resource_type: String,
    pub status: String,
    pub last_updated: Option<String>,
}

impl Member {
    fn new(
        logical_id: Option<&str>,
        physical_id: Option<&str>,
        resource_type: Option<&str>,
        status: Option<&str>,
        updated: Option<&DateTime>,
    ) -> Self {
        Member {
            logical_id: logical_id.unwrap_or_default().to_owned(),
            physical_id: physical_id.map(str::to_owned),
            resource_type: resource_type.unwrap_or_default().to_owned(),
            status: status.unwrap_or_default().to_owned(),
            last_updated: updated.and_then(timestamp),
        }
    }

    /// A member whose deletion finished is gone, whatever the stack still lists.
    pub fn exists(&self) -> bool {
        self.status != "DELETE_COMPLETE"
    }
}

pub fn describe_address(session: &Session, stack: &str) -> String {
    session.address(
        Service::CloudFormation,
        &format!("DescribeStackResources(StackName={stack})"),
    )
}

pub async fn info(session: &Session, stack: &str) -> Result<StackInfo, Failure> {
    let answer = session
        .cloudformation()
        .describe_stacks()
        .stack_name(stack)
        .send()
        .await
        .map_err(|e| classify(&e))?;
    let Some(found) = answer.stacks().first() else {
        return Err(Failure {
            reason: chant_lexicon::UnobservedReason::ReadFailed,
            detail: format!("ValidationError: Stack with id {stack} does not exist"),
            code: Some("ValidationError".into()),
        });
    };
    Ok(StackInfo {
        name: found.stack_name().unwrap_or(stack).to_owned(),
        id: found.stack_id().map(str::to_owned),
        status: found
            .stack_status()
            .map(|s| s.as_str().to_owned())
            .unwrap_or_default(),
        tags: found
            .tags()
            .iter()
            .filter_map(|t| Some((t.key()?.to_owned(), t.value()?.to_owned())))
            .collect(),
    })
}

pub async fn members(session: &Session, stack: &str) -> Result<Vec<Member>, Failure> {
    let client = session.cloudformation();
    let answer = client
        .describe_stack_resources()
        .stack_name(stack)
        .send()
        .await
        .map_err(|e| classify(&e))?;
    let described: Vec<Member> = answer
        .stack_resources()
        .iter()
        .map(|r| {
            Member::new(
                r.logical_resource_id(),
                r.physical_resource_id(),
                r.resource_type(),
                r.resource_status().map(|s| s.as_str()),
                r.timestamp(),
            )
        })
        .collect();
    if described.len() < DESCRIBE_LIMIT {
        return Ok(described);
    }
    let mut listed = Vec::new();
    let mut pages = client
        .list_stack_resources()
        .stack_name(stack)
        .into_paginator()
        .send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| classify(&e))?;
        listed.extend(page.stack_resource_summaries().iter().map(|r| {
            Member::new(
                r.logical_resource_id(),
                r.physical_resource_id(),
                r.resource_type(),
                r.resource_status().map(|s| s.as_str()),
                r.last_updated_timestamp(),
            )
        }));
    }
    Ok(listed)
}

/// The stack's template as deployed (`GetTemplate`, stage Original).
pub async fn original_template(session: &Session, stack: &str) -> Result<String, Failure> {
    let answer = session
        .cloudformation()
        .get_template()
        .stack_name(stack)
        .template_stage(aws_sdk_cloudformation::types::TemplateStage::Original)
        .send()
        .await
        .map_err(|e| classify(&e))?;
    answer.template_body().map(str::to_owned).ok_or_else(|| {
        Failure::new(
            chant_lexicon::UnobservedReason::ReadFailed,
            format!("stack \"{stack}\" returned no TemplateBody"),
        )
    })
}

fn timestamp(time: &DateTime) -> Option<String> {
    time.fmt(DateTimeFormat::DateTime).ok()
}
