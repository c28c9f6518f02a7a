//! `describe_stack_status`: one deployed stack by name. Absent is `present: false`; a read
//! that failed for any other reason is indeterminate (`None`).

use crate::lexicon::{AwsLexicon, Unbound, unbound_error};
use crate::stack;
use chant_lexicon::{HookResult, StackStatus, StackStatusRequest};

pub async fn describe(
    lexicon: &AwsLexicon,
    request: &StackStatusRequest,
) -> HookResult<Option<StackStatus>> {
    let target = lexicon
        .targets(&request.environment, Some(&request.stack))
        .into_iter()
        .next();
    let session = match lexicon
        .bind(
            &request.environment,
            target.as_ref(),
            None,
            std::time::Duration::from_secs(30),
        )
        .await
    {
        Ok(session) => session,
        Err(Unbound::Hole(_)) => return Ok(None),
        Err(refused) => return Err(unbound_error(refused)),
    };
    match stack::info(&session, &request.stack).await {
        Ok(info) => Ok(Some(StackStatus {
            stack: request.stack.clone(),
            present: !info.status.is_empty() && info.status != "DELETE_COMPLETE",
            healthy: Some(is_healthy(&info.status)),
            status: Some(info.status),
        })),
        Err(f) if f.is_missing_stack() => Ok(Some(StackStatus {
            stack: request.stack.clone(),
            present: false,
            status: None,
            healthy: None,
        })),
        Err(_) => Ok(None),
    }
}

fn is_healthy(status: &str) -> bool {
    matches!(
        status,
        "CREATE_COMPLETE" | "UPDATE_COMPLETE" | "IMPORT_COMPLETE"
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_settled_successes_are_healthy() {
        assert!(super::is_healthy("UPDATE_COMPLETE"));
        assert!(!super::is_healthy("UPDATE_ROLLBACK_COMPLETE"));
        assert!(!super::is_healthy("CREATE_IN_PROGRESS"));
    }
}
