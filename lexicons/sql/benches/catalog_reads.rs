//! How long the thin and deep reads take against a throwaway PostgreSQL cluster as the
//! declared estate grows. Reads are one catalog query per kind, so the time should grow
//! with the rows returned, not with round trips: compare the 50- and 400-table figures.
//!
//! `cargo bench -p chant-sql --bench catalog_reads`

use chant_lexicon::{ObserveRequest, ProjectContext, ProjectMarker};
use chant_sql::{Environment, SqlFactory};
use chant_testkit::postgres::PostgresCluster;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Url(String);

impl Environment for Url {
    fn var(&self, name: &str) -> Option<String> {
        (name == "DATABASE_URL").then(|| self.0.clone())
    }
}

fn schema(tables: usize) -> String {
    (0..tables)
        .map(|i| {
            format!(
                "CREATE TABLE t{i} (id serial PRIMARY KEY, name text NOT NULL, total numeric(10,2) DEFAULT 0);\n\
                 CREATE INDEX t{i}_name_idx ON t{i} (name);\n\
                 COMMENT ON TABLE t{i} IS 'table {i} [chant managed-by=chant stack=bench env=dev]';\n"
            )
        })
        .collect()
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

#[tokio::main]
async fn main() {
    let cluster = PostgresCluster::start().expect("a throwaway PostgreSQL cluster");
    println!("objects  thin read (median of 7)  deep read (median of 7)");
    for tables in [50, 400] {
        let database = format!("bench{tables}");
        cluster.database(&database, &schema(tables)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("schema.sql"), schema(tables)).unwrap();
        let toml = "[lexicons.sql]\nsource = \"schema.sql\"\n[environments.dev.sql]\nurl_env = \"DATABASE_URL\"\n";
        let project = ProjectContext {
            root: dir.path().to_path_buf(),
            config_path: dir.path().join("chant.toml"),
            config_text: Arc::from(toml),
            stack: "bench".into(),
            environments: vec!["dev".into()],
        };
        let env = Arc::new(Url(cluster.superuser_url(&database)));
        let lexicon = SqlFactory::create_with(&project, env).unwrap();
        let declared = lexicon.declared().await.unwrap();
        let request =
            ObserveRequest::new("dev", ProjectMarker::new("bench", "dev"), declared.clone());
        let mut thin = Vec::new();
        let mut deep = Vec::new();
        for _ in 0..7 {
            let start = Instant::now();
            let observation = lexicon
                .describe_resources(&request)
                .await
                .unwrap()
                .normalize();
            thin.push(start.elapsed());
            assert_eq!(observation.resources.len(), declared.len());
            let start = Instant::now();
            let trees = lexicon.observe_resources_deep(&request).await.unwrap();
            deep.push(start.elapsed());
            assert_eq!(trees.resources.len(), declared.len());
        }
        println!(
            "{:>7}  {:>23.1?}  {:>23.1?}",
            declared.len(),
            median(thin),
            median(deep)
        );
    }
}
