//! The k8s lexicon: its factory (chant.toml → a configured lexicon) and its hooks.

use crate::binding::{BindRequest, bind};
use crate::declared::{Sources, read_declared};
use crate::lists_ahead::ListsAhead;
use crate::session::{Session, bind_reason};
use crate::settings::{DEFAULT_EXEC_ALLOWLIST, EnvironmentSettings, SourceSettings};
use crate::{NAME, deep, describe, disruption, export, identity, stack_status, teardown};
use async_trait::async_trait;
use chant_lexicon::behaviour::{BehaviourOutcome, BehaviourRequest, Edges, ProcessEnv, Variables};
use chant_lexicon::exec::{Exec, SystemExec};
use chant_lexicon::ownership::{LABEL_OWNERSHIP_KEYS, OwnershipChannel};
use chant_lexicon::settings::parse_settings;
use chant_lexicon::{
    DeclaredEntity, DeepObservation, DescribeResult, DisruptionRequest, DisruptionVerdict,
    ExportRequest, ExportedTemplate, GeneratedFile, HookError, HookResult, IdentityAnswer,
    IdentityRequest, Lexicon, LexiconFactory, NormalizationHooks, Observation, ObserveRequest,
    ProjectContext, ReadPath, ReadsAhead, SourceDiagnostic, StackStatus, StackStatusRequest,
    TeardownOutcome, TeardownPlan, TeardownRequest,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The default read pool.
pub const DEFAULT_CONCURRENCY: usize = 16;

pub struct K8sFactory;

impl LexiconFactory for K8sFactory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn create(&self, project: &ProjectContext) -> Result<Arc<dyn Lexicon>, SourceDiagnostic> {
        let settings = parse_settings::<SourceSettings, EnvironmentSettings>(project, NAME)?;
        Ok(Arc::new(K8sLexicon::new(
            project.root.clone(),
            settings.source,
            settings.environments,
            Arc::new(SystemExec),
        )))
    }
}

pub struct K8sLexicon {
    root: PathBuf,
    sources: Sources,
    settings: SourceSettings,
    environments: BTreeMap<String, EnvironmentSettings>,
    /// How commands run: `kubectl kustomize`, and a command behaviour engine.
    exec: Arc<dyn Exec>,
    /// Where the behaviour engine and token variables are read.
    variables: Arc<dyn Variables>,
    warned: Mutex<BTreeSet<String>>,
    /// Bindings made so far, by environment, timeout and pool: the hooks of one command
    /// share one client, its connections and its limit of requests in flight.
    sessions: tokio::sync::Mutex<BTreeMap<SessionKey, Arc<Session>>>,
}

/// A binding's environment, timeout and pool.
type SessionKey = (String, Duration, usize);

fn session_key(environment: &str, timeout: Duration, pool: usize) -> SessionKey {
    (environment.to_owned(), timeout, pool)
}

impl K8sLexicon {
    pub fn new(
        root: PathBuf,
        settings: SourceSettings,
        environments: BTreeMap<String, EnvironmentSettings>,
        exec: Arc<dyn Exec>,
    ) -> Self {
        K8sLexicon {
            sources: Sources {
                root: root.clone(),
                entries: settings.source.to_vec(),
                kustomize: settings.kustomize.clone(),
            },
            root,
            settings,
            environments,
            exec,
            variables: Arc::new(ProcessEnv),
            warned: Mutex::new(BTreeSet::new()),
            sessions: tokio::sync::Mutex::default(),
        }
    }

    /// Replace the behaviour seams: the variables the engine chain is read from, and how a
    /// command runs (the same exec seam kustomize roots render through).
    pub fn with_behaviour_seams(
        mut self,
        variables: Arc<dyn Variables>,
        exec: Arc<dyn Exec>,
    ) -> Self {
        self.variables = variables;
        self.exec = exec;
        self
    }

    fn exec_allowlist(&self) -> Vec<String> {
        self.settings
            .allowed_exec_plugins
            .clone()
            .unwrap_or_else(|| {
                DEFAULT_EXEC_ALLOWLIST
                    .iter()
                    .map(|s| (*s).to_owned())
                    .collect()
            })
    }

    pub fn environment(&self, environment: &str) -> Option<&EnvironmentSettings> {
        self.environments.get(environment)
    }

    /// Bind to the environment's cluster, once per environment, timeout and pool (a failed
    /// binding is tried again by the next hook). An environment that pins no context warns
    /// once.
    pub(crate) async fn session(
        &self,
        environment: &str,
        timeout: Duration,
        pool: usize,
    ) -> Result<Arc<Session>, crate::binding::BindError> {
        let mut sessions = self.sessions.lock().await;
        let key = session_key(environment, timeout, pool);
        if let Some(session) = sessions.get(&key) {
            return Ok(session.clone());
        }
        let session = Arc::new(self.bind(environment, timeout, pool).await?);
        sessions.insert(key, session.clone());
        Ok(session)
    }

    /// The session made already for `key`, when no binding is under way.
    fn bound_session(&self, key: &SessionKey) -> Option<Arc<Session>> {
        self.sessions.try_lock().ok()?.get(key).cloned()
    }

    /// A new command begins: what an earlier one listed ahead is not for its reads.
    async fn forget_lists_ahead(&self) {
        for session in self.sessions.lock().await.values() {
            session.binding.cluster.forget_ahead();
            session.forget_targets();
        }
    }

    async fn bind(
        &self,
        environment: &str,
        timeout: Duration,
        pool: usize,
    ) -> Result<Session, crate::binding::BindError> {
        let allowlist = self.exec_allowlist();
        let binding = bind(&BindRequest {
            environment,
            settings: self.environments.get(environment),
            project_root: &self.root,
            exec_allowlist: &allowlist,
            timeout,
            pool,
        })
        .await?;
        if binding.ambient
            && self
                .warned
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(environment.to_owned())
        {
            tracing::warn!("{}", unpinned_warning(environment));
        }
        Ok(Session::new(binding))
    }

    pub(crate) fn pool(&self, request_concurrency: Option<usize>) -> usize {
        request_concurrency
            .or(self.settings.concurrency)
            .unwrap_or(DEFAULT_CONCURRENCY)
            .max(1)
    }
}

pub fn unpinned_warning(environment: &str) -> String {
    format!(
        "[k8s] no cluster binding for environment \"{environment}\" (environments.{environment}.k8s.context in chant.toml) — observing whatever kubeconfig context is current. Pin the context so this environment can never read another cluster."
    )
}

/// Default request timeout for hooks whose request carries none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

#[async_trait]
impl Lexicon for K8sLexicon {
    fn name(&self) -> &str {
        NAME
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn concurrency(&self) -> usize {
        self.settings.concurrency.unwrap_or(DEFAULT_CONCURRENCY)
    }

    fn ownership_channel(&self) -> Option<OwnershipChannel> {
        Some(OwnershipChannel {
            keys: LABEL_OWNERSHIP_KEYS,
            reads: vec![
                ReadPath::DescribeResources,
                ReadPath::ObserveResourcesDeep,
                ReadPath::ExportResources,
            ],
        })
    }

    fn normalization_hooks(&self) -> NormalizationHooks {
        deep::hooks()
    }

    fn allowed_targets(&self, environment: &str) -> Option<Vec<String>> {
        self.environments
            .get(environment)
            .and_then(|e| e.allowed_targets.clone())
    }

    fn declared_edges(&self, entities: &[DeclaredEntity]) -> Edges {
        crate::behaviour::declared_edges(entities)
    }

    async fn declared(&self) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
        self.forget_lists_ahead().await;
        read_declared(&self.sources, self.exec.as_ref(), &|_| {}).await
    }

    /// Binds and connects while the YAML is parsed, and sends each LIST the reads are
    /// certain to make as soon as the parse makes it certain.
    async fn declared_for_reads(
        self: Arc<Self>,
        ahead: ReadsAhead,
    ) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
        self.forget_lists_ahead().await;
        let lists = Arc::new(ListsAhead::new(&ahead.reads, ahead.namespace.clone()));
        let pool = self.pool(ahead.concurrency);
        let key = session_key(&ahead.environment, ahead.request_timeout, pool);
        if let Some(session) = self.bound_session(&key) {
            lists.bound_to(&session);
        } else {
            let (lexicon, lists) = (self.clone(), lists.clone());
            // Detached: a slow connection must not hold up a bad-input diagnostic, and
            // the reads wait for the binding they share in any case.
            tokio::spawn(async move {
                if let Ok(session) = lexicon
                    .session(&ahead.environment, ahead.request_timeout, pool)
                    .await
                {
                    lists.bound_to(&session);
                    session.binding.cluster.connect().await;
                }
            });
        }
        let declared = read_declared(&self.sources, self.exec.as_ref(), &|object| {
            lists.saw(object)
        })
        .await;
        lists.end();
        declared
    }

    async fn describe_resources(&self, request: &ObserveRequest) -> HookResult<DescribeResult> {
        let pool = self.pool(request.concurrency);
        let session = match self
            .session(&request.environment, request.request_timeout, pool)
            .await
        {
            Ok(session) => session,
            Err(error) => {
                return Ok(Observation::all_unobserved(
                    request
                        .entities
                        .iter()
                        .map(|e| (e.name.as_str(), Some(e.entity_type.as_str()))),
                    bind_reason(&error),
                    Some(&error.to_string()),
                )
                .into());
            }
        };
        let mut observation = describe::describe(&session, request, pool).await;
        if session.binding.ambient {
            observation.note(unpinned_warning(&request.environment));
        }
        Ok(observation.into())
    }

    async fn observe_resources_deep(
        &self,
        request: &ObserveRequest,
    ) -> HookResult<DeepObservation> {
        deep::observe(self, request).await
    }

    async fn export_resources(&self, request: &ExportRequest) -> HookResult<ExportedTemplate> {
        export::export(self, request).await
    }

    fn generate_source(&self, template: &ExportedTemplate) -> HookResult<Vec<GeneratedFile>> {
        export::generate(template)
    }

    async fn describe_identity(&self, request: &IdentityRequest) -> HookResult<IdentityAnswer> {
        Ok(identity::describe(self, request).await)
    }

    async fn teardown_owned(&self, request: &TeardownRequest) -> HookResult<TeardownPlan> {
        teardown::plan(self, request).await
    }

    async fn execute_teardown(
        &self,
        request: &TeardownRequest,
        plan: &TeardownPlan,
    ) -> HookResult<TeardownOutcome> {
        teardown::execute(self, request, plan).await
    }

    async fn classify_disruption(
        &self,
        request: &DisruptionRequest,
    ) -> HookResult<BTreeMap<String, DisruptionVerdict>> {
        Ok(disruption::classify(request))
    }

    async fn describe_stack_status(
        &self,
        request: &StackStatusRequest,
    ) -> HookResult<Option<StackStatus>> {
        Ok(stack_status::describe(self, request).await)
    }

    /// Reads no cluster: the request's entities go to the engine `CHANT_BEHAVIOUR_ENGINE…`
    /// names, in the example engine's wire version.
    async fn predict_behaviour(&self, request: &BehaviourRequest) -> HookResult<BehaviourOutcome> {
        chant_behaviour::predict(
            NAME,
            request,
            self.variables.as_ref(),
            self.exec.clone(),
            &chant_behaviour::ExampleWire,
        )
        .await
    }
}

/// A whole-hook failure to bind, for hooks that have no per-entity envelope.
pub(crate) fn bind_failed(error: &crate::binding::BindError) -> HookError {
    match error {
        crate::binding::BindError::ExecNotAllowed(m) => HookError::Refused(m.clone()),
        crate::binding::BindError::Kubeconfig(m) => HookError::Failed(m.clone()),
    }
}
