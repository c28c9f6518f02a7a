//! From an environment's binding to a live session: the URL's variable (or libpq's),
//! or the SQLite file. Nothing here ever prints a password.

use crate::conninfo::{TlsParams, take_tls_params};
use crate::postgres::{self, PgBinding};
use crate::secret::mask;
use crate::session::{Fault, Session};
use crate::settings::BindingSpec;
use crate::sqlite;
use crate::sslmode::TlsSettings;
use chant_lexicon::UnobservedReason;
use std::str::FromStr;
use std::time::Duration;
use tokio_postgres::Config;

/// Reads an environment variable; a seam so tests need not touch the process environment.
pub trait Environment: Send + Sync {
    fn var(&self, name: &str) -> Option<String>;
}

pub struct ProcessEnvironment;

impl Environment for ProcessEnvironment {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }
}

const LIBPQ: [&str; 5] = ["PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE"];

pub fn resolve_postgres(url_env: Option<&str>, env: &dyn Environment) -> Result<PgBinding, Fault> {
    let unbound = |detail: String| Fault::new(UnobservedReason::NoBinding, detail);
    if let Some(var) = url_env {
        let Some(url) = env.var(var) else {
            return Err(unbound(format!(
                "{var} is not set (url_env names it as this environment's database URL)"
            )));
        };
        let (rest, params) = take_tls_params(&url);
        let config = Config::from_str(&rest).map_err(|e| {
            unbound(format!(
                "{var} does not hold a PostgreSQL URL: {}",
                mask(&e.to_string(), None)
            ))
        })?;
        let tls = tls_settings(params, env).map_err(unbound)?;
        return Ok(PgBinding {
            config,
            tls,
            source: format!("env {var}"),
        });
    }
    let set: Vec<&str> = LIBPQ.into_iter().filter(|v| env.var(v).is_some()).collect();
    if !set.iter().any(|v| *v == "PGHOST" || *v == "PGDATABASE") {
        return Err(unbound(
            "no database: set url_env in this environment's [environments.<env>.sql], or PGHOST/PGDATABASE".to_owned(),
        ));
    }
    let mut config = Config::new();
    config.host(env.var("PGHOST").as_deref().unwrap_or("localhost"));
    if let Some(port) = env.var("PGPORT") {
        let port = port
            .parse()
            .map_err(|_| unbound(format!("PGPORT `{port}` is not a port")))?;
        config.port(port);
    }
    if let Some(user) = env.var("PGUSER") {
        config.user(&user);
    }
    if let Some(password) = env.var("PGPASSWORD") {
        config.password(password);
    }
    if let Some(db) = env.var("PGDATABASE") {
        config.dbname(&db);
    }
    let tls = tls_settings(TlsParams::default(), env).map_err(unbound)?;
    Ok(PgBinding {
        config,
        tls,
        source: format!("libpq environment ({})", set.join(", ")),
    })
}

/// The connection string's TLS parameters, completed from `PGSSLMODE` and its siblings,
/// then from the files libpq looks for under `~/.postgresql/`.
fn tls_settings(params: TlsParams, env: &dyn Environment) -> Result<TlsSettings, String> {
    let home = env.var("HOME").map(std::path::PathBuf::from);
    TlsSettings::from_params(
        params
            .or_variables(|name| env.var(name))
            .or_home_files(home.as_deref()),
    )
}

/// Where the binding came from, in the project's vocabulary.
pub fn source(spec: &BindingSpec, environment: &str) -> String {
    match spec {
        BindingSpec::Postgres { url_env: Some(var) } => format!("env {var}"),
        BindingSpec::Postgres { url_env: None } => "libpq environment".to_owned(),
        BindingSpec::Sqlite { .. } => format!("[environments.{environment}.sql] path"),
    }
}

pub async fn open(
    spec: &BindingSpec,
    env: &dyn Environment,
    timeout: Duration,
) -> Result<(Box<dyn Session>, String), Fault> {
    match spec {
        BindingSpec::Postgres { url_env } => {
            let binding = resolve_postgres(url_env.as_deref(), env)?;
            let session = postgres::connect(&binding, timeout).await?;
            Ok((Box::new(session), binding.source))
        }
        BindingSpec::Sqlite { path } => {
            let session = sqlite::connect(path, timeout).await?;
            Ok((Box::new(session), "path".to_owned()))
        }
    }
}
