//! The lexicon: configuration, the per-environment binding, and the hooks (each in its
//! own module).

use crate::errors::{Failure, classify};
use crate::session::{self, BindError, Overrides, Session};
use crate::settings::{AwsSettings, StackConfig};
use crate::template::{self, DeclaredStack};
use crate::{NAME, ownership::AWS_TAG_OWNERSHIP_KEYS};
use async_trait::async_trait;
use chant_lexicon::ambient::{AmbientRequest, DependencyRequest};
use chant_lexicon::behaviour::{BehaviourOutcome, BehaviourRequest, Edges, ProcessEnv, Variables};
use chant_lexicon::exec::{Exec, SystemExec};
use chant_lexicon::ownership::OwnershipChannel;
use chant_lexicon::{
    DeclaredEntity, DeepObservation, DescribeResult, DisruptionRequest, DisruptionVerdict,
    ExportRequest, ExportedTemplate, GeneratedFile, HookError, HookResult, IdentityAnswer,
    IdentityRequest, Lexicon, LexiconFactory, NormalizationHooks, ObserveRequest, ProjectContext,
    ReadPath, ReferenceCatalog, ResourceMetadata, SourceDiagnostic, StackStatus,
    StackStatusRequest, TeardownOutcome, TeardownPlan, TeardownRequest,
};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Reads are network-bound and AWS throttles per account, not per connection.
pub const AWS_CONCURRENCY: usize = 16;

pub struct AwsFactory;

impl LexiconFactory for AwsFactory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn create(&self, project: &ProjectContext) -> Result<Arc<dyn Lexicon>, SourceDiagnostic> {
        Ok(Arc::new(AwsLexicon::new(AwsSettings::parse(project)?)))
    }
}

pub struct AwsLexicon {
    pub(crate) settings: AwsSettings,
    pub(crate) overrides: Overrides,
    /// Environment → the account its credentials resolved to, once checked.
    verified: Mutex<BTreeMap<String, String>>,
    /// Where the behaviour engine and token variables are read.
    variables: Arc<dyn Variables>,
    /// How a command engine is run.
    exec: Arc<dyn Exec>,
}

/// One configured stack, resolved for an environment.
#[derive(Clone, Debug)]
pub struct StackTarget {
    pub config: StackConfig,
    pub name: String,
}

/// One stack of an observe request: what it declares, and how to read it.
pub struct StackScope<'r> {
    pub target: StackTarget,
    pub entities: Vec<&'r DeclaredEntity>,
    pub session: Result<Session, BindError>,
}

/// Why a binding cannot be used for reads.
pub enum Unbound {
    /// Every entity it would read is not observed, for this reason.
    Hole(BindError),
    /// The binding must not be used at all (a wrong account).
    Refused(String),
}

impl AwsLexicon {
    pub fn new(settings: AwsSettings) -> Self {
        AwsLexicon {
            settings,
            overrides: Overrides::default(),
            verified: Mutex::new(BTreeMap::new()),
            variables: Arc::new(ProcessEnv),
            exec: Arc::new(SystemExec),
        }
    }

    /// Replace the behaviour seams: the variables the engine chain is read from, and how a
    /// command engine runs.
    pub fn with_behaviour_seams(
        mut self,
        variables: Arc<dyn Variables>,
        exec: Arc<dyn Exec>,
    ) -> Self {
        self.variables = variables;
        self.exec = exec;
        self
    }

    /// Replace parts of the transport (tests: moto, a stub, fixed credentials).
    pub fn with_overrides(mut self, overrides: Overrides) -> Self {
        self.overrides = overrides;
        self
    }

    pub fn settings(&self) -> &AwsSettings {
        &self.settings
    }

    /// The stacks an environment reads, restricted to `only` (a deployed name or a key).
    pub fn targets(&self, environment: &str, only: Option<&str>) -> Vec<StackTarget> {
        self.settings
            .stacks
            .iter()
            .map(|config| StackTarget {
                name: config.stack_name(environment),
                config: config.clone(),
            })
            .filter(|t| only.is_none_or(|o| o == t.name || o == t.config.key))
            .collect()
    }

    /// What a stack declares (template errors surface through `declared()`, not here).
    pub fn declared_stack(&self, target: &StackTarget) -> DeclaredStack {
        template::declared_stack(&target.config).unwrap_or_default()
    }

    /// Each of the request's stacks with the declared entities it reads (a single stack
    /// owns every declared entity, even one its template no longer lists) and its session.
    pub async fn stack_scopes<'r>(
        &self,
        request: &'r ObserveRequest,
    ) -> Result<Vec<StackScope<'r>>, HookError> {
        let targets = self.targets(&request.environment, request.stack.as_deref());
        let single = targets.len() == 1;
        let mut scopes = Vec::new();
        for target in targets {
            let declared_stack = self.declared_stack(&target);
            let entities: Vec<&DeclaredEntity> = request
                .entities
                .iter()
                .filter(|e| single || declared_stack.nested_in.contains_key(&e.name))
                .collect();
            let session = match self
                .bind(
                    &request.environment,
                    Some(&target),
                    request.region.as_deref(),
                    request.request_timeout,
                )
                .await
            {
                Ok(session) => Ok(session),
                Err(Unbound::Refused(message)) => return Err(HookError::Refused(message)),
                Err(Unbound::Hole(e)) => Err(e),
            };
            scopes.push(StackScope {
                target,
                entities,
                session,
            });
        }
        Ok(scopes)
    }

    /// A verified session for one stack (or the environment when `target` is `None`).
    pub async fn bind(
        &self,
        environment: &str,
        target: Option<&StackTarget>,
        region: Option<&str>,
        timeout: Duration,
    ) -> Result<Session, Unbound> {
        let binding = self.settings.binding(environment);
        let explicit = match (region, target.and_then(|t| t.config.region.clone())) {
            (Some(r), _) => Some(("the requested region", r.to_owned())),
            (None, Some(r)) => Some(("the stack's region in [lexicons.aws.stacks]", r)),
            (None, None) => None,
        };
        let session = session::open(environment, &binding, explicit, &self.overrides, timeout)
            .await
            .map_err(Unbound::Hole)?;
        self.verify_account(&session).await?;
        Ok(session)
    }

    /// Refuse another account than `allowed_accounts` before anything is read.
    async fn verify_account(&self, session: &Session) -> Result<(), Unbound> {
        let Some(allowed) = self.settings.binding(&session.environment).allowed() else {
            return Ok(());
        };
        let cached = self
            .verified
            .lock()
            .ok()
            .and_then(|v| v.get(&session.environment).cloned());
        let account = match cached {
            Some(account) => account,
            None => {
                let identity = caller_identity(session).await.map_err(|f| {
                    Unbound::Hole(BindError {
                        reason: f.reason,
                        detail: format!(
                            "the account could not be checked against allowed_accounts: {}",
                            f.detail
                        ),
                    })
                })?;
                identity.account
            }
        };
        if !allowed.contains(&account) {
            return Err(Unbound::Refused(refusal(
                &session.environment,
                &allowed,
                &account,
            )));
        }
        if let Ok(mut v) = self.verified.lock() {
            v.insert(session.environment.clone(), account);
        }
        Ok(())
    }
}

/// The words of a wrong-account refusal: both accounts, and that nothing was read.
pub fn refusal(environment: &str, allowed: &[String], account: &str) -> String {
    format!(
        "environment `{environment}` allows only AWS account {} (allowed_accounts), but its credentials act in account {account}; nothing was read",
        allowed.join(", ")
    )
}

/// STS GetCallerIdentity, the read-only self-query.
#[derive(Clone, Debug)]
pub struct CallerIdentity {
    pub account: String,
    pub arn: String,
}

pub async fn caller_identity(session: &Session) -> Result<CallerIdentity, Failure> {
    let answer = session
        .sts()
        .get_caller_identity()
        .send()
        .await
        .map_err(|e| classify(&e))?;
    Ok(CallerIdentity {
        account: answer.account().unwrap_or_default().to_owned(),
        arn: answer.arn().unwrap_or_default().to_owned(),
    })
}

/// `Unbound` for a hook that has no per-entity holes to put it in.
pub fn unbound_error(unbound: Unbound) -> HookError {
    match unbound {
        Unbound::Refused(message) => HookError::Refused(message),
        Unbound::Hole(e) => HookError::Failed(format!("{}: {}", e.reason, e.detail)),
    }
}

#[async_trait]
impl Lexicon for AwsLexicon {
    fn name(&self) -> &str {
        NAME
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn concurrency(&self) -> usize {
        AWS_CONCURRENCY
    }

    fn ownership_channel(&self) -> Option<OwnershipChannel> {
        Some(OwnershipChannel {
            keys: AWS_TAG_OWNERSHIP_KEYS,
            reads: vec![
                ReadPath::DescribeResources,
                ReadPath::ObserveResourcesDeep,
                ReadPath::ExportResources,
            ],
        })
    }

    fn normalization_hooks(&self) -> NormalizationHooks {
        crate::hooks::normalization_hooks()
    }

    fn reference_catalog(&self) -> Option<ReferenceCatalog> {
        Some(crate::dependencies::reference_catalog())
    }

    fn declared_edges(&self, entities: &[DeclaredEntity]) -> Edges {
        crate::behaviour::declared_edges(entities)
    }

    fn ambient_kinds(&self) -> Vec<String> {
        crate::ambient::AMBIENT_KINDS
            .iter()
            .map(|k| (*k).to_owned())
            .collect()
    }

    fn allowed_targets(&self, environment: &str) -> Option<Vec<String>> {
        self.settings.binding(environment).allowed()
    }

    async fn declared(&self) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
        let mut all: Vec<DeclaredEntity> = Vec::new();
        for config in &self.settings.stacks {
            for entity in template::declared_stack(config)?.entities {
                if let Some(first) = all.iter().find(|e| e.name == entity.name) {
                    let file = entity.origin.clone().unwrap_or_default();
                    return Err(SourceDiagnostic::new(
                        &file,
                        format!(
                            "logical id `{}` is also declared in {}; entity names must be unique across stacks",
                            entity.name,
                            first.origin.clone().unwrap_or_default().display()
                        ),
                    ));
                }
                all.push(entity);
            }
        }
        Ok(all)
    }

    async fn describe_resources(&self, request: &ObserveRequest) -> HookResult<DescribeResult> {
        crate::describe::describe(self, request).await
    }

    async fn observe_resources_deep(
        &self,
        request: &ObserveRequest,
    ) -> HookResult<DeepObservation> {
        crate::deep::observe(self, request).await
    }

    async fn export_resources(&self, request: &ExportRequest) -> HookResult<ExportedTemplate> {
        crate::export::export(self, request).await
    }

    fn generate_source(&self, exported: &ExportedTemplate) -> HookResult<Vec<GeneratedFile>> {
        Ok(crate::export::generate(exported))
    }

    async fn describe_identity(&self, request: &IdentityRequest) -> HookResult<IdentityAnswer> {
        crate::identity::describe_identity(self, request).await
    }

    async fn teardown_owned(&self, request: &TeardownRequest) -> HookResult<TeardownPlan> {
        crate::teardown::plan(self, request).await
    }

    async fn execute_teardown(
        &self,
        request: &TeardownRequest,
        plan: &TeardownPlan,
    ) -> HookResult<TeardownOutcome> {
        crate::teardown::execute(self, request, plan).await
    }

    async fn classify_disruption(
        &self,
        request: &DisruptionRequest,
    ) -> HookResult<BTreeMap<String, DisruptionVerdict>> {
        Ok(crate::disruption::classify(&request.changes))
    }

    async fn observe_dependencies(
        &self,
        request: &DependencyRequest,
    ) -> HookResult<BTreeMap<String, ResourceMetadata>> {
        crate::dependencies::observe(self, request).await
    }

    async fn observe_ambient(
        &self,
        request: &AmbientRequest,
    ) -> HookResult<BTreeMap<String, ResourceMetadata>> {
        crate::ambient::observe(self, request).await
    }

    async fn describe_stack_status(
        &self,
        request: &StackStatusRequest,
    ) -> HookResult<Option<StackStatus>> {
        crate::stack_status::describe(self, request).await
    }

    /// Reads no cloud: the request's entities go to the engine `CHANT_BEHAVIOUR_ENGINE…`
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
