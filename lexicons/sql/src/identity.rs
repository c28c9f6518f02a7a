//! `describe_identity`: who the reads act as, on which server and database, bound how.

use crate::session::{Fault, WhoAmI};
use chant_lexicon::{Identity, IdentityAnswer};

pub fn answer(whoami: Result<WhoAmI, Fault>, source: &str) -> IdentityAnswer {
    match whoami {
        Ok(who) => IdentityAnswer::Resolved(Identity {
            identity: who.principal,
            scope: who.scope,
            source: source.to_owned(),
            endpoint: Some(who.endpoint),
            target: Some(who.target),
        }),
        Err(fault) => IdentityAnswer::unresolved(fault.reason, fault.detail),
    }
}
