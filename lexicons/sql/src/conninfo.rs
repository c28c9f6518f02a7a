//! libpq's TLS parameters (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`), taken out of a
//! connection string before tokio-postgres reads the rest: it knows neither `verify-ca` /
//! `verify-full` nor the certificate paths, and refuses a string that names them.
//!
//! Both spellings libpq accepts are handled: a URL (`postgres://…?sslmode=verify-full`)
//! and key/value pairs (`host=db sslmode='verify-full'`). Anything the connection string
//! leaves unset falls back to the matching variable (`PGSSLMODE`, …), as in libpq.

use percent_encoding::percent_decode_str;
use std::path::Path;

/// The parameters, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsParams {
    pub sslmode: Option<String>,
    pub sslrootcert: Option<String>,
    pub sslcert: Option<String>,
    pub sslkey: Option<String>,
}

const VARIABLES: [(&str, &str); 4] = [
    ("sslmode", "PGSSLMODE"),
    ("sslrootcert", "PGSSLROOTCERT"),
    ("sslcert", "PGSSLCERT"),
    ("sslkey", "PGSSLKEY"),
];

impl TlsParams {
    fn slot(&mut self, key: &str) -> Option<&mut Option<String>> {
        match key {
            "sslmode" => Some(&mut self.sslmode),
            "sslrootcert" => Some(&mut self.sslrootcert),
            "sslcert" => Some(&mut self.sslcert),
            "sslkey" => Some(&mut self.sslkey),
            _ => None,
        }
    }

    /// Fill what is unset from libpq's variables (`var` looks one up by name).
    pub fn or_variables(mut self, var: impl Fn(&str) -> Option<String>) -> Self {
        for (key, variable) in VARIABLES {
            if let Some(slot) = self.slot(key)
                && slot.is_none()
            {
                *slot = var(variable);
            }
        }
        self
    }

    /// What is still unset from libpq's files under `~/.postgresql/`, each only when it
    /// exists, as libpq reads them: `root.crt` as the root (so `require` verifies the chain
    /// and `verify-*` trust it rather than the platform's store), `postgresql.crt` with
    /// `postgresql.key` as the client identity.
    pub fn or_home_files(mut self, home: Option<&Path>) -> Self {
        let Some(dir) = home.map(|h| h.join(".postgresql")) else {
            return self;
        };
        let existing = |name: &str| {
            let path = dir.join(name);
            path.is_file().then(|| path.display().to_string())
        };
        if self.sslrootcert.is_none() {
            self.sslrootcert = existing("root.crt");
        }
        if self.sslcert.is_none()
            && self.sslkey.is_none()
            && let (Some(cert), Some(key)) =
                (existing("postgresql.crt"), existing("postgresql.key"))
        {
            self.sslcert = Some(cert);
            self.sslkey = Some(key);
        }
        self
    }
}

/// The connection string without libpq's TLS parameters, and those parameters.
pub fn take_tls_params(conninfo: &str) -> (String, TlsParams) {
    let trimmed = conninfo.trim();
    if trimmed.starts_with("postgres://") || trimmed.starts_with("postgresql://") {
        take_from_url(trimmed)
    } else {
        take_from_pairs(trimmed)
    }
}

fn take_from_url(url: &str) -> (String, TlsParams) {
    let mut params = TlsParams::default();
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_owned(), params);
    };
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode_str(key).decode_utf8_lossy();
        match params.slot(&key) {
            Some(slot) => *slot = Some(percent_decode_str(value).decode_utf8_lossy().into_owned()),
            None => kept.push(pair),
        }
    }
    if kept.is_empty() {
        (base.to_owned(), params)
    } else {
        (format!("{base}?{}", kept.join("&")), params)
    }
}

/// One `key = value` pair: the key, the unescaped value, and where it ends.
fn next_pair(text: &str, start: usize) -> Option<(String, String, usize)> {
    let rest = &text[start..];
    let key_len = rest.find(|c: char| c == '=' || c.is_whitespace())?;
    let key = rest[..key_len].to_owned();
    let after_key = rest[key_len..].trim_start();
    let after_eq = after_key.strip_prefix('=')?.trim_start();
    let value_start = text.len() - after_eq.len();
    let mut value = String::new();
    let mut chars = after_eq.char_indices();
    let quoted = after_eq.starts_with('\'');
    if quoted {
        chars.next();
    }
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => value.extend(chars.next().map(|(_, c)| c)),
            '\'' if quoted => return Some((key, value, value_start + i + 1)),
            c if !quoted && c.is_whitespace() => return Some((key, value, value_start + i)),
            c => value.push(c),
        }
    }
    // An unterminated quote is tokio-postgres's to report.
    (!quoted).then_some((key, value, text.len()))
}

fn take_from_pairs(text: &str) -> (String, TlsParams) {
    let mut params = TlsParams::default();
    let mut kept = Vec::new();
    let mut position = 0;
    loop {
        let start = text.len() - text[position..].trim_start().len();
        if start == text.len() {
            break;
        }
        let Some((key, value, end)) = next_pair(text, start) else {
            kept.push(&text[start..]);
            break;
        };
        match params.slot(&key) {
            Some(slot) => *slot = Some(value),
            None => kept.push(&text[start..end]),
        }
        position = end;
    }
    (kept.join(" "), params)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(mode: &str, root: Option<&str>) -> TlsParams {
        TlsParams {
            sslmode: Some(mode.to_owned()),
            sslrootcert: root.map(str::to_owned),
            ..TlsParams::default()
        }
    }

    #[test]
    fn a_url_gives_up_its_tls_parameters_and_keeps_the_rest() {
        let (rest, taken) = take_tls_params(
            "postgres://app:pw@db:5432/shop?sslmode=verify-full&connect_timeout=5&sslrootcert=%2Fetc%2Fca.pem",
        );
        assert_eq!(rest, "postgres://app:pw@db:5432/shop?connect_timeout=5");
        assert_eq!(taken, params("verify-full", Some("/etc/ca.pem")));

        let (rest, taken) =
            take_tls_params("postgresql://db/shop?sslcert=c.pem&sslkey=k.pem&sslmode=require");
        assert_eq!(rest, "postgresql://db/shop");
        assert_eq!(taken.sslcert.as_deref(), Some("c.pem"));
        assert_eq!(taken.sslkey.as_deref(), Some("k.pem"));
        assert_eq!(taken.sslmode.as_deref(), Some("require"));

        let (rest, taken) = take_tls_params("postgres://db/shop");
        assert_eq!(rest, "postgres://db/shop");
        assert_eq!(taken, TlsParams::default());
    }

    #[test]
    fn the_files_under_home_postgresql_fill_only_what_is_unset_and_exists() {
        let home = tempfile::tempdir().unwrap();
        let dot = home.path().join(".postgresql");
        std::fs::create_dir_all(&dot).unwrap();
        let at = |name: &str| dot.join(name).display().to_string();

        // Nothing there: nothing filled.
        assert_eq!(
            TlsParams::default().or_home_files(Some(home.path())),
            TlsParams::default()
        );

        std::fs::write(dot.join("root.crt"), "pem").unwrap();
        std::fs::write(dot.join("postgresql.crt"), "pem").unwrap();
        let filled = TlsParams::default().or_home_files(Some(home.path()));
        assert_eq!(filled.sslrootcert, Some(at("root.crt")));
        // A certificate without its key is not an identity.
        assert_eq!((filled.sslcert, filled.sslkey), (None, None));

        std::fs::write(dot.join("postgresql.key"), "pem").unwrap();
        let filled = TlsParams::default().or_home_files(Some(home.path()));
        assert_eq!(filled.sslcert, Some(at("postgresql.crt")));
        assert_eq!(filled.sslkey, Some(at("postgresql.key")));

        // What the connection string or a variable named wins.
        let named = params("require", Some("/etc/ca.pem")).or_home_files(Some(home.path()));
        assert_eq!(named.sslrootcert.as_deref(), Some("/etc/ca.pem"));
        assert_eq!(
            TlsParams::default().or_home_files(None),
            TlsParams::default()
        );
    }

    #[test]
    fn key_value_pairs_give_up_theirs_quoted_or_not() {
        let (rest, taken) = take_tls_params(
            "host=db sslmode = 'verify-ca'  user=app sslrootcert='/ca dir/it\\'s.pem' password='a b'",
        );
        assert_eq!(rest, "host=db user=app password='a b'");
        assert_eq!(taken, params("verify-ca", Some("/ca dir/it's.pem")));

        let (rest, taken) = take_tls_params("host=db dbname=shop");
        assert_eq!(rest, "host=db dbname=shop");
        assert_eq!(taken, TlsParams::default());
    }

    #[test]
    fn a_malformed_string_is_left_for_tokio_postgres_to_refuse() {
        let (rest, _) = take_tls_params("host=db sslmode='verify-full");
        assert_eq!(rest, "host=db sslmode='verify-full");
        let (rest, _) = take_tls_params("host=db garbage");
        assert_eq!(rest, "host=db garbage");
    }

    #[test]
    fn unset_parameters_fall_back_to_the_libpq_variables() {
        let vars = |name: &str| match name {
            "PGSSLMODE" => Some("require".to_owned()),
            "PGSSLROOTCERT" => Some("/env/ca.pem".to_owned()),
            _ => None,
        };
        let from_url = params("verify-full", None).or_variables(vars);
        assert_eq!(from_url, params("verify-full", Some("/env/ca.pem")));
        let from_env = TlsParams::default().or_variables(vars);
        assert_eq!(from_env, params("require", Some("/env/ca.pem")));
    }
}
