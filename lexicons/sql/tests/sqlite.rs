//! The sql lexicon against real SQLite files: conformance, deep reads, export round trip,
//! teardown and identity.

mod common;

use chant_lexicon::{
    ExportRequest, IdentityAnswer, Ownership, ProjectMarker, ResourceSelector, TeardownRequest,
    UnobservedReason,
};
use chant_testkit::{Scenario, assert_observation_conformance};
use common::{OURS, SIBLING, drift, sqlite_project, unclaimed};

const SCHEMA: &str = "
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    total NUMERIC NOT NULL DEFAULT 0 CHECK (total >= 0)
);
CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount NUMERIC);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE VIEW big_orders AS SELECT id, total FROM orders WHERE total > 100;
CREATE TABLE quirky (a INTEGER UNIQUE);
";

fn live() -> String {
    format!(
        "
CREATE TABLE customers {OURS} (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT
);
CREATE TABLE orders {SIBLING} (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    total NUMERIC NOT NULL DEFAULT 0 CHECK (total >= 0)
);
CREATE INDEX orders_customer {OURS} ON orders (customer_id);
CREATE VIEW big_orders AS SELECT id, total FROM orders WHERE total > 100;
CREATE TABLE quirky {OURS} (a INTEGER, UNIQUE (a) ON CONFLICT IGNORE);
CREATE TABLE legacy {OURS} (id INTEGER);
CREATE TABLE audit (id INTEGER);
"
    )
}

#[tokio::test]
async fn the_sqlite_reader_conforms() {
    let project = sqlite_project(SCHEMA, &live());
    let missing = sqlite_project(SCHEMA, "");
    let garbage = sqlite_project(SCHEMA, "");
    std::fs::write(garbage.path("dev.db"), "this is not a database, just text").unwrap();
    let channel = project.lexicon.ownership_channel();

    let plain = project.request(false).await;
    let owned = project.request(true).await;
    let missing_request = missing.request(false).await;
    let garbage_request = garbage.request(false).await;
    let everything = [
        "table/main.customers",
        "table/main.orders",
        "table/main.invoices",
        "index/main.orders_customer",
        "view/main.big_orders",
        "table/main.quirky",
    ];
    let scenarios = vec![
        Scenario::new(
            "owned, foreign and absent",
            plain.entities.to_vec(),
            project.lexicon.describe_resources(&plain),
        )
        .present(&[
            "table/main.customers",
            "table/main.orders",
            "index/main.orders_customer",
            "view/main.big_orders",
        ])
        .absent(&["table/main.invoices"])
        .marker("table/main.customers", "shop", Some("dev"))
        .marker("table/main.orders", "blog", Some("dev"))
        .no_marker(&["view/main.big_orders"])
        .ownership("table/main.customers", Ownership::Owned)
        .ownership("table/main.orders", Ownership::Foreign)
        .ownership("view/main.big_orders", Ownership::Foreign)
        // A stored definition the reader cannot parse is that object's failure alone.
        .unobserved(&["table/main.quirky"], UnobservedReason::ReadFailed),
        Scenario::new(
            "--owned withholds the foreign",
            owned.entities.to_vec(),
            project.lexicon.describe_resources(&owned),
        )
        .owned()
        .present(&["table/main.customers", "index/main.orders_customer"])
        .unobserved(
            &["table/main.orders", "view/main.big_orders"],
            UnobservedReason::Filtered,
        )
        .absent(&["table/main.invoices"]),
        // SQLite has no credentials: "database down" is a file that is not there.
        Scenario::new(
            "no database file",
            missing_request.entities.to_vec(),
            missing.lexicon.describe_resources(&missing_request),
        )
        .unobserved(&everything, UnobservedReason::NoBinding),
        Scenario::new(
            "not a database",
            garbage_request.entities.to_vec(),
            garbage.lexicon.describe_resources(&garbage_request),
        )
        .unobserved(&everything, UnobservedReason::ReadFailed),
    ];
    assert_observation_conformance("sql", channel.as_ref(), scenarios).await;
}

#[tokio::test]
async fn orphans_in_the_declared_schema_are_reported_with_their_ownership() {
    let project = sqlite_project(SCHEMA, &live());
    let request = project.request(false).await;
    let observation = project
        .lexicon
        .describe_resources(&request)
        .await
        .unwrap()
        .normalize();
    let legacy = &observation.resources["table/main.legacy"];
    assert_eq!(legacy.ownership(), Ownership::Owned);
    assert_eq!(
        observation.resources["table/main.audit"].ownership(),
        Ownership::Foreign
    );
    let queried = &observation.queried["table/main.invoices"];
    assert!(
        queried.starts_with("sqlite://") && queried.ends_with("dev.db#table/main.invoices"),
        "{queried}"
    );

    let owned = project
        .lexicon
        .describe_resources(&project.request(true).await)
        .await
        .unwrap()
        .normalize();
    assert!(owned.resources.contains_key("table/main.legacy"));
    assert!(
        !owned.resources.contains_key("table/main.audit"),
        "a foreign orphan is no business of --owned"
    );
}

#[tokio::test]
async fn an_unchanged_schema_has_no_property_drift_and_a_changed_column_does() {
    let project = sqlite_project(SCHEMA, &live());
    let declared = project.declared().await;
    let deep = project.deep().await;
    assert!(deep.unobserved.contains_key("table/main.quirky"));
    assert_eq!(drift(&declared, &deep, project.lexicon.as_ref()), vec![]);
    assert_eq!(
        unclaimed(&declared, &deep, project.lexicon.as_ref()),
        vec![]
    );

    let changed = live().replace("name TEXT\n", "name VARCHAR(80)\n");
    let project = sqlite_project(SCHEMA, &changed);
    let deep = project.deep().await;
    assert_eq!(
        drift(&declared, &deep, project.lexicon.as_ref()),
        vec![(
            "table/main.customers".to_owned(),
            vec!["columns[2].type".to_owned()]
        )]
    );
}

fn export_request(owned: bool) -> ExportRequest {
    ExportRequest {
        environment: "dev".into(),
        project: ProjectMarker::new("shop", "dev"),
        selector: ResourceSelector::default(),
        owned,
        verbatim: false,
        stack: None,
        region: None,
    }
}

#[tokio::test]
async fn an_export_regenerates_ddl_that_reads_back_unchanged() {
    let live = live().replace(
        "CREATE TABLE quirky {OURS} (a INTEGER, UNIQUE (a) ON CONFLICT IGNORE);"
            .replace("{OURS}", OURS)
            .as_str(),
        "",
    );
    let project = sqlite_project(SCHEMA, &live);
    let template = project
        .lexicon
        .export_resources(&export_request(false))
        .await
        .unwrap();
    assert_eq!(template.len(), 6, "{template:?}");
    let files = project.lexicon.generate_source(&template).unwrap();
    assert_eq!(files.len(), 1);
    assert!(
        files[0]
            .content
            .contains(&format!("CREATE TABLE customers {OURS}")),
        "{}",
        files[0].content
    );
    assert!(
        files[0].content.contains("CREATE TABLE audit ("),
        "a foreign object gets no marker"
    );

    // The generated DDL is this lexicon's source: read back, it matches live exactly,
    // and applied to a fresh database it carries the same markers.
    let imported = sqlite_project(&files[0].content, &files[0].content);
    let declared = imported.declared().await;
    let deep = project.deep().await;
    assert_eq!(declared.len(), 6);
    assert_eq!(drift(&declared, &deep, project.lexicon.as_ref()), vec![]);
    assert_eq!(
        unclaimed(&declared, &deep, project.lexicon.as_ref()),
        vec![]
    );
    let observation = imported
        .lexicon
        .describe_resources(&imported.request(false).await)
        .await
        .unwrap()
        .normalize();
    assert_eq!(
        observation.resources["table/main.customers"].ownership(),
        Ownership::Owned
    );
    assert_eq!(
        observation.resources["table/main.orders"].ownership(),
        Ownership::Foreign
    );

    let owned_only = project
        .lexicon
        .export_resources(&export_request(true))
        .await
        .unwrap();
    let names: Vec<String> = owned_only
        .ir()
        .resources
        .iter()
        .map(|r| r.logical_id.clone())
        .collect();
    assert_eq!(
        names,
        [
            "index/main.orders_customer",
            "table/main.customers",
            "table/main.legacy"
        ]
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
async fn teardown_drops_owned_undeclared_objects_only_after_a_re_read() {
    let project = sqlite_project(SCHEMA, &live());
    let declared: Vec<String> = project
        .declared()
        .await
        .into_iter()
        .map(|e| e.name)
        .collect();
    let request = teardown_request(declared);
    let plan = project.lexicon.teardown_owned(&request).await.unwrap();
    let names: Vec<&str> = plan.candidates.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["table/main.legacy"]);
    assert!(plan.holes.is_empty());

    let outcome = project
        .lexicon
        .execute_teardown(&request, &plan)
        .await
        .unwrap();
    assert_eq!(outcome.deleted, ["table/main.legacy"]);
    let after = project.lexicon.teardown_owned(&request).await.unwrap();
    assert!(after.candidates.is_empty());
    let observation = project
        .lexicon
        .describe_resources(&project.request(false).await)
        .await
        .unwrap()
        .normalize();
    assert!(
        observation.resources.contains_key("table/main.audit"),
        "the foreign orphan stays"
    );

    // A marker that changed between plan and execute is skipped, not dropped.
    let project = sqlite_project(SCHEMA, &live());
    let plan = project.lexicon.teardown_owned(&request).await.unwrap();
    let connection = rusqlite::Connection::open(project.path("dev.db")).unwrap();
    connection
        .execute_batch(&format!(
            "DROP TABLE legacy; CREATE TABLE legacy {SIBLING} (id INTEGER);"
        ))
        .unwrap();
    let outcome = project
        .lexicon
        .execute_teardown(&request, &plan)
        .await
        .unwrap();
    assert!(outcome.deleted.is_empty());
    assert_eq!(outcome.skipped, ["table/main.legacy"]);
}

#[tokio::test]
async fn whoami_names_the_file_and_the_os_user() {
    let project = sqlite_project(SCHEMA, &live());
    let answer = project.whoami().await;
    let IdentityAnswer::Resolved(identity) = answer else {
        panic!("{answer:?}")
    };
    assert!(!identity.identity.is_empty());
    assert!(
        identity
            .target
            .as_deref()
            .is_some_and(|t| t.ends_with("dev.db"))
    );
    let missing = sqlite_project(SCHEMA, "");
    let answer = missing.whoami().await;
    assert!(
        matches!(
            answer,
            IdentityAnswer::Unresolved {
                reason: UnobservedReason::NoBinding,
                ..
            }
        ),
        "{answer:?}"
    );
}

#[tokio::test]
async fn bad_ddl_is_a_diagnostic_at_its_line() {
    let project = sqlite_project(
        "CREATE TABLE a (x INTEGER);\n\nCREATE TABLE b (x INTEGER,,);\n",
        "",
    );
    let error = project.lexicon.declared().await.unwrap_err();
    assert!(error.file.ends_with("schema.sql"));
    let text = std::fs::read_to_string(project.path("schema.sql")).unwrap();
    assert_eq!(error.line_in(&text), Some(3), "{error:?}");
}
