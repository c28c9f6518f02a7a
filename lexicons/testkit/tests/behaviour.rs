//! The behaviour contract end to end inside one process: the scripted lexicon through the
//! behaviour conformance suite over both transports (a real HTTP server on 127.0.0.1 and
//! the exec seam), the transports' wire-condition mapping, and the suite catching a
//! lexicon that breaks the contract.

use chant_behaviour::{CommandTransport, HttpTransport, transport_for};
use chant_lexicon::behaviour::{
    BehaviourOutcome, BehaviourReport, BehaviourRequest, BehaviourTransport,
    BehaviourUnpredictedReason as Reason, Resolved, ResolvedToken, Token, TrafficLevel, Variables,
};
use chant_lexicon::exec::{Exec, ExecError, ExecOutput};
use chant_lexicon::{Lexicon, ObserveRequest, ProjectContext, ProjectMarker};
use chant_testkit::behaviour::check_outcome;
use chant_testkit::{
    BehaviourScenario, Expect, FakeExec, FakeHttp, Reply, ScriptedFactory,
    assert_behaviour_conformance,
};
use futures::FutureExt;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

const TOKEN: &str = "tok_live_0123456789abcdef";

fn vars(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// What the example engine would say: every entity whose type is not in `unknown` priced.
fn answer(request: &Value, unknown: &[&str]) -> Value {
    let traffic = request["traffic"].as_str().unwrap_or_default();
    let mut predictions = serde_json::Map::new();
    let mut unpredicted = serde_json::Map::new();
    for entity in request["entities"].as_array().into_iter().flatten() {
        let name = entity["name"].as_str().unwrap().to_owned();
        if unknown.contains(&entity["type"].as_str().unwrap()) {
            unpredicted.insert(
                name,
                json!({"reason": "unsupported-kind", "detail": "no model"}),
            );
            continue;
        }
        predictions.insert(name, json!({
            "at": {"traffic": traffic},
            "cost": {"rate": "per-hour", "perHour": 0.05, "currency": "USD"},
            "headroom": {"cpu": 0.5},
            "errorRate": 0.001,
            "provenance": {"engine": "fake", "version": "1", "tolerance": "±10%", "basis": "modeled"}
        }));
    }
    json!({"wire": "chant-example-behaviour/v1", "engine": {"name": "fake", "version": "1"},
           "at": traffic, "predictions": predictions, "unpredicted": unpredicted})
}

struct Project {
    _dir: tempfile::TempDir,
    context: ProjectContext,
}

fn project(declared: Value) -> Project {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("declared.json"), declared.to_string()).unwrap();
    std::fs::write(dir.path().join("dev.json"), "{}").unwrap();
    let text = "[ownership]\nstack = \"shop\"\n[lexicons.scripted]\nsource = \"declared.json\"\n[environments.dev.scripted]\nlive = \"dev.json\"\n";
    std::fs::write(dir.path().join("chant.toml"), text).unwrap();
    let context = ProjectContext {
        root: dir.path().to_path_buf(),
        config_path: dir.path().join("chant.toml"),
        config_text: Arc::from(text),
        stack: "shop".into(),
        environments: vec!["dev".into()],
    };
    Project { _dir: dir, context }
}

fn estate() -> Value {
    json!([
        {"name": "web", "type": "Demo::Service", "props": {"replicas": 2, "db": {"ref": "db"}}},
        {"name": "db", "type": "Demo::Database", "props": {"size": "small"}},
        {"name": "search", "type": "Demo::Search", "props": {}}
    ])
}

fn lexicon(
    project: &Project,
    variables: BTreeMap<String, String>,
    exec: Arc<dyn Exec>,
) -> Arc<dyn Lexicon> {
    Arc::new(
        ScriptedFactory::build(&project.context)
            .unwrap()
            .with_behaviour_seams(Arc::new(variables), exec),
    )
}

async fn request(lexicon: &Arc<dyn Lexicon>) -> BehaviourRequest {
    let declared = lexicon.declared().await.unwrap();
    let edges = lexicon.declared_edges(&declared);
    let mut observe = ObserveRequest::new("dev", ProjectMarker::new("shop", "dev"), declared);
    observe.request_timeout = Duration::from_secs(2);
    BehaviourRequest::new(observe, TrafficLevel::new("100 rps"), edges)
}

async fn predict(lexicon: Arc<dyn Lexicon>) -> chant_lexicon::HookResult<BehaviourOutcome> {
    let request = request(&lexicon).await;
    lexicon.predict_behaviour(&request).await
}

fn http_engine(server: &FakeHttp) -> BTreeMap<String, String> {
    vars(&[
        (
            "CHANT_BEHAVIOUR_ENGINE",
            &format!("{}/predict", server.url()),
        ),
        ("CHANT_BEHAVIOUR_TOKEN", TOKEN),
    ])
}

#[tokio::test]
async fn the_scripted_lexicon_conforms_over_http() {
    let up = FakeHttp::start();
    up.handle(|r| {
        let body: Value = serde_json::from_slice(&r.body).ok()?;
        Some(Reply::json(200, &answer(&body, &["Demo::Search"])))
    });
    let broke = FakeHttp::start();
    broke.route(
        "POST",
        "/",
        Reply::json(402, &json!({"error": "no credit"})),
    );
    let throttled = FakeHttp::start();
    throttled.route(
        "POST",
        "/",
        Reply::json(429, &json!({"error": "slow down"})),
    );
    let slow = FakeHttp::start();
    slow.route(
        "POST",
        "/",
        Reply::json(200, &json!({})).after(Duration::from_secs(5)),
    );
    let exec: Arc<dyn Exec> = Arc::new(FakeExec::new());
    let p = project(estate());
    let planted = project(json!([{"name": "db", "type": "Demo::Database",
        "props": {"dsn": "postgres://app:hunter2@db:5432/prod"}}]));
    let named = project(json!([{"name": "db", "type": "Demo::Database",
        "props": {"password": "hunter2-prod"}}]));
    let asked = ["web", "db", "search"];
    assert_behaviour_conformance(
        "scripted",
        vec![
            BehaviourScenario::new(
                "the engine is up",
                &asked,
                predict(lexicon(&p, http_engine(&up), exec.clone())).boxed(),
            )
            .predicted(&["web", "db"])
            .unpredicted("search", Some(Reason::UnsupportedKind)),
            BehaviourScenario::new(
                "nothing names an engine",
                &asked,
                predict(lexicon(&p, vars(&[]), exec.clone())).boxed(),
            )
            .refusal(Some(Reason::NoEngine)),
            BehaviourScenario::new(
                "a URL and no token",
                &asked,
                predict(lexicon(
                    &p,
                    vars(&[("BEHAVIOUR_ENGINE", &up.url())]),
                    exec.clone(),
                ))
                .boxed(),
            )
            .refusal(Some(Reason::NoEngine)),
            BehaviourScenario::new(
                "out of credit",
                &asked,
                predict(lexicon(&p, http_engine(&broke), exec.clone())).boxed(),
            )
            .refusal(Some(Reason::EngineOutOfCredit)),
            BehaviourScenario::new(
                "over quota",
                &asked,
                predict(lexicon(&p, http_engine(&throttled), exec.clone())).boxed(),
            )
            .refusal(Some(Reason::EngineOverQuota)),
            BehaviourScenario::new(
                "too slow",
                &asked,
                predict(lexicon(&p, http_engine(&slow), exec.clone())).boxed(),
            )
            .refusal(Some(Reason::EngineUnreachable)),
            BehaviourScenario::new(
                "a DSN with a password in props",
                &["db"],
                predict(lexicon(&planted, http_engine(&up), exec.clone())).boxed(),
            )
            .failure(),
            BehaviourScenario::new(
                "a literal under a credential name",
                &["db"],
                predict(lexicon(&named, http_engine(&up), exec.clone())).boxed(),
            )
            .refusal(Some(Reason::CredentialInRequest)),
        ],
    )
    .await;
    // Neither planted credential left the process.
    let sent: Vec<String> = up.requests().iter().map(|r| r.body_text()).collect();
    assert_eq!(
        sent.len(),
        1,
        "only the estate without credentials was sent"
    );
    assert!(sent.iter().all(|b| !b.contains("hunter2")));
    let request: Value = serde_json::from_str(&sent[0]).unwrap();
    assert_eq!(
        request["edges"][0],
        json!({"from": "web", "to": "db", "relation": "reference", "label": "props.db"})
    );
    assert_eq!(
        up.requests()[0].header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
}

#[tokio::test]
async fn the_scripted_lexicon_conforms_over_a_command() {
    let p = project(estate());
    let body = answer(
        &json!({"traffic": "100 rps", "entities": [
        {"name": "web", "type": "Demo::Service"}, {"name": "db", "type": "Demo::Database"},
        {"name": "search", "type": "Demo::Search"}]}),
        &["Demo::Search"],
    );
    let engine = Arc::new(FakeExec::new().ok("acme-engine --model list", body.to_string()));
    let failing: Arc<dyn Exec> =
        Arc::new(FakeExec::new().fails("acme-engine", 3, format!("quota? token {TOKEN}")));
    let missing: Arc<dyn Exec> = Arc::new(FakeExec::new().on(
        "acme-engine",
        Err(ExecError::NotFound("acme-engine".into())),
    ));
    let slow: Arc<dyn Exec> = Arc::new(FakeExec::new().on(
        "acme-engine",
        Err(ExecError::TimedOut {
            program: "acme-engine".into(),
            seconds: 2,
        }),
    ));
    let named = vars(&[
        (
            "CHANT_BEHAVIOUR_ENGINE_SCRIPTED",
            "acme-engine --model list",
        ),
        ("CHANT_BEHAVIOUR_TOKEN", TOKEN),
        ("PATH", "/usr/bin:/bin"),
        ("AWS_SECRET_ACCESS_KEY", "inherited-secret"),
    ]);
    let asked = ["web", "db", "search"];
    assert_behaviour_conformance(
        "scripted",
        vec![
            BehaviourScenario::new(
                "the engine answers",
                &asked,
                predict(lexicon(&p, named.clone(), engine.clone())).boxed(),
            )
            .predicted(&["web", "db"])
            .unpredicted("search", Some(Reason::UnsupportedKind)),
            BehaviourScenario::new(
                "the engine exits non-zero",
                &asked,
                predict(lexicon(&p, named.clone(), failing.clone())).boxed(),
            )
            .refusal(Some(Reason::EngineUnreachable)),
            BehaviourScenario::new(
                "the program is not on PATH",
                &asked,
                predict(lexicon(&p, named.clone(), missing)).boxed(),
            )
            .refusal(Some(Reason::EngineUnreachable)),
            BehaviourScenario::new(
                "the program is too slow",
                &asked,
                predict(lexicon(&p, named.clone(), slow)).boxed(),
            )
            .refusal(Some(Reason::EngineUnreachable)),
        ],
    )
    .await;
    let calls = engine.calls();
    assert_eq!(calls.len(), 1);
    let call = &calls[0];
    assert!(
        call.env_clear,
        "the engine must not inherit the environment"
    );
    assert_eq!(
        call.env,
        vec![("PATH".to_owned(), "/usr/bin:/bin".to_owned())]
    );
    assert_eq!(call.args, vec!["--model", "list"]);
    let stdin: Value = serde_json::from_slice(call.stdin.as_ref().unwrap()).unwrap();
    assert_eq!(stdin["traffic"], "100 rps");
    assert_eq!(stdin["wire"], "chant-example-behaviour/v1");
}

fn endpoint(url: String) -> Resolved {
    Resolved {
        value: url,
        variable: "CHANT_BEHAVIOUR_ENGINE".into(),
    }
}

fn token() -> ResolvedToken {
    ResolvedToken {
        token: Token::new(TOKEN),
        variable: "CHANT_BEHAVIOUR_TOKEN_ACME".into(),
    }
}

#[tokio::test]
async fn http_statuses_map_to_their_causes_and_an_echoed_token_is_scrubbed() {
    let server = FakeHttp::start();
    server.handle(|r| {
        let code: u16 = r.path().trim_start_matches('/').parse().ok()?;
        // A careless engine quoting the whole request back, header included.
        let echo = format!(
            "rejected {} for {}",
            r.header("authorization").unwrap_or_default(),
            r.body_text()
        );
        Some(Reply::text(code, echo))
    });
    for (code, cause) in [
        (401, Reason::NoEngine),
        (403, Reason::NoEngine),
        (402, Reason::EngineOutOfCredit),
        (429, Reason::EngineOverQuota),
        (500, Reason::EngineUnreachable),
        (404, Reason::EngineUnreachable),
    ] {
        let transport = HttpTransport::new(
            "acme",
            endpoint(format!("{}/{code}", server.url())),
            token(),
            Duration::from_secs(5),
        )
        .unwrap();
        let refusal = transport.send("{\"x\":1}").await.unwrap_err();
        assert_eq!(refusal.cause, cause, "HTTP {code}");
        let text = serde_json::to_string(&refusal).unwrap();
        assert!(
            !text.contains(TOKEN) && !text.contains("0123456789abcdef"),
            "HTTP {code}: {text}"
        );
        if code == 401 {
            assert!(
                refusal.remedy.contains("CHANT_BEHAVIOUR_TOKEN_ACME"),
                "{}",
                refusal.remedy
            );
        }
    }
    let ok = HttpTransport::new(
        "acme",
        endpoint(format!("{}/200", server.url())),
        token(),
        Duration::from_secs(5),
    )
    .unwrap();
    assert!(ok.send("{}").await.unwrap().starts_with("rejected Bearer"));
}

#[tokio::test]
async fn unreachable_and_slow_engines_are_unreachable_never_empty() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/predict", closed.local_addr().unwrap());
    drop(closed);
    let refusal = HttpTransport::new(
        "acme",
        endpoint(url.clone()),
        token(),
        Duration::from_secs(2),
    )
    .unwrap()
    .send("{}")
    .await
    .unwrap_err();
    assert_eq!(refusal.cause, Reason::EngineUnreachable);
    assert!(refusal.remedy.contains(&url), "{}", refusal.remedy);

    let slow = FakeHttp::start();
    slow.route(
        "POST",
        "/",
        Reply::text(200, "{}").after(Duration::from_secs(3)),
    );
    // The engine would answer after 3 s; "no answer within" is the timeout's own refusal.
    let refusal = HttpTransport::new(
        "acme",
        endpoint(slow.url()),
        token(),
        Duration::from_millis(300),
    )
    .unwrap()
    .send("{}")
    .await
    .unwrap_err();
    assert_eq!(refusal.cause, Reason::EngineUnreachable);
    assert!(
        refusal.reason.contains("no answer within"),
        "{}",
        refusal.reason
    );
}

#[tokio::test]
async fn a_url_without_a_token_sends_nothing() {
    let server = FakeHttp::start();
    let only_url = vars(&[("CHANT_BEHAVIOUR_ENGINE", &server.url())]);
    let refusal = match transport_for(
        "acme",
        &endpoint(server.url()),
        &only_url,
        Duration::from_secs(1),
        Arc::new(FakeExec::new()),
    ) {
        Err(refusal) => refusal,
        Ok(_) => panic!("a transport was built without a token"),
    };
    assert_eq!(refusal.cause, Reason::NoEngine);
    assert!(refusal.remedy.contains("CHANT_BEHAVIOUR_TOKEN"));
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn a_command_engine_gets_path_and_nothing_else() {
    let exec = Arc::new(FakeExec::new().ok("engine", "{}"));
    let env = vars(&[
        ("PATH", "/bin"),
        ("CHANT_BEHAVIOUR_TOKEN", TOKEN),
        ("HOME", "/root"),
    ]);
    let transport = CommandTransport::new(
        "acme",
        endpoint("engine --fast".into()),
        &env as &dyn Variables,
        Duration::from_secs(1),
        exec.clone(),
    )
    .unwrap();
    assert_eq!(transport.send("{\"q\":1}").await.unwrap(), "{}");
    let call = &exec.calls()[0];
    assert!(call.env_clear);
    assert_eq!(call.env, vec![("PATH".to_owned(), "/bin".to_owned())]);
    assert_eq!(call.stdin.as_deref(), Some(&b"{\"q\":1}"[..]));
    let exited = FakeExec::new().on("engine", Ok(ExecOutput::failed(2, "bad request")));
    let refusal = CommandTransport::new(
        "acme",
        endpoint("engine".into()),
        &env as &dyn Variables,
        Duration::from_secs(1),
        Arc::new(exited),
    )
    .unwrap()
    .send("{}")
    .await
    .unwrap_err();
    assert!(
        refusal.reason.contains("exited 2: bad request"),
        "{}",
        refusal.reason
    );
}

#[test]
fn the_suite_catches_a_lexicon_that_breaks_the_contract() {
    let asked = vec!["web".to_owned(), "db".to_owned()];
    // Hand-built, bypassing the report builder, the way a careless lexicon would.
    let report = {
        let block = serde_json::from_value(json!({
            "at": {"traffic": "50 rps"},
            "cost": {"rate": "per-hour", "perHour": 0.1, "currency": "USD"},
            "headroom": {"cpu": 0.5}, "errorRate": 0.0,
            "provenance": {"engine": "e", "version": "1", "tolerance": "n/a", "basis": "modeled"}
        }))
        .unwrap();
        BehaviourReport {
            meta: chant_lexicon::behaviour::ReportMeta {
                engine: "e".into(),
                version: "1".into(),
                at: TrafficLevel::new("100 rps"),
                failure: None,
                estate: chant_lexicon::behaviour::Estate::Declared,
                edge_coverage: chant_lexicon::behaviour::Edges::NotComputed.coverage(),
                total: None,
            },
            entities: BTreeMap::from([("web".to_owned(), block)]),
            unpredicted: BTreeMap::new(),
        }
    };
    let expect = Expect::Report {
        predicted: vec!["web".into()],
        unpredicted: vec![],
    };
    let problems =
        check_outcome(&asked, &expect, &Ok(BehaviourOutcome::Report(report))).unwrap_err();
    let all = problems.join("\n");
    assert!(all.contains("`db` is in neither map"), "{all}");
    assert!(all.contains("is at `50 rps`"), "{all}");
    assert!(all.contains("tolerance"), "{all}");
    let wrong = check_outcome(
        &asked,
        &Expect::Refusal(None),
        &Err(chant_lexicon::HookError::Failed("x".into())),
    );
    assert!(wrong.is_err());
}
