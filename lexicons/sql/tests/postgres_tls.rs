//! TLS to PostgreSQL, libpq's `sslmode` against two throwaway clusters: one serving TLS
//! with a certificate from a throwaway CA (for `localhost` and 127.0.0.1), and the plain
//! shared one. Every answer goes through the lexicon's own hooks.

mod common;

use chant_lexicon::{Identity, IdentityAnswer, UnobservedReason};
use chant_testkit::pki::TestCa;
use chant_testkit::postgres::{ClusterOptions, PostgresCluster, ServerTls};
use chant_testkit::{Scenario, assert_observation_conformance};
use common::{postgres_project, postgres_project_with};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const READER_PASSWORD: &str = "tls-reader-9c2d";
/// Authenticates by client certificate alone (`cert` in pg_hba.conf).
const CERT_ROLE: &str = "chant_cert";
/// Turned away by pg_hba.conf unless the connection is TLS.
const TLS_ONLY_ROLE: &str = "chant_tls_only";
const SCHEMA: &str = "CREATE TABLE customers (id int PRIMARY KEY);";

/// The PEM text a test writes into its own directory.
struct Material {
    ca: String,
    unknown_ca: String,
    client_cert: String,
    client_key: String,
}

struct TlsServer {
    cluster: &'static PostgresCluster,
    material: Material,
}

fn tls_server() -> &'static TlsServer {
    static SERVER: OnceLock<TlsServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let ca = TestCa::new("chant test PostgreSQL CA");
        let server = ca.server(&["localhost", "127.0.0.1"]);
        let client = ca.client(CERT_ROLE);
        let cluster = PostgresCluster::start_with(ClusterOptions {
            tls: Some(ServerTls {
                cert_pem: server.cert_pem,
                key_pem: server.key_pem,
                client_ca_pem: Some(ca.cert_pem()),
            }),
            hba: vec![
                format!("hostssl all {CERT_ROLE} 127.0.0.1/32 cert"),
                format!("hostnossl all {TLS_ONLY_ROLE} 127.0.0.1/32 reject"),
            ],
        })
        .expect("start a PostgreSQL cluster serving TLS")
        .until_exit();
        setup(cluster);
        TlsServer {
            cluster,
            material: Material {
                ca: ca.cert_pem(),
                unknown_ca: TestCa::new("a CA nobody here trusts").cert_pem(),
                client_cert: client.cert_pem,
                client_key: client.key_pem,
            },
        }
    })
}

/// The roles and a `shop` database they can read.
fn setup(cluster: &PostgresCluster) {
    cluster
        .psql(
            "postgres",
            &format!(
                "CREATE ROLE chant_reader LOGIN PASSWORD '{READER_PASSWORD}';
                 CREATE ROLE {CERT_ROLE} LOGIN;
                 CREATE ROLE {TLS_ONLY_ROLE} LOGIN PASSWORD '{READER_PASSWORD}';"
            ),
        )
        .unwrap();
    cluster.database("shop", SCHEMA).unwrap();
    cluster
        .psql(
            "shop",
            "GRANT SELECT ON ALL TABLES IN SCHEMA public TO PUBLIC",
        )
        .unwrap();
}

fn plain_server() -> &'static PostgresCluster {
    static READY: OnceLock<()> = OnceLock::new();
    let cluster = PostgresCluster::shared();
    READY.get_or_init(|| setup(cluster));
    cluster
}

/// A directory holding the certificate files a test names in its URL.
struct Files(tempfile::TempDir);

impl Files {
    fn new() -> Files {
        let dir = tempfile::tempdir().unwrap();
        let material = &tls_server().material;
        for (name, text) in [
            ("ca.pem", &material.ca),
            ("unknown-ca.pem", &material.unknown_ca),
            ("client.pem", &material.client_cert),
            ("client.key", &material.client_key),
        ] {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        Files(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

fn url(cluster: &PostgresCluster, user: &str, query: &str) -> String {
    format!("{}?{query}", cluster.url(user, READER_PASSWORD, "shop"))
}

async fn whoami(url: &str) -> Result<Identity, (UnobservedReason, String)> {
    match postgres_project(SCHEMA, url, "").whoami().await {
        IdentityAnswer::Resolved(identity) => Ok(identity),
        IdentityAnswer::Unresolved { reason, detail } => {
            let detail = detail.unwrap_or_default();
            assert!(!detail.contains(READER_PASSWORD), "{detail}");
            Err((reason, detail))
        }
    }
}

/// `url` connects, and `whoami`'s scope says how (`over TLS (…)`, `without TLS (…)`).
async fn assert_connects(url: &str, transport: &str) {
    match whoami(url).await {
        Ok(identity) => assert!(identity.scope.contains(transport), "{}", identity.scope),
        Err(refused) => panic!("{url}: {refused:?}"),
    }
}

async fn refusal(url: &str) -> (UnobservedReason, String) {
    match whoami(url).await {
        Ok(identity) => panic!("{url} connected: {identity:?}"),
        Err(refused) => refused,
    }
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

#[tokio::test]
async fn require_and_prefer_encrypt_without_verifying_the_certificate() {
    let server = tls_server().cluster;
    assert_connects(
        &url(server, "chant_reader", "sslmode=require"),
        "over TLS (certificate not verified, sslmode=require)",
    )
    .await;
    assert_connects(
        &url(server, "chant_reader", "connect_timeout=10"),
        "over TLS (certificate not verified, sslmode=prefer)",
    )
    .await;
}

#[tokio::test]
async fn verify_full_connects_to_the_server_its_root_signed() {
    let files = Files::new();
    let ca = display(&files.path("ca.pem"));
    let server = tls_server().cluster;
    for host in ["127.0.0.1", "localhost"] {
        let url = format!(
            "postgres://chant_reader:{READER_PASSWORD}@{host}:{}/shop?sslmode=verify-full&sslrootcert={ca}",
            server.port()
        );
        assert_connects(
            &url,
            "over TLS (certificate and host name verified, sslmode=verify-full)",
        )
        .await;
    }
}

#[tokio::test]
async fn the_libpq_variables_set_sslmode_and_the_root_without_a_url() {
    let files = Files::new();
    let ca = display(&files.path("ca.pem"));
    let port = tls_server().cluster.port().to_string();
    let project = postgres_project_with(
        SCHEMA,
        "[environments.dev.sql]\n",
        &[
            ("PGHOST", "127.0.0.1"),
            ("PGPORT", &port),
            ("PGUSER", "chant_reader"),
            ("PGPASSWORD", READER_PASSWORD),
            ("PGDATABASE", "shop"),
            ("PGSSLMODE", "verify-full"),
            ("PGSSLROOTCERT", &ca),
        ],
    );
    let answer = project.whoami().await;
    let IdentityAnswer::Resolved(identity) = answer else {
        panic!("{answer:?}")
    };
    assert!(
        identity.scope.contains("sslmode=verify-full"),
        "{}",
        identity.scope
    );
    assert_eq!(identity.source, "libpq environment");
}

#[tokio::test]
async fn verify_full_refuses_a_certificate_for_another_host_name_and_verify_ca_does_not() {
    let files = Files::new();
    let ca = display(&files.path("ca.pem"));
    let port = tls_server().cluster.port();
    // The name the client checks is `host`; the address it dials is `hostaddr`.
    let as_host = |mode: &str| {
        format!(
            "postgres://chant_reader:{READER_PASSWORD}@wrong.chant.test:{port}/shop?hostaddr=127.0.0.1&sslmode={mode}&sslrootcert={ca}"
        )
    };
    let (reason, detail) = refusal(&as_host("verify-full")).await;
    assert_eq!(reason, UnobservedReason::ReadFailed, "{detail}");
    assert!(
        detail.starts_with(&format!("wrong.chant.test:{port}/shop: the server's certificate was refused (sslmode=verify-full)")),
        "{detail}"
    );
    assert!(
        detail.contains("not valid for name \"wrong.chant.test\""),
        "{detail}"
    );

    assert_connects(
        &as_host("verify-ca"),
        "over TLS (certificate chain verified, sslmode=verify-ca)",
    )
    .await;
}

#[tokio::test]
async fn a_root_that_did_not_sign_the_certificate_is_refused_even_under_require() {
    let files = Files::new();
    let unknown = display(&files.path("unknown-ca.pem"));
    let server = tls_server().cluster;
    for mode in ["verify-full", "verify-ca", "require"] {
        let (reason, detail) = refusal(&url(
            server,
            "chant_reader",
            &format!("sslmode={mode}&sslrootcert={unknown}"),
        ))
        .await;
        assert_eq!(reason, UnobservedReason::ReadFailed, "{mode}: {detail}");
        assert!(
            detail.contains(&format!("certificate was refused (sslmode={mode})"))
                && detail.contains(&format!(
                    "not signed by a certificate in sslrootcert {unknown}"
                )),
            "{mode}: {detail}"
        );
    }
}

#[tokio::test]
async fn a_root_file_that_cannot_be_read_is_no_binding() {
    let files = Files::new();
    let missing = display(&files.path("no-such-ca.pem"));
    let (reason, detail) = refusal(&url(
        tls_server().cluster,
        "chant_reader",
        &format!("sslmode=verify-full&sslrootcert={missing}"),
    ))
    .await;
    assert_eq!(reason, UnobservedReason::NoBinding, "{detail}");
    assert!(
        detail.contains(&format!("sslrootcert {missing}")),
        "{detail}"
    );
}

#[tokio::test]
async fn a_client_certificate_signs_in_as_its_role() {
    let files = Files::new();
    let server = tls_server().cluster;
    let with_identity = |key: &str| {
        url(
            server,
            CERT_ROLE,
            &format!(
                "sslmode=verify-full&sslrootcert={}&sslcert={}&sslkey={}",
                display(&files.path("ca.pem")),
                display(&files.path("client.pem")),
                display(&files.path(key)),
            ),
        )
    };
    let identity = whoami(&with_identity("client.key")).await.unwrap();
    assert_eq!(identity.identity, CERT_ROLE);

    let (reason, detail) = refusal(&url(server, CERT_ROLE, "sslmode=require")).await;
    assert_eq!(reason, UnobservedReason::NoCredentials, "{detail}");

    let (reason, detail) = refusal(&with_identity("no-such.key")).await;
    assert_eq!(reason, UnobservedReason::NoCredentials, "{detail}");
    assert!(detail.contains("sslkey"), "{detail}");
}

#[tokio::test]
async fn allow_goes_over_tls_when_the_server_turns_plain_away() {
    let server = tls_server().cluster;
    assert_connects(
        &url(server, TLS_ONLY_ROLE, "sslmode=allow"),
        "over TLS (certificate not verified, sslmode=allow)",
    )
    .await;
    let (reason, detail) = refusal(&url(server, TLS_ONLY_ROLE, "sslmode=disable")).await;
    assert_eq!(reason, UnobservedReason::NoCredentials, "{detail}");
    assert!(detail.contains("no encryption"), "{detail}");
}

#[tokio::test]
async fn disable_prefer_and_allow_read_a_server_without_tls() {
    let server = plain_server();
    for (query, words) in [
        ("sslmode=disable", "without TLS (sslmode=disable)"),
        ("connect_timeout=10", "without TLS (sslmode=prefer)"),
        ("sslmode=allow", "without TLS (sslmode=allow)"),
    ] {
        let transport = format!("server {} {words}", server.host_port());
        assert_connects(&url(server, "chant_reader", query), &transport).await;
    }
}

#[tokio::test]
async fn require_against_a_server_without_tls_is_no_binding_for_every_entity() {
    let server = plain_server();
    let files = Files::new();
    let ca = display(&files.path("ca.pem"));
    for mode in ["require", "verify-full"] {
        let (reason, detail) = refusal(&url(
            server,
            "chant_reader",
            &format!("sslmode={mode}&sslrootcert={ca}"),
        ))
        .await;
        assert_eq!(reason, UnobservedReason::NoBinding, "{mode}: {detail}");
        assert_eq!(
            detail,
            format!(
                "{}/shop: the server does not accept TLS connections, and sslmode={mode} requires TLS",
                server.host_port()
            )
        );
    }

    let project = postgres_project(SCHEMA, &url(server, "chant_reader", "sslmode=require"), "");
    let request = project.request(false).await;
    let channel = project.lexicon.ownership_channel();
    let scenarios = vec![
        Scenario::new(
            "sslmode=require, server without TLS",
            request.entities.to_vec(),
            project.lexicon.describe_resources(&request),
        )
        .unobserved(&["table/public.customers"], UnobservedReason::NoBinding),
    ];
    assert_observation_conformance("sql", channel.as_ref(), scenarios).await;
}

#[tokio::test]
async fn an_sslmode_libpq_does_not_know_is_no_binding_naming_the_choices() {
    let (reason, detail) = refusal(&url(plain_server(), "chant_reader", "sslmode=verify")).await;
    assert_eq!(reason, UnobservedReason::NoBinding, "{detail}");
    assert!(detail.contains("verify-ca, verify-full"), "{detail}");
}

#[tokio::test]
async fn the_root_and_client_certificate_under_home_postgresql_are_used_as_libpq_does() {
    let files = Files::new();
    let port = tls_server().cluster.port().to_string();
    let home = tempfile::tempdir().unwrap();
    let dot = home.path().join(".postgresql");
    std::fs::create_dir_all(&dot).unwrap();
    for (from, to) in [
        ("ca.pem", "root.crt"),
        ("client.pem", "postgresql.crt"),
        ("client.key", "postgresql.key"),
    ] {
        std::fs::copy(files.path(from), dot.join(to)).unwrap();
    }
    let home_text = display(home.path());
    let whoami_with_home = || async {
        postgres_project_with(
            SCHEMA,
            "[environments.dev.sql]\n",
            &[
                ("PGHOST", "localhost"),
                ("PGPORT", &port),
                ("PGUSER", CERT_ROLE),
                ("PGDATABASE", "shop"),
                ("PGSSLMODE", "verify-full"),
                ("HOME", &home_text),
            ],
        )
        .whoami()
        .await
    };

    // Nothing names a root or a certificate: ~/.postgresql/ supplies both, and the role
    // that signs in by certificate alone is in.
    let answer = whoami_with_home().await;
    let IdentityAnswer::Resolved(identity) = answer else {
        panic!("{answer:?}")
    };
    assert_eq!(identity.identity, CERT_ROLE);
    assert!(
        identity.scope.contains("sslmode=verify-full"),
        "{}",
        identity.scope
    );

    // The root really is that file, not the platform's store: another CA there is refused.
    std::fs::copy(files.path("unknown-ca.pem"), dot.join("root.crt")).unwrap();
    let IdentityAnswer::Unresolved { reason, detail } = whoami_with_home().await else {
        panic!("connected with a root that did not sign the server's certificate")
    };
    let detail = detail.unwrap_or_default();
    assert_eq!(reason, UnobservedReason::ReadFailed, "{detail}");
    assert!(detail.contains(".postgresql/root.crt"), "{detail}");
}
