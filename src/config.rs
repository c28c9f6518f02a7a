//! `chant.toml`: the project file. Found by walking up from the working directory (or
//! `-C DIR`). Core validates its own structure; each lexicon validates its own sections.

use chant_lexicon::declared::refine_unknown_field;
use chant_lexicon::{ProjectContext, SourceDiagnostic, SourceSpan};
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toml::Spanned;

pub const FILE_NAME: &str = "chant.toml";

/// The validated project file.
#[derive(Clone, Debug)]
pub struct Project {
    pub root: PathBuf,
    pub config_path: PathBuf,
    pub text: Arc<str>,
    pub stack: String,
    /// Lexicon names under `[lexicons]`, sorted.
    pub lexicons: Vec<String>,
    /// Environment names with the span of their table (for diagnostics), sorted.
    pub environments: BTreeMap<String, SourceSpan>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    ownership: Option<RawOwnership>,
    #[serde(default)]
    lexicons: BTreeMap<Spanned<String>, Spanned<toml::Table>>,
    #[serde(default)]
    environments: BTreeMap<Spanned<String>, Spanned<BTreeMap<Spanned<String>, IgnoredAny>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOwnership {
    stack: Spanned<String>,
}

impl Project {
    /// Find `chant.toml` in `start` or the nearest parent.
    pub fn discover(start: &Path) -> Result<Project, SourceDiagnostic> {
        let start = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
        let mut dir = Some(start.as_path());
        while let Some(d) = dir {
            let candidate = d.join(FILE_NAME);
            if candidate.is_file() {
                return Project::load(&candidate);
            }
            dir = d.parent();
        }
        Err(SourceDiagnostic::new(
            start.join(FILE_NAME),
            format!("no {FILE_NAME} in {} or any parent", start.display()),
        )
        .help("run chant inside a project, or pass -C <dir> naming one"))
    }

    pub fn load(path: &Path) -> Result<Project, SourceDiagnostic> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            SourceDiagnostic::new(path, format!("cannot read {}: {e}", path.display()))
        })?;
        Project::parse(path, &text, &known_lexicons())
    }

    /// Validate the core structure. `known` are the lexicons this binary was built with.
    pub fn parse(path: &Path, text: &str, known: &[&str]) -> Result<Project, SourceDiagnostic> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let mut d = SourceDiagnostic::new(path, e.message().trim().to_owned());
            if let Some(span) = e.span() {
                let span = SourceSpan::new(span.start, span.end - span.start);
                d = d.at(refine_unknown_field(text, span, e.message()));
            }
            d.help(format!(
                "see the `{FILE_NAME}` section of the README for the format"
            ))
        })?;
        let at = |span: std::ops::Range<usize>| SourceSpan::new(span.start, span.end - span.start);

        let Some(ownership) = raw.ownership else {
            return Err(SourceDiagnostic::new(
                path,
                "missing `[ownership]`: chant needs the stack name its markers carry",
            )
            .at(SourceSpan::new(0, 0))
            .help("add:\n[ownership]\nstack = \"<your stack>\""));
        };
        let stack = ownership.stack.get_ref().trim().to_owned();
        if stack.is_empty() {
            return Err(SourceDiagnostic::new(path, "`ownership.stack` is empty")
                .at(at(ownership.stack.span()))
                .label("expected a stack name"));
        }

        let mut lexicons = Vec::new();
        for name in raw.lexicons.keys() {
            if !known.contains(&name.get_ref().as_str()) {
                return Err(SourceDiagnostic::new(
                    path,
                    format!("unknown lexicon `{}`", name.get_ref()),
                )
                .at(at(name.span()))
                .label("not a lexicon this chant knows")
                .help(format!("known lexicons: {}", known.join(", "))));
            }
            lexicons.push(name.get_ref().clone());
        }

        let mut environments = BTreeMap::new();
        for (env, bindings) in &raw.environments {
            for lexicon in bindings.get_ref().keys() {
                if !lexicons.contains(lexicon.get_ref()) {
                    return Err(SourceDiagnostic::new(
                        path,
                        format!(
                            "environment `{}` binds `{}`, which is not under [lexicons]",
                            env.get_ref(),
                            lexicon.get_ref()
                        ),
                    )
                    .at(at(lexicon.span()))
                    .label("no such lexicon in this project")
                    .help(format!(
                        "declare it first: [lexicons.{}]",
                        lexicon.get_ref()
                    )));
                }
            }
            environments.insert(env.get_ref().clone(), at(env.span()));
        }

        Ok(Project {
            root: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            config_path: path.to_path_buf(),
            text: Arc::from(text),
            stack,
            lexicons,
            environments,
        })
    }

    /// The environment, or a diagnostic listing the ones defined.
    pub fn environment(&self, name: &str) -> Result<&str, SourceDiagnostic> {
        if let Some((env, _)) = self.environments.get_key_value(name) {
            return Ok(env);
        }
        let defined: Vec<&str> = self.environments.keys().map(String::as_str).collect();
        let mut d =
            SourceDiagnostic::new(&self.config_path, format!("unknown environment `{name}`"));
        if let Some(span) = self.environments.values().min_by_key(|span| span.offset) {
            d = d.at(*span).label("environments are declared here");
        }
        Err(d.help(if defined.is_empty() {
            format!("declare it: [environments.{name}.<lexicon>]")
        } else {
            format!("defined environments: {}", defined.join(", "))
        }))
    }

    pub fn context(&self) -> ProjectContext {
        ProjectContext {
            root: self.root.clone(),
            config_path: self.config_path.clone(),
            config_text: self.text.clone(),
            stack: self.stack.clone(),
            environments: self.environments.keys().cloned().collect(),
        }
    }
}

/// Names of the lexicons compiled into this binary.
pub fn known_lexicons() -> Vec<&'static str> {
    crate::registry::factories()
        .iter()
        .map(|f| f.name())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Project, SourceDiagnostic> {
        Project::parse(Path::new("/p/chant.toml"), text, &["k8s", "aws", "sql"])
    }

    const GOOD: &str = r#"
[ownership]
stack = "shop"

[lexicons.k8s]
source = ["dist/k8s/*.yaml"]

[environments.dev.k8s]
context = "kind-dev"

[environments.prod.k8s]
context = "prod"
"#;

    #[test]
    fn a_good_file_names_its_lexicons_and_environments() {
        let project = parse(GOOD).unwrap();
        assert_eq!(project.stack, "shop");
        assert_eq!(project.lexicons, vec!["k8s"]);
        assert_eq!(
            project.environments.keys().collect::<Vec<_>>(),
            vec!["dev", "prod"]
        );
        assert_eq!(project.root, Path::new("/p"));
    }

    #[test]
    fn an_unknown_top_level_key_points_at_its_line() {
        let text = "[ownership]\nstack = \"shop\"\n[lexicon.k8s]\n";
        let err = parse(text).unwrap_err();
        assert!(err.message.contains("lexicon"), "{}", err.message);
        assert_eq!(err.line_in(text), Some(3));
    }

    #[test]
    fn a_wrong_type_points_at_its_line() {
        let text = "[ownership]\nstack = 3\n";
        let err = parse(text).unwrap_err();
        assert_eq!(err.line_in(text), Some(2));
    }

    #[test]
    fn an_unknown_lexicon_is_named() {
        let text = "[ownership]\nstack = \"s\"\n[lexicons.gcp]\n";
        let err = parse(text).unwrap_err();
        assert!(err.message.contains("unknown lexicon `gcp`"));
        assert_eq!(err.line_in(text), Some(3));
    }

    #[test]
    fn a_binding_of_an_undeclared_lexicon_is_an_error() {
        let text =
            "[ownership]\nstack = \"s\"\n[lexicons.k8s]\n[environments.dev.aws]\nregion = \"x\"\n";
        let err = parse(text).unwrap_err();
        assert!(err.message.contains("binds `aws`"));
        assert_eq!(err.line_in(text), Some(4));
    }

    #[test]
    fn ownership_is_required() {
        let err = parse("[lexicons.k8s]\n").unwrap_err();
        assert!(err.message.contains("[ownership]"));
    }

    #[test]
    fn an_unknown_environment_lists_the_defined_ones() {
        let project = parse(GOOD).unwrap();
        let err = project.environment("staging").unwrap_err();
        assert!(err.message.contains("unknown environment `staging`"));
        assert_eq!(err.help.as_deref(), Some("defined environments: dev, prod"));
        assert_eq!(err.line_in(GOOD), Some(8));
        assert_eq!(project.environment("dev").unwrap(), "dev");
    }

    #[test]
    fn malformed_toml_points_at_its_line() {
        let text = "[ownership]\nstack = \"shop\n";
        let err = parse(text).unwrap_err();
        assert_eq!(err.line_in(text), Some(2));
    }
}
