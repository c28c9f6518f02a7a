//! `chant lifecycle predict` end to end with the k8s lexicon: Kubernetes objects whose
//! declared edges come from by-name references (service account, envFrom, secretKeyRef,
//! volumes, Ingress backend, RoleBinding, HPA scale target), sent to the example engine
//! over the command transport. Predicting the declared estate reads no cluster: the
//! kubeconfig points at the testkit's fake API server, which must see no request at all.

#[path = "cli/support.rs"]
#[allow(dead_code)]
mod support;

use chant_testkit::kube_api::{FakeKubeApi, KubeconfigSpec};
use support::{
    Project, assert_declared_edges, assert_unsupported_kinds, predict_declared, sorted_keys,
};

const ENGINE: &str = env!("CARGO_BIN_EXE_chant-example-engine");

#[test]
fn predicts_the_declared_objects_with_their_declared_edges() {
    let server = FakeKubeApi::start_tls();
    server.require_token("predict-token");
    let project = Project::fixture("k8s-predict");
    project.write(
        "kubeconfig",
        &server.kubeconfig(
            &KubeconfigSpec::new("fake")
                .namespace("shop")
                .token("predict-token"),
        ),
    );
    let (report, declared) =
        predict_declared(&project, "k8s", &[("CHANT_BEHAVIOUR_ENGINE_K8S", ENGINE)]);

    // Every declared object is priced or unpredicted, never both, never neither: the
    // example engine models no Kubernetes kind, so all of them are unpredicted.
    assert!(sorted_keys(&declared, "entities").is_empty(), "{declared}");
    assert_eq!(
        sorted_keys(&declared, "unpredicted"),
        [
            "configMapSettings",
            "deploymentWeb",
            "horizontalPodAutoscalerWeb",
            "ingressWeb",
            "roleBindingWeb",
            "roleWeb",
            "secretDb",
            "serviceAccountWeb",
            "serviceWeb",
        ],
        "{declared}"
    );
    assert_unsupported_kinds(&declared, "K8s::");
    assert_eq!(report["complete"], false);

    // deploymentWeb → serviceAccountWeb, configMapSettings (envFrom and volume), secretDb;
    // ingressWeb → serviceWeb; roleBindingWeb → roleWeb, serviceAccountWeb;
    // horizontalPodAutoscalerWeb → deploymentWeb. The PVC `data` is not declared.
    assert_declared_edges(
        &declared,
        8,
        "deploymentWeb",
        "PersistentVolumeClaim/shop/data",
    );

    assert_eq!(
        server.request_count(),
        0,
        "predict without --live called the cluster: {:?}",
        server.requests()
    );
}
