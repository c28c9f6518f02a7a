//! The declared side: every top-level block of every root's `.tf` / `.tf.json` files, one
//! entity per block, keyed `<root>/<address>`.
//!
//! `count` / `for_each` stay on the one block-level entity. `locals` and `terraform`
//! blocks merge into one entity per root. Override files (`override.tf`,
//! `*_override.tf`) merge into the blocks they override instead of declaring new ones.
//! `moved`, `import`, `removed` and `check` blocks declare nothing live and are skipped.

use crate::address::{
    LOCALS_TYPE, MODULE_TYPE, Mode, OUTPUT_TYPE, PROVIDER_TYPE, SETTINGS_TYPE, VARIABLE_TYPE,
    entity_name, resource_type,
};
use crate::settings::Root;
use chant_lexicon::{DeclaredEntity, SourceDiagnostic, SourceSpan};
use hcl::edit::Span;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Read every configured root, in configuration order.
pub fn read_roots(roots: &[Root]) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
    let mut out = Vec::new();
    for root in roots {
        out.extend(read_root(root)?);
    }
    Ok(out)
}

/// Read one root's folder.
pub fn read_root(root: &Root) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
    let files = config_files(&root.dir)?;
    if files.is_empty() {
        return Err(SourceDiagnostic::new(
            &root.dir,
            format!("terraform root `{}` has no .tf files", root.name),
        )
        .help("check the folder named under [lexicons.terraform] roots"));
    }
    let mut collector = Collector {
        root: &root.name,
        entities: Vec::new(),
        index: BTreeMap::new(),
    };
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| {
            SourceDiagnostic::new(file, format!("cannot read {}: {e}", file.display()))
        })?;
        let blocks = if is_json(file) {
            json_blocks(file, &text)?
        } else {
            hcl_blocks(file, &text)?
        };
        let overriding = is_override(file);
        for block in blocks {
            collector.add(file, &text, block, overriding)?;
        }
    }
    Ok(collector.entities)
}

/// One top-level block, read from either syntax.
struct RawBlock {
    ident: String,
    labels: Vec<String>,
    body: Value,
    /// Byte offset of the block in its file, where the syntax gives one.
    offset: Option<usize>,
}

struct Collector<'a> {
    root: &'a str,
    entities: Vec<DeclaredEntity>,
    /// address → (index in `entities`, where it was declared).
    index: BTreeMap<String, (usize, String)>,
}

impl Collector<'_> {
    fn add(
        &mut self,
        file: &Path,
        text: &str,
        block: RawBlock,
        overriding: bool,
    ) -> Result<(), SourceDiagnostic> {
        let at = |diagnostic: SourceDiagnostic| match block.offset {
            Some(offset) => diagnostic.at(SourceSpan::new(offset, block.ident.len())),
            None => diagnostic,
        };
        let Some((address, entity_type, merges)) = classify(&block) else {
            return Ok(());
        };
        let Some((address, entity_type)) = address.zip(entity_type) else {
            return Err(at(SourceDiagnostic::new(
                file,
                format!(
                    "a `{}` block takes {}, found {}",
                    block.ident,
                    expected_labels(&block.ident),
                    block.labels.len()
                ),
            )));
        };
        let line = block
            .offset
            .map(|o| text[..o.min(text.len())].matches('\n').count() + 1);
        let location = match line {
            Some(line) => format!("{}:{line}", file.display()),
            None => file.display().to_string(),
        };
        if let Some((index, first)) = self.index.get(&address) {
            if merges || overriding {
                merge(&mut self.entities[*index].props, block.body);
                return Ok(());
            }
            return Err(at(SourceDiagnostic::new(
                file,
                format!(
                    "duplicate {} `{address}` in terraform root `{}` (first declared at {first})",
                    block.ident, self.root
                ),
            )));
        }
        self.index
            .insert(address.clone(), (self.entities.len(), location));
        self.entities.push(
            DeclaredEntity::new(entity_name(self.root, &address), entity_type, block.body)
                .from_file(file),
        );
        Ok(())
    }
}

/// `(address, type, merges)`; `None` for blocks that declare nothing; a `None` address
/// or type for a block with the wrong labels.
#[allow(clippy::type_complexity)]
fn classify(block: &RawBlock) -> Option<(Option<String>, Option<String>, bool)> {
    let labels: Vec<&str> = block.labels.iter().map(String::as_str).collect();
    let one = |prefix: &str, kind: &str| match labels.as_slice() {
        [name] => (
            Some(format!("{prefix}{name}")),
            Some(kind.to_owned()),
            false,
        ),
        _ => (None, None, false),
    };
    Some(match block.ident.as_str() {
        "resource" | "data" => match labels.as_slice() {
            [kind, name] => {
                let (mode, prefix) = if block.ident == "data" {
                    (Mode::Data, "data.")
                } else {
                    (Mode::Managed, "")
                };
                (
                    Some(format!("{prefix}{kind}.{name}")),
                    Some(resource_type(mode, kind)),
                    false,
                )
            }
            _ => (None, None, false),
        },
        "module" => one("module.", MODULE_TYPE),
        "variable" => one("var.", VARIABLE_TYPE),
        "output" => one("output.", OUTPUT_TYPE),
        "provider" => match labels.as_slice() {
            [name] => {
                let address = match block.body.get("alias").and_then(Value::as_str) {
                    Some(alias) => format!("provider.{name}.{alias}"),
                    None => format!("provider.{name}"),
                };
                (Some(address), Some(PROVIDER_TYPE.to_owned()), false)
            }
            _ => (None, None, false),
        },
        "locals" if labels.is_empty() => (
            Some("locals".to_owned()),
            Some(LOCALS_TYPE.to_owned()),
            true,
        ),
        "terraform" if labels.is_empty() => (
            Some("terraform".to_owned()),
            Some(SETTINGS_TYPE.to_owned()),
            true,
        ),
        "locals" | "terraform" => (None, None, true),
        _ => return None,
    })
}

fn expected_labels(ident: &str) -> &'static str {
    match ident {
        "resource" | "data" => "two labels (type and name)",
        "locals" | "terraform" => "no labels",
        _ => "one label (its name)",
    }
}

/// Top-level keys of `extra` replace those of `props` (terraform's override rule, one level).
fn merge(props: &mut Value, extra: Value) {
    match (props, extra) {
        (Value::Object(into), Value::Object(from)) => into.extend(from),
        (props, extra) => *props = extra,
    }
}

fn hcl_blocks(file: &Path, text: &str) -> Result<Vec<RawBlock>, SourceDiagnostic> {
    let body = hcl::edit::parser::parse_body(text).map_err(|e| {
        let location = e.location();
        SourceDiagnostic::new(file, format!("invalid HCL: {}", e.message()))
            .at_line(text, location.line(), Some(location.column()))
            .label(e.message().to_owned())
    })?;
    let mut out = Vec::new();
    for block in body.blocks() {
        let offset = block.span().map(|s| s.start);
        let labels = block.labels.iter().map(|l| l.as_str().to_owned()).collect();
        let converted = hcl::Body::from(block.body.clone());
        let props: Value = hcl::from_body(converted).map_err(|e| {
            let diagnostic = SourceDiagnostic::new(file, format!("unreadable block: {e}"));
            match offset {
                Some(o) => diagnostic.at(SourceSpan::new(o, block.ident.len())),
                None => diagnostic,
            }
        })?;
        out.push(RawBlock {
            ident: block.ident.as_str().to_owned(),
            labels,
            body: props,
            offset,
        });
    }
    Ok(out)
}

/// The JSON syntax: `{"resource": {"aws_vpc": {"main": {…}}}, "locals": {…}, …}`.
fn json_blocks(file: &Path, text: &str) -> Result<Vec<RawBlock>, SourceDiagnostic> {
    let document: Value = serde_json::from_str(text).map_err(|e| {
        SourceDiagnostic::new(file, format!("invalid JSON: {e}")).at_line(
            text,
            e.line(),
            Some(e.column()),
        )
    })?;
    let Value::Object(top) = document else {
        return Err(SourceDiagnostic::new(
            file,
            "a .tf.json file must hold one object",
        ));
    };
    let mut out = Vec::new();
    for (ident, value) in top {
        let depth = match ident.as_str() {
            "resource" | "data" => 2,
            "module" | "variable" | "output" | "provider" => 1,
            "locals" | "terraform" => 0,
            _ => continue,
        };
        collect_json(&ident, value, depth, &mut Vec::new(), &mut out);
    }
    Ok(out)
}

fn collect_json(
    ident: &str,
    value: Value,
    depth: usize,
    labels: &mut Vec<String>,
    out: &mut Vec<RawBlock>,
) {
    match value {
        Value::Array(items) => {
            for item in items {
                collect_json(ident, item, depth, labels, out);
            }
        }
        Value::Object(map) if depth > 0 => {
            for (label, inner) in map {
                labels.push(label);
                collect_json(ident, inner, depth - 1, labels, out);
                labels.pop();
            }
        }
        body => out.push(RawBlock {
            ident: ident.to_owned(),
            labels: labels.clone(),
            body: if body.is_object() {
                body
            } else {
                Value::Object(Map::new())
            },
            offset: None,
        }),
    }
}

/// `*.tf` and `*.tf.json`, sorted, override files last.
fn config_files(dir: &Path) -> Result<Vec<PathBuf>, SourceDiagnostic> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        SourceDiagnostic::new(
            dir,
            format!("cannot read terraform root {}: {e}", dir.display()),
        )
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                !n.starts_with('.') && (n.ends_with(".tf") || n.ends_with(".tf.json"))
            })
        })
        .collect();
    files.sort_by_key(|p| (is_override(p), p.clone()));
    Ok(files)
}

fn is_json(file: &Path) -> bool {
    file.to_string_lossy().ends_with(".tf.json")
}

fn is_override(file: &Path) -> bool {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(".tf.json")
        .or_else(|| name.strip_suffix(".tf"))
        .unwrap_or(name);
    stem == "override" || stem.ends_with("_override")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Mode as RootMode;
    use serde_json::json;

    fn root(dir: &Path) -> Root {
        Root {
            name: "network".into(),
            dir: dir.to_path_buf(),
            binary: "terraform".into(),
            mode: RootMode::Stock,
            estate: None,
        }
    }

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn every_block_kind_becomes_one_entity() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "main.tf",
            r#"
terraform {
  required_version = ">= 1.5"
}
provider "aws" {
  region = "eu-west-1"
}
provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}
variable "cidr" {
  default = "10.0.0.0/16"
}
locals {
  name = "shop"
}
resource "aws_vpc" "main" {
  cidr_block = var.cidr
  tags = { Name = local.name }
}
resource "aws_subnet" "a" {
  count  = 2
  vpc_id = aws_vpc.main.id
}
data "aws_region" "current" {}
module "dns" {
  source = "./modules/dns"
}
output "vpc_id" {
  value = aws_vpc.main.id
}
moved {
  from = aws_vpc.old
  to   = aws_vpc.main
}
"#,
        );
        write(
            dir.path(),
            "more.tf",
            "locals {\n  env = \"dev\"\n}\nterraform {\n  backend \"local\" {}\n}\n",
        );
        let entities = read_root(&root(dir.path())).unwrap();
        let named: Vec<(&str, &str)> = entities
            .iter()
            .map(|e| (e.name.as_str(), e.entity_type.as_str()))
            .collect();
        assert_eq!(
            named,
            [
                ("network/terraform", "Terraform::Settings"),
                ("network/provider.aws", "Terraform::Provider"),
                ("network/provider.aws.use1", "Terraform::Provider"),
                ("network/var.cidr", "Terraform::Variable"),
                ("network/locals", "Terraform::Locals"),
                ("network/aws_vpc.main", "Terraform::Resource::aws_vpc"),
                ("network/aws_subnet.a", "Terraform::Resource::aws_subnet"),
                (
                    "network/data.aws_region.current",
                    "Terraform::Data::aws_region"
                ),
                ("network/module.dns", "Terraform::Module"),
                ("network/output.vpc_id", "Terraform::Output"),
            ]
        );
        let by_name = |n: &str| entities.iter().find(|e| e.name == n).unwrap();
        assert_eq!(
            by_name("network/locals").props,
            json!({"name": "shop", "env": "dev"})
        );
        assert_eq!(by_name("network/aws_subnet.a").props["count"], json!(2));
        assert_eq!(
            by_name("network/aws_vpc.main").props["cidr_block"],
            json!("${var.cidr}")
        );
        assert!(by_name("network/terraform").props.get("backend").is_some());
        assert_eq!(
            by_name("network/aws_vpc.main").origin.as_deref(),
            Some(dir.path().join("main.tf").as_path())
        );
    }

    #[test]
    fn bad_hcl_names_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let text = "resource \"aws_vpc\" \"main\" {\n  cidr_block = \"10.0.0.0/16\"\n  tags = {\n}\n}\nresource \"x\" {\n";
        write(dir.path(), "broken.tf", text);
        let err = read_root(&root(dir.path())).unwrap_err();
        assert_eq!(err.file, dir.path().join("broken.tf"));
        assert!(err.message.starts_with("invalid HCL"), "{}", err.message);
        assert!(
            err.line_in(text).is_some_and(|l| l >= 6),
            "{:?}",
            err.line_in(text)
        );
    }

    #[test]
    fn wrong_labels_and_duplicates_point_at_the_block() {
        let dir = tempfile::tempdir().unwrap();
        let text = "resource \"aws_vpc\" \"main\" {}\n\nresource \"aws_vpc\" \"main\" {}\n";
        write(dir.path(), "main.tf", text);
        let err = read_root(&root(dir.path())).unwrap_err();
        assert!(
            err.message.contains("duplicate resource `aws_vpc.main`"),
            "{}",
            err.message
        );
        assert!(err.message.contains("main.tf:1"), "{}", err.message);
        assert_eq!(err.line_in(text), Some(3));

        write(dir.path(), "main.tf", "variable \"a\" \"b\" {}\n");
        let err = read_root(&root(dir.path())).unwrap_err();
        assert!(err.message.contains("takes one label"), "{}", err.message);
    }

    #[test]
    fn override_files_merge_and_json_files_declare() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "main.tf",
            "resource \"aws_vpc\" \"main\" {\n  cidr_block = \"a\"\n}\n",
        );
        write(
            dir.path(),
            "main_override.tf",
            "resource \"aws_vpc\" \"main\" {\n  cidr_block = \"b\"\n}\n",
        );
        write(
            dir.path(),
            "extra.tf.json",
            r#"{"resource": {"aws_s3_bucket": {"logs": {"bucket": "l"}}}, "output": {"o": {"value": "x"}}, "locals": [{"a": 1}]}"#,
        );
        let entities = read_root(&root(dir.path())).unwrap();
        let names: Vec<&str> = entities.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "network/locals",
                "network/output.o",
                "network/aws_s3_bucket.logs",
                "network/aws_vpc.main"
            ]
        );
        assert_eq!(entities[3].props["cidr_block"], json!("b"));

        write(dir.path(), "bad.tf.json", "{\n  \"resource\": \n}");
        let err = read_root(&root(dir.path())).unwrap_err();
        assert_eq!(err.file, dir.path().join("bad.tf.json"));
        assert!(err.span.is_some());
    }

    #[test]
    fn an_empty_or_missing_root_is_a_diagnostic() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_root(&root(dir.path())).unwrap_err();
        assert!(err.message.contains("has no .tf files"));
        let err = read_root(&root(&dir.path().join("nope"))).unwrap_err();
        assert!(err.message.contains("cannot read terraform root"));
    }
}
