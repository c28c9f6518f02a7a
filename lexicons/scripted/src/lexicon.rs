//! The scripted lexicon's hooks: each answers from the environment's live world file.

use crate::NAME;
use crate::declared::{missing, read_declared, strip_position};
use crate::world::LiveWorld;
use async_trait::async_trait;
use chant_lexicon::ReferenceCatalog;
use chant_lexicon::ambient::{AmbientRequest, DependencyRequest};
use chant_lexicon::behaviour::{BehaviourOutcome, BehaviourRequest, Edges, ProcessEnv, Variables};
use chant_lexicon::exec::{Exec, SystemExec};
use chant_lexicon::export::{IrResource, TemplateIr};
use chant_lexicon::lexicon::ArtifactRequest;
use chant_lexicon::ownership::{ChannelKeys, OwnershipChannel};
use chant_lexicon::settings::{OneOrMany, parse_settings};
use chant_lexicon::{
    ArtifactMetadata, DeclaredEntity, DeepObservation, DescribeResult, DisruptionRequest,
    DisruptionVerdict, ExportRequest, ExportedTemplate, GeneratedFile, HookError, HookResult,
    IdentityAnswer, IdentityRequest, Lexicon, LexiconFactory, Observation, ObserveRequest,
    Ownership, ProjectContext, ProjectMarker, ReadPath, ResourceMetadata, SourceDiagnostic,
    StackStatus, StackStatusRequest, TeardownOutcome, TeardownPlan, TeardownRequest,
    UnobservedEntity, UnobservedReason,
};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The marker keys a scripted object's labels would carry.
pub const SCRIPTED_KEYS: ChannelKeys = ChannelKeys {
    managed_by: "managed-by",
    stack: "chant-stack",
    env: "chant-env",
};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceSettings {
    #[serde(default)]
    source: OneOrMany,
    /// A reference catalog (JSON) for rebuilding live edges.
    #[serde(default)]
    catalog: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvironmentSettings {
    live: String,
    #[serde(default)]
    allowed_targets: Option<Vec<String>>,
}

pub struct ScriptedFactory;

impl LexiconFactory for ScriptedFactory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn create(&self, project: &ProjectContext) -> Result<Arc<dyn Lexicon>, SourceDiagnostic> {
        Ok(Arc::new(ScriptedFactory::build(project)?))
    }
}

impl ScriptedFactory {
    /// The configured lexicon itself, for callers that replace its seams.
    pub fn build(project: &ProjectContext) -> Result<ScriptedLexicon, SourceDiagnostic> {
        let settings = parse_settings::<SourceSettings, EnvironmentSettings>(project, NAME)?;
        let catalog = match &settings.source.catalog {
            Some(file) => Some(read_catalog(&project.resolve(file))?),
            None => None,
        };
        let sources = settings.source.source.into_vec();
        Ok(ScriptedLexicon {
            sources: sources.iter().map(|s| project.resolve(s)).collect(),
            environments: settings
                .environments
                .into_iter()
                .map(|(env, s)| (env, (project.resolve(&s.live), s.allowed_targets)))
                .collect(),
            catalog,
            variables: Arc::new(ProcessEnv),
            exec: Arc::new(SystemExec),
        })
    }
}

fn read_catalog(path: &std::path::Path) -> Result<ReferenceCatalog, SourceDiagnostic> {
    let text = std::fs::read_to_string(path).map_err(|e| missing(path, &e))?;
    serde_json::from_str(&text).map_err(|e| {
        SourceDiagnostic::new(
            path,
            format!("not a reference catalog: {}", strip_position(&e)),
        )
        .at_line(&text, e.line(), Some(e.column()))
        .help("{\"identities\": [{\"kind\": …, \"ids\": […]}], \"refs\": [{\"from\": …, \"path\": …, \"relation\": \"reference\", \"label\": …}]}")
    })
}

pub struct ScriptedLexicon {
    sources: Vec<PathBuf>,
    environments: BTreeMap<String, (PathBuf, Option<Vec<String>>)>,
    catalog: Option<ReferenceCatalog>,
    /// Where the behaviour engine and token variables are read.
    variables: Arc<dyn Variables>,
    /// How a command engine is run.
    exec: Arc<dyn Exec>,
}

impl ScriptedLexicon {
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

    fn world_path(&self, environment: &str) -> HookResult<&PathBuf> {
        self.environments
            .get(environment)
            .map(|(path, _)| path)
            .ok_or_else(|| {
                HookError::Failed(format!("no live world for environment `{environment}`"))
            })
    }

    /// Read the environment's world; a world with `fail`/`refuse` answers every hook so.
    async fn world(&self, environment: &str) -> HookResult<LiveWorld> {
        let path = self.world_path(environment)?;
        let text = tokio::fs::read_to_string(path)
            .await
            .map_err(|e| HookError::Failed(missing(path, &e).message))?;
        let world: LiveWorld = serde_json::from_str(&text).map_err(|e| {
            HookError::Failed(format!("{}: {}", path.display(), strip_position(&e)))
        })?;
        if let Some(ms) = world.delay_ms {
            tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
        }
        if let Some(message) = &world.refuse {
            return Err(HookError::Refused(message.clone()));
        }
        if let Some(message) = &world.fail {
            return Err(HookError::Failed(message.clone()));
        }
        Ok(world)
    }

    fn classify(meta: &mut ResourceMetadata, project: &ProjectMarker) {
        if meta.marker.is_some() || meta.ownership.is_none() {
            meta.ownership = Some(project.classify(meta.marker.as_ref()));
        }
    }

    fn unsupported(&self, hook: &'static str) -> HookError {
        HookError::unsupported(NAME, hook)
    }
}

#[async_trait]
impl Lexicon for ScriptedLexicon {
    fn name(&self) -> &str {
        NAME
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn ownership_channel(&self) -> Option<OwnershipChannel> {
        Some(OwnershipChannel {
            keys: SCRIPTED_KEYS,
            reads: vec![
                ReadPath::DescribeResources,
                ReadPath::ObserveResourcesDeep,
                ReadPath::ExportResources,
            ],
        })
    }

    fn reference_catalog(&self) -> Option<ReferenceCatalog> {
        self.catalog.clone()
    }

    fn declared_edges(&self, entities: &[DeclaredEntity]) -> Edges {
        crate::behaviour::declared_edges(entities)
    }

    fn allowed_targets(&self, environment: &str) -> Option<Vec<String>> {
        self.environments
            .get(environment)
            .and_then(|(_, allowed)| allowed.clone())
    }

    async fn declared(&self) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
        read_declared(&self.sources)
    }

    async fn describe_resources(&self, request: &ObserveRequest) -> HookResult<DescribeResult> {
        let world = self.world(&request.environment).await?;
        if let Some(bind) = &world.bind {
            return Ok(Observation::all_unobserved(
                request
                    .entities
                    .iter()
                    .map(|e| (e.name.as_str(), Some(e.entity_type.as_str()))),
                bind.reason,
                bind.detail.as_deref(),
            )
            .into());
        }
        let mut out = Observation::new();
        out.queried = world.queried;
        out.notes = world.notes;
        for (name, entry) in world.unobserved {
            out.unobserved(name, entry);
        }
        for (name, mut meta) in world.resources {
            if out.unobserved.contains_key(&name) {
                continue;
            }
            Self::classify(&mut meta, &request.project);
            let declared = request.entity(&name).is_some();
            if request.owned && meta.ownership() != Ownership::Owned {
                if declared {
                    let entry = UnobservedEntity::new(UnobservedReason::Filtered)
                        .typed(&meta.entity_type)
                        .detail(format!("present, {}", meta.ownership()));
                    out.unobserved(name, entry);
                }
                continue;
            }
            out.present(name, meta);
        }
        Ok(out.into())
    }

    async fn observe_resources_deep(
        &self,
        request: &ObserveRequest,
    ) -> HookResult<DeepObservation> {
        let world = self.world(&request.environment).await?;
        let Some(deep) = world.deep else {
            return Err(self.unsupported("observe_resources_deep"));
        };
        let resources = deep
            .into_iter()
            .filter(|(name, _)| !request.owned || request.entity(name).is_some())
            .collect();
        Ok(DeepObservation {
            resources,
            unobserved: world.deep_unobserved,
        })
    }

    async fn list_artifacts(
        &self,
        request: &ArtifactRequest,
    ) -> HookResult<BTreeMap<String, ArtifactMetadata>> {
        self.world(&request.environment)
            .await?
            .artifacts
            .ok_or_else(|| self.unsupported("list_artifacts"))
    }

    async fn export_resources(&self, request: &ExportRequest) -> HookResult<ExportedTemplate> {
        let world = self.world(&request.environment).await?;
        let objects = world
            .export
            .ok_or_else(|| self.unsupported("export_resources"))?;
        let resources = objects
            .into_iter()
            .filter(|o| request.selector.accepts(&o.entity_type, &o.name))
            .filter(|o| {
                !request.owned
                    || o.marker
                        .as_ref()
                        .is_some_and(|m| request.project.matches(m))
            })
            .map(|o| IrResource {
                logical_id: o.name,
                entity_type: o.entity_type,
                properties: o.props,
                metadata: None,
            })
            .collect();
        Ok(ExportedTemplate::new(
            NAME,
            TemplateIr {
                resources,
                ..Default::default()
            },
        ))
    }

    fn generate_source(&self, template: &ExportedTemplate) -> HookResult<Vec<GeneratedFile>> {
        let entries: Vec<serde_json::Value> = template
            .ir()
            .resources
            .iter()
            .map(|r| serde_json::json!({"name": r.logical_id, "type": r.entity_type, "props": r.properties}))
            .collect();
        let content = serde_json::to_string_pretty(&entries)
            .map_err(|e| HookError::Failed(e.to_string()))?
            + "\n";
        Ok(vec![GeneratedFile {
            path: PathBuf::from("declared.json"),
            content,
        }])
    }

    async fn describe_identity(&self, request: &IdentityRequest) -> HookResult<IdentityAnswer> {
        self.world(&request.environment)
            .await?
            .identity
            .ok_or_else(|| self.unsupported("describe_identity"))
    }

    async fn teardown_owned(&self, request: &TeardownRequest) -> HookResult<TeardownPlan> {
        self.world(&request.environment)
            .await?
            .teardown
            .ok_or_else(|| self.unsupported("teardown_owned"))
    }

    /// Deletes by rewriting the world file without the deleted objects.
    async fn execute_teardown(
        &self,
        request: &TeardownRequest,
        plan: &TeardownPlan,
    ) -> HookResult<TeardownOutcome> {
        let mut world = self.world(&request.environment).await?;
        let mut outcome = TeardownOutcome::default();
        for candidate in &plan.candidates {
            world.resources.remove(&candidate.name);
            if let Some(teardown) = &mut world.teardown {
                teardown.candidates.retain(|c| c.name != candidate.name);
            }
            outcome.deleted.push(candidate.name.clone());
        }
        let path = self.world_path(&request.environment)?;
        let text = serde_json::to_string_pretty(&world)
            .map_err(|e| HookError::Failed(e.to_string()))?
            + "\n";
        tokio::fs::write(path, text)
            .await
            .map_err(|e| HookError::Failed(e.to_string()))?;
        Ok(outcome)
    }

    async fn classify_disruption(
        &self,
        request: &DisruptionRequest,
    ) -> HookResult<BTreeMap<String, DisruptionVerdict>> {
        self.world(&request.environment)
            .await?
            .disruption
            .ok_or_else(|| self.unsupported("classify_disruption"))
    }

    async fn observe_dependencies(
        &self,
        request: &DependencyRequest,
    ) -> HookResult<BTreeMap<String, ResourceMetadata>> {
        self.world(&request.environment)
            .await?
            .dependencies
            .ok_or_else(|| self.unsupported("observe_dependencies"))
    }

    async fn observe_ambient(
        &self,
        request: &AmbientRequest,
    ) -> HookResult<BTreeMap<String, ResourceMetadata>> {
        let world = self.world(&request.environment).await?;
        let ambient = world
            .ambient
            .ok_or_else(|| self.unsupported("observe_ambient"))?;
        Ok(ambient
            .into_iter()
            .filter(|(name, meta)| {
                !request.observed.contains_key(name)
                    && (request.kinds.is_empty() || request.kinds.contains(&meta.entity_type))
            })
            .map(|(name, mut meta)| {
                meta.ambient = true;
                (name, meta)
            })
            .collect())
    }

    async fn describe_stack_status(
        &self,
        request: &StackStatusRequest,
    ) -> HookResult<Option<StackStatus>> {
        self.world(&request.environment)
            .await?
            .stack_status
            .ok_or_else(|| self.unsupported("describe_stack_status"))
    }

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
