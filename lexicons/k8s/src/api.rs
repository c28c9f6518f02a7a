//! The transport: raw JSON requests to the API server through a seam tests can replace,
//! with a per-request timeout, bounded retry with backoff on throttling, `Status` error
//! parsing and LIST pagination. Raw JSON (not typed structs) keeps managedFields and
//! unknown fields intact.

use crate::in_flight::InFlight;
use async_trait::async_trait;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::runtime::Handle;
use tokio::sync::OnceCell;

/// One HTTP exchange: what the seam carries.
#[derive(Clone, Debug)]
pub struct RawResponse {
    pub status: u16,
    pub retry_after: Option<u64>,
    pub body: Vec<u8>,
}

/// Sends one request. The production transport is the `kube` client; tests may supply
/// their own.
#[async_trait]
pub trait Transport: Send + Sync {
    async fn send(
        &self,
        method: &str,
        path_and_query: &str,
        body: Option<Vec<u8>>,
    ) -> Result<RawResponse, String>;

    /// Make the connection the first request will use.
    async fn connect(&self) {}
}

/// Why a request gave no object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The API server answered with an error `Status`.
    Status {
        code: u16,
        reason: String,
        message: String,
    },
    /// The server was not reached (refused, TLS, DNS) or the connection broke.
    Transport(String),
    /// No answer within the request timeout.
    Timeout(Duration),
    /// A 2xx whose body is not JSON.
    BadBody(String),
}

impl ApiError {
    pub fn code(&self) -> Option<u16> {
        match self {
            ApiError::Status { code, .. } => Some(*code),
            _ => None,
        }
    }

    pub fn is_not_found(&self) -> bool {
        self.code() == Some(404)
    }

    pub fn is_forbidden(&self) -> bool {
        self.code() == Some(403)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Status {
                code,
                reason,
                message,
            } => {
                let message = if message.is_empty() {
                    "request failed"
                } else {
                    message
                };
                if reason.is_empty() {
                    write!(f, "{message} (HTTP {code})")
                } else {
                    write!(f, "{message} (HTTP {code}, {reason})")
                }
            }
            ApiError::Transport(m) => write!(f, "{m}"),
            ApiError::Timeout(d) => write!(f, "no answer within {}s", d.as_secs_f64()),
            ApiError::BadBody(m) => write!(f, "{m}"),
        }
    }
}

/// How hard to try.
#[derive(Clone, Copy, Debug)]
pub struct RequestPolicy {
    pub timeout: Duration,
    /// Retries after a 429 (or a 503 with Retry-After).
    pub retries: u32,
    pub first_backoff: Duration,
    pub max_backoff: Duration,
    /// Requests in flight at once, across every caller of the cluster.
    pub max_in_flight: usize,
}

impl RequestPolicy {
    pub fn new(timeout: Duration) -> Self {
        RequestPolicy {
            timeout,
            retries: 3,
            first_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(5),
            max_in_flight: 16,
        }
    }
}

/// Default page size of a LIST.
pub const PAGE_SIZE: usize = 500;

/// Every item of a collection, or why not.
pub type Listing = Result<Arc<[Value]>, ApiError>;

/// The API server, as chant reads it.
pub struct Cluster {
    exchanges: Arc<Exchanges>,
    lists: InFlight<Listing>,
    /// LISTs sent before any read asked for them, by collection.
    ahead: Mutex<HashMap<String, Ahead>>,
}

/// A LIST sent ahead of the reads, kept for as many reads as will ask for it.
struct Ahead {
    listing: Arc<OnceCell<Listing>>,
    takers: usize,
}

/// What every request shares: the transport, the policy and the limit of requests in
/// flight.
struct Exchanges {
    transport: Arc<dyn Transport>,
    policy: RequestPolicy,
    sent: AtomicUsize,
    permits: tokio::sync::Semaphore,
}

impl Cluster {
    pub fn new(transport: Arc<dyn Transport>, policy: RequestPolicy) -> Self {
        Cluster {
            exchanges: Arc::new(Exchanges {
                transport,
                permits: tokio::sync::Semaphore::new(policy.max_in_flight.max(1)),
                policy,
                sent: AtomicUsize::new(0),
            }),
            lists: InFlight::default(),
            ahead: Mutex::default(),
        }
    }

    /// Connect before the first request (no request is sent).
    pub async fn connect(&self) {
        self.exchanges.transport.connect().await;
    }

    /// Requests sent so far (retries included).
    pub fn requests_sent(&self) -> usize {
        self.exchanges.sent.load(Ordering::Relaxed)
    }

    pub async fn get(&self, path: &str) -> Result<Value, ApiError> {
        self.call("GET", path, None).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, ApiError> {
        self.forget_ahead();
        self.call("POST", path, Some(body.to_string().into_bytes()))
            .await
    }

    pub async fn delete(
        &self,
        path: &str,
        dry_run: bool,
        propagation: &str,
    ) -> Result<Value, ApiError> {
        self.forget_ahead();
        let mut target = format!("{path}?propagationPolicy={propagation}");
        if dry_run {
            target.push_str("&dryRun=All");
        }
        self.call("DELETE", &target, None).await
    }

    /// Every item of a collection, following `continue` tokens. Items get the list's
    /// apiVersion and kind back (a typed list omits them). The same LIST asked for while
    /// one is under way (the thin and the deep read of one command) is sent once, and a
    /// LIST sent ahead answers the reads it was sent for.
    pub async fn list(&self, collection: &str, label_selector: Option<&str>) -> Listing {
        if label_selector.is_none()
            && let Some(listing) = self.take_ahead(collection)
        {
            return listing
                .get_or_init(|| self.list_unshared(collection, None))
                .await
                .clone();
        }
        let key = format!("{collection}?{}", label_selector.unwrap_or_default());
        self.lists
            .run(key, || self.list_unshared(collection, label_selector))
            .await
    }

    /// LIST `collection` (label-agnostic) now, before any read asks, and keep the answer
    /// for the next `takers` reads of it. Sent once however often it is asked for; the
    /// takers are the most any ask named.
    pub fn list_ahead(self: &Arc<Self>, collection: &str, takers: usize, runtime: &Handle) {
        let listing = {
            let mut ahead = self.lock_ahead();
            if let Some(kept) = ahead.get_mut(collection) {
                kept.takers = kept.takers.max(takers);
                return;
            }
            let listing = Arc::new(OnceCell::new());
            ahead.insert(
                collection.to_owned(),
                Ahead {
                    listing: listing.clone(),
                    takers,
                },
            );
            listing
        };
        let (cluster, collection) = (self.clone(), collection.to_owned());
        runtime.spawn(async move {
            listing
                .get_or_init(|| cluster.list_unshared(&collection, None))
                .await;
        });
    }

    /// Drop every LIST sent ahead: a command is over, or the cluster was changed.
    pub fn forget_ahead(&self) {
        self.lock_ahead().clear();
    }

    /// Each collection listed ahead, and the reads it is still kept for.
    #[cfg(test)]
    pub fn listed_ahead(&self) -> std::collections::BTreeMap<String, usize> {
        self.lock_ahead()
            .iter()
            .map(|(collection, kept)| (collection.clone(), kept.takers))
            .collect()
    }

    /// The LIST sent ahead for `collection`, counted as taken once.
    fn take_ahead(&self, collection: &str) -> Option<Arc<OnceCell<Listing>>> {
        let mut ahead = self.lock_ahead();
        let kept = ahead.get_mut(collection)?;
        let listing = kept.listing.clone();
        kept.takers = kept.takers.saturating_sub(1);
        if kept.takers == 0 {
            ahead.remove(collection);
        }
        Some(listing)
    }

    fn lock_ahead(&self) -> std::sync::MutexGuard<'_, HashMap<String, Ahead>> {
        self.ahead.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn list_unshared(&self, collection: &str, label_selector: Option<&str>) -> Listing {
        self.list_pages(collection, label_selector)
            .await
            .map(Arc::from)
    }

    async fn list_pages(
        &self,
        collection: &str,
        label_selector: Option<&str>,
    ) -> Result<Vec<Value>, ApiError> {
        let mut items = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut target = format!("{collection}?limit={PAGE_SIZE}");
            if let Some(selector) = label_selector {
                target.push_str("&labelSelector=");
                target.push_str(&query_encode(selector));
            }
            if let Some(t) = &token {
                target.push_str("&continue=");
                target.push_str(&query_encode(t));
            }
            let mut page = self.call("GET", &target, None).await?;
            let api_version = page["apiVersion"].clone();
            let kind = page["kind"]
                .as_str()
                .and_then(|k| k.strip_suffix("List"))
                .map(|k| Value::String(k.to_owned()));
            if let Some(page_items) = page.get_mut("items").and_then(Value::as_array_mut) {
                for mut item in page_items.drain(..) {
                    if let Some(map) = item.as_object_mut() {
                        map.entry("apiVersion")
                            .or_insert_with(|| api_version.clone());
                        if let Some(kind) = &kind {
                            map.entry("kind").or_insert_with(|| kind.clone());
                        }
                    }
                    items.push(item);
                }
            }
            token = page["metadata"]["continue"]
                .as_str()
                .filter(|t| !t.is_empty())
                .map(str::to_owned);
            if token.is_none() {
                return Ok(items);
            }
        }
    }

    /// One exchange, in a task of its own: the callers of a command share one task and
    /// work through the answers one at a time, and a request waiting for a free slot must
    /// not wait behind that work as well. The task's JSON parse also runs beside it.
    async fn call(
        &self,
        method: &str,
        target: &str,
        body: Option<Vec<u8>>,
    ) -> Result<Value, ApiError> {
        let exchanges = self.exchanges.clone();
        let (method, target) = (method.to_owned(), target.to_owned());
        let task = AbortOnDrop(tokio::spawn(async move {
            exchanges.call(&method, &target, body).await
        }));
        match task.await {
            Ok(result) => result,
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            Err(error) => Err(ApiError::Transport(error.to_string())),
        }
    }
}

impl Exchanges {
    async fn call(
        &self,
        method: &str,
        target: &str,
        body: Option<Vec<u8>>,
    ) -> Result<Value, ApiError> {
        let mut attempt = 0;
        loop {
            let permit = self.permits.acquire().await;
            self.sent.fetch_add(1, Ordering::Relaxed);
            let sent = tokio::time::timeout(
                self.policy.timeout,
                self.transport.send(method, target, body.clone()),
            )
            .await;
            drop(permit);
            let response = match sent {
                Err(_) => return Err(ApiError::Timeout(self.policy.timeout)),
                Ok(Err(message)) => return Err(ApiError::Transport(message)),
                Ok(Ok(response)) => response,
            };
            let throttled = response.status == 429
                || (response.status == 503 && response.retry_after.is_some());
            if throttled && attempt < self.policy.retries {
                tokio::time::sleep(self.backoff(attempt, response.retry_after)).await;
                attempt += 1;
                continue;
            }
            return parse(response);
        }
    }

    fn backoff(&self, attempt: u32, retry_after: Option<u64>) -> Duration {
        let exponential = self
            .policy
            .first_backoff
            .saturating_mul(1 << attempt.min(16));
        retry_after
            .map(Duration::from_secs)
            .unwrap_or(exponential)
            .min(self.policy.max_backoff)
    }
}

/// A task that ends when its caller stops waiting for it (a hook's deadline passed).
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl<T> std::future::Future for AbortOnDrop<T> {
    type Output = Result<T, tokio::task::JoinError>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.0).poll(cx)
    }
}

fn parse(response: RawResponse) -> Result<Value, ApiError> {
    if (200..300).contains(&response.status) {
        return serde_json::from_slice(&response.body).map_err(|_| {
            ApiError::BadBody(format!(
                "the API server returned HTTP {} with a body that is not JSON",
                response.status
            ))
        });
    }
    let status: Value = serde_json::from_slice(&response.body).unwrap_or(Value::Null);
    let (reason, message) = if status["kind"] == "Status" {
        (
            status["reason"].as_str().unwrap_or_default().to_owned(),
            status["message"].as_str().unwrap_or_default().to_owned(),
        )
    } else {
        let text = String::from_utf8_lossy(&response.body);
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default();
        (String::new(), first.chars().take(300).collect())
    };
    Err(ApiError::Status {
        code: response.status,
        reason,
        message,
    })
}

fn query_encode(text: &str) -> String {
    crate::kinds::percent_encode(text, b"-._~/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Scripted answers, in order.
    struct Script(Mutex<Vec<RawResponse>>, Mutex<Vec<String>>);

    #[async_trait]
    impl Transport for Script {
        async fn send(
            &self,
            method: &str,
            target: &str,
            _: Option<Vec<u8>>,
        ) -> Result<RawResponse, String> {
            self.1.lock().unwrap().push(format!("{method} {target}"));
            let mut answers = self.0.lock().unwrap();
            if answers.is_empty() {
                return Err("connection refused".into());
            }
            Ok(answers.remove(0))
        }
    }

    fn reply(status: u16, body: &str) -> RawResponse {
        RawResponse {
            status,
            retry_after: Some(0),
            body: body.as_bytes().to_vec(),
        }
    }

    fn cluster(answers: Vec<RawResponse>) -> (Cluster, Arc<Script>) {
        let script = Arc::new(Script(Mutex::new(answers), Mutex::new(Vec::new())));
        let mut policy = RequestPolicy::new(Duration::from_secs(5));
        policy.first_backoff = Duration::from_millis(1);
        (Cluster::new(script.clone(), policy), script)
    }

    #[tokio::test]
    async fn throttling_is_retried_then_reported() {
        let status =
            r#"{"kind":"Status","reason":"TooManyRequests","message":"slow down","code":429}"#;
        let (c, _) = cluster(vec![reply(429, status), reply(200, "{\"a\":1}")]);
        assert_eq!(c.get("/x").await.unwrap()["a"], 1);
        assert_eq!(c.requests_sent(), 2);
        let (c, _) = cluster(vec![reply(429, status); 4]);
        let err = c.get("/x").await.unwrap_err();
        assert_eq!(err.code(), Some(429));
        assert_eq!(err.to_string(), "slow down (HTTP 429, TooManyRequests)");
    }

    #[tokio::test]
    async fn lists_follow_continue_tokens_and_restore_kinds() {
        let first = r#"{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"continue":"t 1"},"items":[{"metadata":{"name":"a"}}]}"#;
        let second = r#"{"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"b"}}]}"#;
        let (c, script) = cluster(vec![reply(200, first), reply(200, second)]);
        let items = c.list("/api/v1/configmaps", Some("a=b")).await.unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[1]["kind"], "ConfigMap");
        assert_eq!(items[1]["apiVersion"], "v1");
        let sent = script.1.lock().unwrap().clone();
        assert_eq!(
            sent[0],
            "GET /api/v1/configmaps?limit=500&labelSelector=a%3Db"
        );
        assert_eq!(
            sent[1],
            "GET /api/v1/configmaps?limit=500&labelSelector=a%3Db&continue=t%201"
        );
    }

    const CONFIG_MAPS: &str = r#"{"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"a"}}]}"#;

    #[tokio::test]
    async fn a_list_sent_ahead_answers_the_reads_it_was_sent_for_and_no_more() {
        let (c, script) = cluster(vec![reply(200, CONFIG_MAPS); 3]);
        let c = Arc::new(c);
        c.list_ahead("/api/v1/configmaps", 2, &Handle::current());
        c.list_ahead("/api/v1/configmaps", 1, &Handle::current());
        for _ in 0..2 {
            let items = c.list("/api/v1/configmaps", None).await.unwrap();
            assert_eq!(items[0]["metadata"]["name"], "a");
        }
        assert_eq!(c.requests_sent(), 1, "asked for twice, sent once, ahead");
        c.list("/api/v1/configmaps", Some("a=b")).await.unwrap();
        c.list("/api/v1/configmaps", None).await.unwrap();
        assert_eq!(
            script.1.lock().unwrap().clone(),
            [
                "GET /api/v1/configmaps?limit=500",
                "GET /api/v1/configmaps?limit=500&labelSelector=a%3Db",
                "GET /api/v1/configmaps?limit=500",
            ],
            "a labelled LIST, and a third read, ask the server"
        );
    }

    #[tokio::test]
    async fn a_write_forgets_what_was_listed_ahead() {
        let answers = vec![
            reply(200, CONFIG_MAPS),
            reply(200, "{}"),
            reply(200, CONFIG_MAPS),
        ];
        let (c, script) = cluster(answers);
        let c = Arc::new(c);
        c.list_ahead("/api/v1/configmaps", 2, &Handle::current());
        c.list("/api/v1/configmaps", None).await.unwrap();
        c.delete("/api/v1/namespaces/x/configmaps/a", false, "Foreground")
            .await
            .unwrap();
        c.list("/api/v1/configmaps", None).await.unwrap();
        let sent = script.1.lock().unwrap().clone();
        assert_eq!(sent.len(), 3, "{sent:?}");
        assert_eq!(sent[2], "GET /api/v1/configmaps?limit=500", "listed again");
    }

    #[tokio::test]
    async fn non_status_errors_and_bad_bodies_are_classified() {
        let (c, _) = cluster(vec![reply(502, "bad gateway\nmore"), reply(200, "<html>")]);
        assert_eq!(
            c.get("/x").await.unwrap_err().to_string(),
            "bad gateway (HTTP 502)"
        );
        assert!(matches!(
            c.get("/x").await.unwrap_err(),
            ApiError::BadBody(_)
        ));
        assert!(matches!(
            c.get("/x").await.unwrap_err(),
            ApiError::Transport(_)
        ));
    }
}
