//! How requests reach the API server: through kube's own layers (the cluster URL,
//! credentials, impersonation headers), over HTTP/2 when the server offers it in the TLS
//! handshake, else over kube's HTTP/1.1 client.
//!
//! Over HTTP/1.1 every request in flight needs a connection of its own, so a command's
//! first 16 reads began with 16 TLS handshakes — on both ends of the wire, before the
//! first answer. Over HTTP/2 one connection carries them all, as it does for kubectl.
//! Which protocol a server speaks is learnt once per binding, from the ALPN answer of a
//! handshake that sends no request.

use crate::api::{RawResponse, Transport};
use async_trait::async_trait;
use http_body_util::BodyExt;
use hyper_rustls::{FixedServerNameResolver, HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::{Connection, HttpConnector};
use hyper_util::rt::TokioExecutor;
use kube::client::ConfigExt;
use std::time::Duration;
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
                if offers_http2(&self.config).await {
                    match http2_client(&self.config, self.http1.valid_until()) {
                        Ok(client) => return client,
                        Err(e) => tracing::debug!("k8s: no HTTP/2 client ({e}); using HTTP/1.1"),
                    }
                }
                self.http1.clone()
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

/// Whether the server answers a TLS handshake with `h2`. Anything that goes wrong here
/// (no TLS, a proxy, a refused connection) says no: the first request then meets the
/// same problem over HTTP/1.1 and reports it as it always has.
async fn offers_http2(config: &kube::Config) -> bool {
    if config.cluster_url.scheme_str() != Some("https") || config.proxy_url.is_some() {
        return false;
    }
    let Ok(mut connector) = https_connector(config) else {
        return false;
    };
    let wait = config.connect_timeout.unwrap_or(Duration::from_secs(10));
    match tokio::time::timeout(wait, connector.call(config.cluster_url.clone())).await {
        Ok(Ok(stream)) => stream.connected().is_negotiated_h2(),
        _ => false,
    }
}

/// TLS as kube configures it (roots, client identity, server name), offering both
/// protocols.
fn https_connector(config: &kube::Config) -> Result<HttpsConnector<HttpConnector>, String> {
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
    Ok(builder.enable_all_versions().wrap_connector(http))
}

/// kube's layers over an HTTP/2-only connection pool: one connection, every request
/// multiplexed on it.
/// `valid_until`: when an exec plugin's client certificate expires, as kube's own client
/// records it.
fn http2_client(
    config: &kube::Config,
    valid_until: &Option<k8s_openapi::jiff::Timestamp>,
) -> Result<kube::Client, String> {
    let mut connector = hyper_timeout::TimeoutConnector::new(https_connector(config)?);
    connector.set_connect_timeout(config.connect_timeout);
    connector.set_read_timeout(config.read_timeout);
    connector.set_write_timeout(config.write_timeout);
    let pool = hyper_util::client::legacy::Client::builder(TokioExecutor::new())
        .http2_only(true)
        .build(connector);
    let service = ServiceBuilder::new()
        .layer(config.base_uri_layer())
        .option_layer(config.auth_layer().map_err(|e| e.to_string())?)
        .layer(config.extra_headers_layer().map_err(|e| e.to_string())?)
        .map_err(tower::BoxError::from)
        .service(pool);
    Ok(
        kube::client::ClientBuilder::new(service, config.default_namespace.clone())
            .with_valid_until(*valid_until)
            .build(),
    )
}
