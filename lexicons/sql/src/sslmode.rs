//! libpq's `sslmode` and what follows from it: which attempts a connection makes, what
//! it verifies, how it reads in `whoami`, and what a failed handshake means.
//!
//! | sslmode | TLS | certificate |
//! |---|---|---|
//! | `disable` | never | — |
//! | `allow` | only when the server refuses the plain connection | not verified |
//! | `prefer` (default) | when the server offers it; plain when it does not or the handshake fails | not verified |
//! | `require` | always | not verified; the chain when `sslrootcert` names a file (as libpq) |
//! | `verify-ca` | always | the chain |
//! | `verify-full` | always | the chain and the host name |

use crate::conninfo::TlsParams;
use crate::session::Fault;
use chant_lexicon::UnobservedReason;
use std::path::PathBuf;
use tokio_postgres::config::SslMode as Negotiation;
use tokio_postgres::error::SqlState;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SslMode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    const ALL: [SslMode; 6] = [
        SslMode::Disable,
        SslMode::Allow,
        SslMode::Prefer,
        SslMode::Require,
        SslMode::VerifyCa,
        SslMode::VerifyFull,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Allow => "allow",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }

    fn parse(text: &str) -> Result<SslMode, String> {
        SslMode::ALL
            .into_iter()
            .find(|m| m.as_str() == text)
            .ok_or_else(|| {
                format!(
                    "sslmode `{text}` is not one of {}",
                    SslMode::ALL.map(SslMode::as_str).join(", ")
                )
            })
    }
}

/// The certificates a verified connection trusts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Roots {
    /// `sslrootcert=<file>`: the PEM certificates in it.
    File(PathBuf),
    /// `sslrootcert=system`, or a `verify-*` mode without `sslrootcert`: the platform's.
    System,
}

/// How much of the server's certificate is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verification {
    Nothing,
    Chain,
    ChainAndHostName,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsSettings {
    pub mode: SslMode,
    /// `sslrootcert`, when given.
    pub root_cert: Option<Roots>,
    /// `sslcert` and `sslkey`: a client certificate and its private key.
    pub client_identity: Option<(PathBuf, PathBuf)>,
}

impl Default for TlsSettings {
    fn default() -> Self {
        TlsSettings {
            mode: SslMode::Prefer,
            root_cert: None,
            client_identity: None,
        }
    }
}

fn given(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.is_empty())
}

impl TlsSettings {
    /// Check the parameters against each other as libpq does.
    pub fn from_params(params: TlsParams) -> Result<TlsSettings, String> {
        let mode = given(params.sslmode)
            .map(|m| SslMode::parse(&m))
            .transpose()?;
        let root_cert = given(params.sslrootcert).map(|r| match r.as_str() {
            "system" => Roots::System,
            _ => Roots::File(PathBuf::from(r)),
        });
        let mode = match (&root_cert, mode) {
            (Some(Roots::System), None) => SslMode::VerifyFull,
            (Some(Roots::System), Some(mode)) if mode != SslMode::VerifyFull => {
                return Err(format!(
                    "sslrootcert=system needs sslmode=verify-full, not {}",
                    mode.as_str()
                ));
            }
            (_, mode) => mode.unwrap_or(SslMode::Prefer),
        };
        let client_identity = match (given(params.sslcert), given(params.sslkey)) {
            (Some(cert), Some(key)) => Some((PathBuf::from(cert), PathBuf::from(key))),
            (None, None) => None,
            _ => return Err("sslcert and sslkey go together: set both, or neither".to_owned()),
        };
        Ok(TlsSettings {
            mode,
            root_cert,
            client_identity,
        })
    }

    pub fn verification(&self) -> Verification {
        match (self.mode, &self.root_cert) {
            (SslMode::VerifyFull, _) => Verification::ChainAndHostName,
            (SslMode::VerifyCa, _) | (SslMode::Require, Some(Roots::File(_))) => {
                Verification::Chain
            }
            _ => Verification::Nothing,
        }
    }

    /// The roots to verify against, when anything is verified.
    pub fn roots(&self) -> Option<&Roots> {
        match self.verification() {
            Verification::Nothing => None,
            _ => Some(self.root_cert.as_ref().unwrap_or(&Roots::System)),
        }
    }

    /// The first attempt's negotiation.
    pub fn first_attempt(&self) -> Negotiation {
        match self.mode {
            SslMode::Disable | SslMode::Allow => Negotiation::Disable,
            SslMode::Prefer => Negotiation::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => Negotiation::Require,
        }
    }

    /// The second attempt libpq makes after `error`, if any: `allow` tries TLS when the
    /// server turned the plain connection away (28000, as pg_hba does for a `hostssl`
    /// or `hostnossl … reject` line); `prefer` goes plain when the handshake failed.
    pub fn fallback(&self, error: &tokio_postgres::Error) -> Option<Negotiation> {
        match self.mode {
            SslMode::Allow
                if error.code() == Some(&SqlState::INVALID_AUTHORIZATION_SPECIFICATION) =>
            {
                Some(Negotiation::Require)
            }
            SslMode::Prefer if is_handshake_failure(error) => Some(Negotiation::Disable),
            _ => None,
        }
    }

    /// How the session reaches the server, for `whoami`'s scope.
    pub fn describe(&self, negotiated: bool) -> String {
        let mode = self.mode.as_str();
        if !negotiated {
            return format!("without TLS (sslmode={mode})");
        }
        let checked = match self.verification() {
            Verification::Nothing => "certificate not verified",
            Verification::Chain => "certificate chain verified",
            Verification::ChainAndHostName => "certificate and host name verified",
        };
        format!("over TLS ({checked}, sslmode={mode})")
    }

    /// What a failed TLS negotiation means; `None` when `error` is not one.
    pub fn handshake_fault(&self, error: &tokio_postgres::Error) -> Option<Fault> {
        let mode = self.mode.as_str();
        if let Some(problem) = rustls_error(error) {
            let detail = match problem {
                rustls::Error::InvalidCertificate(why) => {
                    let hint = match why {
                        rustls::CertificateError::UnknownIssuer => match &self.root_cert {
                            Some(Roots::File(path)) => format!(
                                " (not signed by a certificate in sslrootcert {})",
                                path.display()
                            ),
                            _ => " (not signed by a root the platform trusts; name the CA with sslrootcert)".to_owned(),
                        },
                        _ => String::new(),
                    };
                    format!("the server's certificate was refused (sslmode={mode}): {why}{hint}")
                }
                other => format!("TLS handshake failed (sslmode={mode}): {other}"),
            };
            return Some(Fault::read_failed(detail));
        }
        let cause = std::error::Error::source(error)?.to_string();
        if cause == "server does not support TLS" {
            return Some(Fault::new(
                UnobservedReason::NoBinding,
                format!(
                    "the server does not accept TLS connections, and sslmode={mode} requires TLS"
                ),
            ));
        }
        is_handshake_failure(error)
            .then(|| Fault::read_failed(format!("TLS handshake failed (sslmode={mode}): {cause}")))
    }
}

fn is_handshake_failure(error: &tokio_postgres::Error) -> bool {
    error
        .to_string()
        .starts_with("error performing TLS handshake")
}

/// The rustls error under a failed handshake: tokio-rustls wraps it in an `io::Error`,
/// whose `source()` skips it, so each link is opened by hand.
fn rustls_error(error: &tokio_postgres::Error) -> Option<&rustls::Error> {
    let mut link = std::error::Error::source(error);
    while let Some(current) = link {
        if let Some(found) = current.downcast_ref::<rustls::Error>() {
            return Some(found);
        }
        if let Some(found) = current
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        {
            return Some(found);
        }
        link = current.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(mode: Option<&str>, root: Option<&str>) -> Result<TlsSettings, String> {
        TlsSettings::from_params(TlsParams {
            sslmode: mode.map(str::to_owned),
            sslrootcert: root.map(str::to_owned),
            ..TlsParams::default()
        })
    }

    #[test]
    fn prefer_is_the_default_and_verifies_nothing() {
        let tls = settings(None, None).unwrap();
        assert_eq!(tls.mode, SslMode::Prefer);
        assert_eq!(tls.verification(), Verification::Nothing);
        assert_eq!(tls.roots(), None);
        assert_eq!(tls.first_attempt(), Negotiation::Prefer);
        assert_eq!(tls.describe(false), "without TLS (sslmode=prefer)");
        assert_eq!(
            tls.describe(true),
            "over TLS (certificate not verified, sslmode=prefer)"
        );
    }

    #[test]
    fn each_mode_verifies_what_libpq_verifies() {
        let cases = [
            ("disable", None, Verification::Nothing, None),
            ("allow", None, Verification::Nothing, None),
            ("require", None, Verification::Nothing, None),
            (
                "require",
                Some("ca.pem"),
                Verification::Chain,
                Some(Roots::File("ca.pem".into())),
            ),
            ("verify-ca", None, Verification::Chain, Some(Roots::System)),
            (
                "verify-full",
                Some("ca.pem"),
                Verification::ChainAndHostName,
                Some(Roots::File("ca.pem".into())),
            ),
            (
                "verify-full",
                Some("system"),
                Verification::ChainAndHostName,
                Some(Roots::System),
            ),
        ];
        for (mode, root, verification, roots) in cases {
            let tls = settings(Some(mode), root).unwrap();
            assert_eq!(tls.verification(), verification, "{mode} {root:?}");
            assert_eq!(tls.roots().cloned(), roots, "{mode} {root:?}");
        }
        assert_eq!(
            settings(Some("verify-full"), None).unwrap().describe(true),
            "over TLS (certificate and host name verified, sslmode=verify-full)"
        );
    }

    #[test]
    fn the_system_roots_mean_verify_full() {
        assert_eq!(
            settings(None, Some("system")).unwrap().mode,
            SslMode::VerifyFull
        );
        let weak = settings(Some("require"), Some("system")).unwrap_err();
        assert!(weak.contains("needs sslmode=verify-full"), "{weak}");
    }

    #[test]
    fn bad_parameters_are_refused_with_the_choices() {
        let unknown = settings(Some("verify"), None).unwrap_err();
        assert_eq!(
            unknown,
            "sslmode `verify` is not one of disable, allow, prefer, require, verify-ca, verify-full"
        );
        let half = TlsSettings::from_params(TlsParams {
            sslcert: Some("client.pem".into()),
            ..TlsParams::default()
        })
        .unwrap_err();
        assert!(half.contains("sslcert and sslkey"), "{half}");
        assert_eq!(
            settings(Some(""), Some("")).unwrap(),
            TlsSettings::default()
        );
    }
}
