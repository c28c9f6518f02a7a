//! The chant binary end to end with the sql lexicon: the README's quickstart on the
//! committed SQLite example, and PostgreSQL (a throwaway cluster from the testkit):
//! diff --live, plan, whoami, teardown (plan and guarded execute), import round trip.

use assert_cmd::Command;
use chant_testkit::pki::TestCa;
use chant_testkit::postgres::{ClusterOptions, PostgresCluster, ServerTls};
use serde_json::Value;
use std::path::Path;

const READER_PASSWORD: &str = "cli-reader-5b1e";
const OURS: &str = "[chant managed-by=chant stack=shop env=dev]";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn transcript(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.transcript()))
    }
}

fn run(cwd: &Path, vars: &[(&str, String)], args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chant"));
    command
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", cwd)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "120");
    for (name, value) in vars {
        command.env(name, value);
    }
    let output = command.args(args).output().expect("the chant binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn snapshot(name: &str, root: &Path, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.add_filter(&regex::escape(&root.display().to_string()), "[PROJECT]");
    settings.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]");
    settings.add_filter(r"(SQL::\w+\s+)\d+\b", "$1[OID]");
    settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
    settings.add_filter(r"\d+(\.\d+)?\s?(ms|s)\b", "[DURATION]");
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn the_readme_quickstart_runs_on_a_fresh_clone_with_nothing_but_cargo() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plan = run(
        repository,
        &[],
        &["lifecycle", "plan", "dev", "-C", "examples/quickstart"],
    );
    assert_eq!(plan.code, 0, "{}", plan.transcript());
    snapshot("sql_quickstart_plan", repository, &plan.transcript());
    let diff = run(
        repository,
        &[],
        &[
            "lifecycle",
            "diff",
            "dev",
            "--live",
            "-C",
            "examples/quickstart",
        ],
    );
    assert_eq!(diff.code, 0, "{}", diff.transcript());
    snapshot("sql_quickstart_diff_live", repository, &diff.transcript());
}

/// The declared schema of the PostgreSQL projects.
const SCHEMA: &str = "
CREATE TABLE customers (
    id serial PRIMARY KEY,
    email varchar(255) NOT NULL UNIQUE,
    name text
);
CREATE TABLE orders (
    id serial PRIMARY KEY,
    customer_id int NOT NULL REFERENCES customers (id),
    total numeric(10, 2) NOT NULL DEFAULT 0 CHECK (total >= 0)
);
CREATE VIEW open_orders AS SELECT id, total FROM orders WHERE total > 0;
CREATE TABLE invoices (id int PRIMARY KEY);
COMMENT ON TABLE customers IS 'People who order';
";

/// Live: the schema drifted (customers.name is varchar(80)), invoices never created,
/// an owned orphan (legacy, the reader's own) and a foreign one (audit).
fn live() -> String {
    let schema = SCHEMA
        .replace("    name text\n", "    name varchar(80)\n")
        .replace("CREATE TABLE invoices (id int PRIMARY KEY);\n", "");
    format!(
        "{schema}
COMMENT ON TABLE customers IS 'People who order {OURS}';
COMMENT ON TABLE orders IS '{OURS}';
CREATE TABLE legacy (id int);
COMMENT ON TABLE legacy IS '{OURS}';
ALTER TABLE legacy OWNER TO chant_reader;
CREATE TABLE audit (id int);
"
    )
}

struct Estate {
    dir: tempfile::TempDir,
    url: String,
    target: String,
}

fn with_reader(cluster: &PostgresCluster) {
    cluster
        .psql(
            "postgres",
            &format!("CREATE ROLE chant_reader LOGIN PASSWORD '{READER_PASSWORD}'"),
        )
        .unwrap();
}

fn cluster() -> &'static PostgresCluster {
    let cluster = PostgresCluster::shared();
    static ROLE: std::sync::Once = std::sync::Once::new();
    ROLE.call_once(|| with_reader(cluster));
    cluster
}

/// A cluster serving TLS with a certificate for 127.0.0.1, and its CA's PEM.
fn tls_cluster() -> &'static (&'static PostgresCluster, String) {
    static TLS: std::sync::OnceLock<(&'static PostgresCluster, String)> =
        std::sync::OnceLock::new();
    TLS.get_or_init(|| {
        let ca = TestCa::new("chant CLI test CA");
        let server = ca.server(&["127.0.0.1"]);
        let cluster = PostgresCluster::start_with(ClusterOptions {
            tls: Some(ServerTls {
                cert_pem: server.cert_pem,
                key_pem: server.key_pem,
                client_ca_pem: None,
            }),
            hba: Vec::new(),
        })
        .expect("a PostgreSQL cluster serving TLS")
        .until_exit();
        with_reader(cluster);
        (cluster, ca.cert_pem())
    })
}

fn init_repository(root: &Path) {
    let repo = git2::Repository::init(root).unwrap();
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let signature = git2::Signature::now("test", "test@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &signature, &signature, "fixture", &tree, &[])
        .unwrap();
}

/// A database `name` holding the live schema, and a project whose `dev` reads it.
fn estate(name: &str, allowed_target: Option<&str>) -> Estate {
    estate_on(cluster(), name, allowed_target)
}

fn estate_on(cluster: &PostgresCluster, name: &str, allowed_target: Option<&str>) -> Estate {
    cluster.database(name, &live()).unwrap();
    let url = cluster.url("chant_reader", READER_PASSWORD, name);
    let target = format!("{}/{name}", cluster.host_port());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("schema.sql"), SCHEMA).unwrap();
    let allowed = allowed_target.unwrap_or(&target);
    std::fs::write(
        dir.path().join("chant.toml"),
        format!(
            "[ownership]\nstack = \"shop\"\n\n[lexicons.sql]\nsource = \"schema.sql\"\n\n[environments.dev.sql]\nurl_env = \"SHOP_DEV_DATABASE_URL\"\nallowed_targets = [\"{allowed}\"]\n"
        ),
    )
    .unwrap();
    init_repository(dir.path());
    Estate { dir, url, target }
}

impl Estate {
    fn chant(&self, args: &[&str]) -> Run {
        self.chant_as(&self.url, args)
    }

    fn chant_as(&self, url: &str, args: &[&str]) -> Run {
        run(
            self.dir.path(),
            &[("SHOP_DEV_DATABASE_URL", url.to_owned())],
            args,
        )
    }

    fn snapshot(&self, name: &str, run: &Run) {
        let text = run.transcript().replace(
            &self.target,
            &format!(
                "127.0.0.1:[PORT]/{}",
                self.target.rsplit('/').next().unwrap_or_default()
            ),
        );
        snapshot(name, self.dir.path(), &text);
    }
}

fn actions(plan: &Value) -> Vec<(String, String)> {
    let entries = plan
        .get("entries")
        .or_else(|| plan.get("changes"))
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("no entries in {plan}"));
    entries
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap_or_default().to_owned(),
                e["action"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn postgres_diff_live_reports_property_drift_of_a_changed_column() {
    let estate = estate("shop_diff", None);
    let diff = estate.chant(&["lifecycle", "diff", "dev", "--live"]);
    assert_eq!(diff.code, 0, "{}", diff.transcript());
    assert!(
        diff.stdout.contains("columns[2].type"),
        "{}",
        diff.transcript()
    );
    estate.snapshot("sql_postgres_diff_live", &diff);
}

#[test]
fn postgres_plan_proposes_create_update_delete_and_adopt() {
    let estate = estate("shop_plan", None);
    let plan = estate.chant(&["lifecycle", "plan", "dev"]);
    assert_eq!(plan.code, 0, "{}", plan.transcript());
    estate.snapshot("sql_postgres_plan", &plan);
    let json = estate.chant(&["lifecycle", "plan", "dev", "--json"]).json();
    let mut found = actions(&json);
    found.sort();
    assert_eq!(
        found,
        [
            ("table/public.audit", "adopt"),
            ("table/public.customers", "update"),
            ("table/public.invoices", "create"),
            ("table/public.legacy", "delete"),
            ("table/public.orders", "noop"),
            ("view/public.open_orders", "noop"),
        ]
        .map(|(n, a)| (n.to_owned(), a.to_owned()))
    );
}

#[test]
fn postgres_wrong_password_is_no_credentials_and_never_printed() {
    let estate = estate("shop_denied", None);
    let wrong = "wrong-secret-9c2d";
    let url = cluster().url("chant_reader", wrong, "shop_denied");
    let plan = estate.chant_as(&url, &["lifecycle", "plan", "dev"]);
    let text = plan.transcript();
    assert!(text.contains("no credentials"), "{text}");
    assert!(
        !text.contains(wrong) && !text.contains(READER_PASSWORD),
        "{text}"
    );
    estate.snapshot("sql_postgres_plan_wrong_password", &plan);
}

#[test]
fn postgres_whoami_names_role_server_database_and_variable() {
    let estate = estate("shop_whoami", None);
    let whoami = estate.chant(&["lifecycle", "whoami", "dev"]);
    assert_eq!(whoami.code, 0, "{}", whoami.transcript());
    assert!(!whoami.transcript().contains(READER_PASSWORD));
    estate.snapshot("sql_postgres_whoami", &whoami);
}

#[test]
fn postgres_whoami_over_tls_verifies_the_server_against_the_system_roots() {
    let (tls, ca) = tls_cluster();
    let estate = estate_on(tls, "shop_tls", None);
    let ca_file = estate.dir.path().join("ca.pem");
    std::fs::write(&ca_file, ca).unwrap();
    // `sslrootcert=system` is the platform's store, which honours SSL_CERT_FILE.
    let whoami = run(
        estate.dir.path(),
        &[
            (
                "SHOP_DEV_DATABASE_URL",
                format!("{}?sslrootcert=system", estate.url),
            ),
            ("SSL_CERT_FILE", ca_file.display().to_string()),
        ],
        &["lifecycle", "whoami", "dev"],
    );
    assert_eq!(whoami.code, 0, "{}", whoami.transcript());
    assert!(!whoami.transcript().contains(READER_PASSWORD));
    estate.snapshot("sql_postgres_whoami_tls", &whoami);
}

#[test]
fn postgres_sslmode_require_against_a_server_without_tls_is_no_binding() {
    let estate = estate("shop_no_tls", None);
    let url = format!("{}?sslmode=require", estate.url);
    let plan = estate.chant_as(&url, &["lifecycle", "plan", "dev"]);
    let text = plan.transcript();
    assert!(
        text.contains(
            "the server does not accept TLS connections, and sslmode=require requires TLS"
        ),
        "{text}"
    );
    assert!(!text.contains(READER_PASSWORD), "{text}");
    estate.snapshot("sql_postgres_plan_require_without_tls", &plan);
}

#[test]
fn postgres_teardown_plans_then_executes_only_within_the_allowed_target() {
    let estate = estate("shop_teardown", None);
    let plan = estate.chant(&["lifecycle", "teardown", "dev"]);
    assert_eq!(plan.code, 0, "{}", plan.transcript());
    estate.snapshot("sql_postgres_teardown_plan", &plan);

    let elsewhere = self::estate("shop_teardown_guarded", Some("db.example:5432/shop"));
    let refused = elsewhere.chant(&[
        "lifecycle",
        "teardown",
        "dev",
        "--execute",
        "--confirm",
        "dev",
    ]);
    assert_ne!(refused.code, 0, "{}", refused.transcript());
    let still = elsewhere.chant(&["lifecycle", "teardown", "dev", "--json"]);
    assert!(
        still.stdout.contains("table/public.legacy"),
        "{}",
        still.transcript()
    );

    let executed = estate.chant(&[
        "lifecycle",
        "teardown",
        "dev",
        "--execute",
        "--confirm",
        "dev",
    ]);
    assert_eq!(executed.code, 0, "{}", executed.transcript());
    estate.snapshot("sql_postgres_teardown_execute", &executed);
    let gone = cluster()
        .psql(
            "shop_teardown",
            "SELECT count(*) FROM pg_class WHERE relname IN ('legacy', 'audit')",
        )
        .unwrap();
    assert_eq!(gone.trim(), "1", "legacy is dropped, audit (foreign) stays");
}

#[test]
fn postgres_import_then_plan_is_all_noop() {
    let estate = estate("shop_import", None);
    let import = estate.chant(&["import", "--from", "dev", "-o", "imported"]);
    assert_eq!(import.code, 0, "{}", import.transcript());
    let generated = std::fs::read_to_string(estate.dir.path().join("imported/public.sql")).unwrap();
    assert!(
        generated.contains(&format!("'People who order {OURS}'")),
        "{generated}"
    );
    let config = estate.dir.path().join("chant.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace(
            "source = \"schema.sql\"",
            "source = \"imported/public.sql\"",
        ),
    )
    .unwrap();
    let plan = estate.chant(&["lifecycle", "plan", "dev", "--json"]).json();
    let found = actions(&plan);
    assert_eq!(found.len(), 5, "{plan}");
    assert!(
        found.iter().all(|(_, action)| action == "noop"),
        "{found:?}"
    );
}
