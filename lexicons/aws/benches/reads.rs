//! How long the reads take against moto server, next to their physical limit.
//!
//! - describe: one stack of N queues costs DescribeStacks and DescribeStackResources in
//!   parallel, so its floor is one round trip whatever N is.
//! - deep: N Cloud Control GetResource calls to a stub answering after a fixed latency;
//!   the floor is requests × latency ÷ concurrency.
//!
//! `cargo bench -p chant-aws --bench reads` (prints figures; asserts nothing).

#[path = "../tests/common/mod.rs"]
mod common;

use chant_lexicon::Lexicon;
use chant_testkit::Reply;
use chant_testkit::moto::MotoServer;
use common::*;
use serde_json::json;
use std::time::{Duration, Instant};

const QUEUES: usize = 48;
const ROUNDS: usize = 10;
const STUB_LATENCY: Duration = Duration::from_millis(25);

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(run());
}

async fn run() {
    let moto = MotoServer::shared().session();
    let sdk = moto_sdk(&moto.url()).await;
    let mut resources = serde_json::Map::new();
    for i in 0..QUEUES {
        resources.insert(format!("Queue{i}"), json!({"Type": "AWS::SQS::Queue", "Properties": {"QueueName": format!("bench-{i}"), "Tags": marker_tags(PROJECT_STACK, "dev")}}));
    }
    let template = json!({"Resources": resources});
    create_stack(
        &sdk,
        "shop-dev",
        &template,
        Some(&marker_tags(PROJECT_STACK, "dev")),
    )
    .await;

    let stub = CloudControlStub::start();
    stub.http.handle(|request| {
        let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap_or_default();
        let id = body["Identifier"].as_str().unwrap_or_default();
        Some(
            Reply::status(200)
                .header("content-type", "application/x-amz-json-1.0")
                .body(json!({"TypeName": "AWS::SQS::Queue", "ResourceDescription": {"Identifier": id, "Properties": json!({"QueueUrl": id}).to_string()}}).to_string())
                .after(STUB_LATENCY),
        )
    });
    let project = Project::new(&template, &moto.url(), &[("dev", "")]);
    let lexicon = project.lexicon(with_cloudcontrol(&stub));
    let request = request(&lexicon, "dev", false).await;

    let describe = time(ROUNDS, || async {
        let answer = lexicon
            .describe_resources(&request)
            .await
            .unwrap()
            .normalize();
        assert_eq!(answer.resources.len(), QUEUES);
    })
    .await;
    println!(
        "describe_resources, {QUEUES} members: median {describe:?} over {ROUNDS} rounds (floor: one round trip)"
    );

    let deep = time(3, || async {
        let answer = lexicon.observe_resources_deep(&request).await.unwrap();
        assert_eq!(answer.resources.len(), QUEUES);
    })
    .await;
    let floor = STUB_LATENCY * (QUEUES.div_ceil(chant_aws::AWS_CONCURRENCY)) as u32;
    let serial = STUB_LATENCY * QUEUES as u32;
    println!(
        "observe_resources_deep, {QUEUES} GetResource at {STUB_LATENCY:?} each: median {deep:?} (floor {floor:?} at concurrency {}; serial would be {serial:?})",
        chant_aws::AWS_CONCURRENCY
    );
}

async fn time<F, Fut>(rounds: usize, f: F) -> Duration
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let mut samples = Vec::new();
    for _ in 0..rounds {
        let started = Instant::now();
        f().await;
        samples.push(started.elapsed());
    }
    samples.sort();
    samples[samples.len() / 2]
}
