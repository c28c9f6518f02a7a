//! examples/quickstart: the committed dev.db is what dev.sql builds, and the plan over it
//! shows each instructive drift (the CLI test snapshots the same plan end to end).

use chant::lifecycle::change_set::{Action, PlanInput, build_change_set};
use chant::lifecycle::deep::{diff_deep, property_drift};
use chant_lexicon::{
    Disruption, DisruptionQuery, DisruptionRequest, LexiconFactory, ObserveRequest, ProjectContext,
    ProjectMarker,
};
use chant_sql::SqlFactory;
use std::path::PathBuf;
use std::sync::Arc;

fn quickstart() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/quickstart")
}

fn schema_rows(connection: &rusqlite::Connection) -> Vec<(String, String, Option<String>)> {
    let mut statement = connection
        .prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name")
        .unwrap();
    statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn the_committed_database_is_what_dev_sql_builds() {
    let committed = rusqlite::Connection::open_with_flags(
        quickstart().join("dev.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let rebuilt = rusqlite::Connection::open_in_memory().unwrap();
    rebuilt
        .execute_batch(&std::fs::read_to_string(quickstart().join("dev.sql")).unwrap())
        .unwrap();
    assert_eq!(
        schema_rows(&committed),
        schema_rows(&rebuilt),
        "dev.db is stale: run examples/quickstart/regenerate.sh"
    );
}

#[tokio::test]
async fn the_quickstart_plan_shows_every_kind_of_drift() {
    let root = quickstart();
    let text = std::fs::read_to_string(root.join("chant.toml")).unwrap();
    let project = ProjectContext {
        root: root.clone(),
        config_path: root.join("chant.toml"),
        config_text: Arc::from(text.as_str()),
        stack: "shop".into(),
        environments: vec!["dev".into()],
    };
    let lexicon = SqlFactory.create(&project).unwrap();
    let declared = lexicon.declared().await.unwrap();
    let request = ObserveRequest::new("dev", ProjectMarker::new("shop", "dev"), declared.clone());
    let now = lexicon
        .describe_resources(&request)
        .await
        .unwrap()
        .normalize();
    let deep = lexicon.observe_resources_deep(&request).await.unwrap();
    let drift = property_drift(&diff_deep(
        &declared,
        &deep,
        &lexicon.normalization_hooks(),
        None,
    ));
    let names: Vec<String> = declared.iter().map(|e| e.name.clone()).collect();
    let plan = build_change_set(&PlanInput {
        lexicon: "sql",
        declared: &names,
        now: &now,
        then: None,
        property_drift: Some(&drift),
    });
    let actions: Vec<(&str, Action)> = plan.iter().map(|e| (e.name.as_str(), e.action)).collect();
    assert_eq!(
        actions,
        [
            ("index/main.orders_by_customer", Action::Noop),
            ("table/main.analytics_events", Action::Adopt),
            ("table/main.carts", Action::Delete),
            ("table/main.customers", Action::Noop),
            ("table/main.invoices", Action::Create),
            ("table/main.orders", Action::Update),
            ("view/main.big_orders", Action::Noop),
        ]
    );
    let orders = plan.iter().find(|e| e.name == "table/main.orders").unwrap();
    assert_eq!(orders.deltas.len(), 1);
    assert_eq!(orders.deltas[0].path, "columns[2].type");

    let verdicts = lexicon
        .classify_disruption(&DisruptionRequest {
            environment: "dev".into(),
            changes: vec![DisruptionQuery {
                name: orders.name.clone(),
                entity_type: orders.entity_type.clone(),
                deltas: orders.deltas.clone(),
            }],
        })
        .await
        .unwrap();
    assert_eq!(
        verdicts["table/main.orders"].disruption,
        Disruption::Replace
    );
}
