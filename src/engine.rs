//! The fan-out: build the configured lexicons, read their declared side, and run one hook
//! across them concurrently, each bounded by a deadline. The engine knows nothing about
//! any substrate.

use crate::config::Project;
use crate::error::CliError;
use crate::registry;
use chant_lexicon::{
    DeclaredEntity, HookError, HookResult, Lexicon, ObserveRequest, ReadPath, ReadsAhead,
    SourceDiagnostic,
};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Copy, Debug)]
pub struct EngineOptions {
    pub concurrency: Option<usize>,
    pub request_timeout: Duration,
}

impl EngineOptions {
    /// A whole lexicon's hook may take ten request timeouts.
    pub fn deadline(&self) -> Duration {
        self.request_timeout * 10
    }
}

/// One lexicon and what it declares.
#[derive(Clone)]
pub struct Declared {
    pub lexicon: Arc<dyn Lexicon>,
    /// Shared with every observe request made from it.
    pub entities: Arc<Vec<DeclaredEntity>>,
}

/// The digest of everything declared, with each lexicon's version.
pub fn declared_digest(declared: &[Declared]) -> crate::lifecycle::digest::BuildDigest {
    crate::lifecycle::digest::compute_digest(
        &declared
            .iter()
            .map(|d| (d.name().to_owned(), d.entities.as_slice()))
            .collect(),
        &declared
            .iter()
            .map(|d| (d.name().to_owned(), d.lexicon.version().to_owned()))
            .collect(),
    )
}

impl Declared {
    pub fn name(&self) -> &str {
        self.lexicon.name()
    }

    pub fn names(&self) -> Vec<String> {
        self.entities.iter().map(|e| e.name.clone()).collect()
    }
}

pub struct Engine {
    pub project: Project,
    pub lexicons: Vec<Arc<dyn Lexicon>>,
    pub options: EngineOptions,
}

impl Engine {
    /// Build the project's lexicons (only `filter` when given).
    pub fn new(
        project: Project,
        filter: Option<&str>,
        options: EngineOptions,
    ) -> Result<Engine, CliError> {
        if let Some(name) = filter
            && !project.lexicons.iter().any(|l| l == name)
        {
            return Err(CliError::hinted(
                format!("lexicon `{name}` is not in this project"),
                format!(
                    "{} declares: {}",
                    project.config_path.display(),
                    project.lexicons.join(", ")
                ),
            ));
        }
        let context = project.context();
        let mut lexicons = Vec::new();
        for factory in registry::factories() {
            let name = factory.name();
            if project.lexicons.iter().any(|l| l == name) && filter.is_none_or(|f| f == name) {
                lexicons.push(factory.create(&context)?);
            }
        }
        Ok(Engine {
            project,
            lexicons,
            options,
        })
    }

    /// Read every lexicon's declared side; the first bad input ends the command.
    pub async fn declared(&self) -> Result<Vec<Declared>, CliError> {
        self.declared_with(|lexicon| lexicon.declared()).await
    }

    async fn declared_with<'e, F>(
        &'e self,
        read: impl Fn(&'e Arc<dyn Lexicon>) -> F,
    ) -> Result<Vec<Declared>, CliError>
    where
        F: Future<Output = Result<Vec<DeclaredEntity>, SourceDiagnostic>>,
    {
        let reads = self.lexicons.iter().map(|lexicon| {
            let entities = read(lexicon);
            async move {
                entities.await.map(|entities| Declared {
                    lexicon: lexicon.clone(),
                    entities: Arc::new(entities),
                })
            }
        });
        let mut out = Vec::new();
        for result in futures::future::join_all(reads).await {
            out.push(result?);
        }
        Ok(out)
    }

    /// [`Engine::declared`] for a command whose `reads` of `environment` follow, each with
    /// `namespace` as its default: every lexicon may bind, connect and start the reads it
    /// is certain of while it reads its declared side.
    pub async fn declared_for_reads(
        &self,
        environment: &str,
        reads: &[ReadPath],
        namespace: Option<&str>,
    ) -> Result<Vec<Declared>, CliError> {
        let ahead = ReadsAhead {
            environment: environment.to_owned(),
            concurrency: self.options.concurrency,
            request_timeout: self.options.request_timeout,
            reads: reads.to_vec(),
            namespace: namespace.map(str::to_owned),
        };
        self.declared_with(|lexicon| lexicon.clone().declared_for_reads(ahead.clone()))
            .await
    }

    pub fn observe_request(&self, environment: &str, declared: &Declared) -> ObserveRequest {
        let mut request = ObserveRequest::new(
            environment,
            self.project.context().marker(environment),
            declared.entities.clone(),
        );
        request.concurrency = self.options.concurrency;
        request.request_timeout = self.options.request_timeout;
        request
    }

    /// Run a hook under the engine's deadline; running out of time is a whole-lexicon failure.
    pub async fn bounded<T>(&self, hook: impl Future<Output = HookResult<T>>) -> HookResult<T> {
        let deadline = self.options.deadline();
        match tokio::time::timeout(deadline, hook).await {
            Ok(result) => result,
            Err(_) => Err(HookError::Failed(format!(
                "timed out after {}s",
                deadline.as_secs()
            ))),
        }
    }
}
