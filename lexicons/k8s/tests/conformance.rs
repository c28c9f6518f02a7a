//! The k8s lexicon passes the observation conformance suite against the fake API server,
//! driven by the real kube client.

mod common;

use chant_lexicon::{Ownership, UnobservedReason};
use chant_testkit::kube_api::{FakeKubeApi, Fault};
use chant_testkit::{Scenario, assert_observation_conformance};
use common::{OURS, SIBLING, config_map, project, request};
use futures::FutureExt;
use std::time::Duration;

const PINNED: &str = "context = \"fake\"\nnamespace = \"shop\"";

fn seeded() -> FakeKubeApi {
    let server = FakeKubeApi::start();
    server.seed_yaml(&format!(
        "{}{}{}",
        config_map("ours", Some("shop"), OURS),
        config_map("theirs", Some("shop"), SIBLING),
        config_map("plain", Some("other"), ""),
    ));
    server
}

fn declared() -> String {
    format!(
        "{}{}{}---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n",
        config_map("ours", None, OURS),
        config_map("theirs", None, SIBLING),
        config_map("gone", None, ""),
    )
}

#[tokio::test]
async fn the_k8s_lexicon_conforms() {
    let healthy = seeded();
    let p = project(&healthy, &declared(), PINNED);
    let plain = request(&p).await;
    let mut owned = request(&p).await;
    owned.owned = true;
    let channel = p.lexicon.ownership_channel();

    let forbidden = seeded();
    forbidden.fault(Fault::under("/api/v1/namespaces/shop/configmaps").status(
        403,
        "Forbidden",
        "configmaps is forbidden",
    ));
    let p403 = project(&forbidden, &declared(), PINNED);
    let r403 = request(&p403).await;

    let broken = seeded();
    broken.fault(Fault::under("/api/v1/").status(
        500,
        "InternalError",
        "etcdserver: request timed out",
    ));
    let p500 = project(&broken, &declared(), PINNED);
    let r500 = request(&p500).await;

    let slow = seeded();
    slow.fault(Fault::under("/api/v1/").delay(Duration::from_secs(5)));
    let pslow = project(&slow, &declared(), PINNED);
    let rslow = request(&pslow).await;

    let gone = FakeKubeApi::start();
    let pgone = project(&gone, &declared(), PINNED);
    let rgone = request(&pgone).await;
    drop(gone);

    let scenarios = vec![
        Scenario::new(
            "present owned and foreign, absent, unserved CRD kind",
            plain.entities.to_vec(),
            p.lexicon.describe_resources(&plain).boxed(),
        )
        .present(&["configMapOurs", "configMapTheirs"])
        .absent(&["configMapGone", "widgetW"])
        .marker("configMapOurs", "shop", Some("dev"))
        .marker("configMapTheirs", "blog", Some("dev"))
        .ownership("configMapOurs", Ownership::Owned)
        .ownership("configMapTheirs", Ownership::Foreign),
        Scenario::new(
            "--owned",
            owned.entities.to_vec(),
            p.lexicon.describe_resources(&owned).boxed(),
        )
        .owned()
        .present(&["configMapOurs"])
        .unobserved(&["configMapTheirs"], UnobservedReason::Filtered)
        .absent(&["configMapGone"]),
        Scenario::new(
            "403",
            r403.entities.to_vec(),
            p403.lexicon.describe_resources(&r403).boxed(),
        )
        .unobserved(
            &["configMapOurs", "configMapTheirs", "configMapGone"],
            UnobservedReason::NoCredentials,
        ),
        Scenario::new(
            "500",
            r500.entities.to_vec(),
            p500.lexicon.describe_resources(&r500).boxed(),
        )
        .unobserved(
            &["configMapOurs", "configMapGone"],
            UnobservedReason::ReadFailed,
        ),
        Scenario::new(
            "timeout",
            rslow.entities.to_vec(),
            pslow.lexicon.describe_resources(&rslow).boxed(),
        )
        .unobserved(
            &["configMapOurs", "configMapGone"],
            UnobservedReason::ReadFailed,
        ),
        Scenario::new(
            "connection refused",
            rgone.entities.to_vec(),
            pgone.lexicon.describe_resources(&rgone).boxed(),
        )
        .unobserved(
            &["configMapOurs", "configMapGone", "widgetW"],
            UnobservedReason::NoBinding,
        ),
    ];
    assert_observation_conformance("k8s", channel.as_ref(), scenarios).await;
}
