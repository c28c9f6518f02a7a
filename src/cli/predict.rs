use super::lifecycle::Target;
use clap::Args;

#[derive(Debug, Args)]
pub struct PredictArgs {
    #[command(flatten)]
    pub target: Target,
    /// The traffic level to predict at, handed to the engine verbatim (`100 rps`)
    #[arg(long, value_name = "LEVEL")]
    pub traffic: String,
    /// A failure to ask each entity's resilience verdict under (`one zone lost`)
    #[arg(long, value_name = "EVENT")]
    pub failure: Option<String>,
    /// Also predict the live estate, and show the per-entity delta with its marks
    #[arg(long)]
    pub live: bool,
    #[arg(long)]
    pub json: bool,
}
