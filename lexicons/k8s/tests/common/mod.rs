//! A project on disk (chant.toml, declared YAML, a kubeconfig) bound to a fake API server.
#![allow(dead_code)]

use chant_k8s::K8sFactory;
use chant_lexicon::{
    DeclaredEntity, Lexicon, LexiconFactory, ObserveRequest, ProjectContext, ProjectMarker,
};
use chant_testkit::kube_api::{FakeKubeApi, KubeconfigSpec};
use std::sync::Arc;
use std::time::Duration;

pub const OURS: &str = "app.kubernetes.io/managed-by: chant\n    chant.intentius.io/stack: shop\n    chant.intentius.io/env: dev";
pub const SIBLING: &str = "app.kubernetes.io/managed-by: chant\n    chant.intentius.io/stack: blog\n    chant.intentius.io/env: dev";

pub struct Project {
    pub dir: tempfile::TempDir,
    pub lexicon: Arc<dyn Lexicon>,
}

/// `env` is the body of `[environments.dev.k8s]` (a kubeconfig line is added).
pub fn project(server: &FakeKubeApi, declared: &str, env: &str) -> Project {
    project_with(
        server,
        declared,
        env,
        "",
        &KubeconfigSpec::new("fake").namespace("shop"),
    )
}

pub fn project_with(
    server: &FakeKubeApi,
    declared: &str,
    env: &str,
    lexicon_extra: &str,
    spec: &KubeconfigSpec,
) -> Project {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("dist")).unwrap();
    std::fs::write(dir.path().join("dist/app.yaml"), declared).unwrap();
    server.write_kubeconfig(&dir.path().join("kubeconfig"), spec);
    let text = format!(
        "[ownership]\nstack = \"shop\"\n[lexicons.k8s]\nsource = [\"dist/*.yaml\"]\n{lexicon_extra}\n[environments.dev.k8s]\nkubeconfig = \"kubeconfig\"\n{env}\n"
    );
    std::fs::write(dir.path().join("chant.toml"), &text).unwrap();
    let context = ProjectContext {
        root: dir.path().to_path_buf(),
        config_path: dir.path().join("chant.toml"),
        config_text: Arc::from(text.as_str()),
        stack: "shop".into(),
        environments: vec!["dev".into()],
    };
    let lexicon = K8sFactory.create(&context).expect("chant.toml parses");
    Project { dir, lexicon }
}

pub async fn request(project: &Project) -> ObserveRequest {
    let declared = project
        .lexicon
        .declared()
        .await
        .expect("declared YAML reads");
    reads_of(declared)
}

/// A read of `entities` in `dev`, with the tests' timeout.
pub fn reads_of(entities: Vec<DeclaredEntity>) -> ObserveRequest {
    let mut request = ObserveRequest::new("dev", ProjectMarker::new("shop", "dev"), entities);
    request.request_timeout = Duration::from_secs(2);
    request
}

pub fn config_map(name: &str, namespace: Option<&str>, labels: &str) -> String {
    let ns = namespace
        .map(|n| format!("  namespace: {n}\n"))
        .unwrap_or_default();
    let labels = if labels.is_empty() {
        String::new()
    } else {
        format!("  labels:\n    {labels}\n")
    };
    format!(
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n{ns}{labels}data:\n  k: v\n"
    )
}
