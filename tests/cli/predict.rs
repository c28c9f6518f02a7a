//! `chant lifecycle predict` end to end: the real binary, the scripted lexicon's real
//! predict path, and the example engine over both transports — as an HTTP server on
//! 127.0.0.1 and as a command — plus a fake HTTP engine for the misbehaviour no real
//! engine should show (echoing the token back).

use crate::support::{PREDICT, PREDICT_JSON, Project, snapshot};
use chant_testkit::{FakeHttp, Reply};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

const TOKEN: &str = "tok_live_9f8e7d6c5b4a3210";
const ENGINE: &str = env!("CARGO_BIN_EXE_chant-example-engine");

/// The example engine serving on a free port of 127.0.0.1, stopped when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(ENGINE)
            .arg("serve")
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the example engine starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("listening on ")
            .expect("a listening line");
        Server {
            child,
            url: format!("{address}/predict"),
        }
    }

    /// The engine with its token set and the same token handed to chant.
    fn with_token(args: &[&str]) -> Server {
        let mut all = vec!["--token", TOKEN];
        all.extend_from_slice(args);
        Server::start(&all)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn project() -> Project {
    Project::fixture("predict")
}

fn http(url: &str) -> Vec<(&str, &str)> {
    vec![
        ("CHANT_BEHAVIOUR_ENGINE", url),
        ("CHANT_BEHAVIOUR_TOKEN", TOKEN),
    ]
}

/// Add an entity no engine has a model for.
fn with_unpriced_entity(project: &Project) {
    let mut declared: serde_json::Value =
        serde_json::from_str(&project.read("declared.json")).unwrap();
    declared.as_array_mut().unwrap().push(serde_json::json!(
        {"name": "search", "type": "Demo::Search", "props": {"shards": 2, "index": {"ref": "db"}}}
    ));
    project.write("declared.json", &declared.to_string());
}

fn plant(project: &Project, props: serde_json::Value) {
    let mut declared: serde_json::Value =
        serde_json::from_str(&project.read("declared.json")).unwrap();
    declared[2]["props"] = props;
    project.write("declared.json", &declared.to_string());
}

fn assert_full_answer(run: &crate::support::Run) {
    assert_eq!(run.code, 0, "{}", run.transcript());
    let report = run.json();
    assert_eq!(report["schema"], "chant.predict/v1");
    assert_eq!(report["complete"], true);
    let declared = &report["lexicons"][0]["declared"];
    assert_eq!(declared["outcome"], "report", "{declared}");
    for name in ["web", "worker", "db", "cache", "queue"] {
        let figure = &declared["entities"][name];
        assert_eq!(figure["at"]["traffic"], "100 rps", "{name}");
        assert_eq!(figure["provenance"]["basis"], "modeled", "{name}");
        assert_eq!(figure["cost"]["rate"], "per-hour", "{name}");
    }
    assert_eq!(declared["meta"]["edgeCoverage"]["verdict"], "complete");
    assert_eq!(declared["meta"]["edgeCoverage"]["edges"], 5);
    // Two replicas of 0.0416 USD an hour; the queue is priced by the request.
    assert_eq!(declared["entities"]["web"]["cost"]["perHour"], 0.0832);
    assert_eq!(declared["entities"]["queue"]["cost"]["perHour"], 0.288);
}

#[test]
fn predicts_over_http_with_a_bearer_token() {
    let server = Server::with_token(&[]);
    let p = project();
    assert_full_answer(&p.chant_with(PREDICT_JSON, &http(&server.url)));
    let human = p.chant_with(
        &[
            "lifecycle",
            "predict",
            "dev",
            "--traffic",
            "100 rps",
            "--failure",
            "one zone lost",
        ],
        &http(&server.url),
    );
    assert_eq!(human.code, 0, "{}", human.transcript());
    assert!(human.stdout.contains("RESILIENCE"), "{}", human.stdout);
    assert!(
        human.stdout.contains("under `one zone lost`"),
        "{}",
        human.stdout
    );
    assert!(!human.stdout.contains(TOKEN) && !human.stderr.contains(TOKEN));
}

#[test]
fn predicts_over_a_command() {
    let p = project();
    assert_full_answer(&p.chant_with(PREDICT_JSON, &[("CHANT_BEHAVIOUR_ENGINE_SCRIPTED", ENGINE)]));
}

#[test]
fn a_partial_answer_is_amber_with_each_reason() {
    let p = project();
    with_unpriced_entity(&p);
    let run = p.chant_with(PREDICT, &[("CHANT_BEHAVIOUR_ENGINE", ENGINE)]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    snapshot("predict_partial", &p, &run.transcript());

    let server = Server::with_token(&[]);
    let json = p.chant_with(PREDICT_JSON, &http(&server.url));
    let report = json.json();
    assert_eq!(report["complete"], false);
    let declared = &report["lexicons"][0]["declared"];
    assert_eq!(
        declared["unpredicted"]["search"]["reason"],
        "unsupported-kind"
    );
    assert_eq!(declared["unpredicted"]["search"]["type"], "Demo::Search");
    assert!(declared["entities"].get("search").is_none());
}

#[test]
fn no_engine_configured_is_a_red_refusal_naming_the_variables() {
    let p = project();
    let run = p.chant(PREDICT);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stdout.is_empty(),
        "a refusal has no figures: {}",
        run.stdout
    );
    snapshot("predict_refused_no_engine", &p, &run.transcript());
    let json = p.chant(PREDICT_JSON).json();
    let refusal = &json["lexicons"][0]["declared"];
    assert_eq!(refusal["outcome"], "refusal");
    assert_eq!(refusal["cause"], "no-engine");
    assert!(refusal.get("entities").is_none());
    assert!(
        refusal["remedy"]
            .as_str()
            .unwrap()
            .contains("CHANT_BEHAVIOUR_ENGINE")
    );
}

#[test]
fn refusals_and_partials_are_coloured_only_when_asked() {
    let p = project();
    let red = p.chant(&[
        "--color",
        "always",
        "lifecycle",
        "predict",
        "dev",
        "--traffic",
        "1 rps",
    ]);
    assert!(red.stderr.contains("\u{1b}[31m"), "{:?}", red.stderr);
    with_unpriced_entity(&p);
    let amber = p.chant_with(
        &[
            "--color",
            "always",
            "lifecycle",
            "predict",
            "dev",
            "--traffic",
            "1 rps",
        ],
        &[("CHANT_BEHAVIOUR_ENGINE", ENGINE)],
    );
    assert!(amber.stderr.contains("\u{1b}[33m"), "{:?}", amber.stderr);
    assert!(!amber.stderr.contains("\u{1b}[31m"), "{:?}", amber.stderr);
    let plain = p.chant_with(
        &["lifecycle", "predict", "dev", "--traffic", "1 rps"],
        &[("CHANT_BEHAVIOUR_ENGINE", ENGINE)],
    );
    assert!(!plain.stderr.contains('\u{1b}') && !plain.stdout.contains('\u{1b}'));
}

#[test]
fn an_unreachable_engine_names_its_address() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/predict", closed.local_addr().unwrap());
    drop(closed);
    let p = project();
    let run = p.chant_with(PREDICT, &http(&url));
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(run.stderr.contains("engine-unreachable"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("check that the engine at {url}")),
        "{}",
        run.stderr
    );
    let missing = p.chant_with(
        PREDICT,
        &[("CHANT_BEHAVIOUR_ENGINE", "no-such-behaviour-engine --fast")],
    );
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("engine-unreachable")
            && missing.stderr.contains("not found on PATH"),
        "{}",
        missing.stderr
    );
}

#[test]
fn a_slow_engine_times_out_as_unreachable() {
    let server = Server::with_token(&["--delay-ms", "5000"]);
    let p = project();
    // Both engines would answer after 5 s: "no answer within 1s" is the timeout's refusal.
    let run = p.chant_with(
        &[
            "--timeout",
            "1",
            "lifecycle",
            "predict",
            "dev",
            "--traffic",
            "100 rps",
        ],
        &http(&server.url),
    );
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr.contains("engine-unreachable") && run.stderr.contains("no answer within 1s"),
        "{}",
        run.stderr
    );
    let slow_command = format!("{ENGINE} --delay-ms 5000");
    let command = p.chant_with(
        &[
            "--timeout",
            "1",
            "lifecycle",
            "predict",
            "dev",
            "--traffic",
            "100 rps",
        ],
        &[("CHANT_BEHAVIOUR_ENGINE", slow_command.as_str())],
    );
    assert_eq!(command.code, 1);
    assert!(
        command.stderr.contains("no answer within 1s"),
        "{}",
        command.stderr
    );
}

#[test]
fn engine_refusals_have_their_own_causes() {
    let p = project();
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["--token", "another-token-entirely"],
            "refused (no-engine)",
            "set CHANT_BEHAVIOUR_TOKEN to a token this engine accepts",
        ),
        (
            &["--token", TOKEN, "--credit", "0"],
            "refused (engine-out-of-credit)",
            "add credit",
        ),
        (
            &["--token", TOKEN, "--quota", "0"],
            "refused (engine-over-quota)",
            "wait for the engine's window",
        ),
    ];
    for (engine_args, cause, remedy) in cases {
        let server = Server::start(engine_args);
        let run = p.chant_with(PREDICT, &http(&server.url));
        assert_eq!(run.code, 1, "{}", run.transcript());
        assert!(run.stderr.contains(cause), "{cause}: {}", run.stderr);
        assert!(run.stderr.contains(remedy), "{remedy}: {}", run.stderr);
    }
    let server = Server::with_token(&[]);
    let no_token = p.chant_with(PREDICT, &[("CHANT_BEHAVIOUR_ENGINE", server.url.as_str())]);
    assert_eq!(no_token.code, 1);
    assert!(
        no_token
            .stderr
            .contains("needs a bearer token and none is set"),
        "{}",
        no_token.stderr
    );
}

#[test]
fn a_token_echoed_by_the_engine_is_never_printed() {
    let server = FakeHttp::start();
    server.handle(|r| {
        let echo = format!(
            "{{\"error\": \"no credit for {}\", \"request\": {}}}",
            r.header("authorization").unwrap_or_default(),
            r.body_text()
        );
        Some(Reply::text(402, echo))
    });
    let p = project();
    for json in [false, true] {
        let mut args = vec!["lifecycle", "predict", "dev", "--traffic", "100 rps"];
        if json {
            args.push("--json");
        }
        let run = p.chant_with(&args, &http(&server.url()));
        assert_eq!(run.code, 1, "{}", run.transcript());
        assert!(run.transcript().contains("engine-out-of-credit"));
        assert!(!run.transcript().contains(TOKEN), "{}", run.transcript());
        assert!(
            !run.transcript().contains("9f8e7d6c5b4a3210"),
            "{}",
            run.transcript()
        );
    }
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
}

#[test]
fn a_credential_in_props_is_never_sent() {
    let server = FakeHttp::start();
    server.route("POST", "/", Reply::text(500, "must not be reached"));
    let p = project();
    let marker = p.file("engine.sh.ran");
    p.write(
        "engine.sh",
        "#!/bin/sh\ntouch \"$0.ran\"\ncat >/dev/null\nexit 1\n",
    );
    let script = p.file("engine.sh");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let script = script.display().to_string();

    // The control: a clean estate does reach the command.
    let control = p.chant_with(PREDICT, &[("CHANT_BEHAVIOUR_ENGINE", script.as_str())]);
    assert!(marker.exists(), "{}", control.transcript());
    std::fs::remove_file(&marker).unwrap();

    plant(
        &p,
        serde_json::json!({"size": "small", "dsn": "postgres://app:hunter2@db:5432/prod"}),
    );
    for engine in [
        http(&server.url()),
        vec![("CHANT_BEHAVIOUR_ENGINE", script.as_str())],
    ] {
        let run = p.chant_with(PREDICT, &engine);
        assert_eq!(run.code, 1, "{}", run.transcript());
        assert!(run.stderr.contains("prediction failed — the behaviour request carries a credential (a password in URL userinfo at entities.db.props.dsn)"), "{}", run.stderr);
        assert!(
            !run.transcript().contains("hunter2"),
            "{}",
            run.transcript()
        );
    }

    plant(
        &p,
        serde_json::json!({"size": "small", "password": "hunter2-prod"}),
    );
    for engine in [
        http(&server.url()),
        vec![("CHANT_BEHAVIOUR_ENGINE", script.as_str())],
    ] {
        let run = p.chant_with(PREDICT_JSON, &engine);
        assert_eq!(run.code, 1, "{}", run.transcript());
        let refusal = &run.json()["lexicons"][0]["declared"];
        assert_eq!(refusal["cause"], "credential-in-request", "{refusal}");
        assert!(
            !run.transcript().contains("hunter2"),
            "{}",
            run.transcript()
        );
    }
    assert!(
        server.requests().is_empty(),
        "a request carrying a credential was sent"
    );
    assert!(
        !marker.exists(),
        "the command engine was run with a credential in the request"
    );
}

#[test]
fn a_live_delta_across_bases_is_marked() {
    let p = project();
    let engine = format!("{ENGINE} --invoice {}", p.file("invoice.json").display());
    let run = p.chant_with(
        &[
            "lifecycle",
            "predict",
            "dev",
            "--traffic",
            "100 rps",
            "--live",
        ],
        &[("CHANT_BEHAVIOUR_ENGINE", engine.as_str())],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    snapshot("predict_live_mixed_basis", &p, &run.transcript());

    let json = p
        .chant_with(
            &[
                "lifecycle",
                "predict",
                "dev",
                "--traffic",
                "100 rps",
                "--live",
                "--json",
            ],
            &[("CHANT_BEHAVIOUR_ENGINE", engine.as_str())],
        )
        .json();
    let lexicon = &json["lexicons"][0];
    assert_eq!(lexicon["live"]["meta"]["estate"], "live");
    assert_eq!(lexicon["live"]["meta"]["edgeCoverage"]["origin"], "rebuilt");
    assert_eq!(
        lexicon["live"]["entities"]["web"]["provenance"]["basis"],
        "validated"
    );
    let rows = lexicon["delta"].as_array().unwrap();
    let row = |name: &str| rows.iter().find(|r| r["entity"] == name).unwrap().clone();
    assert_eq!(row("web")["mismatches"], serde_json::json!(["mixed-basis"]));
    assert_eq!(row("db")["mismatches"], serde_json::json!([]));
    assert_eq!(row("web")["perHourDelta"], 0.0478);
}
