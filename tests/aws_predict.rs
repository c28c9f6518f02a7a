//! `chant lifecycle predict` end to end with the aws lexicon: a CloudFormation template
//! (YAML, short-form tags) whose declared edges come from `!Ref`, `!GetAtt` and `!Sub`,
//! sent to the example engine over the command transport. Predicting the declared estate
//! reads no cloud, so there is no moto here: AWS_ENDPOINT_URL points at a recording stub
//! that must see no request at all.

#[path = "cli/support.rs"]
#[allow(dead_code)]
mod support;

use chant_testkit::FakeHttp;
use serde_json::Value;
use support::Project;

const ENGINE: &str = env!("CARGO_BIN_EXE_chant-example-engine");

#[test]
fn predicts_the_declared_template_with_its_declared_edges() {
    let project = Project::fixture("aws-predict");
    let aws = FakeHttp::start();
    let aws_url = aws.url();
    let run = project.chant_with(
        &[
            "lifecycle",
            "predict",
            "dev",
            "--traffic",
            "100 rps",
            "--json",
        ],
        &[
            ("CHANT_BEHAVIOUR_ENGINE_AWS", ENGINE),
            ("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"),
            ("AWS_SECRET_ACCESS_KEY", "not-a-secret"),
            ("AWS_EC2_METADATA_DISABLED", "true"),
            ("AWS_ENDPOINT_URL", aws_url.as_str()),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let report = run.json();
    assert_eq!(report["schema"], "chant.predict/v1");
    let lexicon = &report["lexicons"][0];
    assert_eq!(lexicon["lexicon"], "aws");
    let declared = &lexicon["declared"];
    assert_eq!(declared["state"], "answered", "{declared}");
    assert_eq!(declared["outcome"], "report", "{declared}");

    // Every declared resource is priced or unpredicted, never both, never neither: the
    // example engine prices SQS queues and names every other kind it has no model for.
    let empty = serde_json::Map::new();
    let priced = declared["entities"].as_object().unwrap_or(&empty);
    let unpredicted = declared["unpredicted"].as_object().unwrap_or(&empty);
    let mut priced_names: Vec<&str> = priced.keys().map(String::as_str).collect();
    priced_names.sort_unstable();
    assert_eq!(priced_names, ["Dead", "Jobs"], "{declared}");
    let mut holes: Vec<&str> = unpredicted.keys().map(String::as_str).collect();
    holes.sort_unstable();
    assert_eq!(holes, ["Alerts", "Api", "Role"], "{declared}");
    for (name, hole) in unpredicted {
        assert_eq!(hole["reason"], "unsupported-kind", "{name}");
        assert!(
            hole["type"].as_str().unwrap().starts_with("AWS::"),
            "{name}"
        );
    }
    // Jobs is referenced by Api, so the traffic reaches it along the edge.
    assert_eq!(priced["Jobs"]["cost"]["currency"], "USD", "{declared}");
    assert_eq!(report["complete"], false);

    // Api → Role (!GetAtt), Api → Jobs (!Ref), Api → Alerts (!Sub), Jobs → Dead (!GetAtt []).
    let coverage = &declared["meta"]["edgeCoverage"];
    assert_eq!(coverage["verdict"], "complete", "{coverage}");
    assert_eq!(coverage["origin"], "declared", "{coverage}");
    assert_eq!(coverage["edges"], 4, "{coverage}");
    let dangling: Vec<&Value> = coverage["dangling"].as_array().unwrap().iter().collect();
    assert_eq!(dangling.len(), 1, "{coverage}");
    assert_eq!(dangling[0]["from"], "Api");
    assert_eq!(dangling[0]["value"], "Stage");

    assert!(
        aws.requests().is_empty(),
        "predict without --live called AWS: {:?}",
        aws.requests().len()
    );
}
