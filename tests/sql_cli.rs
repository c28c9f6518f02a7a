//! The chant binary end to end with the sql lexicon: the README's quickstart on the
//! committed SQLite example, and PostgreSQL (a throwaway cluster from the testkit):
//! diff --live, plan, whoami, teardown (plan and guarded execute), import round trip.

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

use chant_testkit::pki::TestCa;
use chant_testkit::postgres::{ClusterOptions, PostgresCluster, ServerTls};
use serde_json::Value;
use std::path::Path;
use support::{Project, Run, run_chant};

const READER_PASSWORD: &str = "cli-reader-5b1e";
const OURS: &str = "[chant managed-by=chant stack=shop env=dev]";

/// The shared filters, plus the server's port and catalog oids.
fn snapshot(name: &str, root: &Path, text: &str) {
    support::snapshot_filtered(
        name,
        root,
        text,
        &[
            (r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]"),
            (r"(SQL::\w+\s+)\d+\b", "$1[OID]"),
            (r"\d+(\.\d+)?\s?(ms|s)\b", "[DURATION]"),
        ],
    );
}

#[test]
fn the_readme_quickstart_runs_on_a_fresh_clone_with_nothing_but_cargo() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Run from the repository root, as the README does.
    let plan = run_chant(
        None,
        &["lifecycle", "plan", "dev", "-C", "examples/quickstart"],
    );
    assert_eq!(plan.code, 0, "{}", plan.transcript());
    snapshot("sql_quickstart_plan", repository, &plan.transcript());
    let diff = run_chant(
        None,
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
    project: Project,
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

/// A database `name` holding the live schema, and a project whose `dev` reads it.
fn estate(name: &str, allowed_target: Option<&str>) -> Estate {
    estate_on(cluster(), name, allowed_target)
}

fn estate_on(cluster: &PostgresCluster, name: &str, allowed_target: Option<&str>) -> Estate {
    cluster.database(name, &live()).unwrap();
    let url = cluster.url("chant_reader", READER_PASSWORD, name);
    let target = format!("{}/{name}", cluster.host_port());
    let project = Project::empty();
    project.write("schema.sql", SCHEMA);
    let allowed = allowed_target.unwrap_or(&target);
    project.write(
        "chant.toml",
        &format!(
            "[ownership]\nstack = \"shop\"\n\n[lexicons.sql]\nsource = \"schema.sql\"\n\n[environments.dev.sql]\nurl_env = \"SHOP_DEV_DATABASE_URL\"\nallowed_targets = [\"{allowed}\"]\n"
        ),
    );
    project.commit_all("fixture");
    Estate {
        project,
        url,
        target,
    }
}

impl Estate {
    fn chant(&self, args: &[&str]) -> Run {
        self.chant_as(&self.url, args)
    }

    fn chant_as(&self, url: &str, args: &[&str]) -> Run {
        self.project
            .chant_with(args, &[("SHOP_DEV_DATABASE_URL", url)])
    }

    fn snapshot(&self, name: &str, run: &Run) {
        let text = run.transcript().replace(
            &self.target,
            &format!(
                "127.0.0.1:[PORT]/{}",
                self.target.rsplit('/').next().unwrap_or_default()
            ),
        );
        snapshot(name, self.project.path(), &text);
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
    let ca_file = estate.project.path().join("ca.pem");
    std::fs::write(&ca_file, ca).unwrap();
    // `sslrootcert=system` is the platform's store, which honours SSL_CERT_FILE.
    let (url, ca_file) = (
        format!("{}?sslrootcert=system", estate.url),
        ca_file.display().to_string(),
    );
    let whoami = estate.project.chant_with(
        &["lifecycle", "whoami", "dev"],
        &[("SHOP_DEV_DATABASE_URL", &url), ("SSL_CERT_FILE", &ca_file)],
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
    let generated =
        std::fs::read_to_string(estate.project.path().join("imported/public.sql")).unwrap();
    assert!(
        generated.contains(&format!("'People who order {OURS}'")),
        "{generated}"
    );
    let config = estate.project.path().join("chant.toml");
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
