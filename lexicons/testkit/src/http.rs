//! A fake HTTP server on 127.0.0.1 for transport tests: scripted replies by method and
//! path prefix, injectable latency, and a record of every request.
//!
//! It runs on its own thread and runtime, so it serves synchronous CLI tests (which run
//! the real binary) as well as async ones. Nagle is off: otherwise every response waits
//! for the peer's delayed ACK.

use crate::serve::Server;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A scripted reply.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub delay: Duration,
}

impl Reply {
    pub fn status(status: u16) -> Self {
        Reply {
            status,
            headers: Vec::new(),
            body: Vec::new(),
            delay: Duration::ZERO,
        }
    }

    pub fn json(status: u16, body: &serde_json::Value) -> Self {
        Reply::status(status)
            .header("content-type", "application/json")
            .body(body.to_string())
    }

    pub fn text(status: u16, body: impl Into<String>) -> Self {
        Reply::status(status)
            .header("content-type", "text/plain")
            .body(body.into())
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

/// A request the server saw.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    /// Path and query, as sent.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or_default()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

type Handler = Arc<dyn Fn(&Recorded) -> Option<Reply> + Send + Sync>;

#[derive(Default)]
struct State {
    routes: Vec<(String, String, Reply)>,
    handler: Option<Handler>,
    recorded: Vec<Recorded>,
}

pub struct FakeHttp {
    server: Server,
    state: Arc<Mutex<State>>,
}

impl FakeHttp {
    /// Start serving on a free port of 127.0.0.1.
    pub fn start() -> Self {
        let state = Arc::new(Mutex::new(State::default()));
        let served = state.clone();
        let server = Server::spawn("fake-http", None, move |req| respond(served.clone(), req));
        FakeHttp { server, state }
    }

    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.server.addr())
    }

    /// Reply to `method` requests whose path starts with `path_prefix`. Earlier routes win.
    pub fn route(&self, method: &str, path_prefix: &str, reply: Reply) -> &Self {
        self.lock()
            .routes
            .push((method.to_uppercase(), path_prefix.to_owned(), reply));
        self
    }

    /// A handler consulted before the routes; `None` falls through to them.
    pub fn handle(
        &self,
        handler: impl Fn(&Recorded) -> Option<Reply> + Send + Sync + 'static,
    ) -> &Self {
        self.lock().handler = Some(Arc::new(handler));
        self
    }

    pub fn clear(&self) {
        let mut state = self.lock();
        state.routes.clear();
        state.handler = None;
        state.recorded.clear();
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.lock().recorded.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

async fn respond(
    state: Arc<Mutex<State>>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = req.method().as_str().to_owned();
    let target = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let headers = req
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let body = req
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes().to_vec())
        .unwrap_or_default();
    let recorded = Recorded {
        method,
        target,
        headers,
        body,
    };
    let reply = {
        let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
        state.recorded.push(recorded.clone());
        let handled = state.handler.clone().and_then(|h| h(&recorded));
        handled.or_else(|| {
            state
                .routes
                .iter()
                .find(|(m, prefix, _)| {
                    *m == recorded.method && recorded.path().starts_with(prefix.as_str())
                })
                .map(|(_, _, reply)| reply.clone())
        })
    }
    .unwrap_or_else(|| {
        Reply::text(
            404,
            format!("no route for {} {}", recorded.method, recorded.target),
        )
    });
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut response = Response::builder().status(reply.status);
    for (name, value) in &reply.headers {
        response = response.header(name, value);
    }
    Ok(response
        .body(Full::new(Bytes::from(reply.body)))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        stream.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn serves_routes_and_records_requests() {
        let server = FakeHttp::start();
        server.route("GET", "/ok", Reply::text(200, "fine"));
        let answer = get(server.addr(), "/ok?x=1");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with("fine"));
        assert!(get(server.addr(), "/nope").starts_with("HTTP/1.1 404"));
        let seen = server.requests();
        assert_eq!(seen[0].target, "/ok?x=1");
        assert_eq!(seen[0].path(), "/ok");
    }
}
