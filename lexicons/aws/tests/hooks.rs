//! Every hook besides describe, end to end against moto server (Cloud Control through the
//! local stub, since moto answers it with HTTP 500).

mod common;

use chant::lifecycle::change_set::{Action, PlanInput, build_change_set};
use chant_aws::Service;
use chant_lexicon::{
    AmbientRequest, DependencyRequest, Disruption, DisruptionQuery, DisruptionRequest,
    ExportRequest, HookError, IdentityAnswer, IdentityRequest, Lexicon, Ownership, ProjectMarker,
    ResourceSelector, StackStatusRequest, TeardownRequest, UnobservedReason,
};
use chant_testkit::FakeHttp;
use chant_testkit::moto::{MOTO_ACCOUNT, MotoServer};
use common::*;
use serde_json::json;
use std::sync::Arc;

#[tokio::test]
async fn whoami_names_the_principal_the_scope_and_the_endpoint_the_reads_use() {
    let moto = MotoServer::shared().session();
    let project = Project::new(&shop_template("dev"), &moto.url(), &[("dev", "")]);
    let lexicon = project.lexicon(overrides());
    let answer = lexicon
        .describe_identity(&IdentityRequest {
            environment: "dev".into(),
            region: None,
        })
        .await
        .unwrap();
    let IdentityAnswer::Resolved(id) = answer else {
        panic!("unresolved: {answer:?}")
    };
    assert_eq!(
        id.identity,
        format!("arn:aws:sts::{MOTO_ACCOUNT}:user/moto")
    );
    assert_eq!(
        id.scope,
        format!("account {MOTO_ACCOUNT}, region eu-west-1 (from [environments.dev.aws] region)")
    );
    assert_eq!(id.source, "fixed credentials (test configuration)");
    assert_eq!(id.endpoint.as_deref(), Some(moto.url().as_str()));
    assert_eq!(id.target.as_deref(), Some(MOTO_ACCOUNT));
    // The describe read goes to the same place.
    let described = lexicon
        .describe_resources(&request(&lexicon, "dev", false).await)
        .await
        .unwrap()
        .normalize();
    assert!(described.queried["Jobs"].ends_with(&moto.url()));

    let no_region = Project::new(&shop_template("dev"), &moto.url(), &[]);
    let answer = no_region
        .lexicon(overrides())
        .describe_identity(&IdentityRequest {
            environment: "dev".into(),
            region: None,
        })
        .await
        .unwrap();
    assert!(
        matches!(
            answer,
            IdentityAnswer::Unresolved {
                reason: UnobservedReason::NoBinding,
                ..
            }
        ),
        "{answer:?}"
    );
}

#[tokio::test]
async fn a_wrong_account_is_refused_before_any_read() {
    let moto = MotoServer::shared().session();
    // STS answers from moto (account 123456789012); every other service would go to this
    // recorder, which must see no request at all.
    let recorder = FakeHttp::start();
    let project = Project::new(
        &shop_template("dev"),
        &recorder.url(),
        &[("dev", "allowed_accounts = [\"111111111111\"]\n")],
    );
    let mut o = overrides();
    o.service_endpoints.insert(Service::Sts, moto.url());
    let lexicon = project.lexicon(o);
    assert_eq!(
        lexicon.allowed_targets("dev"),
        Some(vec!["111111111111".to_owned()])
    );
    let refused = |e: HookError| match e {
        HookError::Refused(message) => message,
        other => panic!("not a refusal: {other:?}"),
    };
    let request = request(&lexicon, "dev", false).await;
    let message = refused(lexicon.describe_resources(&request).await.unwrap_err());
    assert!(
        message.contains("111111111111") && message.contains(MOTO_ACCOUNT),
        "{message}"
    );
    refused(lexicon.observe_resources_deep(&request).await.unwrap_err());
    let teardown = TeardownRequest {
        environment: "dev".into(),
        project: ProjectMarker::new(PROJECT_STACK, "dev"),
        declared: vec![],
        stack: None,
        region: None,
    };
    refused(lexicon.teardown_owned(&teardown).await.unwrap_err());
    refused(
        lexicon
            .describe_identity(&IdentityRequest {
                environment: "dev".into(),
                region: None,
            })
            .await
            .unwrap_err(),
    );
    assert!(
        recorder.requests().is_empty(),
        "read before refusing: {:?}",
        recorder.requests()
    );

    // The right account passes.
    let allowed = Project::new(
        &shop_template("dev"),
        &moto.url(),
        &[("dev", &format!("allowed_targets = [\"{MOTO_ACCOUNT}\"]\n"))],
    );
    let lexicon = allowed.lexicon(overrides());
    assert!(lexicon.describe_resources(&request).await.is_ok());
}

#[tokio::test]
async fn the_deep_read_maps_cloud_control_and_security_groups() {
    let moto = MotoServer::shared().session();
    deploy_shop_dev(&moto.url()).await;
    let stub = CloudControlStub::start();
    stub.put(
        "AWS::S3::Bucket",
        "shop-dev-assets",
        json!({
            "BucketName": "shop-dev-assets", "Arn": "arn:aws:s3:::shop-dev-assets",
            "Tags": marker_tags(PROJECT_STACK, "dev")
        }),
    );
    stub.unsupported("AWS::IAM::Role");
    let project = Project::new(&shop_template("dev"), &moto.url(), &[("dev", "")]);
    let lexicon = project.lexicon(with_cloudcontrol(&stub));
    let deep = lexicon
        .observe_resources_deep(&request(&lexicon, "dev", false).await)
        .await
        .unwrap();

    let bucket = &deep.resources["Assets"];
    assert_eq!(bucket.ownership, Some(Ownership::Owned));
    assert_eq!(bucket.properties["BucketName"], "shop-dev-assets");
    let web = &deep.resources["Web"];
    assert_eq!(web.properties["GroupDescription"], "web tier");
    assert_eq!(
        web.properties["SecurityGroupIngress"],
        json!([{"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "CidrIp": "0.0.0.0/0"}])
    );
    assert_eq!(
        web.marker.as_ref().map(|m| m.stack.as_str()),
        Some(PROJECT_STACK)
    );
    // The queue is in the stack but the stub has no model of it: gone, so absent.
    assert!(!deep.resources.contains_key("Jobs") && !deep.unobserved.contains_key("Jobs"));
    let role = &deep.unobserved["Worker"];
    assert_eq!(role.reason, UnobservedReason::UnsupportedKind);
    assert!(
        role.detail
            .as_deref()
            .unwrap()
            .contains("UnsupportedActionException")
    );

    // Missing stack: nothing deep to say (the thin read owns absence).
    let prod = Project::new(&shop_template("prod"), &moto.url(), &[("prod", "")]);
    let lexicon = prod.lexicon(with_cloudcontrol(&stub));
    let deep = lexicon
        .observe_resources_deep(&request(&lexicon, "prod", false).await)
        .await
        .unwrap();
    assert!(deep.resources.is_empty() && deep.unobserved.is_empty());
}

#[tokio::test]
async fn import_writes_a_template_that_plans_all_noop() {
    let moto = MotoServer::shared().session();
    let sdk = moto_sdk(&moto.url()).await;
    let mut deployed = shop_template("dev");
    deployed["Resources"]["Foreign"] = json!({"Type": "AWS::SQS::Queue", "Properties": {"QueueName": "not-ours", "Tags": marker_tags("blog", "dev")}});
    create_stack(
        &sdk,
        "shop-dev",
        &deployed,
        Some(&marker_tags(PROJECT_STACK, "dev")),
    )
    .await;
    // The project declares nothing yet: it is about to import.
    let empty = json!({"Resources": {"Placeholder": {"Type": "AWS::SQS::Queue"}}});
    let project = Project::new(&empty, &moto.url(), &[("dev", "")]);
    let lexicon = project.lexicon(overrides());
    let export = |selector: ResourceSelector, owned: bool| ExportRequest {
        environment: "dev".into(),
        project: ProjectMarker::new(PROJECT_STACK, "dev"),
        selector,
        owned,
        verbatim: false,
        stack: None,
        region: None,
    };
    let all = lexicon
        .export_resources(&export(ResourceSelector::default(), false))
        .await
        .unwrap();
    assert_eq!(all.len(), 5);
    let owned = lexicon
        .export_resources(&export(ResourceSelector::default(), true))
        .await
        .unwrap();
    let names: Vec<&str> = owned
        .ir()
        .resources
        .iter()
        .map(|r| r.logical_id.as_str())
        .collect();
    assert_eq!(names, ["Assets", "Jobs", "Web", "Worker"]);
    let queues = lexicon
        .export_resources(&export(
            ResourceSelector {
                entity_type: Some("AWS::SQS::Queue".into()),
                name: None,
            },
            false,
        ))
        .await
        .unwrap();
    assert_eq!(queues.len(), 2);
    let one = lexicon
        .export_resources(&export(
            ResourceSelector {
                entity_type: None,
                name: Some("Web".into()),
            },
            false,
        ))
        .await
        .unwrap();
    assert_eq!(one.len(), 1);

    let files = lexicon.generate_source(&owned).unwrap();
    assert_eq!(files[0].path.to_str(), Some("template.json"));
    std::fs::write(project.template_path(), &files[0].content).unwrap();
    let reread = project.lexicon(overrides());
    let request = request(&reread, "dev", false).await;
    let declared: Vec<String> = request.entities.iter().map(|e| e.name.clone()).collect();
    assert_eq!(declared, ["Assets", "Jobs", "Web", "Worker"]);
    let now = reread
        .describe_resources(&request)
        .await
        .unwrap()
        .normalize();
    let plan = build_change_set(&PlanInput {
        lexicon: "aws",
        declared: &declared,
        now: &now,
        then: None,
        property_drift: None,
    });
    for entry in plan.iter().filter(|e| declared.contains(&e.name)) {
        assert_eq!(entry.action, Action::Noop, "{}", entry.name);
    }
    // The sibling stack's queue in our stack is read with our stack's marker (stack granularity).
    let foreign = plan.iter().find(|e| e.name == "Foreign").unwrap();
    assert_eq!(foreign.action, Action::Delete);

    let missing = Project::new(&empty, &moto.url(), &[("prod", "")]);
    let nothing = missing
        .lexicon(overrides())
        .export_resources(&ExportRequest {
            environment: "prod".into(),
            ..export(ResourceSelector::default(), false)
        })
        .await
        .unwrap();
    assert!(nothing.is_empty());
}

#[tokio::test]
async fn teardown_plans_owned_orphans_and_deletes_them_in_order() {
    let moto = MotoServer::shared().session();
    let sdk = deploy_shop_dev(&moto.url()).await;
    // Outside the stack: an owned orphan topic, a sibling stack's queue, a prod queue.
    let sns = aws_sdk_sns::Client::new(&sdk);
    let tag = |k: &str, v: &str| {
        aws_sdk_sns::types::Tag::builder()
            .key(k)
            .value(v)
            .build()
            .unwrap()
    };
    let topic = sns
        .create_topic()
        .name("shop-dev-events")
        .tags(tag("chant:managed-by", "chant"))
        .tags(tag("chant:stack", PROJECT_STACK))
        .tags(tag("chant:env", "dev"))
        .send()
        .await
        .unwrap()
        .topic_arn()
        .unwrap()
        .to_owned();
    let sqs = aws_sdk_sqs::Client::new(&sdk);
    for (name, stack, env) in [
        ("blog-dev-jobs", "blog", "dev"),
        ("shop-prod-jobs", PROJECT_STACK, "prod"),
    ] {
        sqs.create_queue()
            .queue_name(name)
            .tags("chant:managed-by", "chant")
            .tags("chant:stack", stack)
            .tags("chant:env", env)
            .send()
            .await
            .unwrap();
    }
    // An owned orphan bucket with an object in it (deleting a bucket empties it first).
    let s3 = aws_sdk_s3::Client::from_conf(
        aws_sdk_s3::config::Builder::from(&sdk)
            .force_path_style(true)
            .build(),
    );
    s3.create_bucket()
        .bucket("shop-dev-old-logs")
        .create_bucket_configuration(
            aws_sdk_s3::types::CreateBucketConfiguration::builder()
                .location_constraint(aws_sdk_s3::types::BucketLocationConstraint::EuWest1)
                .build(),
        )
        .send()
        .await
        .unwrap();
    let s3_tag = |k: &str, v: &str| {
        aws_sdk_s3::types::Tag::builder()
            .key(k)
            .value(v)
            .build()
            .unwrap()
    };
    s3.put_bucket_tagging()
        .bucket("shop-dev-old-logs")
        .tagging(
            aws_sdk_s3::types::Tagging::builder()
                .tag_set(s3_tag("chant:managed-by", "chant"))
                .tag_set(s3_tag("chant:stack", PROJECT_STACK))
                .tag_set(s3_tag("chant:env", "dev"))
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    s3.put_object()
        .bucket("shop-dev-old-logs")
        .key("2026/11/29.log")
        .body(aws_sdk_s3::primitives::ByteStream::from_static(b"old"))
        .send()
        .await
        .unwrap();
    // The project now declares only the bucket (and a kind the tagging API cannot list).
    let mut declared = shop_template("dev");
    let resources = declared["Resources"].as_object_mut().unwrap();
    resources.retain(|k, _| k == "Assets");
    resources.insert(
        "Config".into(),
        json!({"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "x"}}),
    );
    resources.insert(
        "Worker".into(),
        shop_template("dev")["Resources"]["Worker"].clone(),
    );
    let project = Project::new(&declared, &moto.url(), &[("dev", "")]);
    let lexicon = project.lexicon(overrides());
    let request = TeardownRequest {
        environment: "dev".into(),
        project: ProjectMarker::new(PROJECT_STACK, "dev"),
        declared: vec!["Assets".into(), "Config".into()],
        stack: None,
        region: None,
    };
    let plan = lexicon.teardown_owned(&request).await.unwrap();
    let names: Vec<(&str, &str)> = plan
        .candidates
        .iter()
        .map(|c| (c.name.as_str(), c.entity_type.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("Jobs", "AWS::SQS::Queue"),
            ("arn:aws:s3:::shop-dev-old-logs", "AWS::S3::Bucket"),
            (topic.as_str(), "AWS::SNS::Topic"),
            ("Web", "AWS::EC2::SecurityGroup"),
            ("Worker", "AWS::IAM::Role"),
        ]
    );
    assert!(
        plan.candidates
            .iter()
            .all(|c| c.marker.stack == PROJECT_STACK && c.marker.env.as_deref() == Some("dev"))
    );
    let jobs = plan.candidates.iter().find(|c| c.name == "Jobs").unwrap();
    assert_eq!(jobs.depends_on, ["Web", "Worker"]);
    let holes: Vec<(&str, UnobservedReason)> = plan
        .holes
        .iter()
        .map(|h| (h.kind.as_str(), h.reason))
        .collect();
    assert_eq!(
        holes,
        [("AWS::SSM::Parameter", UnobservedReason::UnsupportedKind)]
    );

    // Between plan and execute someone re-tags the security group as theirs.
    let ec2 = aws_sdk_ec2::Client::new(&sdk);
    let sg = jobs_free_sg(&plan);
    ec2.create_tags()
        .resources(&sg)
        .tags(
            aws_sdk_ec2::types::Tag::builder()
                .key("chant:stack")
                .value("blog")
                .build(),
        )
        .send()
        .await
        .unwrap();
    let outcome = lexicon.execute_teardown(&request, &plan).await.unwrap();
    assert_eq!(
        outcome.deleted,
        [
            "Jobs",
            "arn:aws:s3:::shop-dev-old-logs",
            topic.as_str(),
            "Worker"
        ]
    );
    assert_eq!(outcome.skipped, ["Web"]);
    assert!(outcome.failed.is_empty(), "{:?}", outcome.failed);
    let queues = sqs.list_queues().send().await.unwrap();
    let urls: Vec<&str> = queues.queue_urls().iter().map(String::as_str).collect();
    assert!(
        urls.iter().all(|u| !u.ends_with("/shop-dev-jobs")),
        "{urls:?}"
    );
    assert!(
        urls.iter().any(|u| u.ends_with("/blog-dev-jobs"))
            && urls.iter().any(|u| u.ends_with("/shop-prod-jobs"))
    );
    let iam = aws_sdk_iam::Client::new(&sdk);
    assert!(
        iam.get_role()
            .role_name("shop-dev-worker")
            .send()
            .await
            .is_err()
    );
    assert!(
        sns.get_topic_attributes()
            .topic_arn(&topic)
            .send()
            .await
            .is_err()
    );
    assert!(
        s3.head_bucket()
            .bucket("shop-dev-old-logs")
            .send()
            .await
            .is_err()
    );
    assert!(
        s3.head_bucket()
            .bucket("shop-dev-assets")
            .send()
            .await
            .is_ok(),
        "a declared bucket was deleted"
    );
}

fn jobs_free_sg(plan: &chant_lexicon::TeardownPlan) -> String {
    let arn = plan
        .candidates
        .iter()
        .find(|c| c.name == "Web")
        .unwrap()
        .physical_id
        .clone()
        .unwrap();
    arn.rsplit('/').next().unwrap().to_owned()
}

#[tokio::test]
async fn stack_status_dependencies_and_ambient() {
    let moto = MotoServer::shared().session();
    let sdk = moto_sdk(&moto.url()).await;
    let ec2 = aws_sdk_ec2::Client::new(&sdk);
    let default_vpc = ec2.describe_vpcs().send().await.unwrap().vpcs()[0]
        .vpc_id()
        .unwrap()
        .to_owned();
    let subnet = ec2
        .describe_subnets()
        .send()
        .await
        .unwrap()
        .subnets()
        .iter()
        .find(|s| s.vpc_id() == Some(default_vpc.as_str()))
        .unwrap()
        .subnet_id()
        .unwrap()
        .to_owned();
    let mut template = shop_template("dev");
    template["Resources"]["Web"]["Properties"]["VpcId"] = json!(default_vpc);
    template["Resources"]["Fn"] = json!({"Type": "AWS::Lambda::Function", "Properties": {
        "FunctionName": "shop-dev-fn", "Runtime": "python3.12", "Handler": "index.handler",
        "Role": {"Fn::GetAtt": ["Worker", "Arn"]}, "Code": {"ZipFile": "def handler(e, c): return 1"},
        "VpcConfig": {"SubnetIds": [subnet.clone()], "SecurityGroupIds": [{"Ref": "Web"}]}
    }});
    create_stack(
        &sdk,
        "shop-dev",
        &template,
        Some(&marker_tags(PROJECT_STACK, "dev")),
    )
    .await;
    let project = Project::new(&template, &moto.url(), &[("dev", "")]);
    let lexicon = project.lexicon(overrides());

    let status = |stack: &str| StackStatusRequest {
        environment: "dev".into(),
        stack: stack.into(),
    };
    let up = lexicon
        .describe_stack_status(&status("shop-dev"))
        .await
        .unwrap()
        .unwrap();
    assert!(
        up.present && up.healthy == Some(true) && up.status.as_deref() == Some("CREATE_COMPLETE")
    );
    let gone = lexicon
        .describe_stack_status(&status("shop-gone"))
        .await
        .unwrap()
        .unwrap();
    assert!(!gone.present);

    let described = lexicon
        .describe_resources(&request(&lexicon, "dev", false).await)
        .await
        .unwrap()
        .normalize();
    let observed = Arc::new(described.resources.clone());
    let entities = Arc::new(lexicon.declared().await.unwrap());
    let deps = lexicon
        .observe_dependencies(&DependencyRequest {
            environment: "dev".into(),
            entities: entities.clone(),
            observed: observed.clone(),
            stack: None,
            region: None,
        })
        .await
        .unwrap();
    assert_eq!(deps[&default_vpc].entity_type, "AWS::EC2::VPC");
    assert!(deps[&default_vpc].provider_default);
    assert!(
        deps[&default_vpc].referenced_by.contains(&"Web".to_owned()),
        "{:?}",
        deps[&default_vpc].referenced_by
    );
    assert_eq!(deps[&subnet].referenced_by, ["Fn"]);
    let table = deps
        .values()
        .find(|m| m.entity_type == "AWS::EC2::RouteTable")
        .expect("the subnet's route table");
    assert_eq!(table.referenced_by, ["Fn"]);
    assert!(deps.values().all(|m| !m.referenced_by.is_empty()));

    let ambient = lexicon
        .observe_ambient(&AmbientRequest {
            environment: "dev".into(),
            kinds: vec!["AWS::EC2::SecurityGroup".into()],
            observed,
            stack: None,
            region: None,
        })
        .await
        .unwrap();
    let web_id = described.resources["Web"].physical_id.clone().unwrap();
    assert!(
        !ambient.contains_key(&web_id),
        "a managed group is not ambient"
    );
    let default_group = ambient
        .values()
        .find(|m| m.provider_default)
        .expect("the default VPC's default group");
    assert!(default_group.ambient && default_group.entity_type == "AWS::EC2::SecurityGroup");
    assert!(
        ambient
            .values()
            .all(|m| m.entity_type == "AWS::EC2::SecurityGroup")
    );
    assert_eq!(lexicon.ambient_kinds().len(), 4);
}

#[tokio::test]
async fn disruption_verdicts_name_their_schema_fact() {
    let project = Project::new(&shop_template("dev"), "http://127.0.0.1:9", &[("dev", "")]);
    let lexicon = project.lexicon(overrides());
    let change = |name: &str, entity_type: &str, path: &str| DisruptionQuery {
        name: name.into(),
        entity_type: Some(entity_type.into()),
        deltas: vec![chant_lexicon::AttributeChange {
            path: path.into(),
            old_value: None,
            new_value: None,
        }],
    };
    let verdicts = lexicon
        .classify_disruption(&DisruptionRequest {
            environment: "dev".into(),
            changes: vec![
                change("Assets", "AWS::S3::Bucket", "BucketName"),
                change("Jobs", "AWS::SQS::Queue", "VisibilityTimeout"),
                change("Thing", "Custom::Thing", "X"),
            ],
        })
        .await
        .unwrap();
    assert_eq!(verdicts["Assets"].disruption, Disruption::Replace);
    assert_eq!(verdicts["Jobs"].disruption, Disruption::InPlace);
    assert!(
        verdicts["Jobs"]
            .because
            .as_deref()
            .unwrap()
            .contains("VisibilityTimeout")
    );
    assert!(
        !verdicts.contains_key("Thing"),
        "a type with no schema is left unknown"
    );
}

#[tokio::test]
async fn several_stacks_each_in_its_own_region() {
    let moto = MotoServer::shared().session();
    let app = json!({"Resources": {"Jobs": shop_template("dev")["Resources"]["Jobs"].clone()}});
    let edge = json!({"Resources": {"Assets": shop_template("dev")["Resources"]["Assets"].clone(), "Cdn": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": "edge-cdn"}}}});
    let eu = moto_sdk(&moto.url()).await;
    create_stack(
        &eu,
        "app-dev",
        &app,
        Some(&marker_tags(PROJECT_STACK, "dev")),
    )
    .await;
    let us = eu
        .to_builder()
        .region(aws_config::Region::new("us-east-1"))
        .build();
    create_stack(
        &us,
        "edge-dev",
        &json!({"Resources": {"Assets": edge["Resources"]["Assets"].clone()}}),
        Some(&marker_tags(PROJECT_STACK, "dev")),
    )
    .await;

    let project = Project::new(&app, &moto.url(), &[("dev", "")]);
    std::fs::write(project.path().join("dist/app.json"), app.to_string()).unwrap();
    std::fs::write(project.path().join("dist/edge.json"), edge.to_string()).unwrap();
    let text = project.chant_toml.replace(
        "[lexicons.aws]\nsource = \"dist/template.json\"\nstack = \"shop-{env}\"\n",
        "[lexicons.aws.stacks.app]\nsource = \"dist/app.json\"\n\n[lexicons.aws.stacks.edge]\nsource = \"dist/edge.json\"\nregion = \"us-east-1\"\n",
    );
    let context = chant_lexicon::ProjectContext {
        config_text: Arc::from(text.as_str()),
        ..project.context()
    };
    let lexicon = chant_aws::AwsLexicon::new(chant_aws::AwsSettings::parse(&context).unwrap())
        .with_overrides(overrides());
    let request = request(&lexicon, "dev", false).await;
    let names: Vec<&str> = request.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["Jobs", "Assets", "Cdn"]);
    let read = lexicon
        .describe_resources(&request)
        .await
        .unwrap()
        .normalize();
    assert_eq!(read.resources["Jobs"].attributes["region"], "eu-west-1");
    assert_eq!(read.resources["Assets"].attributes["region"], "us-east-1");
    assert_eq!(read.resources["Assets"].attributes["stack"], "edge-dev");
    assert!(
        !read.resources.contains_key("Cdn") && !read.unobserved.contains_key("Cdn"),
        "Cdn was never deployed"
    );
    assert!(
        read.queried["Cdn"].contains("StackName=edge-dev) @ us-east-1"),
        "{}",
        read.queried["Cdn"]
    );
    assert!(
        read.queried["Jobs"].contains("StackName=app-dev) @ eu-west-1"),
        "{}",
        read.queried["Jobs"]
    );
}
