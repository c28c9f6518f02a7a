//! The declared side: entities read from a substrate's build output.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// One declared entity. `name` is stable and unique within its lexicon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclaredEntity {
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    /// The literal declared properties, exactly as the build output states them.
    pub props: Value,
    /// Where it was declared (for diagnostics and reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<PathBuf>,
}

impl DeclaredEntity {
    pub fn new(name: impl Into<String>, entity_type: impl Into<String>, props: Value) -> Self {
        DeclaredEntity {
            name: name.into(),
            entity_type: entity_type.into(),
            props,
            origin: None,
        }
    }

    pub fn from_file(mut self, origin: impl Into<PathBuf>) -> Self {
        self.origin = Some(origin.into());
        self
    }
}

/// A byte range in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceSpan {
    pub offset: usize,
    pub len: usize,
}

impl SourceSpan {
    pub fn new(offset: usize, len: usize) -> Self {
        SourceSpan { offset, len }
    }

    /// The span of a 1-based line (and optional 1-based column) in `text`.
    pub fn at_line(text: &str, line: usize, column: Option<usize>) -> Self {
        let mut offset = 0;
        for (i, l) in text.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                let trimmed = l.trim_end_matches(['\n', '\r']);
                return match column {
                    Some(c) if c >= 1 && c - 1 <= trimmed.len() => {
                        SourceSpan::new(offset + c - 1, trimmed.len() - (c - 1))
                    }
                    _ => SourceSpan::new(offset, trimmed.len()),
                };
            }
            offset += l.len();
        }
        SourceSpan::new(text.len(), 0)
    }
}

/// TOML deserializers report an unknown field at its table; point at the key itself.
///
/// `message` is the error text (`unknown field `regoin`, expected …`); when the key is
/// found between the table's start and the next table header, its span is returned.
pub fn refine_unknown_field(text: &str, span: SourceSpan, message: &str) -> SourceSpan {
    let Some(key) = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split('`').next())
    else {
        return span;
    };
    let mut offset = span.offset.min(text.len());
    // Start at the beginning of the line the span is on.
    offset = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    for (index, line) in text[offset..].split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if index > 0 && trimmed.starts_with('[') {
            break;
        }
        let rest = trimmed
            .strip_prefix(key)
            .or_else(|| trimmed.strip_prefix(&format!("\"{key}\"")));
        if rest.is_some_and(|r| r.trim_start().starts_with('=')) {
            let start = offset + (line.len() - trimmed.len());
            return SourceSpan::new(start, key.len());
        }
        offset += line.len();
    }
    span
}

/// Bad input in a file the project names: the file, where, what was expected.
///
/// The CLI renders it as a miette diagnostic; a lexicon only fills it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceDiagnostic {
    pub file: PathBuf,
    pub message: String,
    pub span: Option<SourceSpan>,
    pub label: Option<String>,
    pub help: Option<String>,
}

impl SourceDiagnostic {
    pub fn new(file: impl AsRef<Path>, message: impl Into<String>) -> Self {
        SourceDiagnostic {
            file: file.as_ref().to_path_buf(),
            message: message.into(),
            span: None,
            label: None,
            help: None,
        }
    }

    pub fn at(mut self, span: SourceSpan) -> Self {
        self.span = Some(span);
        self
    }

    /// Point at a 1-based line (and column) of `text`, the file's contents.
    pub fn at_line(self, text: &str, line: usize, column: Option<usize>) -> Self {
        self.at(SourceSpan::at_line(text, line, column))
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The 1-based line of the span in `text`.
    pub fn line_in(&self, text: &str) -> Option<usize> {
        let span = self.span?;
        Some(text[..span.offset.min(text.len())].matches('\n').count() + 1)
    }
}

impl fmt::Display for SourceDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

impl std::error::Error for SourceDiagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_find_lines_and_columns() {
        let text = "a = 1\nbee = 2\n";
        assert_eq!(SourceSpan::at_line(text, 2, None), SourceSpan::new(6, 7));
        assert_eq!(SourceSpan::at_line(text, 2, Some(7)).offset, 12);
        let d = SourceDiagnostic::new("x", "bad").at_line(text, 2, None);
        assert_eq!(d.line_in(text), Some(2));
    }

    #[test]
    fn unknown_fields_point_at_the_key_not_the_table() {
        let text = "[a]\nx = 1\n[b]\nlive = 1\nregoin = 2\n[c]\nregoin = 3\n";
        let table = SourceSpan::new(text.find("[b]").unwrap(), 3);
        let refined = refine_unknown_field(text, table, "unknown field `regoin`, expected `live`");
        assert_eq!(refined.offset, text.find("regoin").unwrap());
        assert_eq!(refine_unknown_field(text, table, "invalid type"), table);
    }
}
