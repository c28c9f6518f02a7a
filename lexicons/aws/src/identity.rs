//! `describe_identity` (whoami): STS GetCallerIdentity, plus the IAM account alias when
//! the principal may read it. Identity is the ARN; scope the account and region; source
//! where the credentials came from; endpoint the address the self-query went to, resolved
//! by the same helper as every read.

use crate::lexicon::{AwsLexicon, caller_identity, refusal};
use crate::session::Service;
use chant_lexicon::{HookError, HookResult, Identity, IdentityAnswer, IdentityRequest};

pub async fn describe_identity(
    lexicon: &AwsLexicon,
    request: &IdentityRequest,
) -> HookResult<IdentityAnswer> {
    let timeout = std::time::Duration::from_secs(30);
    let binding = lexicon.settings().binding(&request.environment);
    let session = match crate::session::open(
        &request.environment,
        &binding,
        request
            .region
            .clone()
            .map(|r| ("the environment's stacks", r)),
        &lexicon.overrides,
        timeout,
    )
    .await
    {
        Ok(session) => session,
        Err(e) => return Ok(IdentityAnswer::unresolved(e.reason, e.detail)),
    };
    let credentials = match session.credentials().await {
        Ok(credentials) => credentials,
        Err(e) => return Ok(IdentityAnswer::unresolved(e.reason, e.detail)),
    };
    let caller = match caller_identity(&session).await {
        Ok(caller) => caller,
        Err(f) => {
            return Ok(IdentityAnswer::unresolved(
                f.reason,
                format!("GetCallerIdentity: {}", f.detail),
            ));
        }
    };
    if let Some(allowed) = binding.allowed()
        && !allowed.contains(&caller.account)
    {
        return Err(HookError::Refused(refusal(
            &request.environment,
            &allowed,
            &caller.account,
        )));
    }
    let alias = session
        .iam()
        .list_account_aliases()
        .send()
        .await
        .ok()
        .and_then(|a| a.account_aliases().first().cloned());
    let alias = alias.map(|a| format!(" ({a})")).unwrap_or_default();
    Ok(IdentityAnswer::Resolved(Identity {
        identity: caller.arn,
        scope: format!(
            "account {}{alias}, region {} (from {})",
            caller.account, session.region, session.region_source
        ),
        source: session.credential_source(&credentials),
        endpoint: Some(session.endpoint(Service::Sts)),
        target: Some(caller.account),
    }))
}
