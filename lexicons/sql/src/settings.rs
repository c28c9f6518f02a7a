//! `[lexicons.sql]` and `[environments.<env>.sql]` in chant.toml.
//!
//! ```toml
//! [lexicons.sql]
//! source = "db/schema.sql"        # a file, a glob, a directory (its *.sql), or a list of them
//! dialect = "postgres"            # or "sqlite"; default: sqlite when every binding is a file
//! schemas = ["public", "app"]     # optional: the schemas whose undeclared objects are orphans
//!
//! [environments.dev.sql]
//! url_env = "SHOP_DEV_DATABASE_URL"   # the NAME of a variable holding a postgres:// URL
//! allowed_targets = ["db.internal:5432/shop"]
//!
//! [environments.local.sql]
//! path = "dev.db"                 # a SQLite file, relative to chant.toml
//! ```
//!
//! A PostgreSQL environment with neither key reads the libpq variables (`PGHOST`,
//! `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`).

use crate::dialect::Dialect;
use chant_lexicon::settings::OneOrMany;
use chant_lexicon::{ProjectContext, SourceDiagnostic};
use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSettings {
    #[serde(default)]
    pub source: OneOrMany,
    #[serde(default)]
    pub dialect: Option<Dialect>,
    #[serde(default)]
    pub schemas: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentSettings {
    #[serde(default)]
    pub url_env: Option<String>,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub allowed_targets: Option<Vec<String>>,
}

/// Where an environment's reads go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindingSpec {
    /// A URL in the named variable, or (`None`) the libpq variables.
    Postgres {
        url_env: Option<String>,
    },
    Sqlite {
        path: std::path::PathBuf,
    },
}

fn section_line(text: &str, environment: &str) -> Option<usize> {
    let header = format!("[environments.{environment}.sql]");
    text.lines().position(|l| l.trim() == header).map(|i| i + 1)
}

/// Check an environment's keys against each other and the dialect.
pub fn binding(
    project: &ProjectContext,
    environment: &str,
    settings: &EnvironmentSettings,
    dialect: Dialect,
) -> Result<BindingSpec, SourceDiagnostic> {
    let problem = |message: String| {
        let mut d = SourceDiagnostic::new(&project.config_path, message);
        if let Some(line) = section_line(&project.config_text, environment) {
            d = d.at_line(&project.config_text, line, None);
        }
        d
    };
    match (&settings.url_env, &settings.path, dialect) {
        (Some(_), Some(_), _) => Err(problem(format!(
            "[environments.{environment}.sql] sets both `url_env` and `path`"
        ))
        .help("`url_env` names a variable holding a PostgreSQL URL; `path` is a SQLite file")),
        (Some(_), None, Dialect::Sqlite) => Err(problem(format!(
            "[environments.{environment}.sql] sets `url_env`, but the dialect is sqlite"
        ))
        .help("a SQLite environment names its file with `path`")),
        (None, Some(_), Dialect::Postgres) => Err(problem(format!(
            "[environments.{environment}.sql] sets `path`, but the dialect is postgres"
        ))
        .help("set `dialect = \"sqlite\"` under [lexicons.sql], or bind with `url_env`")),
        (Some(var), None, Dialect::Postgres) if var.contains("://") || var.contains('=') => {
            Err(problem(format!(
                "[environments.{environment}.sql] url_env must be the NAME of a variable, not a connection string"
            ))
            .help("e.g. url_env = \"SHOP_DEV_DATABASE_URL\"; keep the URL itself in the environment"))
        }
        (url_env, None, Dialect::Postgres) => Ok(BindingSpec::Postgres {
            url_env: url_env.clone(),
        }),
        (None, Some(path), Dialect::Sqlite) => Ok(BindingSpec::Sqlite {
            path: project.resolve(path),
        }),
        (None, None, Dialect::Sqlite) => Err(problem(format!(
            "[environments.{environment}.sql] names no SQLite file"
        ))
        .help("add path = \"<file>.db\"")),
    }
}

/// The dialect: as configured, else sqlite when every binding is a file.
pub fn dialect(source: &SourceSettings, environments: &[&EnvironmentSettings]) -> Dialect {
    source.dialect.unwrap_or_else(|| {
        if !environments.is_empty() && environments.iter().all(|e| e.path.is_some()) {
            Dialect::Sqlite
        } else {
            Dialect::Postgres
        }
    })
}
