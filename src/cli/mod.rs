//! The command tree (clap types only; the work happens in `crate::commands`).

mod import;
mod lifecycle;
mod predict;

pub use import::ImportArgs;
pub use lifecycle::{
    DiffArgs, LifecycleCommand, LogArgs, PlanArgs, ReportFormat, ShowArgs, SnapshotArgs,
    TeardownArgs, WhoamiArgs,
};
pub use predict::PredictArgs;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "chant",
    version,
    about = "What is really deployed, how it differs from what you declared, and what a change would cost — without a state file.",
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Run as if chant was started in DIR (chant.toml is found there or in a parent)
    #[arg(short = 'C', long = "project", value_name = "DIR", global = true)]
    pub project: Option<PathBuf>,
    /// More logging on stderr (-v info, -vv debug, -vvv trace)
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// When to colour output (NO_COLOR is honoured)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN", global = true)]
    pub color: ColorChoice,
    /// Reads in flight per lexicon (default: each lexicon's own, usually 16)
    #[arg(long, value_name = "N", global = true, value_parser = clap::value_parser!(u16).range(1..))]
    pub concurrency: Option<u16>,
    /// Seconds each network request may take; a whole lexicon gets ten times that
    #[arg(long, value_name = "SECS", default_value_t = 30, global = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Observe, compare and plan the live estate of an environment
    #[command(subcommand, visible_alias = "lc")]
    Lifecycle(LifecycleCommand),
    /// Write source from what is live in an environment
    Import(ImportArgs),
    /// Print shell completions
    Completions {
        /// The shell to complete for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}
