//! The fake Kubernetes API server speaks the wire protocol: the real `kubectl` reads from
//! it over HTTPS with a bearer token, and its discovery, paging, selectors, errors and
//! deletes answer the way an apiserver does.

use chant_testkit::kube_api::{FakeKubeApi, Fault, KubeconfigSpec};
use serde_json::Value;
use std::io::{Read, Write};
use std::process::Command;

const SEED: &str = "
apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  labels: {app: web, tier: front}
data:
  color: blue
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
  namespace: shop
  labels: {app: web}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
";

fn kubectl(kubeconfig: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let output = Command::new("kubectl")
        .env("KUBECONFIG", kubeconfig)
        .env("HOME", kubeconfig.parent().unwrap())
        .args(args)
        .output()
        .expect("kubectl is installed (see .ci/install.d/k8s.sh)");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn kubectl_gets_from_the_fake_server_over_https_with_a_token() {
    let server = FakeKubeApi::start_tls();
    server.seed_yaml(SEED).require_token("s3cret");
    let dir = tempfile::tempdir().unwrap();
    let config = server.write_kubeconfig(
        &dir.path().join("config"),
        &KubeconfigSpec::new("fake")
            .namespace("shop")
            .token("s3cret"),
    );

    let (ok, stdout, stderr) = kubectl(&config, &["get", "configmaps", "-o", "json"]);
    assert!(ok, "kubectl failed: {stderr}");
    let list: Value = serde_json::from_str(&stdout).unwrap();
    let names: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["flags", "settings"]);

    let manifest = dir.path().join("web.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = kubectl(
        &config,
        &["get", "-f", manifest.to_str().unwrap(), "-o", "json"],
    );
    assert!(ok, "kubectl get -f failed: {stderr}");
    let object: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(object["spec"]["replicas"], 2);
    assert_eq!(object["metadata"]["namespace"], "shop");

    let (ok, _, stderr) = kubectl(&config, &["get", "configmap", "missing"]);
    assert!(!ok);
    assert!(
        stderr.contains("configmaps \"missing\" not found"),
        "{stderr}"
    );
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert!(paths.contains(&"/apis/apps/v1".to_owned()), "{paths:?}");
    assert!(paths.contains(&"/apis/apps/v1/namespaces/shop/deployments/web".to_owned()));
}

#[test]
fn kubectl_without_the_token_is_unauthorized() {
    let server = FakeKubeApi::start_tls();
    server.seed_yaml(SEED).require_token("s3cret");
    let dir = tempfile::tempdir().unwrap();
    let config = server.write_kubeconfig(
        &dir.path().join("config"),
        &KubeconfigSpec::new("fake").namespace("shop").token("wrong"),
    );
    let (ok, _, stderr) = kubectl(&config, &["get", "configmaps"]);
    assert!(!ok);
    assert!(
        stderr.contains("Unauthorized") || stderr.contains("provide credentials"),
        "{stderr}"
    );
}

/// A plain HTTP/1.1 GET, for checking wire shapes without a client in between.
fn get(server: &FakeKubeApi, target: &str) -> (u16, Value) {
    let mut stream = std::net::TcpStream::connect(server.addr()).unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    let status = raw[9..12].parse().unwrap();
    let body = raw.split("\r\n\r\n").nth(1).unwrap_or_default();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[test]
fn discovery_paging_selectors_and_errors_have_the_real_shapes() {
    let server = FakeKubeApi::start();
    server.seed_yaml(SEED);
    server.seed_yaml(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1, namespace: shop}
",
    );
    let (status, groups) = get(&server, "/apis");
    assert_eq!(status, 200);
    assert!(
        groups["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "example.com")
    );
    let (_, widgets) = get(&server, "/apis/example.com/v1");
    assert_eq!(widgets["resources"][0]["kind"], "Widget");
    assert_eq!(get(&server, "/apis/nothing.io/v1").0, 404);

    let (_, page) = get(&server, "/api/v1/namespaces/shop/configmaps?limit=1");
    assert_eq!(page["items"].as_array().unwrap().len(), 1);
    assert!(
        page["items"][0].get("kind").is_none(),
        "list items carry no kind"
    );
    let token = page["metadata"]["continue"].as_str().unwrap().to_owned();
    let (_, rest) = get(
        &server,
        &format!("/api/v1/namespaces/shop/configmaps?limit=1&continue={token}"),
    );
    assert_eq!(rest["items"][0]["metadata"]["name"], "settings");
    assert!(rest["metadata"].get("continue").is_none());

    let (_, selected) = get(&server, "/api/v1/configmaps?labelSelector=tier%3Dfront");
    assert_eq!(selected["items"].as_array().unwrap().len(), 1);

    let (status, missing) = get(&server, "/api/v1/namespaces/shop/configmaps/nope");
    assert_eq!(status, 404);
    assert_eq!(missing["kind"], "Status");
    assert_eq!(missing["reason"], "NotFound");
    assert_eq!(missing["message"], "configmaps \"nope\" not found");

    server.fault(
        Fault::on("/api/v1/namespaces/shop/configmaps")
            .status(403, "Forbidden", "configmaps is forbidden")
            .times(1),
    );
    let (status, forbidden) = get(&server, "/api/v1/namespaces/shop/configmaps");
    assert_eq!((status, forbidden["code"].as_u64()), (403, Some(403)));
    assert_eq!(get(&server, "/api/v1/namespaces/shop/configmaps").0, 200);
    assert!(server.request_count() >= 9);
}

#[test]
fn delete_honours_dry_run() {
    let server = FakeKubeApi::start();
    server.seed_yaml(SEED);
    let send = |target: &str| {
        let mut stream = std::net::TcpStream::connect(server.addr()).unwrap();
        write!(
            stream,
            "DELETE {target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = String::new();
        stream.read_to_string(&mut raw).unwrap();
        raw[9..12].to_owned()
    };
    let path = "/api/v1/namespaces/shop/configmaps/flags";
    assert_eq!(
        send(&format!("{path}?dryRun=All&propagationPolicy=Foreground")),
        "200"
    );
    assert!(server.object("v1", "ConfigMap", "shop", "flags").is_some());
    assert_eq!(send(&format!("{path}?propagationPolicy=Foreground")), "200");
    assert!(server.object("v1", "ConfigMap", "shop", "flags").is_none());
    assert_eq!(server.deleted(), ["configmaps/shop/flags"]);
    assert_eq!(send(path), "404");
}
