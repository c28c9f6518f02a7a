//! The real credential chain and `AWS_ENDPOINT_URL`, read from the process environment.
//! One test in its own binary, since it sets process-wide variables.

mod common;

use chant_aws::Overrides;
use chant_lexicon::{IdentityAnswer, IdentityRequest, Lexicon};
use chant_testkit::moto::MotoServer;
use common::*;

#[tokio::test]
async fn the_chain_and_aws_endpoint_url_decide_where_and_as_whom() {
    let moto = MotoServer::shared().session();
    deploy_shop_dev(&moto.url()).await;
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config");
    let credentials = home.path().join("credentials");
    std::fs::write(&config, "[profile dev]\nregion = ap-south-1\n").unwrap();
    std::fs::write(
        &credentials,
        "[dev]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = profile-secret\n",
    )
    .unwrap();
    // SAFETY: this binary runs this one test; nothing else reads the environment concurrently.
    unsafe {
        for name in [
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "AWS_PROFILE",
            "AWS_REGION",
            "AWS_DEFAULT_REGION",
        ] {
            std::env::remove_var(name);
        }
        std::env::set_var("AWS_CONFIG_FILE", &config);
        std::env::set_var("AWS_SHARED_CREDENTIALS_FILE", &credentials);
        std::env::set_var("AWS_ENDPOINT_URL", moto.url());
        std::env::set_var("AWS_EC2_METADATA_DISABLED", "true");
    }
    // No endpoint in chant.toml: AWS_ENDPOINT_URL alone sends the reads to moto.
    let project = Project::new(&shop_template("dev"), "", &[("dev", "profile = \"dev\"\n")]);
    let text = project.chant_toml.replace("endpoint = \"\"\n", "");
    std::fs::write(project.path().join("chant.toml"), &text).unwrap();
    let context = chant_lexicon::ProjectContext {
        config_text: std::sync::Arc::from(text.as_str()),
        ..project.context()
    };
    let lexicon = chant_aws::AwsLexicon::new(chant_aws::AwsSettings::parse(&context).unwrap())
        .with_overrides(Overrides {
            initial_backoff: std::time::Duration::from_millis(5),
            ..Default::default()
        });

    let identity_request = IdentityRequest {
        environment: "dev".into(),
        region: None,
    };
    let IdentityAnswer::Resolved(by_profile) =
        lexicon.describe_identity(&identity_request).await.unwrap()
    else {
        panic!("unresolved")
    };
    assert_eq!(
        by_profile.source,
        "profile `dev` ([environments.dev.aws] profile)"
    );
    assert_eq!(by_profile.endpoint.as_deref(), Some(moto.url().as_str()));
    // The environment's region wins over the profile's.
    assert!(
        by_profile.scope.contains("region eu-west-1"),
        "{}",
        by_profile.scope
    );
    assert!(!format!("{by_profile:?}").contains("profile-secret"));

    let read = lexicon
        .describe_resources(&request(&lexicon, "dev", false).await)
        .await
        .unwrap()
        .normalize();
    assert_eq!(read.resources.len(), 4, "{read:?}");
    assert!(read.queried["Jobs"].ends_with(&format!("@ eu-west-1 {}", moto.url())));

    // SAFETY: as above.
    unsafe {
        std::env::set_var("AWS_ACCESS_KEY_ID", "AKIDENV");
        std::env::set_var("AWS_SECRET_ACCESS_KEY", "env-secret");
    }
    let env_project = Project::new(&shop_template("dev"), "", &[("dev", "")]);
    let text = env_project.chant_toml.replace("endpoint = \"\"\n", "");
    let context = chant_lexicon::ProjectContext {
        config_text: std::sync::Arc::from(text.as_str()),
        ..env_project.context()
    };
    let lexicon = chant_aws::AwsLexicon::new(chant_aws::AwsSettings::parse(&context).unwrap());
    let IdentityAnswer::Resolved(by_env) = lexicon
        .describe_identity(&IdentityRequest {
            environment: "dev".into(),
            region: None,
        })
        .await
        .unwrap()
    else {
        panic!("unresolved")
    };
    assert_eq!(by_env.source, "env AWS_ACCESS_KEY_ID");
    assert_eq!(by_env.endpoint.as_deref(), Some(moto.url().as_str()));
}
