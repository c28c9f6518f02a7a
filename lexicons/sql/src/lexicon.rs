//! The factory (chant.toml → a configured lexicon) and the hooks, each delegating to its
//! own module.

use crate::binding::{self, Environment, ProcessEnvironment};
use crate::declared::{expand, read_declared};
use crate::dialect::Dialect;
use crate::marker::SQL_OWNERSHIP_KEYS;
use crate::names::schema_of;
use crate::session::{Fault, Session};
use crate::settings::{self, BindingSpec, EnvironmentSettings, SourceSettings};
use crate::{NAME, deep, describe, disruption, export, identity, teardown};
use async_trait::async_trait;
use chant_lexicon::settings::parse_settings;
use chant_lexicon::{
    DeclaredEntity, DeepObservation, DescribeResult, DisruptionRequest, DisruptionVerdict,
    ExportRequest, ExportedTemplate, GeneratedFile, HookError, HookResult, IdentityAnswer,
    IdentityRequest, Lexicon, LexiconFactory, NormalizationHooks, ObserveRequest, OwnershipChannel,
    ProjectContext, ReadPath, SourceDiagnostic, TeardownOutcome, TeardownPlan, TeardownRequest,
    UnobservedReason,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub struct SqlFactory;

impl LexiconFactory for SqlFactory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn create(&self, project: &ProjectContext) -> Result<Arc<dyn Lexicon>, SourceDiagnostic> {
        SqlFactory::create_with(project, Arc::new(ProcessEnvironment))
    }
}

impl SqlFactory {
    /// Create the lexicon reading variables (`url_env`, libpq's) from `env`.
    pub fn create_with(
        project: &ProjectContext,
        env: Arc<dyn Environment>,
    ) -> Result<Arc<dyn Lexicon>, SourceDiagnostic> {
        let settings = parse_settings::<SourceSettings, EnvironmentSettings>(project, NAME)?;
        let environments: Vec<&EnvironmentSettings> = settings.environments.values().collect();
        let dialect = settings::dialect(&settings.source, &environments);
        let mut bindings = BTreeMap::new();
        for (name, env) in &settings.environments {
            let spec = settings::binding(project, name, env, dialect)?;
            bindings.insert(name.clone(), (spec, env.allowed_targets.clone()));
        }
        Ok(Arc::new(SqlLexicon {
            root: project.root.clone(),
            sources: settings.source.source.into_vec(),
            dialect,
            schemas: settings.source.schemas,
            bindings,
            env,
        }))
    }
}

pub struct SqlLexicon {
    root: PathBuf,
    sources: Vec<String>,
    dialect: Dialect,
    schemas: Option<Vec<String>>,
    bindings: BTreeMap<String, (BindingSpec, Option<Vec<String>>)>,
    env: Arc<dyn Environment>,
}

impl SqlLexicon {
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    async fn session(
        &self,
        environment: &str,
        timeout: Duration,
    ) -> Result<(Box<dyn Session>, String), Fault> {
        let Some((spec, _)) = self.bindings.get(environment) else {
            return Err(Fault::new(
                UnobservedReason::NoBinding,
                format!(
                    "environment `{environment}` has no [environments.{environment}.sql] binding"
                ),
            ));
        };
        let (session, _) = binding::open(spec, self.env.as_ref(), timeout).await?;
        Ok((session, binding::source(spec, environment)))
    }

    /// The schemas whose objects this lexicon reads: configured, else the declared ones.
    fn scope<'a>(&self, declared: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        if let Some(schemas) = &self.schemas {
            return schemas.clone();
        }
        let mut out: Vec<String> = declared
            .into_iter()
            .filter_map(schema_of)
            .map(str::to_owned)
            .collect();
        out.sort();
        out.dedup();
        if out.is_empty() {
            out.push(self.dialect.default_schema().to_owned());
        }
        out
    }
}

#[async_trait]
impl Lexicon for SqlLexicon {
    fn name(&self) -> &str {
        NAME
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn ownership_channel(&self) -> Option<OwnershipChannel> {
        Some(OwnershipChannel {
            keys: SQL_OWNERSHIP_KEYS,
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
        self.bindings
            .get(environment)
            .and_then(|(_, allowed)| allowed.clone())
    }

    async fn declared(&self) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
        let files = expand(&self.root, &self.sources)?;
        read_declared(&files, self.dialect)
    }

    async fn describe_resources(&self, request: &ObserveRequest) -> HookResult<DescribeResult> {
        let scope = self.scope(request.entities.iter().map(|e| e.name.as_str()));
        let (session, _) = match self
            .session(&request.environment, request.request_timeout)
            .await
        {
            Ok(s) => s,
            Err(fault) => return Ok(describe::unbound(request, &fault).into()),
        };
        let listing = session.list(&scope).await;
        Ok(describe::observation(&listing, request, &session.address(), &scope).into())
    }

    async fn observe_resources_deep(
        &self,
        request: &ObserveRequest,
    ) -> HookResult<DeepObservation> {
        let scope = self.scope(request.entities.iter().map(|e| e.name.as_str()));
        let (session, _) = match self
            .session(&request.environment, request.request_timeout)
            .await
        {
            Ok(s) => s,
            Err(fault) => return Ok(deep::unbound(request, &fault)),
        };
        let definitions = session.definitions(&scope).await;
        Ok(deep::observation(&definitions, request, &scope))
    }

    async fn export_resources(&self, request: &ExportRequest) -> HookResult<ExportedTemplate> {
        let declared = self.declared().await.unwrap_or_default();
        let scope = self.scope(declared.iter().map(|e| e.name.as_str()));
        let (session, _) = self
            .session(&request.environment, Duration::from_secs(30))
            .await
            .map_err(|f| HookError::Failed(f.detail))?;
        let definitions = session.definitions(&scope).await;
        if let Some((kind, detail)) = definitions.failed.iter().next() {
            return Err(HookError::Failed(format!(
                "listing {kind}s failed: {detail}"
            )));
        }
        Ok(ExportedTemplate::new(
            NAME,
            export::template(&definitions, request, &scope),
        ))
    }

    fn generate_source(&self, template: &ExportedTemplate) -> HookResult<Vec<GeneratedFile>> {
        Ok(export::generate(template, self.dialect))
    }

    async fn describe_identity(&self, request: &IdentityRequest) -> HookResult<IdentityAnswer> {
        match self
            .session(&request.environment, Duration::from_secs(30))
            .await
        {
            Ok((session, source)) => Ok(identity::answer(session.whoami().await, &source)),
            Err(fault) => Ok(IdentityAnswer::unresolved(fault.reason, fault.detail)),
        }
    }

    async fn teardown_owned(&self, request: &TeardownRequest) -> HookResult<TeardownPlan> {
        let scope = self.scope(request.declared.iter().map(String::as_str));
        match self
            .session(&request.environment, Duration::from_secs(30))
            .await
        {
            Ok((session, _)) => {
                let listing = session.list(&scope).await;
                Ok(teardown::plan(&listing, request, &session.address()))
            }
            Err(fault) => Ok(teardown::unbound(&fault)),
        }
    }

    async fn execute_teardown(
        &self,
        request: &TeardownRequest,
        plan: &TeardownPlan,
    ) -> HookResult<TeardownOutcome> {
        let scope = self.scope(request.declared.iter().map(String::as_str));
        let (session, _) = self
            .session(&request.environment, Duration::from_secs(30))
            .await
            .map_err(|f| HookError::Failed(f.detail))?;
        if let Some(allowed) = self.allowed_targets(&request.environment) {
            let who = session
                .whoami()
                .await
                .map_err(|f| HookError::Failed(f.detail))?;
            if !allowed.contains(&who.target) {
                return Err(HookError::Refused(format!(
                    "{} is not among [environments.{}.sql] allowed_targets ({})",
                    who.target,
                    request.environment,
                    allowed.join(", ")
                )));
            }
        }
        let report = session
            .drop_verified(&scope, &teardown::steps(plan))
            .await
            .map_err(|f| HookError::Failed(f.detail))?;
        Ok(teardown::outcome(plan, report))
    }

    async fn classify_disruption(
        &self,
        request: &DisruptionRequest,
    ) -> HookResult<BTreeMap<String, DisruptionVerdict>> {
        Ok(disruption::classify_all(&request.changes, self.dialect))
    }
}
