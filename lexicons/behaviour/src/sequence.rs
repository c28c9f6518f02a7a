//! The sequence every `predict_behaviour` runs, in the contract's order: screen the
//! request before any transport exists, resolve the engine before pricing anything, build
//! the transport (a URL without a token is refused here), send, and parse the answer into
//! a report through the contract's builder. A lexicon supplies only its wire version.

use crate::transport_for;
use chant_lexicon::behaviour::{
    BehaviourOutcome, BehaviourReport, BehaviourRequest, Variables, WireCondition,
    behaviour_engine_from, behaviour_token_from, behaviour_wire_refusal,
    no_behaviour_engine_refusal, screen_behaviour_request,
};
use chant_lexicon::exec::Exec;
use chant_lexicon::{HookError, HookResult};
use std::sync::Arc;

/// A lexicon's wire version: how it renders a request and reads an answer.
pub trait Wire: Send + Sync {
    fn render(&self, request: &BehaviourRequest) -> Result<String, HookError>;

    /// An answer that cannot be read, or that is not an answer to `request` (the report
    /// builder refused it), is `Err` with the reason.
    fn parse(&self, request: &BehaviourRequest, answer: &str) -> Result<BehaviourReport, String>;
}

pub async fn predict(
    lexicon: &str,
    request: &BehaviourRequest,
    variables: &dyn Variables,
    exec: Arc<dyn Exec>,
    wire: &dyn Wire,
) -> HookResult<BehaviourOutcome> {
    if let Some(refusal) = screen_behaviour_request(lexicon, request)? {
        return Ok(BehaviourOutcome::Refusal(refusal));
    }
    let Some(endpoint) = behaviour_engine_from(lexicon, variables) else {
        return Ok(BehaviourOutcome::Refusal(no_behaviour_engine_refusal(
            lexicon,
        )));
    };
    let transport = match transport_for(
        lexicon,
        &endpoint,
        variables,
        request.observe.request_timeout,
        exec,
    ) {
        Ok(transport) => transport,
        Err(refusal) => return Ok(BehaviourOutcome::Refusal(refusal)),
    };
    let body = wire.render(request)?;
    let answer = match transport.send(&body).await {
        Ok(answer) => answer,
        Err(refusal) => return Ok(BehaviourOutcome::Refusal(refusal)),
    };
    match wire.parse(request, &answer) {
        Ok(report) => Ok(BehaviourOutcome::Report(report)),
        Err(why) => {
            // An engine may echo the token anywhere, a malformed answer included.
            let token = behaviour_token_from(lexicon, variables);
            let secrets: Vec<&str> = token.iter().map(|t| t.token.expose()).collect();
            Ok(BehaviourOutcome::Refusal(behaviour_wire_refusal(
                lexicon,
                &endpoint,
                None,
                &WireCondition::BadAnswer(why),
                &secrets,
            )))
        }
    }
}
