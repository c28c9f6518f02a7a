//! The declared side: DDL files named by `source`, parsed as one schema.

use crate::ddl;
use crate::dialect::Dialect;
use crate::model::SqlObject;
use chant_lexicon::{DeclaredEntity, SourceDiagnostic};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Expand files, globs and directories (their `*.sql`, sorted) in the order given.
pub fn expand(root: &Path, patterns: &[String]) -> Result<Vec<PathBuf>, SourceDiagnostic> {
    let mut files = Vec::new();
    for pattern in patterns {
        let full = root.join(pattern);
        let text = full.to_string_lossy().into_owned();
        if full.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&full)
                .map_err(|e| {
                    SourceDiagnostic::new(&full, format!("cannot read {}: {e}", full.display()))
                })?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "sql"))
                .collect();
            found.sort();
            files.extend(found);
        } else if pattern.contains(['*', '?', '[']) {
            let matches = glob::glob(&text).map_err(|e| {
                SourceDiagnostic::new(&full, format!("`{pattern}` is not a valid glob: {e}"))
            })?;
            let mut found: Vec<PathBuf> = matches.filter_map(Result::ok).collect();
            found.sort();
            if found.is_empty() {
                return Err(SourceDiagnostic::new(&full, format!("`{pattern}` matches no file"))
                    .help("[lexicons.sql] source names the DDL files; paths are relative to chant.toml"));
            }
            files.extend(found);
        } else {
            files.push(full);
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    files.retain(|f| seen.insert(f.clone()));
    Ok(files)
}

/// Read and parse the files; a statement that cannot be read is a diagnostic at its line.
pub fn read_objects(
    files: &[PathBuf],
    dialect: Dialect,
) -> Result<Vec<(SqlObject, PathBuf)>, SourceDiagnostic> {
    let mut texts = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| {
            SourceDiagnostic::new(file, format!("cannot read {}: {e}", file.display()))
                .help("[lexicons.sql] source names the DDL files; paths are relative to chant.toml")
        })?;
        texts.push(text);
    }
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let objects = ddl::parse_many(&refs, dialect).map_err(|(file, error)| {
        let mut d = SourceDiagnostic::new(&files[file], error.message)
            .at_line(&texts[file], error.line, error.column)
            .label("here");
        if let Some(help) = error.help {
            d = d.help(help);
        }
        d
    })?;
    Ok(objects
        .into_iter()
        .map(|o| {
            let file = files[o.file].clone();
            (o, file)
        })
        .collect())
}

pub fn read_declared(
    files: &[PathBuf],
    dialect: Dialect,
) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
    Ok(read_objects(files, dialect)?
        .into_iter()
        .map(|(object, file)| {
            DeclaredEntity::new(
                object.entity_name(),
                object.kind().entity_type(),
                Value::Object(object.props),
            )
            .from_file(file)
        })
        .collect())
}
