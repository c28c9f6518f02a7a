//! Credentials never reach output: URL userinfo is masked wherever a string could carry it.

use regex::Regex;
use std::sync::LazyLock;

static USERINFO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([A-Za-z][A-Za-z0-9+.-]*://[^:/@\s]*):[^@\s]*@").unwrap());

static KEYWORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(password\s*=\s*)('[^']*'|\S+)").unwrap());

/// Mask `scheme://user:password@`, `password=…`, and the known secret itself.
pub fn mask(text: &str, secret: Option<&str>) -> String {
    let mut out = USERINFO.replace_all(text, "$1:***@").into_owned();
    out = KEYWORD.replace_all(&out, "$1***").into_owned();
    if let Some(secret) = secret.filter(|s| s.len() >= 3) {
        out = out.replace(secret, "***");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_keywords_and_the_secret_are_masked() {
        assert_eq!(
            mask("cannot reach postgres://app:hunter2@db:5432/shop", None),
            "cannot reach postgres://app:***@db:5432/shop"
        );
        assert_eq!(
            mask("host=db password=hunter2 user=app", None),
            "host=db password=*** user=app"
        );
        assert_eq!(
            mask("echoed hunter2 back", Some("hunter2")),
            "echoed *** back"
        );
        assert_eq!(
            mask("postgres://app@db/shop", None),
            "postgres://app@db/shop"
        );
    }
}
