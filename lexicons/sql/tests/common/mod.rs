//! A throwaway project on disk: chant.toml, DDL files, and (for SQLite) a database file.
#![allow(dead_code)]

use chant_lexicon::{
    DeclaredEntity, DeepObservation, Lexicon, LexiconFactory, ObserveRequest, ProjectContext,
    ProjectMarker,
};
use chant_sql::SqlFactory;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct Project {
    pub dir: tempfile::TempDir,
    pub lexicon: Arc<dyn Lexicon>,
}

pub const OURS: &str = "/* [chant managed-by=chant stack=shop env=dev] */";
pub const SIBLING: &str = "/* [chant managed-by=chant stack=blog env=dev] */";

pub fn context(dir: &Path, toml: &str) -> ProjectContext {
    std::fs::write(dir.join("chant.toml"), toml).unwrap();
    ProjectContext {
        root: dir.to_path_buf(),
        config_path: dir.join("chant.toml"),
        config_text: Arc::from(toml),
        stack: "shop".into(),
        environments: vec!["dev".into()],
    }
}

/// A project whose `dev` environment is the SQLite file `dev.db`, built from `live`.
pub fn sqlite_project(schema: &str, live: &str) -> Project {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("schema.sql"), schema).unwrap();
    if !live.is_empty() {
        let connection = rusqlite::Connection::open(dir.path().join("dev.db")).unwrap();
        connection.execute_batch(live).unwrap();
    }
    let toml = "[ownership]\nstack = \"shop\"\n[lexicons.sql]\nsource = \"schema.sql\"\n[environments.dev.sql]\npath = \"dev.db\"\n";
    let lexicon = SqlFactory.create(&context(dir.path(), toml)).unwrap();
    Project { dir, lexicon }
}

impl Project {
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub async fn declared(&self) -> Vec<DeclaredEntity> {
        self.lexicon.declared().await.unwrap()
    }

    pub async fn request(&self, owned: bool) -> ObserveRequest {
        let mut request = ObserveRequest::new(
            "dev",
            ProjectMarker::new("shop", "dev"),
            self.declared().await,
        );
        request.owned = owned;
        request
    }

    pub async fn whoami(&self) -> chant_lexicon::IdentityAnswer {
        let request = chant_lexicon::IdentityRequest {
            environment: "dev".into(),
            region: None,
        };
        self.lexicon.describe_identity(&request).await.unwrap()
    }

    pub async fn deep(&self) -> DeepObservation {
        let request = self.request(false).await;
        self.lexicon.observe_resources_deep(&request).await.unwrap()
    }
}

/// Declared vs live through chant's own deep diff.
fn deep_diff(
    declared: &[DeclaredEntity],
    live: &DeepObservation,
    lexicon: &dyn Lexicon,
) -> chant::lifecycle::deep::DeepDiff {
    chant::lifecycle::deep::diff_deep(declared, live, &lexicon.normalization_hooks(), None)
}

fn rows(entries: &[chant::lifecycle::deep::DeepEntityDrift]) -> Vec<(String, Vec<String>)> {
    entries
        .iter()
        .map(|d| {
            (
                d.name.clone(),
                d.changes.iter().map(|c| c.path.clone()).collect(),
            )
        })
        .collect()
}

/// The drifted entities and their paths.
pub fn drift(
    declared: &[DeclaredEntity],
    live: &DeepObservation,
    lexicon: &dyn Lexicon,
) -> Vec<(String, Vec<String>)> {
    rows(&deep_diff(declared, live, lexicon).drifted)
}

/// Live fields nothing declared, per entity.
pub fn unclaimed(
    declared: &[DeclaredEntity],
    live: &DeepObservation,
    lexicon: &dyn Lexicon,
) -> Vec<(String, Vec<String>)> {
    rows(&deep_diff(declared, live, lexicon).unclaimed)
}

/// Variables for `url_env` without touching the process environment.
pub struct Vars(pub std::collections::BTreeMap<String, String>);

impl chant_sql::Environment for Vars {
    fn var(&self, name: &str) -> Option<String> {
        self.0.get(name).cloned()
    }
}

/// A project whose `dev` environment reads the URL in `SHOP_DEV_DATABASE_URL`.
pub fn postgres_project(schema: &str, url: &str, extra_toml: &str) -> Project {
    let toml = format!("[environments.dev.sql]\nurl_env = \"SHOP_DEV_DATABASE_URL\"\n{extra_toml}");
    postgres_project_with(schema, &toml, &[("SHOP_DEV_DATABASE_URL", url)])
}

/// A PostgreSQL project bound by `environments_toml`, seeing only the variables `vars`.
pub fn postgres_project_with(
    schema: &str,
    environments_toml: &str,
    vars: &[(&str, &str)],
) -> Project {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("schema.sql"), schema).unwrap();
    let toml = format!(
        "[ownership]\nstack = \"shop\"\n[lexicons.sql]\nsource = \"schema.sql\"\n{environments_toml}"
    );
    let vars = Vars(
        vars.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    );
    let lexicon = SqlFactory::create_with(&context(dir.path(), &toml), Arc::new(vars)).unwrap();
    Project { dir, lexicon }
}
