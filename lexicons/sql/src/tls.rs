//! The TLS connector: rustls on the aws-lc-rs provider (the workspace's one TLS stack),
//! through `tokio-postgres-rustls`, which also gives SCRAM its channel binding.
//!
//! The certificate check follows `sslmode` (see `sslmode.rs`); a connector also records
//! whether its handshake ran, since under `prefer` only the server decides.

use crate::session::Fault;
use crate::sslmode::{Roots, SslMode, TlsSettings, Verification};
use chant_lexicon::UnobservedReason;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{verify_server_cert_signed_by_trust_anchor, verify_server_name};
use rustls::crypto::{WebPkiSupportedAlgorithms, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_postgres::tls::{MakeTlsConnect, TlsConnect};
use tokio_postgres_rustls::MakeRustlsConnect;

/// The server certificate check `sslmode` asks for. With no roots, any certificate is
/// accepted (libpq's `prefer` and `require`), but the handshake's signatures are still
/// checked, so the session is encrypted to whoever holds the certificate's key.
#[derive(Debug)]
struct ServerCertificateCheck {
    roots: Option<Arc<RootCertStore>>,
    host_name: bool,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for ServerCertificateCheck {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if let Some(roots) = &self.roots {
            let certificate = ParsedCertificate::try_from(end_entity)?;
            verify_server_cert_signed_by_trust_anchor(
                &certificate,
                roots,
                intermediates,
                now,
                self.algorithms.all,
            )?;
            if self.host_name {
                verify_server_name(&certificate, server_name)?;
            }
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

fn root_store(roots: &Roots) -> Result<RootCertStore, Fault> {
    let unusable = |detail: String| Fault::new(UnobservedReason::NoBinding, detail);
    let (certificates, origin) = match roots {
        Roots::File(path) => (
            read_certificates(path).map_err(|e| unusable(format!("sslrootcert {e}")))?,
            format!("sslrootcert {}", path.display()),
        ),
        Roots::System => (
            rustls_native_certs::load_native_certs().certs,
            "the platform's certificate store".to_owned(),
        ),
    };
    let mut store = RootCertStore::empty();
    store.add_parsable_certificates(certificates);
    if store.is_empty() {
        return Err(unusable(format!(
            "no usable root certificate in {origin}, so the server's cannot be verified"
        )));
    }
    Ok(store)
}

fn read_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    CertificateDer::pem_file_iter(path)
        .and_then(|certificates| certificates.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// `sslcert` / `sslkey`: a credential, so a file that cannot be read is `no-credentials`.
fn client_identity(
    cert: &Path,
    key: &Path,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), Fault> {
    let refused = |detail: String| Fault::new(UnobservedReason::NoCredentials, detail);
    let chain = read_certificates(cert).map_err(|e| refused(format!("sslcert {e}")))?;
    if chain.is_empty() {
        return Err(refused(format!(
            "sslcert {}: no certificate in it",
            cert.display()
        )));
    }
    // The key's own parse error is not printed: it could quote the key.
    let key_der = PrivateKeyDer::from_pem_file(key).map_err(|_| {
        refused(format!(
            "sslkey {}: not a readable PEM private key",
            key.display()
        ))
    })?;
    Ok((chain, key_der))
}

/// The rustls configuration `settings` ask for.
pub fn client_config(settings: &TlsSettings) -> Result<ClientConfig, Fault> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let roots = settings.roots().map(root_store).transpose()?;
    let check = ServerCertificateCheck {
        roots: roots.map(Arc::new),
        host_name: settings.verification() == Verification::ChainAndHostName,
        algorithms: provider.signature_verification_algorithms,
    };
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Fault::read_failed(format!("TLS configuration: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(check));
    // `disable` never shows the server a certificate, so its files are not read.
    let identity = match settings.mode {
        SslMode::Disable => None,
        _ => settings.client_identity.as_ref(),
    };
    let mut config = match identity {
        None => builder.with_no_client_auth(),
        Some((cert, key)) => {
            let (chain, key_der) = client_identity(cert, key)?;
            builder.with_client_auth_cert(chain, key_der).map_err(|e| {
                Fault::new(
                    UnobservedReason::NoCredentials,
                    format!(
                        "sslcert {} with sslkey {}: {e}",
                        cert.display(),
                        key.display()
                    ),
                )
            })?
        }
    };
    // What libpq 17 sends; required by servers that take TLS directly (sslnegotiation=direct).
    config.alpn_protocols = vec![b"postgresql".to_vec()];
    Ok(config)
}

/// `MakeRustlsConnect`, noting in `negotiated` when a handshake completes.
#[derive(Clone)]
pub struct RecordingConnect {
    inner: MakeRustlsConnect,
    negotiated: Arc<AtomicBool>,
}

impl RecordingConnect {
    pub fn new(config: &ClientConfig) -> Self {
        RecordingConnect {
            inner: MakeRustlsConnect::new(config.clone()),
            negotiated: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Did this connector's handshake complete?
    pub fn negotiated(&self) -> bool {
        self.negotiated.load(Ordering::Acquire)
    }
}

impl<S> MakeTlsConnect<S> for RecordingConnect
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    type Stream = <MakeRustlsConnect as MakeTlsConnect<S>>::Stream;
    type TlsConnect = Recorded<<MakeRustlsConnect as MakeTlsConnect<S>>::TlsConnect>;
    type Error = <MakeRustlsConnect as MakeTlsConnect<S>>::Error;

    fn make_tls_connect(&mut self, domain: &str) -> Result<Self::TlsConnect, Self::Error> {
        Ok(Recorded {
            inner: MakeTlsConnect::<S>::make_tls_connect(&mut self.inner, domain)?,
            negotiated: self.negotiated.clone(),
        })
    }
}

pub struct Recorded<T> {
    inner: T,
    negotiated: Arc<AtomicBool>,
}

type Handshake<T, E> = Pin<Box<dyn Future<Output = Result<T, E>> + Send>>;

impl<S, T> TlsConnect<S> for Recorded<T>
where
    T: TlsConnect<S>,
    T::Future: Send + 'static,
{
    type Stream = T::Stream;
    type Error = T::Error;
    type Future = Handshake<T::Stream, T::Error>;

    fn connect(self, stream: S) -> Self::Future {
        let negotiated = self.negotiated;
        let handshake = self.inner.connect(stream);
        Box::pin(async move {
            let stream = handshake.await?;
            negotiated.store(true, Ordering::Release);
            Ok(stream)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificate_files_are_read_only_when_tls_may_be_used() {
        let missing = std::path::PathBuf::from("/nonexistent/chant/client");
        let settings = |mode| TlsSettings {
            mode,
            root_cert: None,
            client_identity: Some((missing.join("cert.pem"), missing.join("key.pem"))),
        };
        assert!(client_config(&settings(SslMode::Disable)).is_ok());
        let fault = client_config(&settings(SslMode::Prefer)).unwrap_err();
        assert_eq!(fault.reason, UnobservedReason::NoCredentials);
        assert!(
            fault
                .detail
                .starts_with("sslcert /nonexistent/chant/client/cert.pem"),
            "{}",
            fault.detail
        );
    }
}
