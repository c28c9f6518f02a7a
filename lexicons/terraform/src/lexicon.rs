//! The terraform lexicon's hooks, wired to the modules that answer them.

use crate::NAME;
use crate::settings::{Mode, Settings};
use crate::tool::Runner;
use crate::{ambient, declared, describe, identity, teardown};
use async_trait::async_trait;
use chant_lexicon::exec::{Exec, SystemExec};
use chant_lexicon::ownership::{ChannelKeys, OwnershipChannel};
use chant_lexicon::{
    AmbientRequest, DeclaredEntity, DescribeResult, HookResult, IdentityAnswer, IdentityRequest,
    Lexicon, LexiconFactory, ObserveRequest, ProjectContext, ResourceMetadata, SourceDiagnostic,
    TeardownPlan, TeardownRequest,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The choudoufu tags, in the channel's vocabulary: the estate tag says both who manages
/// the resource and which estate; the address tag names the block it was created for.
pub const TOFU_TAG_KEYS: ChannelKeys = ChannelKeys {
    managed_by: crate::live::ESTATE_TAG,
    stack: crate::live::ESTATE_TAG,
    env: crate::live::ADDRESS_TAG,
};

/// terraform processes are heavy: a few roots at a time.
const ROOT_CONCURRENCY: usize = 4;

pub struct TerraformFactory;

impl LexiconFactory for TerraformFactory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn create(&self, project: &ProjectContext) -> Result<Arc<dyn Lexicon>, SourceDiagnostic> {
        Ok(Arc::new(TerraformLexicon::new(
            project,
            Arc::new(SystemExec),
        )?))
    }
}

pub struct TerraformLexicon {
    settings: Settings,
    project_root: PathBuf,
    exec: Arc<dyn Exec>,
}

impl TerraformLexicon {
    /// Configure from `chant.toml`, running every command through `exec`.
    pub fn new(project: &ProjectContext, exec: Arc<dyn Exec>) -> Result<Self, SourceDiagnostic> {
        Ok(TerraformLexicon {
            settings: Settings::parse(project)?,
            project_root: project.root.clone(),
            exec,
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    fn runner(&self, environment: &str, timeout: Duration) -> Runner {
        Runner {
            exec: self.exec.clone(),
            environment: environment.to_owned(),
            settings: self.settings.environment(environment),
            project_root: self.project_root.clone(),
            timeout,
        }
    }

    fn has_live_roots(&self) -> bool {
        self.settings.roots.iter().any(|r| r.mode == Mode::Live)
    }
}

/// Reads without a request timeout of their own (identity, ambient, teardown) get this.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

#[async_trait]
impl Lexicon for TerraformLexicon {
    fn name(&self) -> &str {
        NAME
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn concurrency(&self) -> usize {
        ROOT_CONCURRENCY
    }

    /// A channel that resolves on no read path. Ownership verdicts are given — state
    /// membership on a stock root, choudoufu's bind on a live one — but neither promises
    /// a marker on every owned answer: a stock root has none at all, and a live root's
    /// derivation binds carry none. Declaring `describeResources` would demand one;
    /// declaring no channel would forbid the `owned` the specification requires.
    fn ownership_channel(&self) -> Option<OwnershipChannel> {
        Some(OwnershipChannel {
            keys: TOFU_TAG_KEYS,
            reads: Vec::new(),
        })
    }

    fn ambient_kinds(&self) -> Vec<String> {
        if self.has_live_roots() {
            vec![crate::address::RESOURCE_KIND.to_owned()]
        } else {
            Vec::new()
        }
    }

    async fn declared(&self) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
        declared::read_roots(&self.settings.roots)
    }

    async fn describe_resources(&self, request: &ObserveRequest) -> HookResult<DescribeResult> {
        let runner = self.runner(&request.environment, request.request_timeout);
        let pool = request.pool(self.concurrency());
        Ok(describe::describe(&self.settings, &runner, request, pool)
            .await
            .into())
    }

    async fn describe_identity(&self, request: &IdentityRequest) -> HookResult<IdentityAnswer> {
        let runner = self.runner(&request.environment, DEFAULT_TIMEOUT);
        Ok(identity::describe_identity(&self.settings, &runner).await)
    }

    async fn observe_ambient(
        &self,
        request: &AmbientRequest,
    ) -> HookResult<BTreeMap<String, ResourceMetadata>> {
        let runner = self.runner(&request.environment, DEFAULT_TIMEOUT);
        ambient::observe_ambient(&self.settings, &runner, request).await
    }

    async fn teardown_owned(&self, request: &TeardownRequest) -> HookResult<TeardownPlan> {
        let runner = self.runner(&request.environment, DEFAULT_TIMEOUT);
        teardown::teardown_owned(&self.settings, &runner, request).await
    }
}
