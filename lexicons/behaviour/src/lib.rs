//! Behaviour engine transports and the predict sequence, for every lexicon.
//!
//! The contract (`chant_lexicon::behaviour`) holds the types, the screen, the refusal
//! builders and the [`BehaviourTransport`] seam; this crate holds the two transports that
//! ship with chant and [`predict`], the one sequence a lexicon's `predict_behaviour` runs.
//! They live in their own crate so the contract stays free of an HTTP client: every
//! lexicon depends on the contract, and only the ones that predict pay for reqwest
//! (rustls on aws-lc-rs, the workspace's one TLS stack).
//!
//! [`ExampleWire`] is the example engine's wire version, shared by every lexicon that
//! speaks it; a lexicon adds only its own reference syntax (its `declared_edges`).
//!
//! An engine address (`CHANT_BEHAVIOUR_ENGINE…`) is either a URL (`http://`, `https://`:
//! the request is POSTed with a bearer token from `CHANT_BEHAVIOUR_TOKEN…`) or a command
//! line (split on whitespace, no shell): the program is spawned with an environment of
//! `PATH` and nothing else, reads the request on stdin and writes the answer on stdout.

// A refusal is the answer a transport gives, built once per run and returned whole;
// boxing it would only add noise at every site that matches on it.
#![allow(clippy::result_large_err)]

mod command;
pub mod example_wire;
mod http;
mod sequence;

pub use command::{CommandTransport, child_environment};
pub use example_wire::{EXAMPLE_WIRE, ExampleWire};
pub use http::HttpTransport;
pub use sequence::{Wire, predict};

use chant_lexicon::behaviour::{
    BehaviourRefusal, BehaviourTransport, Resolved, Variables, behaviour_token_from,
    missing_token_refusal, token_variables,
};
use chant_lexicon::exec::Exec;
use std::sync::Arc;
use std::time::Duration;

/// Whether an address is a URL rather than a command line.
pub fn is_url(address: &str) -> bool {
    let lower = address.trim_start().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// The transport an address calls for. A URL without a token is refused here, by name,
/// before anything is sent.
pub fn transport_for(
    lexicon: &str,
    endpoint: &Resolved,
    variables: &dyn Variables,
    timeout: Duration,
    exec: Arc<dyn Exec>,
) -> Result<Box<dyn BehaviourTransport>, BehaviourRefusal> {
    if is_url(&endpoint.value) {
        let token = behaviour_token_from(lexicon, variables)
            .ok_or_else(|| missing_token_refusal(lexicon, endpoint, &token_variables(lexicon)))?;
        Ok(Box::new(HttpTransport::new(
            lexicon,
            endpoint.clone(),
            token,
            timeout,
        )?))
    } else {
        Ok(Box::new(CommandTransport::new(
            lexicon,
            endpoint.clone(),
            variables,
            timeout,
            exec,
        )?))
    }
}
