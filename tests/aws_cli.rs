//! The chant binary end to end with the aws lexicon against moto server (started by the
//! testkit on 127.0.0.1, reset per test): diff --live, plan, whoami, teardown and
//! import --from, human and JSON output snapshotted.
//!
//! moto has no Cloud Control API (HTTP 500), so the binary's Cloud Control calls — and
//! only those — go to a local stub through `AWS_ENDPOINT_URL_CLOUDCONTROL`, the SDK's
//! per-service endpoint variable. Everything else reaches moto through `AWS_ENDPOINT_URL`.

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

use chant_testkit::moto::{MOTO_ACCESS_KEY_ID, MOTO_SECRET_ACCESS_KEY, MotoServer, MotoSession};
use chant_testkit::{FakeHttp, Reply};
use serde_json::{Value, json};
use support::{Project, Run};

const REGION: &str = "eu-west-1";

fn marker(env: &str) -> Value {
    json!([
        {"Key": "chant:managed-by", "Value": "chant"},
        {"Key": "chant:stack", "Value": "shop"},
        {"Key": "chant:env", "Value": env}
    ])
}

fn template(env: &str, names: &[&str]) -> Value {
    let mut resources = serde_json::Map::new();
    for name in names {
        let resource = match *name {
            "Assets" => {
                json!({"Type": "AWS::S3::Bucket", "Properties": {"BucketName": format!("shop-{env}-assets"), "Tags": marker(env)}})
            }
            "Web" => {
                json!({"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "web tier", "Tags": marker(env)}})
            }
            queue => {
                json!({"Type": "AWS::SQS::Queue", "Properties": {"QueueName": format!("shop-{env}-{}", queue.to_lowercase()), "Tags": marker(env)}})
            }
        };
        resources.insert((*name).to_owned(), resource);
    }
    json!({"AWSTemplateFormatVersion": "2010-09-09", "Resources": resources})
}

struct Estate<'a> {
    moto: MotoSession<'a>,
    stub: FakeHttp,
    project: Project,
}

/// dev: stack shop-dev (marked) holds Assets, Jobs, Web and an owned orphan, Legacy.
/// qa: stack shop-qa (unmarked) holds Assets, Jobs and Stray. The project declares
/// Assets, Jobs, Web and Missing (never deployed).
fn estate() -> Estate<'static> {
    let moto = MotoServer::shared().session();
    let stacks = [
        (
            "shop-dev",
            template("dev", &["Assets", "Jobs", "Web", "Legacy"]),
            true,
        ),
        (
            "shop-qa",
            template("qa", &["Assets", "Jobs", "Stray"]),
            false,
        ),
    ];
    for (name, body, marked) in stacks {
        let body = body.to_string();
        let mut params = vec![
            ("Action", "CreateStack".to_owned()),
            ("Version", "2010-05-15".to_owned()),
            ("StackName", name.to_owned()),
            ("TemplateBody", body),
        ];
        let tags = marker("dev");
        if marked {
            for (i, tag) in tags.as_array().unwrap().iter().enumerate() {
                params.push((
                    leak(format!("Tags.member.{}.Key", i + 1)),
                    tag["Key"].as_str().unwrap().to_owned(),
                ));
                params.push((
                    leak(format!("Tags.member.{}.Value", i + 1)),
                    tag["Value"].as_str().unwrap().to_owned(),
                ));
            }
        }
        let params: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        moto.query(REGION, "cloudformation", &params).unwrap();
    }
    let stub = FakeHttp::start();
    stub.route(
        "POST",
        "/",
        Reply::status(400)
            .header("content-type", "application/x-amz-json-1.0")
            .body(r#"{"__type":"ResourceNotFoundException","Message":"not found"}"#),
    );
    let project = Project::empty();
    project.write(
        "dist/template.json",
        &serde_json::to_string_pretty(&template("dev", &["Assets", "Jobs", "Web", "Missing"]))
            .unwrap(),
    );
    project.write(
        "chant.toml",
        &format!(
            "[ownership]\nstack = \"shop\"\n\n[lexicons.aws]\nsource = \"dist/template.json\"\nstack = \"shop-{{env}}\"\n\n[environments.dev.aws]\nregion = \"{REGION}\"\nallowed_accounts = [\"123456789012\"]\n\n[environments.qa.aws]\nregion = \"{REGION}\"\n\n[environments.prod.aws]\nregion = \"{REGION}\"\nallowed_accounts = [\"111111111111\"]\n"
        ),
    );
    project.commit_all("fixture");
    Estate {
        moto,
        stub,
        project,
    }
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// The binary with moto's credentials, moto for every service but Cloud Control, and the
/// stub for Cloud Control.
fn chant(estate: &Estate, args: &[&str]) -> Run {
    let (moto, stub) = (estate.moto.url(), estate.stub.url());
    estate.project.chant_with(
        args,
        &[
            ("AWS_ACCESS_KEY_ID", MOTO_ACCESS_KEY_ID),
            ("AWS_SECRET_ACCESS_KEY", MOTO_SECRET_ACCESS_KEY),
            ("AWS_EC2_METADATA_DISABLED", "true"),
            ("AWS_ENDPOINT_URL", moto.as_str()),
            ("AWS_ENDPOINT_URL_CLOUDCONTROL", stub.as_str()),
        ],
    )
}

/// The shared filters, plus what moto makes up anew each run.
fn snapshot(name: &str, estate: &Estate, text: &str) {
    support::snapshot_filtered(
        name,
        estate.project.path(),
        text,
        &[
            (r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]"),
            (
                r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
                "[UUID]",
            ),
            (r"\bsg-[0-9a-f]+\b", "sg-[ID]"),
            (r"\b123456789012\b", "[ACCOUNT]"),
            (r"\b(vpc|subnet)-[0-9a-f]+\b", "$1-[ID]"),
            (r"(?m)^[0-9a-f]{7}  ", "[SHORT]  "),
            (r"\d+(\.\d+)?\s?(ms|s)\b", "[DURATION]"),
        ],
    );
}

fn actions(plan: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    collect_actions(plan, &mut out);
    out.sort();
    out.dedup();
    out
}

fn collect_actions(value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            if let (Some(Value::String(name)), Some(Value::String(action))) =
                (map.get("name"), map.get("action"))
            {
                out.push((name.clone(), action.clone()));
            }
            map.values().for_each(|v| collect_actions(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_actions(v, out)),
        _ => {}
    }
}

#[test]
fn diff_live_reads_the_stack() {
    let estate = estate();
    let human = chant(&estate, &["lifecycle", "diff", "dev", "--live"]);
    snapshot("aws_diff_live", &estate, &human.transcript());
    let json = chant(&estate, &["lifecycle", "diff", "dev", "--live", "--json"]);
    snapshot("aws_diff_live_json", &estate, &json.stdout);
    assert!(
        json.stdout.contains("Missing") && json.stdout.contains("Legacy"),
        "{}",
        json.transcript()
    );
}

#[test]
fn plan_creates_keeps_adopts_and_deletes_only_owned() {
    let estate = estate();
    let human = chant(&estate, &["lifecycle", "plan", "dev"]);
    snapshot("aws_plan", &estate, &human.transcript());
    let dev = chant(&estate, &["lifecycle", "plan", "dev", "--json"]);
    snapshot("aws_plan_json", &estate, &dev.stdout);
    let dev = actions(&dev.json());
    for expected in [
        ("Assets", "noop"),
        ("Jobs", "noop"),
        ("Web", "noop"),
        ("Missing", "create"),
        ("Legacy", "delete"),
    ] {
        assert!(
            dev.contains(&(expected.0.to_owned(), expected.1.to_owned())),
            "{expected:?} not in {dev:?}"
        );
    }
    // qa's stack carries no marker: its undeclared member is adopted, never deleted.
    let qa = chant(&estate, &["lifecycle", "plan", "qa", "--json"]);
    snapshot("aws_plan_qa_json", &estate, &qa.stdout);
    let qa = actions(&qa.json());
    assert!(
        qa.contains(&("Stray".to_owned(), "adopt".to_owned())),
        "{qa:?}"
    );
    assert!(!qa.iter().any(|(_, a)| a == "delete"), "{qa:?}");
}

#[test]
fn whoami_names_the_principal_and_refuses_another_account() {
    let estate = estate();
    let human = chant(&estate, &["lifecycle", "whoami", "dev"]);
    assert_eq!(human.code, 0, "{}", human.transcript());
    assert!(
        human.stdout.contains("arn:aws:sts::123456789012:user/moto"),
        "{}",
        human.transcript()
    );
    snapshot("aws_whoami", &estate, &human.transcript());
    let json = chant(&estate, &["lifecycle", "whoami", "dev", "--json"]);
    snapshot("aws_whoami_json", &estate, &json.stdout);
    let refused = chant(&estate, &["lifecycle", "plan", "prod"]);
    snapshot("aws_plan_wrong_account", &estate, &refused.transcript());
    assert_ne!(refused.code, 0);
    assert!(
        refused.stderr.contains("111111111111") && refused.stderr.contains("123456789012"),
        "{}",
        refused.transcript()
    );
}

#[test]
fn teardown_plans_then_executes_against_owned_orphans_only() {
    let estate = estate();
    let plan = chant(&estate, &["lifecycle", "teardown", "dev"]);
    snapshot("aws_teardown_plan", &estate, &plan.transcript());
    assert!(plan.stdout.contains("Legacy"), "{}", plan.transcript());
    assert!(!plan.stdout.contains("Stray"));
    let unconfirmed = chant(&estate, &["lifecycle", "teardown", "dev", "--execute"]);
    assert_ne!(unconfirmed.code, 0, "{}", unconfirmed.transcript());
    let executed = chant(
        &estate,
        &[
            "lifecycle",
            "teardown",
            "dev",
            "--execute",
            "--confirm",
            "dev",
        ],
    );
    snapshot("aws_teardown_execute", &estate, &executed.transcript());
    assert_eq!(executed.code, 0, "{}", executed.transcript());
    let after = chant(&estate, &["lifecycle", "teardown", "dev", "--json"]);
    assert!(!after.stdout.contains("Legacy"), "{}", after.transcript());
}

#[test]
fn import_then_plan_is_all_noop() {
    let estate = estate();
    let out = estate.project.path().join("imported");
    let import = chant(
        &estate,
        &[
            "import",
            "--from",
            "dev",
            "--owned",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    snapshot("aws_import", &estate, &import.transcript());
    assert_eq!(import.code, 0, "{}", import.transcript());
    let written = std::fs::read_to_string(out.join("template.json")).unwrap();
    assert!(
        written.contains("\"Legacy\"") && written.contains("shop-dev-assets"),
        "{written}"
    );
    std::fs::copy(
        out.join("template.json"),
        estate.project.path().join("dist/template.json"),
    )
    .unwrap();
    let plan = chant(&estate, &["lifecycle", "plan", "dev", "--json"]);
    let plan = actions(&plan.json());
    assert!(!plan.is_empty());
    assert!(plan.iter().all(|(_, a)| a == "noop"), "{plan:?}");
}
