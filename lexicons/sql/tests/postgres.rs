//! The sql lexicon against a throwaway PostgreSQL 15 cluster (one per test binary):
//! conformance, deep reads, the export round trip, teardown, identity.

mod common;

use chant_lexicon::{
    ExportRequest, HookError, IdentityAnswer, Ownership, ProjectMarker, ResourceSelector,
    TeardownRequest, UnobservedReason,
};
use chant_testkit::postgres::PostgresCluster;
use chant_testkit::{Scenario, assert_observation_conformance};
use common::{drift, postgres_project, unclaimed};
use std::sync::atomic::{AtomicUsize, Ordering};

const READER_PASSWORD: &str = "reader-pw-7f3a";

/// The declared schema; `{customers}` / `{orders}` are where live comments carry markers.
const SCHEMA: &str = "
CREATE TYPE order_status AS ENUM ('pending', 'paid', 'shipped');
CREATE TABLE customers (
    id serial PRIMARY KEY,
    email varchar(255) NOT NULL UNIQUE,
    name text,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE orders (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id int NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    status order_status NOT NULL DEFAULT 'pending',
    total numeric(10, 2) NOT NULL DEFAULT 0 CHECK (total >= 0),
    tags text[],
    CONSTRAINT orders_sane CHECK (total < 1000000 AND customer_id > 0 AND status IN ('pending', 'paid', 'shipped'))
);
CREATE INDEX orders_customer_idx ON orders (customer_id) WHERE status <> 'shipped';
CREATE UNIQUE INDEX customers_lower_email ON customers (lower(email));
CREATE VIEW open_orders AS SELECT id, customer_id, total FROM orders WHERE status = 'pending' AND total > 10;
CREATE MATERIALIZED VIEW totals AS SELECT customer_id, sum(total) AS total FROM orders GROUP BY customer_id;
CREATE SEQUENCE invoice_seq START 1000 INCREMENT BY 5;
CREATE FUNCTION add(a integer, b integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT a + b $$;
CREATE TABLE invoices (id int PRIMARY KEY);
COMMENT ON TABLE customers IS 'People who order';
COMMENT ON COLUMN customers.email IS 'login';
";

const OURS: &str = "[chant managed-by=chant stack=shop env=dev]";

/// What the server holds: the schema with markers, without `invoices`, with two orphans.
fn live() -> String {
    let schema = SCHEMA.replace("CREATE TABLE invoices (id int PRIMARY KEY);\n", "");
    format!(
        "{schema}
COMMENT ON TABLE customers IS 'People who order {OURS}';
COMMENT ON TABLE orders IS '[chant managed-by=chant stack=blog env=dev]';
COMMENT ON INDEX orders_customer_idx IS '{OURS}';
CREATE TABLE legacy (id int);
COMMENT ON TABLE legacy IS '{OURS}';
CREATE TABLE audit (id int);
"
    )
}

fn cluster() -> &'static PostgresCluster {
    let cluster = PostgresCluster::shared();
    static ROLE: std::sync::Once = std::sync::Once::new();
    ROLE.call_once(|| {
        cluster
            .psql(
                "postgres",
                &format!("CREATE ROLE chant_reader LOGIN PASSWORD '{READER_PASSWORD}'"),
            )
            .unwrap();
    });
    cluster
}

/// A fresh database holding `sql`, readable by `chant_reader`.
fn database(sql: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!("shop{}", NEXT.fetch_add(1, Ordering::SeqCst));
    cluster().database(&name, sql).unwrap();
    cluster()
        .psql(
            &name,
            "GRANT SELECT ON ALL TABLES IN SCHEMA public TO chant_reader",
        )
        .unwrap();
    name
}

fn reader_url(database: &str) -> String {
    cluster().url("chant_reader", READER_PASSWORD, database)
}

const EVERYTHING: [&str; 11] = [
    "type/public.order_status",
    "table/public.customers",
    "table/public.orders",
    "index/public.orders_customer_idx",
    "index/public.customers_lower_email",
    "view/public.open_orders",
    "materialized_view/public.totals",
    "sequence/public.invoice_seq",
    "function/public.add(integer,integer)",
    "table/public.invoices",
    "table/public.customers",
];

#[tokio::test]
async fn the_postgres_reader_conforms() {
    let shop = database(&live());
    let restricted = database(&live());
    cluster()
        .psql(
            &restricted,
            "REVOKE SELECT ON pg_catalog.pg_sequence FROM PUBLIC",
        )
        .unwrap();
    let down = PostgresCluster::start().unwrap();
    let down_url = down.url("chant_reader", READER_PASSWORD, "shop");
    down.stop();

    let project = postgres_project(SCHEMA, &reader_url(&shop), "");
    let wrong_password = postgres_project(
        SCHEMA,
        &cluster().url("chant_reader", "not-the-password", &shop),
        "",
    );
    let no_database = postgres_project(SCHEMA, &reader_url("no_such_db"), "");
    let unreachable = postgres_project(SCHEMA, &down_url, "");
    let denied = postgres_project(SCHEMA, &reader_url(&restricted), "");
    let channel = project.lexicon.ownership_channel();
    let all: Vec<&str> = EVERYTHING[..10].to_vec();

    let plain = project.request(false).await;
    let owned = project.request(true).await;
    let r_wrong = wrong_password.request(false).await;
    let r_nodb = no_database.request(false).await;
    let r_down = unreachable.request(false).await;
    let r_denied = denied.request(false).await;
    let scenarios = vec![
        Scenario::new(
            "owned, foreign and absent",
            plain.entities.to_vec(),
            project.lexicon.describe_resources(&plain),
        )
        .present(&all[..9])
        .absent(&["table/public.invoices"])
        .marker("table/public.customers", "shop", Some("dev"))
        .marker("table/public.orders", "blog", Some("dev"))
        .no_marker(&["view/public.open_orders"])
        .ownership("table/public.customers", Ownership::Owned)
        .ownership("index/public.orders_customer_idx", Ownership::Owned)
        .ownership("table/public.orders", Ownership::Foreign),
        Scenario::new(
            "--owned",
            owned.entities.to_vec(),
            project.lexicon.describe_resources(&owned),
        )
        .owned()
        .present(&["table/public.customers", "index/public.orders_customer_idx"])
        .unobserved(
            &["table/public.orders", "view/public.open_orders"],
            UnobservedReason::Filtered,
        )
        .absent(&["table/public.invoices"]),
        Scenario::new(
            "wrong password",
            r_wrong.entities.to_vec(),
            wrong_password.lexicon.describe_resources(&r_wrong),
        )
        .unobserved(&all, UnobservedReason::NoCredentials),
        Scenario::new(
            "unknown database",
            r_nodb.entities.to_vec(),
            no_database.lexicon.describe_resources(&r_nodb),
        )
        .unobserved(&all, UnobservedReason::NoBinding),
        Scenario::new(
            "database down",
            r_down.entities.to_vec(),
            unreachable.lexicon.describe_resources(&r_down),
        )
        .unobserved(&all, UnobservedReason::NoBinding),
        Scenario::new(
            "permission denied on one catalog table",
            r_denied.entities.to_vec(),
            denied.lexicon.describe_resources(&r_denied),
        )
        .unobserved(
            &["sequence/public.invoice_seq"],
            UnobservedReason::ReadFailed,
        )
        .present(&[
            "table/public.customers",
            "view/public.open_orders",
            "function/public.add(integer,integer)",
        ]),
    ];
    assert_observation_conformance("sql", channel.as_ref(), scenarios).await;

    let failed = wrong_password
        .lexicon
        .describe_resources(&r_wrong)
        .await
        .unwrap()
        .normalize();
    let detail = format!("{:?}", failed.unobserved);
    assert!(
        !detail.contains("not-the-password") && !detail.contains(READER_PASSWORD),
        "{detail}"
    );
    assert!(
        detail.contains("password authentication failed"),
        "{detail}"
    );
    let orphans = project
        .lexicon
        .describe_resources(&plain)
        .await
        .unwrap()
        .normalize();
    assert_eq!(
        orphans.resources["table/public.legacy"].ownership(),
        Ownership::Owned
    );
    assert_eq!(
        orphans.resources["table/public.audit"].ownership(),
        Ownership::Foreign
    );
    assert!(
        !orphans
            .resources
            .contains_key("sequence/public.customers_id_seq"),
        "a serial's sequence is part of its column"
    );
    assert_eq!(
        orphans.queried["table/public.invoices"],
        format!(
            "postgres://{}/{shop}#table/public.invoices",
            cluster().host_port()
        )
    );
}

#[tokio::test]
async fn live_definitions_compare_equal_to_the_ddl_and_a_changed_column_drifts() {
    let shop = database(&live());
    let project = postgres_project(SCHEMA, &reader_url(&shop), "");
    let declared = project.declared().await;
    let deep = project.deep().await;
    assert!(deep.unobserved.is_empty(), "{:?}", deep.unobserved);
    assert_eq!(drift(&declared, &deep, project.lexicon.as_ref()), vec![]);
    assert_eq!(
        unclaimed(&declared, &deep, project.lexicon.as_ref()),
        vec![]
    );

    cluster()
        .psql(&shop, "ALTER TABLE customers ALTER COLUMN name TYPE varchar(80); ALTER TABLE orders ALTER COLUMN total SET DEFAULT 1")
        .unwrap();
    let deep = project.deep().await;
    assert_eq!(
        drift(&declared, &deep, project.lexicon.as_ref()),
        vec![
            (
                "table/public.customers".to_owned(),
                vec!["columns[2].type".to_owned()]
            ),
            (
                "table/public.orders".to_owned(),
                vec!["columns[3].default".to_owned()]
            ),
        ]
    );
}

fn export_request() -> ExportRequest {
    ExportRequest {
        environment: "dev".into(),
        project: ProjectMarker::new("shop", "dev"),
        selector: ResourceSelector::default(),
        owned: false,
        verbatim: false,
        stack: None,
        region: None,
    }
}

#[tokio::test]
async fn import_round_trip_reads_back_as_all_noop() {
    let shop = database(&live());
    let project = postgres_project(SCHEMA, &reader_url(&shop), "");
    let template = project
        .lexicon
        .export_resources(&export_request())
        .await
        .unwrap();
    let files = project.lexicon.generate_source(&template).unwrap();
    assert_eq!(files.len(), 1);
    let ddl = &files[0].content;
    assert!(
        ddl.contains(&format!("IS 'People who order {OURS}'")),
        "{ddl}"
    );
    assert!(
        !ddl.contains("stack=blog"),
        "a foreign marker is not ours to write back"
    );

    // The generated file is the project's new source: declared == live, all noop.
    let imported = postgres_project(ddl, &reader_url(&shop), "");
    let declared = imported.declared().await;
    let deep = imported.deep().await;
    assert_eq!(drift(&declared, &deep, imported.lexicon.as_ref()), vec![]);
    assert_eq!(
        unclaimed(&declared, &deep, imported.lexicon.as_ref()),
        vec![]
    );
    let thin = imported
        .lexicon
        .describe_resources(&imported.request(false).await)
        .await
        .unwrap()
        .normalize();
    for entity in &declared {
        assert!(
            thin.resources.contains_key(&entity.name),
            "{} is not present",
            entity.name
        );
    }
    assert_eq!(
        thin.resources.len(),
        declared.len(),
        "every live object is declared"
    );

    // Applied to an empty database, the generated DDL recreates the same objects and markers.
    let copy = database(ddl);
    let recreated = postgres_project(ddl, &reader_url(&copy), "");
    let deep = recreated.deep().await;
    assert_eq!(drift(&declared, &deep, recreated.lexicon.as_ref()), vec![]);
    let thin = recreated
        .lexicon
        .describe_resources(&recreated.request(false).await)
        .await
        .unwrap()
        .normalize();
    assert_eq!(
        thin.resources["table/public.customers"].ownership(),
        Ownership::Owned
    );
}

fn teardown_request(declared: Vec<String>) -> TeardownRequest {
    TeardownRequest {
        environment: "dev".into(),
        project: ProjectMarker::new("shop", "dev"),
        declared,
        stack: None,
        region: None,
    }
}

#[tokio::test]
async fn teardown_is_guarded_and_drops_only_owned_undeclared_objects() {
    let shop = database(&format!(
        "{}\nCREATE VIEW legacy_view AS SELECT id FROM legacy;\nCOMMENT ON VIEW legacy_view IS '{OURS}';",
        live()
    ));
    cluster()
        .psql(&shop, "ALTER DATABASE postgres OWNER TO postgres")
        .unwrap();
    cluster()
        .psql(&shop, "ALTER TABLE legacy OWNER TO chant_reader; ALTER VIEW legacy_view OWNER TO chant_reader")
        .unwrap();
    let target = format!("{}/{shop}", cluster().host_port());
    let guarded = postgres_project(
        SCHEMA,
        &reader_url(&shop),
        "allowed_targets = [\"db.example:5432/shop\"]\n",
    );
    let project = postgres_project(
        SCHEMA,
        &reader_url(&shop),
        &format!("allowed_targets = [\"{target}\"]\n"),
    );
    let declared: Vec<String> = project
        .declared()
        .await
        .into_iter()
        .map(|e| e.name)
        .collect();
    let request = teardown_request(declared);

    let plan = project.lexicon.teardown_owned(&request).await.unwrap();
    let names: Vec<&str> = plan.candidates.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["view/public.legacy_view", "table/public.legacy"],
        "dependents first"
    );
    assert!(plan.holes.is_empty());

    let refused = guarded
        .lexicon
        .execute_teardown(&request, &plan)
        .await
        .unwrap_err();
    assert!(
        matches!(refused, HookError::Refused(ref m) if m.contains("allowed_targets")),
        "{refused:?}"
    );

    let outcome = project
        .lexicon
        .execute_teardown(&request, &plan)
        .await
        .unwrap();
    assert_eq!(
        outcome.deleted,
        ["view/public.legacy_view", "table/public.legacy"]
    );
    assert!(outcome.failed.is_empty(), "{:?}", outcome.failed);
    let after = project.lexicon.teardown_owned(&request).await.unwrap();
    assert!(after.candidates.is_empty());
    let thin = project
        .lexicon
        .describe_resources(&project.request(false).await)
        .await
        .unwrap()
        .normalize();
    assert!(thin.resources.contains_key("table/public.audit"));
}

#[tokio::test]
async fn a_failed_drop_rolls_the_whole_teardown_back() {
    let shop = database(&format!(
        "{}\nCREATE TABLE spare (id int);\nCOMMENT ON TABLE spare IS '{OURS}';",
        live()
    ));
    cluster()
        .psql(&shop, "ALTER TABLE spare OWNER TO chant_reader")
        .unwrap();
    let project = postgres_project(SCHEMA, &reader_url(&shop), "");
    let declared: Vec<String> = project
        .declared()
        .await
        .into_iter()
        .map(|e| e.name)
        .collect();
    let request = teardown_request(declared);
    let plan = project.lexicon.teardown_owned(&request).await.unwrap();
    // `legacy` belongs to the superuser: the reader may not drop it, so nothing is dropped.
    let outcome = project
        .lexicon
        .execute_teardown(&request, &plan)
        .await
        .unwrap();
    assert!(outcome.deleted.is_empty(), "{outcome:?}");
    assert_eq!(outcome.failed.len(), 2, "{outcome:?}");
    let still = project.lexicon.teardown_owned(&request).await.unwrap();
    assert_eq!(still.candidates.len(), 2, "the rollback kept `spare` too");
}

#[tokio::test]
async fn whoami_reports_the_role_server_and_the_variable() {
    let shop = database(&live());
    let project = postgres_project(SCHEMA, &reader_url(&shop), "");
    let answer = project.whoami().await;
    let IdentityAnswer::Resolved(identity) = answer else {
        panic!("{answer:?}")
    };
    assert_eq!(identity.identity, "chant_reader");
    assert_eq!(identity.source, "env SHOP_DEV_DATABASE_URL");
    assert_eq!(
        identity.endpoint.as_deref(),
        Some(cluster().host_port().as_str())
    );
    assert_eq!(
        identity.target,
        Some(format!("{}/{shop}", cluster().host_port()))
    );
    assert!(
        identity.scope.contains(&format!("database {shop}")),
        "{}",
        identity.scope
    );
    let text = serde_json::to_string(&identity).unwrap();
    assert!(!text.contains(READER_PASSWORD));

    let wrong = postgres_project(
        SCHEMA,
        &cluster().url("chant_reader", "nope-nope", &shop),
        "",
    );
    let answer = wrong.whoami().await;
    assert!(
        matches!(
            answer,
            IdentityAnswer::Unresolved {
                reason: UnobservedReason::NoCredentials,
                ..
            }
        ),
        "{answer:?}"
    );
}
