use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The environment to export from
    #[arg(long = "from", value_name = "ENV")]
    pub from: String,
    /// Only this lexicon
    #[arg(short = 'd', long = "lexicon", value_name = "LEXICON")]
    pub lexicon: Option<String>,
    /// Only resources of this type
    #[arg(long = "type", value_name = "TYPE")]
    pub entity_type: Option<String>,
    /// Only the resource with this name
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Only resources carrying this project's marker
    #[arg(long)]
    pub owned: bool,
    /// Keep server-defaulted fields
    #[arg(long)]
    pub verbatim: bool,
    /// Where to write (default: imported/<lexicon>/ under the project)
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Overwrite existing files
    #[arg(long)]
    pub force: bool,
    #[arg(long)]
    pub json: bool,
}
