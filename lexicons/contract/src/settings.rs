//! A lexicon's own sections of `chant.toml`: `[lexicons.<name>]` and
//! `[environments.<env>.<name>]`, deserialized into the lexicon's types straight from the
//! file's text so a bad key or type is reported at its line.

use crate::declared::{SourceDiagnostic, SourceSpan, refine_unknown_field};
use crate::lexicon::ProjectContext;
use serde::Deserializer;
use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

/// A setting written as one string or a list of them (`source = "a"` or `["a", "b"]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    #[default]
    None,
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn to_vec(&self) -> Vec<String> {
        self.clone().into_vec()
    }

    pub fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::None => Vec::new(),
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

/// The parsed sections of one lexicon.
#[derive(Clone, Debug, Default)]
pub struct LexiconSettings<S, E> {
    pub source: S,
    pub environments: BTreeMap<String, E>,
}

/// Deserialize `[lexicons.<name>]` as `S` and every `[environments.*.<name>]` as `E`.
///
/// Use `#[serde(deny_unknown_fields)]` on both types so a misspelt key is an error.
pub fn parse_settings<S, E>(
    project: &ProjectContext,
    name: &str,
) -> Result<LexiconSettings<S, E>, SourceDiagnostic>
where
    S: DeserializeOwned + Default,
    E: DeserializeOwned,
{
    let text: &str = &project.config_text;
    let deserializer =
        toml::de::Deserializer::parse(text).map_err(|e| diagnostic(project, text, &e))?;
    let seed = RootSeed::<S, E> {
        name,
        marker: PhantomData,
    };
    seed.deserialize(deserializer)
        .map_err(|e| diagnostic(project, text, &e))
}

fn diagnostic(project: &ProjectContext, text: &str, error: &toml::de::Error) -> SourceDiagnostic {
    let mut d = SourceDiagnostic::new(&project.config_path, error.message().trim().to_owned());
    if let Some(span) = error.span() {
        let span = SourceSpan::new(span.start, span.end.saturating_sub(span.start));
        d = d.at(refine_unknown_field(text, span, error.message()));
    }
    d
}

struct RootSeed<'a, S, E> {
    name: &'a str,
    marker: PhantomData<(S, E)>,
}

impl<'de, S: DeserializeOwned + Default, E: DeserializeOwned> DeserializeSeed<'de>
    for RootSeed<'_, S, E>
{
    type Value = LexiconSettings<S, E>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, S: DeserializeOwned + Default, E: DeserializeOwned> Visitor<'de> for RootSeed<'_, S, E> {
    type Value = LexiconSettings<S, E>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a chant.toml table")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = LexiconSettings {
            source: S::default(),
            environments: BTreeMap::new(),
        };
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "lexicons" => {
                    if let Some(source) = map.next_value_seed(PickSeed::<S> {
                        name: self.name,
                        marker: PhantomData,
                    })? {
                        out.source = source;
                    }
                }
                "environments" => {
                    out.environments = map.next_value_seed(EnvironmentsSeed::<E> {
                        name: self.name,
                        marker: PhantomData,
                    })?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }
}

/// From a table, the value under `name` (other keys ignored).
struct PickSeed<'a, T> {
    name: &'a str,
    marker: PhantomData<T>,
}

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for PickSeed<'_, T> {
    type Value = Option<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for PickSeed<'_, T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == self.name {
                found = Some(map.next_value::<T>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

struct EnvironmentsSeed<'a, E> {
    name: &'a str,
    marker: PhantomData<E>,
}

impl<'de, E: DeserializeOwned> DeserializeSeed<'de> for EnvironmentsSeed<'_, E> {
    type Value = BTreeMap<String, E>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, E: DeserializeOwned> Visitor<'de> for EnvironmentsSeed<'_, E> {
    type Value = BTreeMap<String, E>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of environments")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some(env) = map.next_key::<String>()? {
            if let Some(binding) = map.next_value_seed(PickSeed::<E> {
                name: self.name,
                marker: PhantomData,
            })? {
                out.insert(env, binding);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::sync::Arc;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Source {
        source: Vec<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Binding {
        context: String,
    }

    fn project(text: &str) -> ProjectContext {
        ProjectContext {
            root: ".".into(),
            config_path: "chant.toml".into(),
            config_text: Arc::from(text),
            stack: "shop".into(),
            environments: vec![],
        }
    }

    #[test]
    fn picks_this_lexicons_sections() {
        let text = r#"
[ownership]
stack = "shop"
[lexicons.k8s]
source = ["a.yaml"]
[lexicons.aws]
source = "t.json"
[environments.dev.k8s]
context = "kind-dev"
[environments.dev.aws]
region = "eu-west-1"
[environments.prod.aws]
region = "eu-west-1"
"#;
        let s: LexiconSettings<Source, Binding> = parse_settings(&project(text), "k8s").unwrap();
        assert_eq!(s.source.source, vec!["a.yaml"]);
        assert_eq!(s.environments.len(), 1);
        assert_eq!(s.environments["dev"].context, "kind-dev");
    }

    #[test]
    fn a_misspelt_key_points_at_its_line() {
        let text = "[lexicons.k8s]\nsource = []\n[environments.dev.k8s]\ncontxt = \"x\"\n";
        let err = parse_settings::<Source, Binding>(&project(text), "k8s").unwrap_err();
        assert!(err.message.contains("contxt"), "{}", err.message);
        assert_eq!(err.line_in(text), Some(4));
    }
}
