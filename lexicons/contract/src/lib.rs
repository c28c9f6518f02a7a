//! The plugin contract every chant lexicon implements.
//!
//! A lexicon owns both halves of one substrate: it reads the declared build output
//! ([`DeclaredEntity`]) and it reads the live estate through the substrate's API. Every
//! hook is optional; the default answers [`HookError::Unsupported`] and the engine
//! warn-skips it rather than guessing.
//!
//! The central rule: each declared entity is observed present, observed absent, or **not
//! observed with a reason**. A read that failed is never an absence, and only a live
//! ownership marker ever makes a delete.

pub mod ambient;
pub mod behaviour;
pub mod credentials;
pub mod declared;
pub mod deep;
pub mod disruption;
pub mod exec;
pub mod export;
pub mod harness;
pub mod hook_cache;
pub mod identity;
pub mod lexicon;
pub mod metadata;
pub mod observation;
pub mod ownership;
pub mod parallel;
pub mod reason;
pub mod reference;
pub mod settings;
pub mod stack_status;
pub mod teardown;

pub use ambient::{AmbientRequest, DependencyRequest};
pub use declared::{DeclaredEntity, SourceDiagnostic, SourceSpan};
pub use deep::{
    Counterpart, DeepArrayElement, DeepNode, DeepObservation, DeepResourceObservation,
    NormalizationHooks, PathPattern, Side,
};
pub use disruption::{Disruption, DisruptionQuery, DisruptionRequest, DisruptionVerdict};
pub use export::{ExportRequest, ExportedTemplate, GeneratedFile, ResourceSelector, TemplateIr};
pub use harness::{
    BindFailure, DEFAULT_OBSERVE_CONCURRENCY, EntityObservation, ObserverAdapter,
    bounded_concurrently, observe_entities,
};
pub use hook_cache::{HookCache, PatternAt};
pub use identity::{Identity, IdentityAnswer, IdentityRequest};
pub use lexicon::{
    DeepSink, HandedTree, HookError, HookResult, Lexicon, LexiconFactory, ObserveRequest,
    ProjectContext, ReadPath, ReadsAhead,
};
pub use metadata::{
    ArtifactMetadata, AttributeChange, OwnerChain, Ownership, OwnershipMarker, ResourceMetadata,
};
pub use observation::{DescribeResult, Observation, UnobservedEntity};
pub use ownership::{ChannelKeys, OwnershipChannel, ProjectMarker};
pub use reason::UnobservedReason;
pub use reference::{ReferenceCatalog, ReferenceRule};
pub use stack_status::{StackStatus, StackStatusRequest};
pub use teardown::{
    TeardownCandidate, TeardownHole, TeardownOutcome, TeardownPlan, TeardownRequest,
};
