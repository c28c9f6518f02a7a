//! The observation conformance suite, against moto server for the stack reads and a fake
//! CloudFormation endpoint for the faults moto cannot produce (expired credentials,
//! AccessDenied, throttling). Cloud Control goes to a local stub (moto has none).

mod common;

use chant_aws::Service;
use chant_lexicon::{Lexicon, Ownership, UnobservedReason};
use chant_testkit::moto::MotoServer;
use chant_testkit::{FakeHttp, Reply, Scenario, assert_observation_conformance};
use common::*;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[tokio::test]
async fn the_aws_lexicon_conforms_against_moto() {
    let moto = MotoServer::shared().session();
    let sdk = moto_sdk(&moto.url()).await;
    // dev: a marked stack with an undeclared member; qa: the same template, an unmarked
    // stack; prod: never deployed.
    let mut deployed = shop_template("dev");
    deployed["Resources"]["Legacy"] =
        json!({"Type": "AWS::SQS::Queue", "Properties": {"QueueName": "shop-dev-legacy"}});
    create_stack(
        &sdk,
        "shop-dev",
        &deployed,
        Some(&marker_tags(PROJECT_STACK, "dev")),
    )
    .await;
    create_stack(&sdk, "shop-qa", &shop_template("qa"), None).await;

    let stub = CloudControlStub::start();
    // Outside any stack, the declared bucket name is already taken by someone else's bucket
    // (seen from prod, where the stack was never deployed).
    stub.put(
        "AWS::S3::Bucket",
        "shop-dev-assets",
        json!({"BucketName": "shop-dev-assets", "Tags": [{"Key": "team", "Value": "data"}]}),
    );
    let project = Project::new(
        &shop_template("dev"),
        &moto.url(),
        &[("dev", ""), ("qa", ""), ("prod", "")],
    );
    let lexicon = project.lexicon(with_cloudcontrol(&stub));

    let unsupported_stub = CloudControlStub::start();
    unsupported_stub.unsupported("AWS::S3::Bucket");
    let unsupported = project.lexicon(with_cloudcontrol(&unsupported_stub));

    let dev = request(&lexicon, "dev", false).await;
    let dev_owned = request(&lexicon, "dev", true).await;
    let qa = request(&lexicon, "qa", false).await;
    let qa_owned = request(&lexicon, "qa", true).await;
    let prod = request(&lexicon, "prod", false).await;
    let prod_unsupported = request(&unsupported, "prod", false).await;
    let channel = lexicon.ownership_channel();
    let declared = || dev.entities.to_vec();
    let all = ["Assets", "Jobs", "Web", "Worker"];

    let scenarios = vec![
        Scenario::new("owned stack", declared(), lexicon.describe_resources(&dev))
            .present(&all)
            .marker("Assets", PROJECT_STACK, Some("dev"))
            .marker("Web", PROJECT_STACK, Some("dev"))
            .ownership("Jobs", Ownership::Owned)
            .ownership("Legacy", Ownership::Owned),
        Scenario::new(
            "owned stack, --owned",
            declared(),
            lexicon.describe_resources(&dev_owned),
        )
        .owned()
        .present(&all),
        Scenario::new(
            "unmarked stack",
            declared(),
            lexicon.describe_resources(&qa),
        )
        .present(&all)
        .no_marker(&all)
        .ownership("Assets", Ownership::Foreign),
        Scenario::new(
            "unmarked stack, --owned",
            declared(),
            lexicon.describe_resources(&qa_owned),
        )
        .owned()
        .unobserved(&all, UnobservedReason::Filtered),
        Scenario::new(
            "missing stack",
            declared(),
            lexicon.describe_resources(&prod),
        )
        .absent(&["Jobs", "Web", "Worker"])
        .present(&["Assets"])
        .ownership("Assets", Ownership::Foreign),
        Scenario::new(
            "Cloud Control unsupported kind",
            declared(),
            unsupported.describe_resources(&prod_unsupported),
        )
        .absent(&all),
    ];
    assert_observation_conformance("aws", channel.as_ref(), scenarios).await;

    // What the suite does not check: the notes and the queried addresses.
    let qa_answer = lexicon.describe_resources(&qa).await.unwrap().normalize();
    assert_eq!(qa_answer.notes.len(), 1, "{:?}", qa_answer.notes);
    assert!(qa_answer.notes[0].contains("stack \"shop-qa\" carries no chant:managed-by tag"));
    let dev_answer = lexicon.describe_resources(&dev).await.unwrap().normalize();
    assert!(dev_answer.notes.is_empty(), "{:?}", dev_answer.notes);
    assert_eq!(
        dev_answer.queried["Jobs"],
        format!(
            "cloudformation:DescribeStackResources(StackName=shop-dev) @ eu-west-1 {}",
            moto.url()
        )
    );
    assert_eq!(
        dev_answer.resources["Assets"].physical_id.as_deref(),
        Some("shop-dev-assets")
    );
    assert_eq!(dev_answer.resources["Jobs"].status, "CREATE_COMPLETE");
    let prod_answer = lexicon.describe_resources(&prod).await.unwrap().normalize();
    assert_eq!(prod_answer.resources["Assets"].status, "EXTERNAL");
    assert!(prod_answer.queried["Assets"].starts_with(
        "cloudcontrolapi:GetResource(TypeName=AWS::S3::Bucket, Identifier=shop-dev-assets)"
    ));
    let unsupported_answer = unsupported
        .describe_resources(&prod_unsupported)
        .await
        .unwrap()
        .normalize();
    assert!(
        unsupported_answer.notes[0].contains("UnsupportedActionException"),
        "{:?}",
        unsupported_answer.notes
    );
}

const CFN_NS: &str = "http://cloudformation.amazonaws.com/doc/2010-05-15/";

fn cfn_error(status: u16, code: &str, message: &str) -> Reply {
    Reply::status(status).header("content-type", "text/xml").body(format!(
        "<ErrorResponse xmlns=\"{CFN_NS}\"><Error><Type>Sender</Type><Code>{code}</Code><Message>{message}</Message></Error><RequestId>r</RequestId></ErrorResponse>"
    ))
}

fn described_stack() -> Reply {
    let tags: String = [
        ("chant:managed-by", "chant"),
        ("chant:stack", PROJECT_STACK),
        ("chant:env", "dev"),
    ]
    .iter()
    .map(|(k, v)| format!("<member><Key>{k}</Key><Value>{v}</Value></member>"))
    .collect();
    Reply::status(200).header("content-type", "text/xml").body(format!(
        "<DescribeStacksResponse xmlns=\"{CFN_NS}\"><DescribeStacksResult><Stacks><member><StackName>shop-dev</StackName><StackId>arn:aws:cloudformation:eu-west-1:123456789012:stack/shop-dev/1</StackId><CreationTime>2026-11-29T12:00:00Z</CreationTime><StackStatus>CREATE_COMPLETE</StackStatus><Tags>{tags}</Tags></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></DescribeStacksResponse>"
    ))
}

fn described_resources() -> Reply {
    let members: String = [("Assets", "AWS::S3::Bucket", "shop-dev-assets"), ("Jobs", "AWS::SQS::Queue", "https://sqs/jobs"), ("Web", "AWS::EC2::SecurityGroup", "sg-1"), ("Worker", "AWS::IAM::Role", "shop-dev-worker")]
        .iter()
        .map(|(id, t, p)| format!("<member><StackName>shop-dev</StackName><LogicalResourceId>{id}</LogicalResourceId><PhysicalResourceId>{p}</PhysicalResourceId><ResourceType>{t}</ResourceType><Timestamp>2026-11-29T12:00:00Z</Timestamp><ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>"))
        .collect();
    Reply::status(200).header("content-type", "text/xml").body(format!(
        "<DescribeStackResourcesResponse xmlns=\"{CFN_NS}\"><DescribeStackResourcesResult><StackResources>{members}</StackResources></DescribeStackResourcesResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></DescribeStackResourcesResponse>"
    ))
}

/// A CloudFormation endpoint that fails the first `failures` calls of every action with
/// `failure`, then answers like a deployed, marked stack.
fn faulty_cloudformation(failure: Reply, failures: usize) -> (FakeHttp, Arc<AtomicUsize>) {
    let http = FakeHttp::start();
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let per_action = Arc::new(std::sync::Mutex::new(std::collections::BTreeMap::<
        String,
        usize,
    >::new()));
    http.handle(move |request| {
        seen.fetch_add(1, Ordering::SeqCst);
        let body = request.body_text();
        let action = body
            .split('&')
            .find_map(|kv| kv.strip_prefix("Action="))
            .unwrap_or_default()
            .to_owned();
        let mut counts = per_action.lock().unwrap();
        let n = counts.entry(action.clone()).or_default();
        *n += 1;
        if *n <= failures {
            return Some(failure.clone());
        }
        match action.as_str() {
            "DescribeStacks" => Some(described_stack()),
            "DescribeStackResources" => Some(described_resources()),
            _ => Some(cfn_error(400, "ValidationError", "unexpected action")),
        }
    });
    (http, calls)
}

#[tokio::test]
async fn faults_are_reasons_and_throttling_is_retried() {
    let template = shop_template("dev");
    let expired = faulty_cloudformation(
        cfn_error(
            403,
            "ExpiredToken",
            "The security token included in the request is expired",
        ),
        usize::MAX,
    );
    let denied = faulty_cloudformation(
        cfn_error(
            403,
            "AccessDenied",
            "User is not authorized to perform: cloudformation:DescribeStackResources",
        ),
        usize::MAX,
    );
    let throttled = faulty_cloudformation(cfn_error(400, "Throttling", "Rate exceeded"), 2);
    let broken = faulty_cloudformation(Reply::text(500, "internal error"), usize::MAX);
    let lexicon = |http: &FakeHttp| {
        let project = Project::new(&template, "http://127.0.0.1:9", &[("dev", "")]);
        let mut o = overrides();
        o.service_endpoints
            .insert(Service::CloudFormation, http.url());
        (project.lexicon(o), project)
    };
    let (expired_lexicon, _p1) = lexicon(&expired.0);
    let (denied_lexicon, _p2) = lexicon(&denied.0);
    let (throttled_lexicon, _p3) = lexicon(&throttled.0);
    let (broken_lexicon, _p4) = lexicon(&broken.0);
    let r1 = request(&expired_lexicon, "dev", false).await;
    let r2 = request(&denied_lexicon, "dev", false).await;
    let r3 = request(&throttled_lexicon, "dev", false).await;
    let r4 = request(&broken_lexicon, "dev", false).await;
    let all = ["Assets", "Jobs", "Web", "Worker"];
    let channel = expired_lexicon.ownership_channel();
    let scenarios = vec![
        Scenario::new(
            "expired credentials",
            r1.entities.to_vec(),
            expired_lexicon.describe_resources(&r1),
        )
        .unobserved(&all, UnobservedReason::NoCredentials),
        Scenario::new(
            "AccessDenied",
            r2.entities.to_vec(),
            denied_lexicon.describe_resources(&r2),
        )
        .unobserved(&all, UnobservedReason::NoCredentials),
        Scenario::new(
            "throttling then success",
            r3.entities.to_vec(),
            throttled_lexicon.describe_resources(&r3),
        )
        .present(&all)
        .marker("Jobs", PROJECT_STACK, Some("dev")),
        Scenario::new(
            "server error",
            r4.entities.to_vec(),
            broken_lexicon.describe_resources(&r4),
        )
        .unobserved(&all, UnobservedReason::ReadFailed),
    ];
    assert_observation_conformance("aws", channel.as_ref(), scenarios).await;
    // Two throttled answers per action, then success: retried, never an absence.
    assert_eq!(throttled.1.load(Ordering::SeqCst), 6);
    let denied_answer = denied_lexicon
        .describe_resources(&r2)
        .await
        .unwrap()
        .normalize();
    let detail = denied_answer.unobserved["Jobs"].detail.clone().unwrap();
    assert!(
        detail.contains("AccessDenied: User is not authorized"),
        "{detail}"
    );
    assert!(
        denied_answer.unobserved["Jobs"]
            .queried
            .as_deref()
            .unwrap()
            .contains(&denied.0.url())
    );
}
