//! How requests reach the API server: through kube's own layers (the cluster URL,
//! credentials, impersonation headers), over HTTP/2 when the server offers it in the TLS
//! handshake, else over kube's HTTP/1.1 client.
//!
//! Over HTTP/1.1 every request in flight needs a connection of its own, so a command's
//! first 16 reads began with 16 TLS handshakes — on both ends of the wire, before the
//! first answer. Over HTTP/2 one connection carries them all, as it does for kubectl.
//! Which protocol a server speaks is learnt from the ALPN answer of the first handshake,
//! and when it is `h2` that connection is the one the requests use.

use crate::api::{RawResponse, Transport};
use async_trait::async_trait;
use http_body_util::BodyExt;
use hyper_rustls::{FixedServerNameResolver, HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::{Connection, HttpConnector};
use hyper_util::rt::TokioExecutor;
use kube::client::ConfigExt;
use std::sync::Arc;
use tokio::sync::OnceCell;
use tower::{Service, ServiceBuilder};

pub struct KubeTransport {
    config: kube::Config,
    /// kube's own client (HTTP/1.1), made when the binding is made.
    http1: kube::Client,
    /// The client the requests use, chosen at the first request.
    chosen: OnceCell<kube::Client>,
}

impl KubeTransport {
    /// `config` is the binding's, with its timeouts set; kube's client is made here so
    /// that a configuration kube refuses is a binding failure, as it always was.
    pub fn new(config: kube::Config) -> Result<Self, kube::Error> {
        Ok(KubeTransport {
            http1: kube::Client::try_from(config.clone())?,
            config,
            chosen: OnceCell::new(),
        })
    }

    async fn client(&self) -> &kube::Client {
        self.chosen
            .get_or_init(|| async {
                let client = match Http2Connection::open(&self.config).await {
                    Ok(Some(connection)) => {
                        http2_client(&self.config, connection, self.http1.valid_until())
                    }
                    Ok(None) => Err("the server does not offer h2".to_owned()),
                    Err(e) => Err(e.to_string()),
                };
                client.unwrap_or_else(|e| {
                    tracing::debug!("k8s: no HTTP/2 client ({e}); using HTTP/1.1");
                    self.http1.clone()
                })
            })
            .await
    }
}

#[async_trait]
impl Transport for KubeTransport {
    async fn send(
        &self,
        method: &str,
        path_and_query: &str,
        body: Option<Vec<u8>>,
    ) -> Result<RawResponse, String> {
        let mut builder = http::Request::builder()
            .method(method)
            .uri(path_and_query)
            .header(http::header::ACCEPT, "application/json");
        if body.is_some() {
            builder = builder.header(http::header::CONTENT_TYPE, "application/json");
        }
        let request = builder
            .body(kube::client::Body::from(body.unwrap_or_default()))
            .map_err(|e| e.to_string())?;
        let response = self
            .client()
            .await
            .send(request)
            .await
            .map_err(|e| describe_kube_error(&e))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(http::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse().ok());
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("the response body could not be read: {e}"))?
            .to_bytes()
            .to_vec();
        Ok(RawResponse {
            status,
            retry_after,
            body,
        })
    }

    async fn connect(&self) {
        self.client().await;
    }
}

/// kube's error, with its sources, on one line (no credentials are in it).
fn describe_kube_error(error: &kube::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let next = cause.to_string();
        if !text.contains(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        source = cause.source();
    }
    text
}

/// TLS as kube configures it (roots, client identity, server name), offering both
/// protocols, with kube's connect, read and write timeouts.
fn https_connector(config: &kube::Config) -> Result<Connector, String> {
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    http.set_nodelay(true);
    let tls = config.rustls_client_config().map_err(|e| e.to_string())?;
    let builder = HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http();
    let builder = match &config.tls_server_name {
        Some(name) => {
            let name =
                rustls_pki_types::ServerName::try_from(name.clone()).map_err(|e| e.to_string())?;
            builder.with_server_name_resolver(FixedServerNameResolver::new(name))
        }
        None => builder,
    };
    let mut connector =
        hyper_timeout::TimeoutConnector::new(builder.enable_all_versions().wrap_connector(http));
    connector.set_connect_timeout(config.connect_timeout);
    connector.set_read_timeout(config.read_timeout);
    connector.set_write_timeout(config.write_timeout);
    Ok(connector)
}

type Connector = hyper_timeout::TimeoutConnector<HttpsConnector<HttpConnector>>;
type Sender = hyper::client::conn::http2::SendRequest<kube::client::Body>;

/// One HTTP/2 connection to the API server carrying every request; made again if it
/// closes.
#[derive(Clone)]
struct Http2Connection(Arc<Http2Shared>);

struct Http2Shared {
    connector: Connector,
    server: http::Uri,
    sender: tokio::sync::Mutex<Sender>,
}

impl Http2Connection {
    /// Connect; `None` when the server does not answer the TLS handshake with `h2` (or
    /// the cluster is not reached over TLS, or through a proxy).
    async fn open(config: &kube::Config) -> Result<Option<Self>, tower::BoxError> {
        if config.cluster_url.scheme_str() != Some("https") || config.proxy_url.is_some() {
            return Ok(None);
        }
        let connector = https_connector(config)?;
        let server = config.cluster_url.clone();
        let Some(sender) = handshake(&connector, &server).await? else {
            return Ok(None);
        };
        Ok(Some(Http2Connection(Arc::new(Http2Shared {
            connector,
            server,
            sender: tokio::sync::Mutex::new(sender),
        }))))
    }

    async fn sender(&self) -> Result<Sender, tower::BoxError> {
        let mut sender = self.0.sender.lock().await;
        if sender.is_closed() {
            *sender = handshake(&self.0.connector, &self.0.server)
                .await?
                .ok_or("the API server no longer offers HTTP/2")?;
        }
        Ok(sender.clone())
    }
}

/// A TLS connection and, if the server chose `h2` for it, an HTTP/2 session on it.
async fn handshake(
    connector: &Connector,
    server: &http::Uri,
) -> Result<Option<Sender>, tower::BoxError> {
    let stream = connector.clone().call(server.clone()).await?;
    if !stream.connected().is_negotiated_h2() {
        return Ok(None);
    }
    let (sender, connection) = hyper::client::conn::http2::Builder::new(TokioExecutor::new())
        .handshake(stream)
        .await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!("k8s: the HTTP/2 connection ended: {e}");
        }
    });
    Ok(Some(sender))
}

impl Service<http::Request<kube::client::Body>> for Http2Connection {
    type Response = http::Response<hyper::body::Incoming>;
    type Error = tower::BoxError;
    type Future = futures::future::BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<kube::client::Body>) -> Self::Future {
        let connection = self.clone();
        Box::pin(async move {
            let mut sender = connection.sender().await?;
            sender.ready().await?;
            Ok(sender.send_request(request).await?)
        })
    }
}

/// kube's layers over the HTTP/2 connection.
/// `valid_until`: when an exec plugin's client certificate expires, as kube's own client
/// records it.
fn http2_client(
    config: &kube::Config,
    connection: Http2Connection,
    valid_until: &Option<k8s_openapi::jiff::Timestamp>,
) -> Result<kube::Client, String> {
    let service = ServiceBuilder::new()
        .layer(config.base_uri_layer())
        .option_layer(config.auth_layer().map_err(|e| e.to_string())?)
        .layer(config.extra_headers_layer().map_err(|e| e.to_string())?)
        .service(connection);
    Ok(
        kube::client::ClientBuilder::new(service, config.default_namespace.clone())
            .with_valid_until(*valid_until)
            .build(),
    )
}
