//! The lexicon's sections of `chant.toml`, and the stacks they resolve to per environment.
//!
//! ```toml
//! [lexicons.aws]
//! source = "dist/template.json"     # or a list: one stack per file, `{name}` in `stack`
//! stack = "shop-{env}"              # the deployed stack; default: the environment's name
//!
//! [lexicons.aws.stacks.network]     # or a table of stacks, each with its own region
//! source = "dist/network.json"
//! stack = "network-{env}"
//! region = "us-east-1"
//!
//! [environments.dev.aws]
//! region = "eu-west-1"
//! profile = "dev"
//! allowed_accounts = ["111111111111"]   # also spelt allowed_targets
//! endpoint = "http://127.0.0.1:5000"    # optional; AWS_ENDPOINT_URL is honoured too
//! ```

use chant_lexicon::settings::{OneOrMany, parse_settings};
use chant_lexicon::{ProjectContext, SourceDiagnostic};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceSettings {
    #[serde(default)]
    source: OneOrMany,
    #[serde(default)]
    stack: Option<String>,
    #[serde(default)]
    stacks: BTreeMap<String, StackSettings>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StackSettings {
    source: OneOrMany,
    #[serde(default)]
    stack: Option<String>,
    #[serde(default)]
    region: Option<String>,
}

/// `[environments.<env>.aws]`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentBinding {
    #[serde(default)]
    pub region: Option<String>,
    #[serde(default)]
    pub profile: Option<String>,
    #[serde(default)]
    pub allowed_accounts: Option<Vec<String>>,
    #[serde(default)]
    pub allowed_targets: Option<Vec<String>>,
    #[serde(default)]
    pub endpoint: Option<String>,
}

impl EnvironmentBinding {
    /// `allowed_accounts` and its generic spelling `allowed_targets`, together.
    pub fn allowed(&self) -> Option<Vec<String>> {
        match (&self.allowed_accounts, &self.allowed_targets) {
            (None, None) => None,
            (a, t) => {
                let mut all: Vec<String> = a.iter().chain(t.iter()).flatten().cloned().collect();
                all.sort();
                all.dedup();
                Some(all)
            }
        }
    }
}

/// One deployed stack as configured: its template files and how its name and region resolve.
#[derive(Clone, Debug, PartialEq)]
pub struct StackConfig {
    /// The table key, or the file stem of a listed source.
    pub key: String,
    pub template: PathBuf,
    /// `shop-{env}`: `{env}` is the environment, `{name}` the key.
    pub name_pattern: Option<String>,
    pub region: Option<String>,
}

impl StackConfig {
    /// The deployed stack name in `environment` (the environment's own name by default).
    pub fn stack_name(&self, environment: &str) -> String {
        match &self.name_pattern {
            Some(p) => p.replace("{env}", environment).replace("{name}", &self.key),
            None => environment.to_owned(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct AwsSettings {
    /// `[ownership] stack`: the marker identity this project stamps.
    pub project_stack: String,
    pub stacks: Vec<StackConfig>,
    pub environments: BTreeMap<String, EnvironmentBinding>,
}

impl AwsSettings {
    pub fn parse(project: &ProjectContext) -> Result<Self, SourceDiagnostic> {
        let parsed = parse_settings::<SourceSettings, EnvironmentBinding>(project, crate::NAME)?;
        let top = parsed.source;
        let mut stacks = Vec::new();
        let sources = top.source.to_vec();
        if sources.len() > 1 && top.stack.as_deref().is_some_and(|p| !p.contains("{name}")) {
            return Err(project
                .config_diagnostic(
                    top.stack.as_deref().unwrap_or_default(),
                    "several aws sources would deploy to one stack name",
                )
                .help("put `{name}` (the file's stem) in `stack`, or use a [lexicons.aws.stacks.<name>] table"));
        }
        for source in &sources {
            stacks.push(StackConfig {
                key: file_stem(source),
                template: project.resolve(source),
                name_pattern: top.stack.clone(),
                region: None,
            });
        }
        for (key, stack) in top.stacks {
            let files = stack.source.to_vec();
            let [file] = files.as_slice() else {
                return Err(project
                    .config_diagnostic(&key, format!("stack `{key}` must name exactly one template in `source`"))
                    .help("one CloudFormation template per deployed stack; nested templates are found from it"));
            };
            stacks.push(StackConfig {
                key: key.clone(),
                template: project.resolve(file),
                name_pattern: Some(stack.stack.unwrap_or_else(|| format!("{key}-{{env}}"))),
                region: stack.region,
            });
        }
        Ok(AwsSettings {
            project_stack: project.stack.clone(),
            stacks,
            environments: parsed.environments,
        })
    }

    pub fn binding(&self, environment: &str) -> EnvironmentBinding {
        self.environments
            .get(environment)
            .cloned()
            .unwrap_or_default()
    }
}

fn file_stem(path: &str) -> String {
    let name = std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_owned());
    for suffix in [
        ".template.json",
        ".template.yaml",
        ".template.yml",
        ".json",
        ".yaml",
        ".yml",
    ] {
        if let Some(stem) = name.strip_suffix(suffix) {
            return stem.to_owned();
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn project(text: &str) -> ProjectContext {
        ProjectContext {
            root: PathBuf::from("/p"),
            config_path: PathBuf::from("/p/chant.toml"),
            config_text: Arc::from(text),
            stack: "shop".into(),
            environments: vec!["dev".into()],
        }
    }

    #[test]
    fn one_source_one_stack_named_from_the_pattern() {
        let text = "[lexicons.aws]\nsource = \"dist/template.json\"\nstack = \"shop-{env}\"\n[environments.dev.aws]\nregion = \"eu-west-1\"\nprofile = \"dev\"\nallowed_accounts = [\"111111111111\"]\n";
        let s = AwsSettings::parse(&project(text)).unwrap();
        assert_eq!(s.stacks.len(), 1);
        assert_eq!(s.stacks[0].template, PathBuf::from("/p/dist/template.json"));
        assert_eq!(s.stacks[0].stack_name("dev"), "shop-dev");
        let dev = s.binding("dev");
        assert_eq!(dev.region.as_deref(), Some("eu-west-1"));
        assert_eq!(dev.allowed(), Some(vec!["111111111111".to_owned()]));
        assert_eq!(s.binding("prod"), EnvironmentBinding::default());
    }

    #[test]
    fn a_stacks_table_carries_per_stack_regions() {
        let text = "[lexicons.aws.stacks.network]\nsource = \"net.json\"\nregion = \"us-east-1\"\n[lexicons.aws.stacks.app]\nsource = \"app.yaml\"\nstack = \"app-{env}\"\n";
        let s = AwsSettings::parse(&project(text)).unwrap();
        let names: Vec<_> = s
            .stacks
            .iter()
            .map(|c| (c.stack_name("dev"), c.region.clone()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("app-dev".to_owned(), None),
                ("network-dev".to_owned(), Some("us-east-1".to_owned()))
            ]
        );
    }

    #[test]
    fn a_list_needs_name_in_the_stack_pattern() {
        let text = "[lexicons.aws]\nsource = [\"a.json\", \"b.json\"]\nstack = \"shop-{env}\"\n";
        let err = AwsSettings::parse(&project(text)).unwrap_err();
        assert!(err.message.contains("one stack name"), "{}", err.message);
        let ok = "[lexicons.aws]\nsource = [\"a.json\", \"b.template.json\"]\nstack = \"{name}-{env}\"\n";
        let s = AwsSettings::parse(&project(ok)).unwrap();
        assert_eq!(s.stacks[1].stack_name("dev"), "b-dev");
    }

    #[test]
    fn a_misspelt_key_is_a_diagnostic_at_its_line() {
        let text =
            "[lexicons.aws]\nsource = \"t.json\"\n[environments.dev.aws]\nregon = \"eu-west-1\"\n";
        let err = AwsSettings::parse(&project(text)).unwrap_err();
        assert!(err.message.contains("regon"), "{}", err.message);
        assert_eq!(err.line_in(text), Some(4));
    }

    #[test]
    fn allowed_targets_is_the_generic_spelling() {
        let b = EnvironmentBinding {
            allowed_targets: Some(vec!["2".into()]),
            allowed_accounts: Some(vec!["1".into(), "2".into()]),
            ..Default::default()
        };
        assert_eq!(b.allowed(), Some(vec!["1".to_owned(), "2".to_owned()]));
    }
}
