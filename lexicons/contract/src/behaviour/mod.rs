//! The behaviour contract: what `predict_behaviour` may mean.
//!
//! The thin and deep reads report what a substrate was asked and answered. A prediction
//! reports what no substrate holds: how the estate would behave at a traffic level the
//! caller names — cost per hour, CPU and latency headroom, an expected error rate, a
//! verdict under a named failure, an optional right-size hint. An external engine
//! computes it from the resource graph and the traffic level and nothing else; chant
//! resolves the engine, screens the request, sends it, and reports what comes back —
//! never a figure of its own.
//!
//! - [`figures`]: the per-entity block. No figure without `at` and [`Provenance`]; money
//!   only as a [`PredictedRate`] with a literal per-hour discriminant.
//! - [`reason`]: the tri-state's reasons (the shared ones minus `no-credentials`, plus the
//!   engine's own).
//! - [`engine`]: the engine and token chains, returning the value and the variable that won.
//! - [`refusal`]: the refusal arm, its builders, and [`behaviour_wire_refusal`].
//! - [`screen`]: [`screen_behaviour_request`], run before any transport exists.
//! - [`report`]: [`behaviour_report`], which refuses an answer to another question.
//! - [`compare`]: [`compare_figures`], every axis a pair disagrees on, for marking deltas.
//! - [`edges`]: declared and rebuilt edges, with "not computed" kept apart from "none".
//! - [`transport`]: the one-method transport seam.

pub mod compare;
pub mod edges;
pub mod engine;
pub mod figures;
pub mod reason;
pub mod refusal;
pub mod report;
pub mod request;
pub mod screen;
pub mod transport;

pub use compare::{FIGURE_MISMATCHES, FigureMismatch, compare_figures, is_comparable_figure};
pub use edges::{
    CoverageVerdict, DanglingRef, Edge, EdgeCoverage, EdgeOrigin, Edges, edges_from_props,
    edges_from_references, labelled_values_at, rebuild_edges,
};
pub use engine::{
    ProcessEnv, Resolved, ResolvedToken, Token, Variables, behaviour_engine_from,
    behaviour_token_from, engine_variables, token_variables,
};
pub use figures::{
    Basis, Headroom, PredictedBehaviour, PredictedRate, Provenance, RatePeriod, Resilience,
    ResilienceVerdict, RightSize, TrafficLevel, validate_block,
};
pub use reason::{BehaviourUnpredictedReason, UnpredictedEntity};
pub use refusal::{
    BehaviourRefusal, WireCondition, behaviour_wire_refusal, missing_token_refusal,
    no_behaviour_engine_refusal, redact_engine_address, scrub_engine_detail,
};
pub use report::{
    BehaviourOutcome, BehaviourReport, EngineStamp, ReportError, ReportMeta, behaviour_report,
};
pub use request::{BehaviourRequest, Estate};
pub use screen::{ScreenFinding, ScreenRule, find_credentials, screen_behaviour_request};
pub use transport::BehaviourTransport;
