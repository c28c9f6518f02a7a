//! The request screen against every property key the project's declarations can carry:
//! every field of every Kubernetes kind the k8s lexicon reads (walked from k8s-openapi's
//! own types) and every declarable property of every CloudFormation resource type
//! (`data/aws-property-keys.tsv`, derived from cfn-lint's provider schemas).
//!
//! Each key is given the value a declaration carries for it: the schema's enum value, an
//! ARN where the schema says ARN, a reference for a field that holds a secret (how a
//! template is written), and otherwise a free-text literal with digits in it — the value
//! the name layer is there to judge. The declarations so written draw zero refusals; a
//! literal in each secret-holding field is refused; and every credential form planted
//! anywhere is caught by value.

#[path = "support/k8s_keys.rs"]
mod k8s_keys;

use chant_lexicon::behaviour::screen::{ScreenRule, screen_value};
use k8s_keys::{Found, Holds, Probe};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// A free-text literal: mixed case and digits, so no gate mistakes it for a symbol.
const LITERAL: &str = "s4mple-Value-0042";
const REFERENCE: &str = "{{resolve:secretsmanager:shop/prod:SecretString:value}}";
const ARN: &str = "arn:aws:iam::123456789012:role/example";

/// The CloudFormation properties that hold secret material in free text. Reviewed one by
/// one: each is a password, a token, a private, shared or API key, a client secret or an
/// OAuth code. A declaration fills them with a reference; a literal is refused.
const AWS_SECRET_FIELDS: &[&str] = &[
    "ADDomainJoinPassword",
    "AccessKey",
    "AccessToken",
    "AccountPassword",
    "AddPrivateKey",
    "AdminPassword",
    "AdminUserPassword",
    "ApiKey",
    "ApiKeyValue",
    "ApiSecretKey",
    "ApiToken",
    "AppServerPrivateKey",
    "AsmPassword",
    "AuthCode",
    "AuthKey",
    "AuthPassword",
    "AuthToken",
    "AuthorizationApiKeyValue",
    "AuthorizationCode",
    "AzureBlobSasToken",
    "CdnIdentifierSecret",
    "ClientSecret",
    "CrossRealmTrustPrincipalPassword",
    "DbPassword",
    "DomainJoinServiceAccountSecret",
    "DomainSigningPrivateKey",
    "EventSourceToken",
    "FsxAdminPassword",
    "HECToken",
    "IdToken",
    "JwtToken",
    "KdcAdminPassword",
    "KeyPassphrase",
    "MasterUserPassword",
    "OauthToken",
    "Password",
    "PreSharedKey",
    "PrivateKey",
    "PrivateKeyPassphrase",
    "RefreshToken",
    "RemovePrivateKey",
    "RepositoryAccessToken",
    "SaslPassword",
    "SecretAccessKey",
    "SecretKey",
    "SecretString",
    "SecretToken",
    "ServiceAccountPassword",
    "SmtpPassword",
    "SslClientKeyPassword",
    "SvmAdminPassword",
    "TdeCredentialPassword",
    "Token",
    "TokenValue",
    "UserManagedClientApplicationClientSecret",
    "accessToken",
    "authCode",
];

/// Free-text properties whose schema gives no pattern but whose documentation says what
/// they hold: an ARN (an IAM role, a Secrets Manager secret) or a parameter name. They are
/// declared with that value; a literal secret there is refused like anywhere else.
const AWS_REFERENCE_VALUED: &[(&str, &str)] = &[
    ("AuthorizerCredentials", ARN),
    ("Credentials", ARN),
    ("Credential", ARN),
    ("BasicAuth", ARN),
    ("SaslScram256Auth", ARN),
    ("SaslScram512Auth", ARN),
    ("ClientCertificateTlsAuth", ARN),
    ("SqlServerCredentials", ARN),
    ("PasswordParam", "/medialive/channel/password"),
];

macro_rules! resource_types {
    ($($($segment:ident)::+),* $(,)?) => {
        fn walk_k8s(found: &RefCell<Found>) -> Vec<String> {
            $(
                found.borrow_mut().identities.insert(
                    <k8s_openapi::$($segment)::+ as k8s_openapi::Resource>::KIND,
                    (
                        <k8s_openapi::$($segment)::+ as k8s_openapi::Resource>::API_VERSION,
                        <k8s_openapi::$($segment)::+ as k8s_openapi::Resource>::KIND,
                    ),
                );
            )*
            let mut failures = Vec::new();
            $(
                if let Err(e) = probe::<k8s_openapi::$($segment)::+>(found) {
                    failures.push(format!("{}: {e}", stringify!($($segment)::+)));
                }
            )*
            failures
        }
    };
}

include!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../k8s/src/kinds/generated.rs"
));

fn probe<T: serde::de::DeserializeOwned + k8s_openapi::Resource>(
    found: &RefCell<Found>,
) -> Result<T, k8s_keys::ProbeError> {
    T::deserialize(Probe::top(found, T::API_VERSION, T::KIND))
}

fn k8s_keys() -> BTreeMap<String, BTreeSet<Holds>> {
    let found = RefCell::new(Found::default());
    let failures = walk_k8s(&found);
    assert!(
        failures.is_empty(),
        "the probe could not walk: {failures:#?}"
    );
    found.into_inner().keys
}

struct AwsKey {
    key: String,
    json_type: String,
    sample: String,
}

fn aws_keys() -> Vec<AwsKey> {
    let text = include_str!("../data/aws-property-keys.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let mut columns = line.split('\t');
            let mut next = || columns.next().unwrap_or_default().to_owned();
            AwsKey {
                key: next(),
                json_type: next(),
                sample: next(),
            }
        })
        .collect()
}

fn typed(json_type: &str) -> Value {
    match json_type {
        "boolean" => json!(true),
        "integer" | "number" => json!(42),
        "array" => json!([]),
        "object" => json!({}),
        _ => json!(LITERAL),
    }
}

/// The name-layer refusals a `{key: value}` draws; a value-shape finding fails the test,
/// since none of the samples is a credential.
fn refusals(key: &str, value: Value) -> usize {
    let findings = screen_value(&json!({ key: value }), "props");
    assert!(
        findings.iter().all(|f| f.rule != ScreenRule::ValueShape),
        "{key}: a sample read as a credential: {findings:?}"
    );
    findings
        .iter()
        .filter(|f| f.rule == ScreenRule::KeyName)
        .count()
}

fn aws_declared_value(key: &AwsKey) -> Value {
    if let Some((_, value)) = AWS_REFERENCE_VALUED.iter().find(|(k, _)| *k == key.key)
        && key.json_type == "string"
    {
        return json!(value);
    }
    match (key.json_type.as_str(), key.sample.as_str()) {
        ("string", "arn") => json!(ARN),
        ("string", "-") if AWS_SECRET_FIELDS.contains(&key.key.as_str()) => json!(REFERENCE),
        ("string", "-") => json!(LITERAL),
        ("string", enum_value) => json!(enum_value),
        (other, _) => typed(other),
    }
}

#[test]
fn every_kubernetes_property_key_draws_no_refusal() {
    let keys = k8s_keys();
    for known in [
        "imagePullSecrets",
        "secretName",
        "secretKeyRef",
        "automountServiceAccountToken",
        "secretFile",
        "containers",
        "clusterIP",
    ] {
        assert!(keys.contains_key(known), "the walk missed `{known}`");
    }
    assert!(keys.len() > 700, "only {} keys were found", keys.len());
    let refused: Vec<&String> = keys
        .iter()
        .filter(|(key, holds)| {
            holds.iter().any(|h| {
                let value = match h {
                    Holds::Text => json!(LITERAL),
                    Holds::Other => json!({}),
                };
                refusals(key, value) > 0
            })
        })
        .map(|(key, _)| key)
        .collect();
    assert!(
        refused.is_empty(),
        "{} of {} Kubernetes keys refused: {refused:?}",
        refused.len(),
        keys.len()
    );
}

#[test]
fn every_aws_property_key_as_declared_draws_no_refusal() {
    let keys = aws_keys();
    assert!(keys.len() > 10_000, "only {} keys", keys.len());
    let refused: BTreeSet<&str> = keys
        .iter()
        .filter(|k| refusals(&k.key, aws_declared_value(k)) > 0)
        .map(|k| k.key.as_str())
        .collect();
    assert!(
        refused.is_empty(),
        "{} AWS keys refused: {refused:?}",
        refused.len()
    );
}

#[test]
fn a_literal_is_refused_in_exactly_the_secret_holding_aws_fields() {
    let keys = aws_keys();
    let free_text: BTreeSet<&str> = keys
        .iter()
        .filter(|k| k.json_type == "string" && k.sample == "-")
        .filter(|k| !AWS_REFERENCE_VALUED.iter().any(|(r, _)| *r == k.key))
        .map(|k| k.key.as_str())
        .collect();
    let refused: BTreeSet<&str> = free_text
        .iter()
        .copied()
        .filter(|key| refusals(key, json!(LITERAL)) > 0)
        .collect();
    let expected: BTreeSet<&str> = AWS_SECRET_FIELDS.iter().copied().collect();
    let missed: Vec<_> = expected.difference(&refused).collect();
    let surprising: Vec<_> = refused.difference(&expected).collect();
    assert!(
        missed.is_empty() && surprising.is_empty(),
        "secret fields not refused: {missed:?}\nrefused but not secret: {surprising:?}"
    );
    for key in AWS_SECRET_FIELDS {
        assert!(
            free_text.contains(key),
            "`{key}` is not a free-text AWS property"
        );
    }
}

#[test]
fn each_credential_form_is_caught_wherever_it_is_planted() {
    let forms = [
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
        "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2V4YW1wbGUifQ.c2lnbmF0dXJl",
        "Authorization: Bearer 0123456789abcdefABCDEF",
        "Basic dXNlcjpwYXNzd29yZDEyMzQ=",
        "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCD",
        "glpat-0123456789abcdefghij",
        "sk-proj-0123456789abcdefghijklmnop",
        "sk_live_0123456789abcdefghij",
        "rk_test_0123456789abcdefghij",
        "xoxp-0123456789-0123456789-abcdef",
        "AKIAIOSFODNN7EXAMPLE",
        "ASIAY34FZKBOKMUTVV7A",
        "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI",
        "npm_0123456789abcdefghijklmnopqrstuvwxyz",
        "app:hunter2@db:5432/prod",
        "postgresql://app:hunter2@db.internal:5432/prod?sslmode=require",
        "mongodb+srv://admin:s3cret@cluster0.example.net/shop",
    ];
    for form in forms {
        for (path, props) in [
            ("description", json!({"description": form})),
            (
                "nested",
                json!({"spec": {"template": {"env": [{"name": "X", "value": form}]}}}),
            ),
            ("tag", json!({"Tags": [{"Key": "note", "Value": form}]})),
        ] {
            let findings = screen_value(&props, "props");
            assert!(
                findings.iter().any(|f| f.rule == ScreenRule::ValueShape),
                "{form:?} planted under {path} was not caught: {findings:?}"
            );
        }
    }
}
