//! The request screen: walks everything a behaviour request carries, keys and values,
//! before any transport exists.
//!
//! Three layers, and two blast radii:
//!
//! 1. a value that reads as a credential whatever its key is called (PEM blocks, JWTs,
//!    Authorization values, the issue prefixes of GitHub, GitLab, OpenAI, Stripe, Slack,
//!    AWS, Google and npm tokens), and
//! 2. a password in URL userinfo, with or without a scheme (`app:hunter2@db:5432/prod`),
//!
//! fail the whole lexicon: the request certainly holds a secret. The third layer is a
//! heuristic, so it refuses instead (cause `credential-in-request`), and only when
//!
//! 3. a key reads as a credential name, is outside the reference family (`secretName`,
//!    `secretKeyRef`, `imagePullSecrets`, `ClientToken`, `CertificateAuthorityArn`,
//!    `authorizedNetworks`, `passwordPolicy`, …), and its value is a string of at least
//!    eight characters that is neither an evident reference (`{{resolve:…}}`, `${VAR}`,
//!    an ARN, `projects/…/secrets/…`, a path) nor a symbolic word (an enum constant such as
//!    `REQUIRED` or `optional`).
//!
//! A structure deeper than the walk reads is refused too: a request the screen has not
//! read is not a request it has cleared. What none of this detects is a credential in a
//! format nobody added, a bare random string under a benign name, or a secret split
//! across fields. There is deliberately no entropy scoring: build output is full of ids,
//! digests and ARNs, and a heuristic that refused those would refuse real projects.

use super::reason::BehaviourUnpredictedReason;
use super::refusal::BehaviourRefusal;
use super::request::BehaviourRequest;
use crate::credentials::credential_form;
use crate::lexicon::HookError;
use regex::Regex;
use serde_json::Value;
use std::sync::LazyLock;

/// Shortest string the name layer suspects.
pub const MIN_CREDENTIAL_LENGTH: usize = 8;

/// How deep the walk descends (a Kubernetes pod template alone runs to a dozen levels).
pub const SCREEN_DEPTH: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenRule {
    /// A credential-shaped value (layers 1 and 2): the whole lexicon fails.
    ValueShape,
    /// A credential-named key holding a literal (layer 3): refused.
    KeyName,
    /// Deeper than the walk reads: refused.
    WalkDepth,
}

/// One objection: where, which rule, what in words. Never the value itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreenFinding {
    pub path: String,
    pub rule: ScreenRule,
    pub what: String,
}

/// The entry point every `predict_behaviour` opens with.
///
/// `Err(Failed)` when a value is a credential (the whole lexicon fails, nothing is sent);
/// `Ok(Some(refusal))` when only the name layer or the depth budget objected;
/// `Ok(None)` when the request may be sent.
pub fn screen_behaviour_request(
    lexicon: &str,
    request: &BehaviourRequest,
) -> Result<Option<BehaviourRefusal>, HookError> {
    let findings = find_credentials(request);
    let shaped: Vec<&ScreenFinding> = findings
        .iter()
        .filter(|f| f.rule == ScreenRule::ValueShape)
        .collect();
    if !shaped.is_empty() {
        return Err(HookError::Failed(format!(
            "the behaviour request carries a credential ({}); nothing was sent",
            describe(&shaped)
        )));
    }
    if findings.is_empty() {
        return Ok(None);
    }
    let all: Vec<&ScreenFinding> = findings.iter().collect();
    Ok(Some(BehaviourRefusal {
        lexicon: lexicon.to_owned(),
        cause: BehaviourUnpredictedReason::CredentialInRequest,
        reason: format!(
            "the {lexicon} behaviour request was not sent: {}",
            describe(&all)
        ),
        remedy: "declare the value as a reference (a secret manager lookup, a variable) instead of a literal, or rename a field that holds no secret".to_owned(),
        source: None,
        address: None,
    }))
}

fn describe(findings: &[&ScreenFinding]) -> String {
    findings
        .iter()
        .map(|f| format!("{} at {}", f.what, f.path))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Every objection to a request. Pure.
pub fn find_credentials(request: &BehaviourRequest) -> Vec<ScreenFinding> {
    let mut findings = Vec::new();
    let observe = &request.observe;
    let scalars = [
        ("environment", Some(&observe.environment)),
        ("namespace", observe.namespace.as_ref()),
        ("stack", observe.stack.as_ref()),
        ("region", observe.region.as_ref()),
        ("traffic", Some(&request.traffic.traffic)),
        ("failure", request.failure.as_ref()),
    ];
    for (path, value) in scalars {
        if let Some(value) = value {
            check_value(value, path, &mut findings);
        }
    }
    for entity in observe.entities.iter() {
        let base = format!("entities.{}", entity.name);
        check_value(&entity.name, &format!("{base}.name"), &mut findings);
        check_value(&entity.entity_type, &format!("{base}.type"), &mut findings);
        walk(&entity.props, &format!("{base}.props"), 0, &mut findings);
    }
    for (i, edge) in request.edges.list().unwrap_or_default().iter().enumerate() {
        for (field, value) in [
            ("from", &edge.from),
            ("to", &edge.to),
            ("label", &edge.label),
        ] {
            check_value(value, &format!("edges[{i}].{field}"), &mut findings);
        }
    }
    findings
}

/// The walk over one value tree; exposed so a lexicon can screen what it adds itself.
pub fn screen_value(value: &Value, path: &str) -> Vec<ScreenFinding> {
    let mut findings = Vec::new();
    walk(value, path, 0, &mut findings);
    findings
}

fn walk(value: &Value, path: &str, depth: usize, findings: &mut Vec<ScreenFinding>) {
    if depth > SCREEN_DEPTH {
        findings.push(ScreenFinding {
            path: path.to_owned(),
            rule: ScreenRule::WalkDepth,
            what: format!(
                "a structure deeper than {SCREEN_DEPTH} levels, which the screen did not read"
            ),
        });
        return;
    }
    match value {
        Value::String(text) => check_value(text, path, findings),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, &format!("{path}[{i}]"), depth + 1, findings);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let child = format!("{path}.{key}");
                check_value(key, &format!("{child} (key)"), findings);
                if let Value::String(text) = item
                    && holds_literal_credential(key, text)
                {
                    findings.push(ScreenFinding {
                        path: child.clone(),
                        rule: ScreenRule::KeyName,
                        what: format!("a literal under the credential-named field `{key}`"),
                    });
                }
                walk(item, &child, depth + 1, findings);
            }
        }
        _ => {}
    }
}

fn check_value(text: &str, path: &str, findings: &mut Vec<ScreenFinding>) {
    if let Some(form) = credential_form(text) {
        findings.push(ScreenFinding {
            path: path.to_owned(),
            rule: ScreenRule::ValueShape,
            what: format!("a {form}"),
        });
    }
}

/// The name layer: a credential-named key, outside the reference family, holding a
/// string that could be a secret.
pub fn holds_literal_credential(key: &str, value: &str) -> bool {
    value.chars().count() >= MIN_CREDENTIAL_LENGTH
        && !is_evident_reference(value)
        && !is_symbolic_word(value)
        && is_credential_key(key)
}

/// Words that make a key name a credential's.
const CREDENTIAL_WORDS: &[&str] = &[
    "password",
    "passwords",
    "passwd",
    "passphrase",
    "passcode",
    "secret",
    "secrets",
    "token",
    "tokens",
    "credential",
    "credentials",
    "apikey",
    "privatekey",
    "psk",
    "cookie",
    "auth",
    "authorization",
    "bearer",
];

/// Adjacent word pairs that name a key or secret (`privateKey`, `api_key`, `SecretAccessKey`).
const CREDENTIAL_PAIRS: &[(&str, &str)] = &[
    ("private", "key"),
    ("api", "key"),
    ("access", "key"),
    ("secret", "key"),
    ("session", "key"),
    ("signing", "key"),
    ("shared", "key"),
    ("auth", "key"),
    ("client", "secret"),
];

/// Whole names that are never credential material whatever they contain.
const REFERENCE_NAMES: &[&str] = &[
    "imagepullsecrets",
    "clienttoken",
    "automountserviceaccounttoken",
    // CloudFormation's custom resource provider: a Lambda or SNS ARN.
    "servicetoken",
    // Pagination cursors.
    "continuetoken",
    "nexttoken",
    "pagetoken",
];

/// Whole names that are a credential although no credential word is in them.
const EXACT_CREDENTIAL_NAMES: &[&str] = &["pat"];

/// A key ending in one of these names a reference to, or a setting about, a credential —
/// never the credential itself (`secretName`, `secretKeyRef`, `passwordPolicy`,
/// `CertificateAuthorityArn`, `authMode`, `tokenEndpoint`).
const REFERENCE_TAILS: &[&str] = &[
    "name",
    "names",
    "ref",
    "refs",
    "reference",
    "references",
    "id",
    "ids",
    "arn",
    "arns",
    "uri",
    "uris",
    "url",
    "urls",
    "endpoint",
    "endpoints",
    "path",
    "paths",
    "file",
    "files",
    "location",
    "locations",
    "mode",
    "modes",
    "type",
    "types",
    "method",
    "methods",
    "scheme",
    "schemes",
    "strategy",
    "policy",
    "policies",
    "scope",
    "scopes",
    "count",
    "enabled",
    "disabled",
    "required",
    "version",
    "versions",
    "config",
    "configs",
    "configuration",
    "configurations",
    "settings",
    "options",
    "length",
    "expiration",
    "expiry",
    "ttl",
    "duration",
    "seconds",
    "minutes",
    "hours",
    "days",
    "period",
    "interval",
    "provider",
    "providers",
    "source",
    "sources",
    "prefix",
    "suffix",
    "parameter",
    "parameters",
    "template",
    "selector",
    "selectors",
    "host",
    "hosts",
    "header",
    "headers",
    "format",
    "algorithm",
    "status",
    "store",
    "issuer",
    "issuers",
    "expression",
    "mechanism",
    "behavior",
    "behaviour",
    "vendor",
    "role",
    "roles",
    "generation",
    "challenge",
    "response",
    "rotation",
    "manager",
    "arguments",
    "network",
    "networks",
    "field",
    "fields",
    "key",
    "keys",
    "label",
    "labels",
    "annotations",
    "collection",
    "validity",
    "enforcement",
    "domain",
    "port",
    "namespace",
    "namespaces",
    "audience",
    "audiences",
    "level",
    "size",
    "usage",
    "permissions",
    "grants",
    "properties",
    "spec",
    "specification",
    "lifetime",
    "timeout",
    "action",
    "actions",
    "state",
];

fn words(key: &str) -> Vec<String> {
    static WORD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"[A-Z]+(?:[0-9]+)?(?:[a-z]+)?|[a-z]+|[0-9]+").expect("word pattern")
    });
    let mut out = Vec::new();
    for part in key.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = part;
        // An acronym run followed by a word (`IAMAuth`, `TLSKey`) splits before its last capital.
        while let Some(m) = WORD.find(chars) {
            let token = m.as_str();
            let upper = token.chars().take_while(char::is_ascii_uppercase).count();
            if upper > 1 && token.len() > upper {
                let (acronym, rest) = token.split_at(upper - 1);
                out.push(acronym.to_lowercase());
                out.push(rest.to_lowercase());
            } else {
                out.push(token.to_lowercase());
            }
            chars = &chars[m.end()..];
        }
    }
    out
}

/// Whether a key's name reads as a credential, outside the reference family.
pub fn is_credential_key(key: &str) -> bool {
    let squashed: String = key
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_lowercase();
    if EXACT_CREDENTIAL_NAMES.contains(&squashed.as_str()) {
        return true;
    }
    if REFERENCE_NAMES.contains(&squashed.as_str()) {
        return false;
    }
    let w = words(key);
    let Some(last) = w.last() else {
        return false;
    };
    let pair_at_end =
        w.len() >= 2 && CREDENTIAL_PAIRS.contains(&(w[w.len() - 2].as_str(), last.as_str()));
    if REFERENCE_TAILS.contains(&last.as_str()) && !pair_at_end {
        return false;
    }
    w.iter()
        .any(|word| CREDENTIAL_WORDS.contains(&word.as_str()))
        || w.windows(2)
            .any(|p| CREDENTIAL_PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}

/// A pointer to a secret rather than a secret: how a correct declaration writes one.
pub fn is_evident_reference(value: &str) -> bool {
    static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"^(?:\{\{[^}]+\}\}",                        // {{resolve:secretsmanager:…}}
            r"|\$\{[^}]+\}|\$\([^)]+\)",                 // ${VAR}, $(VAR)
            r"|!(?:Ref|GetAtt|Sub|ImportValue)\b.*",     // YAML intrinsics
            r"|arn:[a-z0-9-]*:[a-z0-9-]+:.*",            // any ARN
            r"|projects/[^/]+/(?:secrets|locations)/.+", // GCP resource names
            r"|(?:vault|ssm|secretsmanager|op|sm|kms|awskms|gcpkms|azurekeyvault)://.+",
            r"|/[^\s]*", // an absolute path
            r")$"
        ))
        .expect("reference pattern")
    });
    REFERENCE.is_match(value.trim())
}

/// An enum constant or a variable name (`REQUIRED`, `optional`, `DB_PASSWORD`,
/// `client-secret-basic`, `AllowAll`), not secret material: letters only, in one
/// convention, and short. A literal with a digit or mixed noise in it is not one.
pub fn is_symbolic_word(value: &str) -> bool {
    static UPPER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^[A-Z]+(?:[-_.][A-Z]+)*$").expect("upper pattern"));
    static LOWER_JOINED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^[a-z]+(?:[-_.][a-z]+)+$").expect("lower pattern"));
    static PASCAL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(?:[A-Z][a-z]+)+$").expect("pascal pattern"));
    let len = value.len();
    (UPPER.is_match(value) && len <= 40)
        || (LOWER_JOINED.is_match(value) && len <= 32)
        || (PASCAL.is_match(value) && len <= 32)
        || (len <= 16 && value.chars().all(|c| c.is_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::behaviour::edges::Edges;
    use crate::behaviour::figures::TrafficLevel;
    use crate::{DeclaredEntity, ObserveRequest, ProjectMarker};
    use serde_json::json;

    fn request(props: Value) -> BehaviourRequest {
        BehaviourRequest::new(
            ObserveRequest::new(
                "dev",
                ProjectMarker::new("shop", "dev"),
                vec![DeclaredEntity::new("db", "Demo::Database", props)],
            ),
            TrafficLevel::new("100 rps"),
            Edges::NotComputed,
        )
    }

    #[test]
    fn a_credential_value_fails_the_lexicon_whatever_the_key() {
        for value in [
            "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdef",
            "Bearer abcdefghijklmnop1234",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "glpat-abcdefghijklmnopqrstu",
            "sk-proj-abcdefghijklmnopqrstuvwx",
            "sk_live_abcdefghijklmnop1234",
            "xoxb-1234567890-abcdef",
            "AKIAIOSFODNN7EXAMPLE",
            "AIzaSyA1234567890abcdefghijklmnopqrstuv",
            "npm_abcdefghijklmnopqrstuvwxyz0123456789",
            "app:hunter2@db:5432/prod",
            "postgres://app:hunter2@db:5432/prod",
        ] {
            let outcome =
                screen_behaviour_request("acme", &request(json!({"dsn": {"nested": [value]}})));
            let Err(HookError::Failed(message)) = outcome else {
                panic!("{value} was not caught: {outcome:?}")
            };
            assert!(
                !message.contains(value),
                "the message repeats the value: {message}"
            );
            assert!(
                message.contains("entities.db.props.dsn.nested[0]"),
                "{message}"
            );
        }
    }

    #[test]
    fn a_credential_named_literal_is_refused_not_failed() {
        let refused =
            screen_behaviour_request("acme", &request(json!({"password": "hunter2-prod"})))
                .unwrap()
                .unwrap();
        assert_eq!(
            refused.cause,
            BehaviourUnpredictedReason::CredentialInRequest
        );
        assert!(refused.reason.contains("entities.db.props.password"));
        assert!(!refused.reason.contains("hunter2"));
    }

    #[test]
    fn the_name_layer_is_gated_on_the_value() {
        for props in [
            json!({"password": "short"}),
            json!({"password": "{{resolve:secretsmanager:prod/db:SecretString:password}}"}),
            json!({"password": "${DB_PASSWORD}"}),
            json!({"authToken": "arn:aws:secretsmanager:eu-west-1:1:secret:x"}),
            json!({"secretFile": "/etc/ceph/user.secret"}),
            json!({"HttpTokens": "required"}),
            json!({"IAMAuth": "DISABLED"}),
            json!({"password": 12345678}),
            json!({"tags": {"author": "somebody-long"}}),
            json!({"image": "nginx:1.25@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}),
        ] {
            assert_eq!(
                screen_behaviour_request("acme", &request(props.clone())).unwrap(),
                None,
                "{props}"
            );
        }
    }

    #[test]
    fn the_reference_family_is_not_a_credential() {
        for key in [
            "imagePullSecrets",
            "secretName",
            "secretKeyRef",
            "ClientToken",
            "CertificateAuthorityArn",
            "authorizedNetworks",
            "passwordPolicy",
            "automountServiceAccountToken",
            "tokenEndpoint",
            "authMode",
            "author",
            "SecretArn",
            "KmsKeyId",
            "ApiKeySelectionExpression",
            "PasswordLength",
        ] {
            assert!(!is_credential_key(key), "{key}");
        }
        for key in [
            "password",
            "MasterUserPassword",
            "clientSecret",
            "apiKey",
            "api_key",
            "x-api-key",
            "privateKey",
            "SecretAccessKey",
            "AuthToken",
            "refreshToken",
            "Authorization",
            "AuthKey",
            "DbPassword",
            "PreSharedKey",
            "pat",
        ] {
            assert!(is_credential_key(key), "{key}");
        }
    }

    #[test]
    fn a_tree_deeper_than_the_walk_is_refused() {
        let mut deep = json!("leaf");
        for _ in 0..40 {
            deep = json!({ "a": deep });
        }
        let refused = screen_behaviour_request("acme", &request(deep))
            .unwrap()
            .unwrap();
        assert!(refused.reason.contains("deeper than"));
    }

    #[test]
    fn edges_and_scalars_are_screened_too() {
        let mut asked = request(json!({}));
        asked.failure = Some("Bearer abcdefghijklmnop1234".into());
        assert!(screen_behaviour_request("acme", &asked).is_err());
    }
}
