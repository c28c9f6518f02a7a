//! A protocol-faithful fake Kubernetes API server on 127.0.0.1.
//!
//! Real HTTP (and HTTPS with a throwaway CA), legacy discovery (`/api`, `/apis`, group
//! and group-version resource lists — no aggregated discovery, so a client must cope with
//! a legacy-only server), GET and LIST of namespaced and cluster-scoped objects with label
//! selectors and `limit`/`continue` paging, `Status` errors in the real wire shape,
//! SelfSubjectReview, DELETE with `dryRun=All`, a bearer token check, injected latency and
//! faults per path, and a request log. It is seeded from YAML; seeded
//! CustomResourceDefinitions make their kinds served. The real `kube` client and the real
//! `kubectl` both talk to it through [`FakeKubeApi::kubeconfig`].
//!
//! It runs on its own thread and runtime, so synchronous tests (which run the binary)
//! can use it as well as async ones. Nagle is off on every connection.

mod handler;
mod resources;
mod selector;
mod store;
mod tls;

pub use handler::status_body;
pub use resources::Served;
pub use selector::LabelSelector;

use crate::serve::Server;
use base64::Engine as _;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A request the server saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logged {
    pub method: String,
    pub path: String,
    pub query: BTreeMap<String, String>,
    /// When the server received it.
    pub at: std::time::Instant,
}

/// An injected fault: a `Status` error and/or extra delay on matching requests.
#[derive(Clone, Debug)]
pub struct Fault {
    method: Option<String>,
    path: String,
    prefix: bool,
    status: Option<(u16, String, String)>,
    retry_after: Option<u64>,
    delay: Duration,
    times: Option<usize>,
}

impl Fault {
    /// Requests to exactly this path (any method).
    pub fn on(path: impl Into<String>) -> Self {
        Fault {
            method: None,
            path: path.into(),
            prefix: false,
            status: None,
            retry_after: None,
            delay: Duration::ZERO,
            times: None,
        }
    }

    /// Requests to any path under `prefix`.
    pub fn under(prefix: impl Into<String>) -> Self {
        Fault {
            prefix: true,
            ..Fault::on(prefix)
        }
    }

    pub fn method(mut self, method: &str) -> Self {
        self.method = Some(method.to_uppercase());
        self
    }

    /// Answer with a `Status` of this code, reason and message.
    pub fn status(mut self, code: u16, reason: &str, message: &str) -> Self {
        self.status = Some((code, reason.to_owned(), message.to_owned()));
        self
    }

    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// Hold the answer this much longer (a hung server, for timeouts).
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// Only the first `n` matching requests.
    pub fn times(mut self, n: usize) -> Self {
        self.times = Some(n.max(1));
        self
    }

    fn matches(&self, method: &str, path: &str) -> bool {
        self.method.as_deref().is_none_or(|m| m == method)
            && if self.prefix {
                path.starts_with(&self.path)
            } else {
                path == self.path
            }
    }
}

/// What a generated kubeconfig says.
#[derive(Clone, Debug)]
pub struct KubeconfigSpec {
    pub context: String,
    pub namespace: Option<String>,
    pub token: Option<String>,
    /// A user authenticating through an exec credential plugin instead of a token.
    pub exec_command: Option<String>,
}

impl KubeconfigSpec {
    pub fn new(context: &str) -> Self {
        KubeconfigSpec {
            context: context.to_owned(),
            namespace: None,
            token: None,
            exec_command: None,
        }
    }

    pub fn namespace(mut self, namespace: &str) -> Self {
        self.namespace = Some(namespace.to_owned());
        self
    }

    pub fn token(mut self, token: &str) -> Self {
        self.token = Some(token.to_owned());
        self
    }

    pub fn exec(mut self, command: &str) -> Self {
        self.exec_command = Some(command.to_owned());
        self
    }
}

/// Wait until `deadline`, to within a fraction of a millisecond: tokio's timer rounds a
/// sleep up to the next millisecond and its wheel turns late under load, which would
/// make every request of a benchmark slower than the latency it asked for.
async fn hold_until(deadline: Instant) {
    let now = Instant::now();
    if deadline > now {
        let wait = deadline - now;
        let _ = tokio::task::spawn_blocking(move || std::thread::sleep(wait)).await;
    }
}

/// The name of every thread the fake server runs on.
pub const THREAD_NAME: &str = "fake-kube-api";

pub(crate) struct State {
    served: Vec<Served>,
    store: store::Store,
    latency: Duration,
    faults: Vec<Fault>,
    token: Option<String>,
    users: BTreeMap<String, (String, Vec<String>)>,
    log: Vec<Logged>,
    deleted: Vec<String>,
    /// Answers to GETs since the cluster or its configuration last changed.
    answers: HashMap<String, handler::Answer>,
}

pub struct FakeKubeApi {
    server: Server,
    ca_pem: Option<String>,
    state: Arc<Mutex<State>>,
}

impl FakeKubeApi {
    /// Serve plain HTTP on a free port of 127.0.0.1.
    pub fn start() -> Self {
        Self::spawn(None)
    }

    /// Serve HTTPS with a throwaway CA (its certificate is in [`FakeKubeApi::ca_pem`]),
    /// offering HTTP/2 and HTTP/1.1 as a real API server does.
    pub fn start_tls() -> Self {
        Self::spawn(Some(tls::generate(true)))
    }

    /// [`FakeKubeApi::start_tls`] offering HTTP/1.1 only (as some proxies in front of an
    /// API server do).
    pub fn start_tls_http1() -> Self {
        Self::spawn(Some(tls::generate(false)))
    }

    fn spawn(tls: Option<tls::TlsMaterial>) -> Self {
        let state = Arc::new(Mutex::new(State {
            served: resources::builtin(),
            store: store::Store::default(),
            latency: Duration::ZERO,
            faults: Vec::new(),
            token: None,
            users: BTreeMap::new(),
            log: Vec::new(),
            deleted: Vec::new(),
            answers: HashMap::new(),
        }));
        let ca_pem = tls.as_ref().map(|t| t.ca_pem.clone());
        let acceptor = tls.map(|t| t.acceptor);
        let served = state.clone();
        let server = Server::spawn(THREAD_NAME, acceptor, move |req| {
            respond(served.clone(), req)
        });
        FakeKubeApi {
            server,
            ca_pem,
            state,
        }
    }

    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// TCP connections accepted so far.
    pub fn connections(&self) -> usize {
        self.server.connections()
    }

    pub fn url(&self) -> String {
        let scheme = if self.ca_pem.is_some() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}", self.server.addr())
    }

    pub fn ca_pem(&self) -> Option<&str> {
        self.ca_pem.as_deref()
    }

    /// Add every document of a (multi-document) YAML text. Panics on bad input: the
    /// seed is the test's own.
    pub fn seed_yaml(&self, yaml: &str) -> &Self {
        // One document at a time: serde-saphyr bounds the documents of one parse.
        let mut chunk = String::new();
        for line in yaml.lines().chain(std::iter::once("---")) {
            if line.trim_end() == "---" {
                if !chunk.trim().is_empty() {
                    let doc: Value = serde_saphyr::from_str(&chunk).expect("seed YAML parses");
                    if !doc.is_null() {
                        self.seed(doc);
                    }
                }
                chunk.clear();
            } else {
                chunk.push_str(line);
                chunk.push('\n');
            }
        }
        self
    }

    /// Add one object (its kind must be served; a CRD makes its own kinds served).
    pub fn seed(&self, object: Value) -> &Self {
        let mut state = self.change();
        let api_version = object["apiVersion"].as_str().unwrap_or_default().to_owned();
        let kind = object["kind"].as_str().unwrap_or_default().to_owned();
        let (group, version) = match api_version.split_once('/') {
            Some((g, v)) => (g.to_owned(), v.to_owned()),
            None => (String::new(), api_version.clone()),
        };
        let served = state
            .served
            .iter()
            .find(|s| s.group == group && s.version == version && s.kind == kind)
            .cloned()
            .unwrap_or_else(|| panic!("the fake cluster does not serve {api_version} {kind}"));
        if kind == "CustomResourceDefinition" {
            for s in resources::from_crd(&object) {
                if !state.served.contains(&s) {
                    state.served.push(s);
                }
            }
        }
        state.store.put(&served, object);
        drop(state);
        self
    }

    /// How long every answer takes, from the moment its request arrives (the server's own
    /// work included).
    pub fn latency(&self, latency: Duration) -> &Self {
        self.change().latency = latency;
        self
    }

    pub fn fault(&self, fault: Fault) -> &Self {
        self.change().faults.push(fault);
        self
    }

    pub fn clear_faults(&self) -> &Self {
        self.change().faults.clear();
        self
    }

    /// Answer 401 to any request without `Authorization: Bearer <token>`.
    pub fn require_token(&self, token: &str) -> &Self {
        self.change().token = Some(token.to_owned());
        self
    }

    /// The subject a SelfSubjectReview reports for a token.
    pub fn user(&self, token: &str, username: &str, groups: &[&str]) -> &Self {
        self.change().users.insert(
            token.to_owned(),
            (
                username.to_owned(),
                groups.iter().map(|g| (*g).to_owned()).collect(),
            ),
        );
        self
    }

    pub fn requests(&self) -> Vec<Logged> {
        self.lock().log.clone()
    }

    pub fn request_count(&self) -> usize {
        self.lock().log.len()
    }

    pub fn clear_requests(&self) {
        self.lock().log.clear();
    }

    /// `<plural>/<namespace or ->/<name>` of every object actually deleted.
    pub fn deleted(&self) -> Vec<String> {
        self.lock().deleted.clone()
    }

    pub fn object_count(&self) -> usize {
        self.lock().store.count()
    }

    /// A stored object, by apiVersion, kind, namespace (ignored for cluster kinds) and name.
    pub fn object(
        &self,
        api_version: &str,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Option<Value> {
        let state = self.lock();
        let served = state
            .served
            .iter()
            .find(|s| s.api_version() == api_version && s.kind == kind)?;
        state.store.get(served, namespace, name).cloned()
    }

    /// A kubeconfig that points at this server.
    pub fn kubeconfig(&self, spec: &KubeconfigSpec) -> String {
        let mut cluster = format!("    server: {}\n", self.url());
        if let Some(ca) = &self.ca_pem {
            cluster.push_str(&format!(
                "    certificate-authority-data: {}\n",
                base64::engine::general_purpose::STANDARD.encode(ca)
            ));
        }
        let mut user = String::new();
        if let Some(token) = &spec.token {
            user.push_str(&format!("    token: {token}\n"));
        }
        if let Some(command) = &spec.exec_command {
            user.push_str(&format!(
                "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: {command}\n      interactiveMode: Never\n"
            ));
        }
        if user.is_empty() {
            user.push_str("    {}\n");
        }
        let namespace = spec
            .namespace
            .as_ref()
            .map(|ns| format!("    namespace: {ns}\n"))
            .unwrap_or_default();
        let name = &spec.context;
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: {name}-cluster\n  cluster:\n{cluster}users:\n- name: {name}-user\n  user:\n{user}contexts:\n- name: {name}\n  context:\n    cluster: {name}-cluster\n    user: {name}-user\n{namespace}current-context: {name}\n"
        )
    }

    /// Write [`FakeKubeApi::kubeconfig`] to `path`.
    pub fn write_kubeconfig(&self, path: &Path, spec: &KubeconfigSpec) -> PathBuf {
        std::fs::write(path, self.kubeconfig(spec)).expect("write the kubeconfig");
        path.to_path_buf()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The state, for a test to change: what the server answered before is forgotten.
    fn change(&self) -> MutexGuard<'_, State> {
        let mut state = self.lock();
        state.answers.clear();
        state
    }
}

async fn respond(
    state: Arc<Mutex<State>>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let arrived = Instant::now();
    let method = req.method().as_str().to_owned();
    let path = req.uri().path().to_owned();
    let query = handler::parse_query(req.uri().query().unwrap_or_default());
    let authorization = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = req
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes().to_vec())
        .unwrap_or_default();
    let (answer, delay) = {
        let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
        handler::answer(
            &mut state,
            &handler::Request {
                method: &method,
                path: &path,
                query,
                authorization: authorization.as_deref(),
                body: &body,
            },
        )
    };
    hold_until(arrived + delay).await;
    let mut response = hyper::Response::builder().status(answer.status);
    for (name, value) in &answer.headers {
        response = response.header(name, value);
    }
    Ok(response
        .body(Full::new(answer.body))
        .unwrap_or_else(|_| hyper::Response::new(Full::new(Bytes::new()))))
}
