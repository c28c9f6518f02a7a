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
use support::{Project, predict_declared, sorted_keys};

const ENGINE: &str = env!("CARGO_BIN_EXE_chant-example-engine");

#[test]
fn predicts_the_declared_template_with_its_declared_edges() {
    let project = Project::fixture("aws-predict");
    let aws = FakeHttp::start();
    let aws_url = aws.url();
    let (report, declared) = predict_declared(
        &project,
        "aws",
        &[
            ("CHANT_BEHAVIOUR_ENGINE_AWS", ENGINE),
            ("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"),
            ("AWS_SECRET_ACCESS_KEY", "not-a-secret"),
            ("AWS_EC2_METADATA_DISABLED", "true"),
            ("AWS_ENDPOINT_URL", aws_url.as_str()),
        ],
    );

    // Every declared resource is priced or unpredicted, never both, never neither: the
    // example engine prices SQS queues and names every other kind it has no model for.
    assert_eq!(
        sorted_keys(&declared, "entities"),
        ["Dead", "Jobs"],
        "{declared}"
    );
    assert_eq!(
        sorted_keys(&declared, "unpredicted"),
        ["Alerts", "Api", "Role"],
        "{declared}"
    );
    let unpredicted = declared["unpredicted"].as_object().unwrap();
    for (name, hole) in unpredicted {
        assert_eq!(hole["reason"], "unsupported-kind", "{name}");
        assert!(
            hole["type"].as_str().unwrap().starts_with("AWS::"),
            "{name}"
        );
    }
    // A priced queue carries its figure's currency.
    assert_eq!(
        declared["entities"]["Jobs"]["cost"]["currency"], "USD",
        "{declared}"
    );
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
