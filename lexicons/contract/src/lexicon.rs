//! The `Lexicon` trait: one substrate's declared reader and live hooks.

use crate::ambient::{AmbientRequest, DependencyRequest};
use crate::behaviour::{BehaviourOutcome, BehaviourRequest, Edges};
use crate::declared::{DeclaredEntity, SourceDiagnostic};
use crate::deep::{DeepObservation, DeepResourceObservation, NormalizationHooks};
use crate::disruption::{DisruptionRequest, DisruptionVerdict};
use crate::export::{ExportRequest, ExportedTemplate, GeneratedFile};
use crate::harness::DEFAULT_OBSERVE_CONCURRENCY;
use crate::identity::{IdentityAnswer, IdentityRequest};
use crate::metadata::{ArtifactMetadata, ResourceMetadata};
use crate::observation::DescribeResult;
use crate::ownership::{OwnershipChannel, ProjectMarker};
use crate::reference::ReferenceCatalog;
use crate::stack_status::{StackStatus, StackStatusRequest};
use crate::teardown::{TeardownOutcome, TeardownPlan, TeardownRequest};
use async_trait::async_trait;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The read paths an ownership channel can be declared on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ReadPath {
    DescribeResources,
    ObserveResourcesDeep,
    ExportResources,
}

/// Why a hook gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HookError {
    /// The lexicon does not implement this hook; the engine warn-skips it.
    #[error("{lexicon} does not implement {hook}")]
    Unsupported { lexicon: String, hook: &'static str },
    /// A whole-lexicon failure: every declared entity becomes read-failed.
    #[error("{0}")]
    Failed(String),
    /// A refusal to proceed (a wrong account, a disallowed credential plugin).
    #[error("{0}")]
    Refused(String),
}

impl HookError {
    pub fn unsupported(lexicon: &str, hook: &'static str) -> Self {
        HookError::Unsupported {
            lexicon: lexicon.to_owned(),
            hook,
        }
    }

    pub fn is_unsupported(&self) -> bool {
        matches!(self, HookError::Unsupported { .. })
    }
}

pub type HookResult<T> = Result<T, HookError>;

/// Takes one entity's deep tree while the read goes on. A tree handed here is not also in
/// the answer's `resources`; a lexicon that never calls it answers as it always did.
#[derive(Clone)]
pub struct DeepSink(Arc<TakeTree>);

type TakeTree = dyn Fn(&str, HandedTree) + Send + Sync;

/// A tree handed to a [`DeepSink`]: made, or made by the taker on its own threads, so
/// that a lexicon's per-object work (copying the answer, reading its field owners) does
/// not hold up the task its reads share.
pub enum HandedTree {
    Made(DeepResourceObservation),
    ToMake(Box<dyn FnOnce() -> DeepResourceObservation + Send>),
}

impl HandedTree {
    pub fn make(self) -> DeepResourceObservation {
        match self {
            HandedTree::Made(tree) => tree,
            HandedTree::ToMake(make) => make(),
        }
    }
}

impl DeepSink {
    pub fn new(take: impl Fn(&str, HandedTree) + Send + Sync + 'static) -> Self {
        DeepSink(Arc::new(take))
    }

    pub fn hand_over(&self, entity: &str, tree: DeepResourceObservation) {
        (self.0)(entity, HandedTree::Made(tree))
    }

    /// Hand over the tree `make` makes, for the taker to make.
    pub fn hand_over_to_make(
        &self,
        entity: &str,
        make: impl FnOnce() -> DeepResourceObservation + Send + 'static,
    ) {
        (self.0)(entity, HandedTree::ToMake(Box::new(make)))
    }
}

impl std::fmt::Debug for DeepSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DeepSink")
    }
}

/// What a command reads once its declared side is read: the environment, the pool and
/// timeout of those reads, which hooks make them and the namespace they default to.
#[derive(Clone, Debug)]
pub struct ReadsAhead {
    pub environment: String,
    pub concurrency: Option<usize>,
    pub request_timeout: Duration,
    /// The hooks that read the declared entities next, each once. Empty for a command
    /// that reads only what it finds by its own means (teardown).
    pub reads: Vec<ReadPath>,
    /// Their default for entities that declare no namespace.
    pub namespace: Option<String>,
}

impl ReadsAhead {
    /// For `reads`, each made with `request`.
    pub fn for_reads(request: &ObserveRequest, reads: &[ReadPath]) -> Self {
        ReadsAhead {
            environment: request.environment.clone(),
            concurrency: request.concurrency,
            request_timeout: request.request_timeout,
            reads: reads.to_vec(),
            namespace: request.namespace.clone(),
        }
    }
}

/// What the thin and deep reads are asked.
#[derive(Clone, Debug)]
pub struct ObserveRequest {
    pub environment: String,
    pub project: ProjectMarker,
    /// The declared entities of this lexicon, in declaration order.
    pub entities: Arc<Vec<DeclaredEntity>>,
    /// Restrict to objects carrying this project's marker; the rest become `filtered`.
    pub owned: bool,
    /// A default for entities that declare no namespace; never an override.
    pub namespace: Option<String>,
    pub stack: Option<String>,
    pub region: Option<String>,
    /// `--concurrency`, when the operator set one.
    pub concurrency: Option<usize>,
    /// A bound for each network request.
    pub request_timeout: Duration,
    /// Where `observe_resources_deep` may hand each present entity's tree as soon as it is
    /// read, so the caller works on it while the other reads are under way.
    pub deep_sink: Option<DeepSink>,
}

impl ObserveRequest {
    pub fn new(
        environment: impl Into<String>,
        project: ProjectMarker,
        entities: impl Into<Arc<Vec<DeclaredEntity>>>,
    ) -> Self {
        ObserveRequest {
            environment: environment.into(),
            project,
            entities: entities.into(),
            owned: false,
            namespace: None,
            stack: None,
            region: None,
            concurrency: None,
            request_timeout: Duration::from_secs(30),
            deep_sink: None,
        }
    }

    pub fn entity(&self, name: &str) -> Option<&DeclaredEntity> {
        self.entities.iter().find(|e| e.name == name)
    }

    /// The pool size: the operator's, else the lexicon's own.
    pub fn pool(&self, lexicon_default: usize) -> usize {
        self.concurrency.unwrap_or(lexicon_default).max(1)
    }
}

#[derive(Clone, Debug)]
pub struct ArtifactRequest {
    pub environment: String,
    pub entities: Arc<Vec<DeclaredEntity>>,
    pub stack: Option<String>,
}

/// What a lexicon is built from: the project, and its own sections of `chant.toml`.
#[derive(Clone, Debug)]
pub struct ProjectContext {
    /// The directory holding `chant.toml`; relative source paths resolve against it.
    pub root: PathBuf,
    pub config_path: PathBuf,
    pub config_text: Arc<str>,
    /// `[ownership] stack`.
    pub stack: String,
    pub environments: Vec<String>,
}

impl ProjectContext {
    pub fn marker(&self, environment: &str) -> ProjectMarker {
        ProjectMarker::new(&self.stack, environment)
    }

    pub fn resolve(&self, path: impl AsRef<std::path::Path>) -> PathBuf {
        self.root.join(path)
    }

    /// A diagnostic in `chant.toml`, pointing at the first place `value` is written as a
    /// string (a source path that does not exist, a root named twice).
    pub fn config_diagnostic(&self, value: &str, message: impl Into<String>) -> SourceDiagnostic {
        let mut diagnostic = SourceDiagnostic::new(&self.config_path, message);
        for quote in ['"', '\''] {
            let needle = format!("{quote}{value}{quote}");
            if let Some(offset) = self.config_text.find(&needle) {
                diagnostic = diagnostic.at(crate::declared::SourceSpan::new(offset, needle.len()));
                break;
            }
        }
        diagnostic
    }
}

/// Builds a configured lexicon from the project. Registered in one place in the binary.
pub trait LexiconFactory: Send + Sync {
    fn name(&self) -> &'static str;

    /// Parse this lexicon's sections of `chant.toml` (bad keys and types are a
    /// diagnostic naming the file and line) and return the configured lexicon.
    fn create(&self, project: &ProjectContext) -> Result<Arc<dyn Lexicon>, SourceDiagnostic>;
}

/// One substrate. Every hook is optional: the default answers `Unsupported`.
#[async_trait]
pub trait Lexicon: Send + Sync {
    fn name(&self) -> &str;

    /// Recorded in digests so a lexicon upgrade is visible in `diff`.
    fn version(&self) -> &str;

    /// The pool size for reads (a cloud-backed lexicon may want more).
    fn concurrency(&self) -> usize {
        DEFAULT_OBSERVE_CONCURRENCY
    }

    /// Where the ownership marker can be read. `None`: every verdict must be unknown.
    fn ownership_channel(&self) -> Option<OwnershipChannel> {
        None
    }

    fn normalization_hooks(&self) -> NormalizationHooks {
        NormalizationHooks::default()
    }

    fn reference_catalog(&self) -> Option<ReferenceCatalog> {
        None
    }

    /// Kinds for which ambient (undeclared, unreferenced) objects are possible.
    fn ambient_kinds(&self) -> Vec<String> {
        Vec::new()
    }

    /// The targets (accounts, clusters, servers) an environment may act on; `None`
    /// when the project does not restrict it.
    fn allowed_targets(&self, _environment: &str) -> Option<Vec<String>> {
        None
    }

    /// The references between declared entities, read in this lexicon's own reference
    /// syntax. `NotComputed` (the default) is not "none": an empty computed list is a
    /// claim that nothing references anything.
    fn declared_edges(&self, _entities: &[DeclaredEntity]) -> Edges {
        Edges::NotComputed
    }

    /// Read the declared build output.
    async fn declared(&self) -> Result<Vec<DeclaredEntity>, SourceDiagnostic>;

    /// [`Lexicon::declared`] for a command whose reads of `ahead.environment` follow. A
    /// lexicon may bind, connect and start the reads it is certain those will make while
    /// it reads the declared side, as long as a bad-input diagnostic never waits for the
    /// network. Nothing is reported from here: whatever fails fails again in the reads,
    /// which say why.
    async fn declared_for_reads(
        self: Arc<Self>,
        _ahead: ReadsAhead,
    ) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
        self.declared().await
    }

    async fn describe_resources(&self, _request: &ObserveRequest) -> HookResult<DescribeResult> {
        Err(HookError::unsupported(self.name(), "describe_resources"))
    }

    async fn observe_resources_deep(
        &self,
        _request: &ObserveRequest,
    ) -> HookResult<DeepObservation> {
        Err(HookError::unsupported(
            self.name(),
            "observe_resources_deep",
        ))
    }

    async fn list_artifacts(
        &self,
        _request: &ArtifactRequest,
    ) -> HookResult<BTreeMap<String, ArtifactMetadata>> {
        Err(HookError::unsupported(self.name(), "list_artifacts"))
    }

    async fn export_resources(&self, _request: &ExportRequest) -> HookResult<ExportedTemplate> {
        Err(HookError::unsupported(self.name(), "export_resources"))
    }

    /// Write an export as this lexicon's own source format, which `declared` reads back
    /// under the same entity names.
    fn generate_source(&self, _template: &ExportedTemplate) -> HookResult<Vec<GeneratedFile>> {
        Err(HookError::unsupported(self.name(), "generate_source"))
    }

    async fn describe_identity(&self, _request: &IdentityRequest) -> HookResult<IdentityAnswer> {
        Err(HookError::unsupported(self.name(), "describe_identity"))
    }

    /// Read-only: every candidate was read carrying this project's marker.
    async fn teardown_owned(&self, _request: &TeardownRequest) -> HookResult<TeardownPlan> {
        Err(HookError::unsupported(self.name(), "teardown_owned"))
    }

    /// Delete verified candidates, in reverse dependency order.
    async fn execute_teardown(
        &self,
        _request: &TeardownRequest,
        _plan: &TeardownPlan,
    ) -> HookResult<TeardownOutcome> {
        Err(HookError::unsupported(self.name(), "execute_teardown"))
    }

    /// A partial map: a name left out is unknown.
    async fn classify_disruption(
        &self,
        _request: &DisruptionRequest,
    ) -> HookResult<BTreeMap<String, DisruptionVerdict>> {
        Err(HookError::unsupported(self.name(), "classify_disruption"))
    }

    async fn observe_dependencies(
        &self,
        _request: &DependencyRequest,
    ) -> HookResult<BTreeMap<String, ResourceMetadata>> {
        Err(HookError::unsupported(self.name(), "observe_dependencies"))
    }

    async fn observe_ambient(
        &self,
        _request: &AmbientRequest,
    ) -> HookResult<BTreeMap<String, ResourceMetadata>> {
        Err(HookError::unsupported(self.name(), "observe_ambient"))
    }

    /// `Ok(None)`: indeterminate. `present: false`: genuinely absent.
    async fn describe_stack_status(
        &self,
        _request: &StackStatusRequest,
    ) -> HookResult<Option<StackStatus>> {
        Err(HookError::unsupported(self.name(), "describe_stack_status"))
    }

    /// How the estate would behave at a traffic level, from an external engine: screen
    /// the request, resolve the engine before pricing anything, send, and report what
    /// comes back — figures or a named refusal, never a made-up number.
    async fn predict_behaviour(&self, _request: &BehaviourRequest) -> HookResult<BehaviourOutcome> {
        Err(HookError::unsupported(self.name(), "predict_behaviour"))
    }
}
