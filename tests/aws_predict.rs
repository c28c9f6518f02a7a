//! `chant lifecycle predict` end to end with the aws lexicon: a CloudFormation template
//! (YAML, short-form tags) whose declared edges come from `!Ref`, `!GetAtt` and `!Sub`,
//! sent to the example engine over the command transport. Predicting the declared estate
//! reads no cloud, so there is no moto here: AWS_ENDPOINT_URL points at a recording stub
//! that must see no request at all.

#[path = "cli/support.rs"]
#[allow(dead_code)]
mod support;

use chant_testkit::FakeHttp;
use support::{
    Project, assert_declared_edges, assert_unsupported_kinds, predict_declared, sorted_keys,
};

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
    assert_unsupported_kinds(&declared, "AWS::");
    // A priced queue carries its figure's currency.
    assert_eq!(
        declared["entities"]["Jobs"]["cost"]["currency"], "USD",
        "{declared}"
    );
    assert_eq!(report["complete"], false);

    // Api → Role (!GetAtt), Api → Jobs (!Ref), Api → Alerts (!Sub), Jobs → Dead (!GetAtt []).
    assert_declared_edges(&declared, 4, "Api", "Stage");

    assert!(
        aws.requests().is_empty(),
        "predict without --live called AWS: {:?}",
        aws.requests().len()
    );
}
