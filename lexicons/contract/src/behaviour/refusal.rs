//! The refusal arm: no figures at all, a cause, the sentence to print and what to do.
//! Every wire condition a transport sees becomes a refusal in one place,
//! [`behaviour_wire_refusal`], so both transports name the same remedies.

use super::engine::{Resolved, engine_variables};
use super::reason::BehaviourUnpredictedReason;
use crate::credentials::scrub_credentials;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;
use std::time::Duration;

/// Why there is no report, and what to do about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BehaviourRefusal {
    pub lexicon: String,
    pub cause: BehaviourUnpredictedReason,
    /// The sentence a consumer prints.
    pub reason: String,
    /// How to fix it: the variable to set, the address to check.
    pub remedy: String,
    /// The variable that named the engine (or the token), when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The engine's address, with anything secret-shaped removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

/// No variable in the chain names an engine.
pub fn no_behaviour_engine_refusal(lexicon: &str) -> BehaviourRefusal {
    let [scoped, chant, bare] = engine_variables(lexicon);
    BehaviourRefusal {
        lexicon: lexicon.to_owned(),
        cause: BehaviourUnpredictedReason::NoEngine,
        reason: format!(
            "no behaviour engine is configured for the {lexicon} estate, so nothing was predicted and no figure is guessed"
        ),
        remedy: format!(
            "set {chant} (or {scoped} for this lexicon alone, or {bare}) to the engine's URL or a command on PATH"
        ),
        source: None,
        address: None,
    }
}

/// A URL is named and no token is set: refused before anything is sent.
pub fn missing_token_refusal(
    lexicon: &str,
    endpoint: &Resolved,
    token_variables: &[String; 3],
) -> BehaviourRefusal {
    BehaviourRefusal {
        lexicon: lexicon.to_owned(),
        cause: BehaviourUnpredictedReason::NoEngine,
        reason: format!(
            "the {lexicon} behaviour engine at {}, named by {}, needs a bearer token and none is set; nothing was sent",
            redact_engine_address(&endpoint.value),
            endpoint.variable
        ),
        remedy: format!(
            "set {} (or {} for this lexicon alone) to the engine's token",
            token_variables[1], token_variables[0]
        ),
        source: Some(endpoint.variable.clone()),
        address: Some(redact_engine_address(&endpoint.value)),
    }
}

/// What a transport saw on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireCondition {
    /// The engine answered with a status that is not a success.
    Status {
        code: u16,
        body: String,
    },
    /// No connection, or the connection broke.
    Connect(String),
    TimedOut(Duration),
    /// The engine's program could not be started.
    NotStarted(String),
    /// The engine's program exited unsuccessfully.
    Exited {
        code: Option<i32>,
        stderr: String,
    },
    /// The engine answered, but not with an answer to the question asked.
    BadAnswer(String),
}

/// The one place a wire condition becomes a refusal. `token_variable` is the variable
/// that supplied the token, when one was sent; `secrets` are scrubbed from any text the
/// engine sent back (an engine may echo the token into an error body).
pub fn behaviour_wire_refusal(
    lexicon: &str,
    endpoint: &Resolved,
    token_variable: Option<&str>,
    condition: &WireCondition,
    secrets: &[&str],
) -> BehaviourRefusal {
    let address = redact_engine_address(&endpoint.value);
    let named = &endpoint.variable;
    let detail = |text: &str| scrub_engine_detail(text, secrets);
    let (cause, reason, remedy) = match condition {
        WireCondition::Status {
            code: 401 | 403,
            body,
        } => {
            let token = token_variable.unwrap_or("the token variable");
            (
                BehaviourUnpredictedReason::NoEngine,
                format!(
                    "the {lexicon} behaviour engine at {address}, named by {named}, rejected the token from {token} (HTTP {}): {}",
                    status_code(condition),
                    detail(body)
                ),
                format!("set {token} to a token this engine accepts"),
            )
        }
        WireCondition::Status { code: 402, body } => (
            BehaviourUnpredictedReason::EngineOutOfCredit,
            format!(
                "the {lexicon} behaviour engine at {address}, named by {named}, answered and refused: the account behind it is out of credit ({}); the address is fine",
                detail(body)
            ),
            format!("add credit to the account behind {named}, or point it at a funded engine"),
        ),
        WireCondition::Status { code: 429, body } => (
            BehaviourUnpredictedReason::EngineOverQuota,
            format!(
                "the {lexicon} behaviour engine at {address}, named by {named}, answered and refused: a rate or volume limit is spent ({}); the account has credit and the address is fine",
                detail(body)
            ),
            format!(
                "wait for the engine's window to roll over, or raise the limit on the account behind {named}"
            ),
        ),
        other => (
            BehaviourUnpredictedReason::EngineUnreachable,
            format!(
                "the {lexicon} behaviour engine at {address}, named by {named}, did not answer: {}; no figure is guessed locally",
                detail(&describe(other))
            ),
            format!("check that the engine at {address} is up and reachable, or repoint {named}"),
        ),
    };
    BehaviourRefusal {
        lexicon: lexicon.to_owned(),
        cause,
        reason,
        remedy,
        source: Some(
            token_variable
                .filter(|_| {
                    matches!(
                        condition,
                        WireCondition::Status {
                            code: 401 | 403,
                            ..
                        }
                    )
                })
                .unwrap_or(named)
                .to_owned(),
        ),
        address: Some(address),
    }
}

fn status_code(condition: &WireCondition) -> u16 {
    match condition {
        WireCondition::Status { code, .. } => *code,
        _ => 0,
    }
}

fn describe(condition: &WireCondition) -> String {
    match condition {
        WireCondition::Status { code, body } if body.trim().is_empty() => format!("HTTP {code}"),
        WireCondition::Status { code, body } => format!("HTTP {code}: {body}"),
        WireCondition::Connect(message) => format!("connection failed ({message})"),
        WireCondition::TimedOut(limit) => format!("no answer within {}s", limit.as_secs().max(1)),
        WireCondition::NotStarted(message) => format!("could not start ({message})"),
        WireCondition::Exited { code, stderr } => {
            let status = code.map_or("was killed".to_owned(), |c| format!("exited {c}"));
            if stderr.trim().is_empty() {
                status
            } else {
                format!("{status}: {stderr}")
            }
        }
        WireCondition::BadAnswer(message) => format!("its answer was not usable ({message})"),
    }
}

static URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b[a-z][a-z0-9+.-]*://[^\s]+").expect("url pattern"));
static FLAG_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(--?[a-z0-9-]*(?:secret|token|password|passwd|key|credential|auth)[a-z0-9-]*)([=\s]+)(\S+)",
    )
    .expect("flag pattern")
});

/// An engine address safe to print: a URL loses its userinfo, query and fragment; a
/// command loses the values of secret-looking flags; known credential shapes are removed.
pub fn redact_engine_address(value: &str) -> String {
    let urls_cleaned = URL.replace_all(value, |caps: &regex::Captures| strip_url(&caps[0]));
    let flags_cleaned = FLAG_VALUE.replace_all(&urls_cleaned, "${1}${2}[REDACTED]");
    scrub_credentials(&flags_cleaned)
}

fn strip_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let host = match authority.rsplit_once('@') {
        Some((_, host)) => format!("[REDACTED]@{host}"),
        None => authority.to_owned(),
    };
    let path_end = tail.find(['?', '#']).unwrap_or(tail.len());
    let mut out = format!("{scheme}://{host}{}", &tail[..path_end]);
    if tail[path_end..].starts_with('?') {
        out.push_str("?[REDACTED]");
    }
    if tail.contains('#') {
        out.push_str("#[REDACTED]");
    }
    out
}

/// How much engine-supplied text a refusal repeats.
const MAX_ENGINE_DETAIL: usize = 200;

/// Engine-supplied text, bounded and scrubbed: each secret removed wherever it appears,
/// URLs reduced to their host, credential shapes redacted, whitespace collapsed.
pub fn scrub_engine_detail(detail: &str, secrets: &[&str]) -> String {
    let mut text = detail.to_owned();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        text = text.replace(secret, "[REDACTED]");
    }
    let text = URL.replace_all(&text, |caps: &regex::Captures| {
        let rest = caps[0].split_once("://").map_or("", |(_, r)| r);
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        authority
            .rsplit_once('@')
            .map_or(authority, |(_, host)| host)
            .to_owned()
    });
    let text = scrub_credentials(&text);
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() > MAX_ENGINE_DETAIL {
        let cut: String = collapsed.chars().take(MAX_ENGINE_DETAIL).collect();
        format!("{cut}…")
    } else {
        collapsed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(value: &str) -> Resolved {
        Resolved {
            value: value.into(),
            variable: "CHANT_BEHAVIOUR_ENGINE".into(),
        }
    }

    #[test]
    fn each_status_has_its_own_cause_and_remedy() {
        let e = endpoint("http://127.0.0.1:9/predict");
        let at = |code| {
            behaviour_wire_refusal(
                "acme",
                &e,
                Some("CHANT_BEHAVIOUR_TOKEN"),
                &WireCondition::Status {
                    code,
                    body: "nope".into(),
                },
                &[],
            )
        };
        assert_eq!(at(402).cause, BehaviourUnpredictedReason::EngineOutOfCredit);
        assert_eq!(at(429).cause, BehaviourUnpredictedReason::EngineOverQuota);
        assert_eq!(at(401).cause, BehaviourUnpredictedReason::NoEngine);
        assert!(at(403).remedy.contains("CHANT_BEHAVIOUR_TOKEN"));
        assert_eq!(at(401).source.as_deref(), Some("CHANT_BEHAVIOUR_TOKEN"));
        assert_eq!(at(500).cause, BehaviourUnpredictedReason::EngineUnreachable);
        assert_eq!(at(404).cause, BehaviourUnpredictedReason::EngineUnreachable);
        assert!(at(500).remedy.contains("http://127.0.0.1:9/predict"));
        for condition in [
            WireCondition::Connect("refused".into()),
            WireCondition::TimedOut(Duration::from_secs(2)),
            WireCondition::NotStarted("not found".into()),
            WireCondition::Exited {
                code: Some(3),
                stderr: "boom".into(),
            },
            WireCondition::BadAnswer("not JSON".into()),
        ] {
            let refusal = behaviour_wire_refusal("acme", &e, None, &condition, &[]);
            assert_eq!(refusal.cause, BehaviourUnpredictedReason::EngineUnreachable);
            assert_eq!(refusal.source.as_deref(), Some("CHANT_BEHAVIOUR_ENGINE"));
        }
    }

    #[test]
    fn an_echoed_token_never_reaches_the_refusal() {
        let token = "tok_0123456789abcdef";
        let refusal = behaviour_wire_refusal(
            "acme",
            &endpoint("http://127.0.0.1:9"),
            Some("CHANT_BEHAVIOUR_TOKEN"),
            &WireCondition::Status {
                code: 402,
                body: format!("no credit for Bearer {token} (token {token})"),
            },
            &[token],
        );
        let text = serde_json::to_string(&refusal).unwrap();
        assert!(!text.contains(token), "{text}");
        assert!(!text.contains("0123456789abcdef"), "{text}");
    }

    #[test]
    fn addresses_lose_userinfo_query_fragment_and_flag_values() {
        assert_eq!(
            redact_engine_address("https://svc:s3cr3t@engine.internal/predict?key=abc#t=1"),
            "https://[REDACTED]@engine.internal/predict?[REDACTED]#[REDACTED]"
        );
        assert_eq!(
            redact_engine_address("acme-engine --token=abc123 --region eu"),
            "acme-engine --token=[REDACTED] --region eu"
        );
        assert_eq!(
            redact_engine_address("http://127.0.0.1:8080/predict"),
            "http://127.0.0.1:8080/predict"
        );
    }

    #[test]
    fn engine_detail_is_bounded_and_urls_become_hosts() {
        let long = "x ".repeat(500);
        assert!(scrub_engine_detail(&long, &[]).chars().count() <= MAX_ENGINE_DETAIL + 1);
        assert_eq!(
            scrub_engine_detail("see https://u:p@billing.example/acct/42?sig=1 now", &[]),
            "see billing.example now"
        );
    }
}
