//! Credential-shaped text: recognised by value, whatever the key is called. Used as a
//! backstop on everything a lexicon hands core for display (whoami rows, details), and
//! by the behaviour request screen.

use regex::Regex;
use std::sync::LazyLock;

/// A recognised credential form and the pattern that finds it inside longer text.
struct Form {
    name: &'static str,
    pattern: &'static str,
}

const FORMS: &[Form] = &[
    Form {
        name: "PEM private key",
        pattern: r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)",
    },
    Form {
        name: "JWT",
        pattern: r"\beyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*",
    },
    Form {
        name: "Authorization value",
        pattern: r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{12,}",
    },
    Form {
        name: "GitHub token",
        pattern: r"\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})",
    },
    Form {
        name: "GitLab token",
        pattern: r"\bglpat-[A-Za-z0-9_-]{20,}",
    },
    Form {
        name: "OpenAI key",
        pattern: r"\bsk-(proj-|svcacct-)?[A-Za-z0-9_-]{20,}",
    },
    Form {
        name: "Stripe key",
        pattern: r"\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}",
    },
    Form {
        name: "Slack token",
        pattern: r"\bxox[abposr]-[A-Za-z0-9-]{10,}",
    },
    Form {
        name: "AWS access key id",
        pattern: r"\b(AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
    },
    Form {
        name: "Google API key",
        pattern: r"\bAIza[0-9A-Za-z_-]{35}",
    },
    Form {
        name: "npm token",
        pattern: r"\bnpm_[A-Za-z0-9]{36}",
    },
    // user:password@host, with or without a scheme (`app:hunter2@db:5432/prod`).
    Form {
        name: "password in URL userinfo",
        pattern: r"(?:\b[a-z][a-z0-9+.-]*://)?[A-Za-z0-9._%~-]+:[^\s:@/]+@[A-Za-z0-9.-]+",
    },
];

static COMPILED: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    FORMS
        .iter()
        .filter_map(|f| Regex::new(f.pattern).ok().map(|r| (f.name, r)))
        .collect()
});

static USERINFO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?P<scheme>\b[a-z][a-z0-9+.-]*://)?(?P<user>[A-Za-z0-9._%~-]+):[^\s:@/]+@")
        .expect("userinfo pattern")
});

const USERINFO_FORM: &str = "password in URL userinfo";

/// `name:tag@sha256:…` is an image pinned by digest, not a password in userinfo.
fn pinned_by_digest(rest: &str) -> bool {
    ["sha256:", "sha384:", "sha512:"]
        .iter()
        .any(|algorithm| rest.starts_with(algorithm))
}

/// The credential form `text` contains, if any.
pub fn credential_form(text: &str) -> Option<&'static str> {
    COMPILED
        .iter()
        .find(|(name, re)| {
            if *name == USERINFO_FORM {
                re.find_iter(text).any(|m| {
                    !pinned_by_digest(text[m.start()..].split_once('@').map_or("", |(_, r)| r))
                })
            } else {
                re.is_match(text)
            }
        })
        .map(|(name, _)| *name)
}

/// `text` with every credential-shaped part replaced; a URL keeps its user, loses its password.
pub fn scrub_credentials(text: &str) -> String {
    let mut out = USERINFO
        .replace_all(text, |caps: &regex::Captures| {
            let whole = caps.get(0).expect("a match");
            if pinned_by_digest(&text[whole.end()..]) {
                return whole.as_str().to_owned();
            }
            let scheme = caps.name("scheme").map_or("", |m| m.as_str());
            format!("{scheme}{}:[REDACTED]@", &caps["user"])
        })
        .into_owned();
    for (name, re) in COMPILED.iter() {
        if *name == USERINFO_FORM {
            continue;
        }
        out = re.replace_all(&out, "[REDACTED]").into_owned();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_is_recognised() {
        let samples = [
            (
                "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
                "PEM private key",
            ),
            (
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdef",
                "JWT",
            ),
            ("Bearer abcdefghijklmnop1234", "Authorization value"),
            ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "GitHub token"),
            ("glpat-abcdefghijklmnopqrstu", "GitLab token"),
            ("sk-proj-abcdefghijklmnopqrstuvwx", "OpenAI key"),
            ("sk_live_abcdefghijklmnop1234", "Stripe key"),
            ("xoxb-1234567890-abcdef", "Slack token"),
            ("AKIAIOSFODNN7EXAMPLE", "AWS access key id"),
            ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "Google API key"),
            ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm token"),
            ("app:hunter2@db:5432/prod", "password in URL userinfo"),
            (
                "postgres://app:hunter2@db:5432/prod",
                "password in URL userinfo",
            ),
        ];
        for (text, form) in samples {
            assert_eq!(credential_form(text), Some(form), "{text}");
        }
    }

    #[test]
    fn ordinary_identifiers_are_not_credentials() {
        for text in [
            "arn:aws:iam::123456789012:role/deploy",
            "system:serviceaccount:shop:deployer",
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "https://127.0.0.1:6443",
            "postgres://127.0.0.1:5432/shop",
            "kind-dev / shop",
            "nginx:1.25@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ] {
            assert_eq!(credential_form(text), None, "{text}");
        }
    }

    #[test]
    fn scrubbing_keeps_the_user_and_drops_the_secret() {
        assert_eq!(
            scrub_credentials("postgres://app:hunter2@db:5432/prod"),
            "postgres://app:[REDACTED]@db:5432/prod"
        );
        assert_eq!(
            scrub_credentials("token Bearer abcdefghijklmnop1234 sent"),
            "token [REDACTED] sent"
        );
        assert_eq!(scrub_credentials("nothing here"), "nothing here");
        let pinned = "registry.local/app:1.2@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b";
        assert_eq!(scrub_credentials(pinned), pinned);
    }
}
