//! How the testkit's fake servers run: HTTP/1.1 and HTTP/2 (as the client asks, by ALPN
//! under TLS) on a free port of 127.0.0.1, optionally behind TLS, on a thread and runtime
//! of their own, so synchronous tests (which run the binary) can use them as well as
//! async ones. Dropping the [`Server`] stops it.

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::oneshot;
use tokio_rustls::TlsAcceptor;

pub(crate) struct Server {
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    connections: Arc<AtomicUsize>,
}

impl Server {
    /// Serve every request with `respond`. The threads carry `thread_name`, so a
    /// benchmark can tell the server's CPU from its client's.
    pub(crate) fn spawn<F, Fut>(
        thread_name: &str,
        acceptor: Option<TlsAcceptor>,
        respond: F,
    ) -> Server
    where
        F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Result<Response<Full<Bytes>>, Infallible>> + Send + 'static,
    {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (shutdown_tx, shutdown_rx) = oneshot::channel();
        let name = thread_name.to_owned();
        let connections = Arc::new(AtomicUsize::new(0));
        let counted = connections.clone();
        std::thread::Builder::new()
            .name(name.clone())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .thread_name(name)
                    .enable_all()
                    .build()
                    .expect("a runtime for a fake server");
                runtime.block_on(accept_loop(
                    acceptor,
                    respond,
                    addr_tx,
                    shutdown_rx,
                    counted,
                ));
            })
            .expect("a thread for a fake server");
        let addr = addr_rx.recv().expect("the fake server bound a port");
        Server {
            addr,
            shutdown: Some(shutdown_tx),
            connections,
        }
    }

    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Connections accepted so far.
    pub(crate) fn connections(&self) -> usize {
        self.connections.load(Ordering::Relaxed)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

async fn accept_loop<F, Fut>(
    acceptor: Option<TlsAcceptor>,
    respond: F,
    addr_tx: std::sync::mpsc::Sender<SocketAddr>,
    mut shutdown: oneshot::Receiver<()>,
    counted: Arc<AtomicUsize>,
) where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Result<Response<Full<Bytes>>, Infallible>> + Send + 'static,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let _ = addr_tx.send(listener.local_addr().expect("a local address"));
    loop {
        tokio::select! {
            _ = &mut shutdown => return,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                counted.fetch_add(1, Ordering::Relaxed);
                let _ = stream.set_nodelay(true);
                let acceptor = acceptor.clone();
                let service = service_fn(respond.clone());
                tokio::spawn(async move {
                    let http = auto::Builder::new(TokioExecutor::new());
                    match acceptor {
                        Some(acceptor) => {
                            if let Ok(tls) = acceptor.accept(stream).await {
                                let _ = http.serve_connection(TokioIo::new(tls), service).await;
                            }
                        }
                        None => {
                            let _ = http.serve_connection(TokioIo::new(stream), service).await;
                        }
                    }
                });
            }
        }
    }
}
