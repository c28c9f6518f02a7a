//! Reading the declared file: `[{"name", "type", "props"}]`.

use chant_lexicon::{DeclaredEntity, SourceDiagnostic};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    #[serde(rename = "type")]
    entity_type: String,
    #[serde(default)]
    props: serde_json::Value,
}

pub fn read_declared(
    files: &[std::path::PathBuf],
) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| missing(file, &e))?;
        let entries: Vec<Entry> = serde_json::from_str(&text).map_err(|e| {
            SourceDiagnostic::new(
                file,
                format!("not a list of declared entities: {}", strip_position(&e)),
            )
            .at_line(&text, e.line(), Some(e.column()))
            .label("here")
            .help("each entry is {\"name\": …, \"type\": …, \"props\": {…}}")
        })?;
        for entry in entries {
            if !seen.insert(entry.name.clone()) {
                let line = text
                    .find(&format!("\"{}\"", entry.name))
                    .map(|o| text[..o].matches('\n').count() + 1);
                let mut d = SourceDiagnostic::new(
                    file,
                    format!("entity `{}` is declared twice", entry.name),
                );
                if let Some(line) = line {
                    d = d.at_line(&text, line, None);
                }
                return Err(d);
            }
            out.push(
                DeclaredEntity::new(entry.name, entry.entity_type, entry.props).from_file(file),
            );
        }
    }
    Ok(out)
}

pub fn missing(file: &Path, error: &std::io::Error) -> SourceDiagnostic {
    SourceDiagnostic::new(file, format!("cannot read {}: {error}", file.display()))
}

/// serde_json appends " at line X column Y"; the diagnostic shows the position itself.
pub fn strip_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}
