use clap::{Args, Subcommand, ValueEnum};

#[derive(Debug, Subcommand)]
pub enum LifecycleCommand {
    /// Record what is live to the chant/lifecycle branch
    Snapshot(SnapshotArgs),
    /// Print recorded snapshots
    Show(ShowArgs),
    /// Compare declared, live and recorded (or two recorded snapshots)
    Diff(DiffArgs),
    /// Propose create / update / delete / adopt for every entity the read touched
    Plan(PlanArgs),
    /// List the commits of the chant/lifecycle branch
    Log(LogArgs),
    /// Who chant would act as, and where, for each lexicon
    Whoami(WhoamiArgs),
    /// Plan (and with --execute, perform) deleting what this project owns and no longer declares
    Teardown(TeardownArgs),
    /// Predict cost, headroom and resilience at a traffic level, from a behaviour engine
    Predict(super::PredictArgs),
}

#[derive(Debug, Args)]
pub struct Target {
    /// The environment (from chant.toml)
    pub env: String,
    /// Only this lexicon
    pub lexicon: Option<String>,
}

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    #[command(flatten)]
    pub target: Target,
    /// Also record each object's full property tree
    #[arg(long)]
    pub deep: bool,
    /// Also record ambient objects (undeclared, unreferenced) of the declared kinds
    #[arg(long)]
    pub ambient: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub target: Target,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    #[command(flatten)]
    pub target: Target,
    /// Read the live estate (default: compare declarations with the last snapshot's digest)
    #[arg(long, conflicts_with = "between")]
    pub live: bool,
    /// Compare two recorded snapshots (commits or revisions of chant/lifecycle)
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub between: Option<Vec<String>>,
    /// Accept the reported property deviations into the environment's baseline
    #[arg(long, requires = "live")]
    pub update_baseline: bool,
    /// Default namespace for entities that declare none
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
    #[arg(long)]
    pub json: bool,
    /// Exit 2 when drift is found, 3 when the answer is incomplete and nothing else changed
    #[arg(long)]
    pub detailed_exitcode: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// `{"create":N,"update":N,"delete":N}` for artifacts:reports:terraform
    #[value(name = "gitlab-mr")]
    GitlabMr,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    pub target: Target,
    /// Only objects carrying this project's marker (the rest are reported as filtered)
    #[arg(long)]
    pub owned: bool,
    /// Default namespace for entities that declare none
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
    #[arg(long)]
    pub json: bool,
    /// Print a machine report instead of the plan
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub report: Option<ReportFormat>,
    /// Exit 2 when changes are proposed, 3 when the plan is incomplete and nothing else changed
    #[arg(long)]
    pub detailed_exitcode: bool,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Only commits that touched this environment
    pub env: Option<String>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct WhoamiArgs {
    /// The environment (from chant.toml)
    pub env: String,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TeardownArgs {
    #[command(flatten)]
    pub target: Target,
    #[arg(long)]
    pub json: bool,
    /// Delete the verified candidates (requires --confirm <env>)
    #[arg(long, requires = "confirm")]
    pub execute: bool,
    /// The environment's name, typed again
    #[arg(long, value_name = "ENV", requires = "execute")]
    pub confirm: Option<String>,
}
