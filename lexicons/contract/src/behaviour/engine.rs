//! Which engine a lexicon predicts against, and the token it sends, each read from its own
//! chain of variables, most specific first. The address is printed in refusals; the token
//! never is, which is why the two chains are separate.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Where variables are read from: the process environment, or a map in tests.
pub trait Variables: Send + Sync {
    fn get(&self, name: &str) -> Option<String>;
}

/// The process environment.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProcessEnv;

impl Variables for ProcessEnv {
    fn get(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

impl Variables for BTreeMap<String, String> {
    fn get(&self, name: &str) -> Option<String> {
        BTreeMap::get(self, name).cloned()
    }
}

impl Variables for HashMap<String, String> {
    fn get(&self, name: &str) -> Option<String> {
        HashMap::get(self, name).cloned()
    }
}

/// A value that won a chain, and the variable it came from so a refusal can name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub value: String,
    pub variable: String,
}

/// A bearer token. Its `Debug` and `Display` never show it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    pub fn new(value: impl Into<String>) -> Self {
        Token(value.into())
    }

    /// The secret itself, for the authorization header and for scrubbing echoes.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token([REDACTED])")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[REDACTED]")
    }
}

/// The token and the variable that supplied it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedToken {
    pub token: Token,
    pub variable: String,
}

fn scope(lexicon: &str) -> String {
    lexicon
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// `CHANT_BEHAVIOUR_ENGINE_<LEXICON>`, `CHANT_BEHAVIOUR_ENGINE`, `BEHAVIOUR_ENGINE`.
pub fn engine_variables(lexicon: &str) -> [String; 3] {
    [
        format!("CHANT_BEHAVIOUR_ENGINE_{}", scope(lexicon)),
        "CHANT_BEHAVIOUR_ENGINE".to_owned(),
        "BEHAVIOUR_ENGINE".to_owned(),
    ]
}

/// `CHANT_BEHAVIOUR_TOKEN_<LEXICON>`, `CHANT_BEHAVIOUR_TOKEN`, `BEHAVIOUR_TOKEN`.
pub fn token_variables(lexicon: &str) -> [String; 3] {
    [
        format!("CHANT_BEHAVIOUR_TOKEN_{}", scope(lexicon)),
        "CHANT_BEHAVIOUR_TOKEN".to_owned(),
        "BEHAVIOUR_TOKEN".to_owned(),
    ]
}

fn first_set(chain: [String; 3], variables: &dyn Variables) -> Option<(String, String)> {
    chain.into_iter().find_map(|variable| {
        let value = variables.get(&variable)?.trim().to_owned();
        (!value.is_empty()).then_some((value, variable))
    })
}

/// The engine's address (a URL or a command line) and the variable that named it.
/// `None` is `no-engine`: never an empty report.
pub fn behaviour_engine_from(lexicon: &str, variables: &dyn Variables) -> Option<Resolved> {
    first_set(engine_variables(lexicon), variables)
        .map(|(value, variable)| Resolved { value, variable })
}

/// The bearer token for the engine, from its own chain.
pub fn behaviour_token_from(lexicon: &str, variables: &dyn Variables) -> Option<ResolvedToken> {
    first_set(token_variables(lexicon), variables).map(|(value, variable)| ResolvedToken {
        token: Token::new(value),
        variable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_most_specific_variable_wins_and_is_named() {
        let all = vars(&[
            ("BEHAVIOUR_ENGINE", "http://bare"),
            ("CHANT_BEHAVIOUR_ENGINE", "http://chant"),
            ("CHANT_BEHAVIOUR_ENGINE_MY_LEX", "http://scoped"),
        ]);
        let won = behaviour_engine_from("my-lex", &all).unwrap();
        assert_eq!(won.value, "http://scoped");
        assert_eq!(won.variable, "CHANT_BEHAVIOUR_ENGINE_MY_LEX");
        let two = vars(&[("BEHAVIOUR_ENGINE", "b"), ("CHANT_BEHAVIOUR_ENGINE", "c")]);
        assert_eq!(
            behaviour_engine_from("x", &two).unwrap().variable,
            "CHANT_BEHAVIOUR_ENGINE"
        );
        let bare = vars(&[
            ("BEHAVIOUR_ENGINE", " b "),
            ("CHANT_BEHAVIOUR_ENGINE", "  "),
        ]);
        assert_eq!(
            behaviour_engine_from("x", &bare).unwrap(),
            Resolved {
                value: "b".into(),
                variable: "BEHAVIOUR_ENGINE".into()
            }
        );
        assert_eq!(behaviour_engine_from("x", &vars(&[])), None);
    }

    #[test]
    fn the_token_has_its_own_chain_and_never_prints() {
        let all = vars(&[
            ("CHANT_BEHAVIOUR_ENGINE", "http://e"),
            ("CHANT_BEHAVIOUR_TOKEN", "s3cr3t-token"),
        ]);
        let token = behaviour_token_from("scripted", &all).unwrap();
        assert_eq!(token.variable, "CHANT_BEHAVIOUR_TOKEN");
        assert_eq!(token.token.expose(), "s3cr3t-token");
        assert!(!format!("{token:?} {}", token.token).contains("s3cr3t"));
        assert!(
            behaviour_token_from("scripted", &vars(&[("CHANT_BEHAVIOUR_ENGINE", "x")])).is_none()
        );
    }
}
