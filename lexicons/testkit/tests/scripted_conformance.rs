//! The scripted lexicon runs the same conformance suite as every real lexicon, and the
//! suite itself catches a lexicon that breaks the contract.

use chant_lexicon::{
    DeclaredEntity, DescribeResult, HookError, Lexicon, LexiconFactory, Observation,
    ObserveRequest, Ownership, ProjectContext, ProjectMarker, ResourceMetadata, UnobservedReason,
};
use chant_testkit::{Scenario, ScriptedFactory, assert_observation_conformance};
use futures::FutureExt;
use serde_json::json;
use std::sync::Arc;

struct Project {
    _dir: tempfile::TempDir,
    lexicon: Arc<dyn Lexicon>,
}

fn project(world: serde_json::Value) -> Project {
    let dir = tempfile::tempdir().unwrap();
    let declared = json!([
        {"name": "web", "type": "Demo::Service", "props": {"replicas": 2}},
        {"name": "db", "type": "Demo::Database", "props": {}},
        {"name": "cache", "type": "Demo::Cache", "props": {}}
    ]);
    std::fs::write(dir.path().join("declared.json"), declared.to_string()).unwrap();
    std::fs::write(dir.path().join("dev.json"), world.to_string()).unwrap();
    let text = "[ownership]\nstack = \"shop\"\n[lexicons.scripted]\nsource = \"declared.json\"\n[environments.dev.scripted]\nlive = \"dev.json\"\n";
    std::fs::write(dir.path().join("chant.toml"), text).unwrap();
    let context = ProjectContext {
        root: dir.path().to_path_buf(),
        config_path: dir.path().join("chant.toml"),
        config_text: Arc::from(text),
        stack: "shop".into(),
        environments: vec!["dev".into()],
    };
    let lexicon = ScriptedFactory.create(&context).unwrap();
    Project { _dir: dir, lexicon }
}

fn ours() -> serde_json::Value {
    json!({"stack": "shop", "env": "dev"})
}

async fn request(lexicon: &Arc<dyn Lexicon>, owned: bool) -> ObserveRequest {
    let mut request = ObserveRequest::new(
        "dev",
        ProjectMarker::new("shop", "dev"),
        lexicon.declared().await.unwrap(),
    );
    request.owned = owned;
    request
}

#[tokio::test]
async fn the_scripted_lexicon_conforms() {
    let owned_world = project(json!({"resources": {
        "web": {"type": "Demo::Service", "status": "READY", "marker": ours()},
        "db": {"type": "Demo::Database", "status": "READY", "marker": {"stack": "blog", "env": "dev"}},
        "stray": {"type": "Demo::Service", "status": "READY", "marker": ours()}
    }}));
    let failing = project(json!({"fail": "connection refused"}));
    let no_creds =
        project(json!({"bind": {"reason": "no-credentials", "detail": "token expired"}}));
    let channel = owned_world.lexicon.ownership_channel();

    let plain = request(&owned_world.lexicon, false).await;
    let owned = request(&owned_world.lexicon, true).await;
    let failing_request = request(&failing.lexicon, false).await;
    let no_creds_request = request(&no_creds.lexicon, false).await;
    let scenarios = vec![
        Scenario::new(
            "present owned and foreign",
            plain.entities.to_vec(),
            owned_world.lexicon.describe_resources(&plain),
        )
        .present(&["web", "db"])
        .absent(&["cache"])
        .marker("web", "shop", Some("dev"))
        .ownership("web", Ownership::Owned)
        .ownership("db", Ownership::Foreign),
        Scenario::new(
            "owned read filters the foreign",
            owned.entities.to_vec(),
            owned_world.lexicon.describe_resources(&owned),
        )
        .owned()
        .present(&["web"])
        .unobserved(&["db"], UnobservedReason::Filtered)
        .absent(&["cache"]),
        Scenario::new(
            "whole-lexicon failure",
            failing_request.entities.to_vec(),
            failing.lexicon.describe_resources(&failing_request),
        )
        .unobserved(&["web", "db", "cache"], UnobservedReason::ReadFailed),
        Scenario::new(
            "expired credentials",
            no_creds_request.entities.to_vec(),
            no_creds.lexicon.describe_resources(&no_creds_request),
        )
        .unobserved(&["web", "db", "cache"], UnobservedReason::NoCredentials),
    ];
    assert_observation_conformance("scripted", channel.as_ref(), scenarios).await;
}

fn entities() -> Vec<DeclaredEntity> {
    vec![
        DeclaredEntity::new("web", "T", json!({})),
        DeclaredEntity::new("db", "T", json!({})),
    ]
}

#[tokio::test]
#[should_panic(expected = "is returned as foreign on an --owned read")]
async fn the_suite_catches_an_owned_read_that_returns_foreign_objects() {
    let mut obs = Observation::new();
    obs.present(
        "web",
        ResourceMetadata::new("T", "OK").with_ownership(Ownership::Foreign),
    );
    let answer: chant_lexicon::HookResult<DescribeResult> = Ok(obs.into());
    let channel = project(json!({})).lexicon.ownership_channel();
    let scenario = Scenario::new("bad", entities(), async move { answer }.boxed()).owned();
    assert_observation_conformance("broken", channel.as_ref(), vec![scenario]).await;
}

#[tokio::test]
#[should_panic(expected = "declares no ownership channel")]
async fn the_suite_catches_a_verdict_without_a_channel() {
    let mut obs = Observation::new();
    obs.present(
        "web",
        ResourceMetadata::new("T", "OK").with_ownership(Ownership::Owned),
    );
    let answer: chant_lexicon::HookResult<DescribeResult> = Ok(obs.into());
    let scenario = Scenario::new("bad", entities(), async move { answer }.boxed());
    assert_observation_conformance("broken", None, vec![scenario]).await;
}

#[tokio::test]
#[should_panic(expected = "expected `db` unobserved")]
async fn the_suite_catches_a_failed_read_reported_as_absent() {
    let mut obs = Observation::new();
    obs.present("web", ResourceMetadata::new("T", "OK"));
    let answer: chant_lexicon::HookResult<DescribeResult> = Ok(obs.into());
    let scenario = Scenario::new("bad", entities(), async move { answer }.boxed())
        .unobserved(&["db"], UnobservedReason::ReadFailed);
    assert_observation_conformance("broken", None, vec![scenario]).await;
}

#[tokio::test]
async fn a_thrown_read_is_read_failed_for_every_entity() {
    let answer: chant_lexicon::HookResult<DescribeResult> = Err(HookError::Failed("boom".into()));
    let scenario = Scenario::new("throw", entities(), async move { answer }.boxed())
        .unobserved(&["web", "db"], UnobservedReason::ReadFailed);
    assert_observation_conformance("thrower", None, vec![scenario]).await;
}
