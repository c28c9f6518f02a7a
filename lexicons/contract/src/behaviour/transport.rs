//! The transport seam: one method, the request as the lexicon rendered it in, the engine's
//! text (or a refusal ready to return) out. It carries bytes, not reports, so one HTTP
//! client and one command runner serve every lexicon and every wire version. The
//! implementations live in `chant-behaviour`, beside this contract.

use super::engine::Resolved;
use super::refusal::BehaviourRefusal;
use async_trait::async_trait;

#[async_trait]
pub trait BehaviourTransport: Send + Sync {
    /// Send the rendered request; the engine's answer text, or the refusal its wire
    /// condition maps to.
    async fn send(&self, body: &str) -> Result<String, BehaviourRefusal>;

    /// The engine this transport reaches, and the variable that named it.
    fn endpoint(&self) -> &Resolved;
}
