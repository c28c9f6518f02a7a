//! A throwaway certificate authority and server certificate for 127.0.0.1, so the
//! token path can be tested over HTTPS (client-go and kubectl never send a bearer token
//! to an `http://` server).

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;

pub struct TlsMaterial {
    /// The CA certificate a kubeconfig trusts (`certificate-authority-data`).
    pub ca_pem: String,
    pub acceptor: tokio_rustls::TlsAcceptor,
}

/// `http2`: whether the server offers HTTP/2 (as a real API server does) besides HTTP/1.1.
pub fn generate(http2: bool) -> TlsMaterial {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "chant fake kube-apiserver CA");
    let ca_key = KeyPair::generate().expect("a CA key");
    let ca = CertifiedIssuer::self_signed(ca_params, ca_key).expect("a CA certificate");

    let leaf_params = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .expect("server certificate parameters");
    let leaf_key = KeyPair::generate().expect("a server key");
    let leaf = leaf_params
        .signed_by(&leaf_key, &ca)
        .expect("a server certificate");

    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(
            vec![CertificateDer::from(leaf.der().to_vec()), ca.der().clone()],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der())),
        )
        .expect("a TLS server configuration");
    config.alpn_protocols = if http2 {
        vec![b"h2".to_vec(), b"http/1.1".to_vec()]
    } else {
        vec![b"http/1.1".to_vec()]
    };
    TlsMaterial {
        ca_pem: ca.pem(),
        acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(config)),
    }
}
