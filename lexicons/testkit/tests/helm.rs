//! The real `helm` reads releases from the fake Kubernetes API server the way it reads them
//! from a cluster: it lists the Secrets labelled `owner=helm` through a label selector and
//! decodes each one's `release` payload (base64 of gzip'd JSON, inside the Secret's own
//! base64).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use chant_testkit::kube_api::{FakeKubeApi, KubeconfigSpec};
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut child = Command::new("gzip")
        .arg("-c")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("gzip is installed");
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    output.stdout
}

/// The Secret helm's storage driver writes for revision 1 of a deployed release.
fn release_secret(name: &str, namespace: &str, chart: &str, version: &str) -> String {
    let release = json!({
        "name": name,
        "namespace": namespace,
        "version": 1,
        "info": {
            "status": "deployed",
            "first_deployed": "2026-11-01T10:00:00Z",
            "last_deployed": "2026-11-01T10:00:00Z",
            "description": "Install complete"
        },
        "chart": {"metadata": {"apiVersion": "v2", "name": chart, "version": version, "appVersion": "4.5.6"}},
        "config": {},
        "manifest": ""
    });
    let payload = STANDARD.encode(STANDARD.encode(gzip(release.to_string().as_bytes())));
    format!(
        "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: sh.helm.release.v1.{name}.v1\n  namespace: {namespace}\n  labels:\n    owner: helm\n    name: {name}\n    status: deployed\n    version: \"1\"\ntype: helm.sh/release.v1\ndata:\n  release: {payload}\n"
    )
}

const DECOY: &str = "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: not-a-release\n  namespace: shop\n  labels: {owner: someone-else}\ndata:\n  key: dmFsdWU=\n";

fn helm(kubeconfig: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let output = Command::new(std::env::var("HELM").unwrap_or_else(|_| "helm".into()))
        .env("KUBECONFIG", kubeconfig)
        .env("HOME", kubeconfig.parent().unwrap())
        .env(
            "HELM_CACHE_HOME",
            kubeconfig.parent().unwrap().join("helm-cache"),
        )
        .env(
            "HELM_CONFIG_HOME",
            kubeconfig.parent().unwrap().join("helm-config"),
        )
        .env(
            "HELM_DATA_HOME",
            kubeconfig.parent().unwrap().join("helm-data"),
        )
        .args(args)
        .output()
        .expect("helm is installed (see .ci/install.d/k8s.sh)");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn helm_lists_the_releases_stored_in_the_fake_server() {
    let server = FakeKubeApi::start_tls();
    let seed = format!(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n{}{}{DECOY}",
        release_secret("web", "shop", "web", "1.2.3"),
        release_secret("cache", "shop", "redis", "19.0.1"),
    );
    server.seed_yaml(&seed).require_token("s3cret");
    let dir = tempfile::tempdir().unwrap();
    let config = server.write_kubeconfig(
        &dir.path().join("kubeconfig"),
        &KubeconfigSpec::new("fake")
            .namespace("shop")
            .token("s3cret"),
    );

    let (ok, stdout, stderr) = helm(&config, &["list", "--namespace", "shop", "-o", "json"]);
    assert!(ok, "helm failed: {stderr}");
    let releases: Value = serde_json::from_str(&stdout).unwrap();
    let mut seen: Vec<(String, String, String)> = releases
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["chart"].as_str().unwrap().to_owned(),
                r["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            ("cache".into(), "redis-19.0.1".into(), "deployed".into()),
            ("web".into(), "web-1.2.3".into(), "deployed".into()),
        ]
    );

    // helm asked for its own Secrets only, through a label selector.
    let asked = server
        .requests()
        .into_iter()
        .filter(|r| r.path.contains("/secrets"))
        .collect::<Vec<_>>();
    assert!(
        asked.iter().any(|r| r
            .query
            .get("labelSelector")
            .is_some_and(|s| s.contains("owner=helm"))),
        "{asked:?}"
    );
}

#[test]
fn helm_without_the_token_is_refused_by_the_fake_server() {
    let server = FakeKubeApi::start_tls();
    server
        .seed_yaml(&release_secret("web", "default", "web", "1.2.3"))
        .require_token("s3cret");
    let dir = tempfile::tempdir().unwrap();
    let config = server.write_kubeconfig(
        &dir.path().join("kubeconfig"),
        &KubeconfigSpec::new("fake").token("wrong"),
    );
    let (ok, _, stderr) = helm(&config, &["list", "-o", "json"]);
    assert!(!ok);
    // client-go's words for a 401 Status.
    assert!(
        stderr.contains("the server has asked for the client to provide credentials"),
        "{stderr}"
    );
}
