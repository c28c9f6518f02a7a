//! One module per command: each reads through the engine, computes with the pure
//! lifecycle functions, and renders.

pub mod diff;
pub mod import;
pub mod log;
pub mod plan;
pub mod predict;
pub mod read;
pub mod show;
pub mod snapshot;
pub mod teardown;
pub mod whoami;

use crate::cli::{Cli, Command, GlobalArgs, LifecycleCommand};
use crate::config::Project;
use crate::engine::{Engine, EngineOptions};
use crate::error::CliError;
use crate::output::Output;
use crate::snapshot_file::StoredSnapshot;
use crate::store::{LifecycleStore, StoreError, snapshot_path};
use chant_lexicon::ResourceMetadata;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    Success,
    Error,
    /// With --detailed-exitcode: changes or drift were found.
    Changes,
    /// With --detailed-exitcode: something was not observed and nothing else changed.
    Incomplete,
}

impl ExitStatus {
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Error => 1,
            ExitStatus::Changes => 2,
            ExitStatus::Incomplete => 3,
        }
    }

    pub fn detailed(enabled: bool, changes: bool, incomplete: bool) -> Self {
        match (enabled, changes, incomplete) {
            (false, _, _) => ExitStatus::Success,
            (true, true, _) => ExitStatus::Changes,
            (true, false, true) => ExitStatus::Incomplete,
            (true, false, false) => ExitStatus::Success,
        }
    }
}

/// What every command is run with.
pub struct Context {
    pub output: Output,
    pub project_dir: PathBuf,
    pub options: EngineOptions,
}

impl Context {
    pub fn new(global: &GlobalArgs, output: Output) -> Self {
        let project_dir = global.project.clone().unwrap_or_else(|| PathBuf::from("."));
        Context {
            output,
            project_dir,
            options: EngineOptions {
                concurrency: global.concurrency.map(usize::from),
                request_timeout: Duration::from_secs(global.timeout),
            },
        }
    }

    pub fn project(&self) -> Result<Project, CliError> {
        Ok(Project::discover(&self.project_dir)?)
    }

    pub fn engine(&self, lexicon: Option<&str>) -> Result<Engine, CliError> {
        Engine::new(self.project()?, lexicon, self.options)
    }

    /// The snapshot store, fetched first; `None` (with a note) when the project is not in git.
    pub fn store(&self, project: &Project) -> Option<LifecycleStore> {
        let store = LifecycleStore::open(&project.root).ok()?;
        self.sync(&store);
        Some(store)
    }

    /// Fetch before reading. A run that lost a push race left its snapshot local: it is
    /// re-applied on top of what the other run pushed, so nothing is lost and the next
    /// push fast-forwards.
    fn sync(&self, store: &LifecycleStore) {
        match store.fetch() {
            Ok(_) => {}
            Err(StoreError::Diverged { .. }) => match store.rebase_onto_remote() {
                Ok(_) => self.output.note("re-applied this machine's unpushed chant/lifecycle commits on top of the remote's"),
                Err(error) => self.output.warning(&format!("could not reconcile chant/lifecycle with its remote: {error}")),
            },
            Err(error) => self.output.warning(&format!("could not fetch chant/lifecycle: {error}")),
        }
    }

    /// The store, or an error saying why a command that needs it cannot run.
    pub fn require_store(&self, project: &Project) -> Result<LifecycleStore, CliError> {
        let store = LifecycleStore::open(&project.root).map_err(|e| {
            CliError::hinted(
                e.to_string(),
                "snapshots live on the chant/lifecycle branch of the project's git repository",
            )
        })?;
        self.sync(&store);
        Ok(store)
    }
}

/// The last snapshot's resources for a lexicon, when there is one.
pub fn previous_resources(
    store: Option<&LifecycleStore>,
    env: &str,
    lexicon: &str,
) -> Option<BTreeMap<String, ResourceMetadata>> {
    let text = store?.read(&snapshot_path(env, None, lexicon)).ok()??;
    StoredSnapshot::parse(&text).map(|s| s.resources)
}

pub async fn run(cli: Cli, output: Output) -> Result<ExitStatus, CliError> {
    let ctx = Context::new(&cli.global, output);
    match cli.command {
        Command::Lifecycle(command) => match command {
            LifecycleCommand::Plan(args) => plan::run(&ctx, &args).await,
            LifecycleCommand::Whoami(args) => whoami::run(&ctx, &args).await,
            LifecycleCommand::Teardown(args) => teardown::run(&ctx, &args).await,
            LifecycleCommand::Snapshot(args) => snapshot::run(&ctx, &args).await,
            LifecycleCommand::Show(args) => show::run(&ctx, &args).await,
            LifecycleCommand::Log(args) => log::run(&ctx, &args).await,
            LifecycleCommand::Diff(args) => diff::run(&ctx, &args).await,
            LifecycleCommand::Predict(args) => predict::run(&ctx, &args).await,
        },
        Command::Import(args) => import::run(&ctx, &args).await,
        Command::Completions { .. } => {
            unreachable!("completions are printed before the runtime starts")
        }
    }
}
