//! `[lexicons.terraform]` and `[environments.<env>.terraform]`: which roots, which binary
//! reads each, and what an environment selects (workspace, var files, the drift signal).

use chant_lexicon::settings::parse_settings;
use chant_lexicon::{ProjectContext, SourceDiagnostic, SourceSpan};
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The binary whose presence makes a root live.
pub const LIVE_BINARY: &str = "choudoufu";
const DEFAULT_BINARY: &str = "terraform";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceSettings {
    #[serde(default)]
    roots: RootsSetting,
    /// The default binary for every root.
    binary: Option<String>,
    /// The default estate for live roots.
    estate: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentSettings {
    /// `TF_WORKSPACE` for every read of this environment.
    pub workspace: Option<String>,
    /// `-var-file` arguments for `plan` and `live-plan`, relative to the project root.
    #[serde(default)]
    pub var_files: Vec<String>,
    /// Run the refresh-only drift plan on every stock root.
    #[serde(default)]
    pub drift: bool,
    /// `-backend-config` for `init` (a partial backend): files relative to the project
    /// root, or `key=value` pairs.
    #[serde(default)]
    pub backend_config: Vec<String>,
}

/// `roots = ["a/b", …]` or `[lexicons.terraform.roots] name = "a/b" | { path = …, … }`.
#[derive(Debug, Default)]
enum RootsSetting {
    #[default]
    None,
    List(Vec<String>),
    Table(Vec<(String, RootEntry)>),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RootEntry {
    path: String,
    binary: Option<String>,
    estate: Option<String>,
}

impl<'de> Deserialize<'de> for RootsSetting {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RootsVisitor;
        impl<'de> Visitor<'de> for RootsVisitor {
            type Value = RootsSetting;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of root folders, or a table of root name = folder")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(path) = seq.next_element::<String>()? {
                    out.push(path);
                }
                Ok(RootsSetting::List(out))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    out.push((name, map.next_value::<RootEntryValue>()?.0));
                }
                Ok(RootsSetting::Table(out))
            }
        }
        deserializer.deserialize_any(RootsVisitor)
    }
}

/// A table entry: a folder, or `{ path, binary, estate }`.
struct RootEntryValue(RootEntry);

impl<'de> Deserialize<'de> for RootEntryValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntryVisitor;
        impl<'de> Visitor<'de> for EntryVisitor {
            type Value = RootEntryValue;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a root folder, or a table with `path` and optional `binary` and `estate`",
                )
            }

            fn visit_str<E: de::Error>(self, path: &str) -> Result<Self::Value, E> {
                Ok(RootEntryValue(RootEntry {
                    path: path.to_owned(),
                    ..Default::default()
                }))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                RootEntry::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(RootEntryValue)
            }
        }
        deserializer.deserialize_any(EntryVisitor)
    }
}

/// How a root is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `terraform show -json` over the root's state: ownership is state membership.
    Stock,
    /// `choudoufu live-plan -json`: ownership is the `tofu-estate` tag.
    Live,
}

/// One configured root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// The first segment of every entity name declared in it.
    pub name: String,
    /// The folder, resolved against the project root.
    pub dir: PathBuf,
    /// The program run in it.
    pub binary: String,
    pub mode: Mode,
    /// The estate a live root's answers must name; `{env}` is the environment.
    pub estate: Option<String>,
}

impl Root {
    pub fn estate_for(&self, environment: &str) -> Option<String> {
        self.estate
            .as_ref()
            .map(|e| e.replace("{env}", environment))
    }
}

/// Everything the lexicon was configured with.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub roots: Vec<Root>,
    pub environments: BTreeMap<String, EnvironmentSettings>,
}

impl Settings {
    pub fn parse(project: &ProjectContext) -> Result<Settings, SourceDiagnostic> {
        let parsed = parse_settings::<SourceSettings, EnvironmentSettings>(project, crate::NAME)?;
        let source = parsed.source;
        let default_binary = source.binary.as_deref().unwrap_or(DEFAULT_BINARY);
        let entries: Vec<(Option<String>, RootEntry)> = match source.roots {
            RootsSetting::None => Vec::new(),
            RootsSetting::List(paths) => paths
                .into_iter()
                .map(|path| {
                    (
                        None,
                        RootEntry {
                            path,
                            ..Default::default()
                        },
                    )
                })
                .collect(),
            RootsSetting::Table(entries) => entries
                .into_iter()
                .map(|(name, entry)| (Some(name), entry))
                .collect(),
        };
        let mut roots: Vec<Root> = Vec::new();
        for (key, entry) in entries {
            let name = match key {
                Some(name) => name,
                None => base_name(project, &entry.path)?,
            };
            if name.is_empty() || name.contains('/') {
                return Err(config_error(
                    project,
                    &format!("terraform root name `{name}` must be non-empty and contain no `/`"),
                    &name,
                ));
            }
            if let Some(first) = roots.iter().find(|r| r.name == name) {
                return Err(config_error(
                    project,
                    &format!(
                        "two terraform roots are named `{name}` ({} and {})",
                        first.dir.display(),
                        project.resolve(&entry.path).display()
                    ),
                    &entry.path,
                )
                .help("list roots as a table to name them: `[lexicons.terraform.roots] network = \"infra/network\"`"));
            }
            let binary = entry
                .binary
                .clone()
                .unwrap_or_else(|| default_binary.to_owned());
            let mode = if is_live_binary(&binary) {
                Mode::Live
            } else {
                Mode::Stock
            };
            let estate = entry.estate.clone().or_else(|| source.estate.clone());
            if mode == Mode::Live && estate.is_none() {
                return Err(config_error(
                    project,
                    &format!(
                        "terraform root `{name}` is read by {LIVE_BINARY} but names no estate"
                    ),
                    &entry.path,
                )
                .help("add `estate = \"…\"` to the root or to [lexicons.terraform]"));
            }
            roots.push(Root {
                name,
                dir: project.resolve(&entry.path),
                binary,
                mode,
                estate,
            });
        }
        Ok(Settings {
            roots,
            environments: parsed.environments,
        })
    }

    pub fn environment(&self, environment: &str) -> EnvironmentSettings {
        self.environments
            .get(environment)
            .cloned()
            .unwrap_or_default()
    }

    pub fn root(&self, name: &str) -> Option<&Root> {
        self.roots.iter().find(|r| r.name == name)
    }
}

fn is_live_binary(binary: &str) -> bool {
    Path::new(binary)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == LIVE_BINARY)
}

/// A list entry's name: the folder's base name (of the resolved path, so `.` works).
fn base_name(project: &ProjectContext, path: &str) -> Result<String, SourceDiagnostic> {
    let named = match Path::new(path).file_name() {
        Some(name) => name.to_str().map(str::to_owned),
        None => project
            .resolve(path)
            .canonicalize()
            .ok()
            .and_then(|dir| dir.file_name()?.to_str().map(str::to_owned)),
    };
    named.ok_or_else(|| {
        config_error(
            project,
            &format!("cannot name the terraform root `{path}` after its folder"),
            path,
        )
        .help("list roots as a table to name them")
    })
}

/// A diagnostic on `chant.toml`, pointing at the last quoted occurrence of `value` (the
/// offending entry), else at the `roots` key.
fn config_error(project: &ProjectContext, message: &str, value: &str) -> SourceDiagnostic {
    let text: &str = &project.config_text;
    let quoted = format!("\"{value}\"");
    let span = text
        .rfind(&quoted)
        .map(|at| SourceSpan::new(at, quoted.len()))
        .or_else(|| text.find("roots").map(|at| SourceSpan::new(at, 5)));
    let diagnostic = SourceDiagnostic::new(&project.config_path, message);
    match span {
        Some(span) => diagnostic.at(span),
        None => diagnostic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn project(text: &str) -> ProjectContext {
        ProjectContext {
            root: "/p".into(),
            config_path: "/p/chant.toml".into(),
            config_text: Arc::from(text),
            stack: "shop".into(),
            environments: vec!["dev".into()],
        }
    }

    #[test]
    fn a_list_names_roots_after_their_folders() {
        let s = Settings::parse(&project(
            "[lexicons.terraform]\nroots = [\"infra/network\", \"infra/dns\"]\n",
        ))
        .unwrap();
        let names: Vec<_> = s.roots.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["network", "dns"]);
        assert_eq!(s.roots[0].dir, PathBuf::from("/p/infra/network"));
        assert_eq!(s.roots[0].mode, Mode::Stock);
        assert_eq!(s.roots[0].binary, "terraform");
    }

    #[test]
    fn a_table_names_roots_by_key_and_takes_per_root_binaries() {
        let text = "[lexicons.terraform]\nbinary = \"terraform\"\n[lexicons.terraform.roots]\nnet = \"infra/network\"\nedge = { path = \"infra/edge\", binary = \"choudoufu\", estate = \"shop-{env}\" }\n";
        let s = Settings::parse(&project(text)).unwrap();
        let net = s.root("net").unwrap();
        assert_eq!((net.mode, net.binary.as_str()), (Mode::Stock, "terraform"));
        let edge = s.root("edge").unwrap();
        assert_eq!(edge.mode, Mode::Live);
        assert_eq!(edge.dir, PathBuf::from("/p/infra/edge"));
        assert_eq!(edge.estate_for("dev").as_deref(), Some("shop-dev"));
    }

    #[test]
    fn two_roots_with_one_name_are_a_config_error_at_the_second() {
        let text = "[lexicons.terraform]\nroots = [\n  \"a/network\",\n  \"b/network\",\n]\n";
        let err = Settings::parse(&project(text)).unwrap_err();
        assert!(
            err.message
                .contains("two terraform roots are named `network`"),
            "{}",
            err.message
        );
        assert_eq!(err.line_in(text), Some(4));
        assert_eq!(err.file, PathBuf::from("/p/chant.toml"));
    }

    #[test]
    fn a_live_root_needs_an_estate() {
        let text = "[lexicons.terraform]\nbinary = \"choudoufu\"\nroots = [\"infra/edge\"]\n";
        let err = Settings::parse(&project(text)).unwrap_err();
        assert!(err.message.contains("names no estate"), "{}", err.message);
        assert_eq!(err.line_in(text), Some(3));
    }

    #[test]
    fn unknown_keys_are_diagnostics_with_their_line() {
        let text = "[lexicons.terraform]\nroots = []\n[environments.dev.terraform]\nworkspace = \"dev\"\ndrfit = true\n";
        let err = Settings::parse(&project(text)).unwrap_err();
        assert!(err.message.contains("drfit"), "{}", err.message);
        assert_eq!(err.line_in(text), Some(5));
        let text = "[lexicons.terraform.roots]\nnet = { path = \"x\", binray = \"tofu\" }\n";
        let err = Settings::parse(&project(text)).unwrap_err();
        assert!(err.message.contains("binray"), "{}", err.message);
        assert_eq!(err.line_in(text), Some(2));
    }

    #[test]
    fn environments_select_workspace_var_files_and_drift() {
        let text = "[lexicons.terraform]\nroots = [\"n\"]\n[environments.dev.terraform]\nworkspace = \"dev\"\nvar_files = [\"dev.tfvars\"]\ndrift = true\nbackend_config = [\"dev.s3.tfbackend\", \"key=net/dev.tfstate\"]\n";
        let s = Settings::parse(&project(text)).unwrap();
        let dev = s.environment("dev");
        assert_eq!(dev.workspace.as_deref(), Some("dev"));
        assert_eq!(dev.var_files, ["dev.tfvars"]);
        assert_eq!(
            dev.backend_config,
            ["dev.s3.tfbackend", "key=net/dev.tfstate"]
        );
        assert!(dev.drift);
        assert!(!s.environment("prod").drift);
    }
}
