//! Errors that end a command, and how they are shown. Every one exits 1.

use chant_lexicon::SourceDiagnostic;
use miette::{LabeledSpan, NamedSource};
use std::fmt;

#[derive(Debug)]
pub enum CliError {
    /// Bad input in a file: rendered with the file, line and what was expected.
    Diagnostic(SourceDiagnostic),
    /// Anything else, with an optional hint on what to do.
    Message {
        message: String,
        hint: Option<String>,
    },
}

impl CliError {
    pub fn message(message: impl Into<String>) -> Self {
        CliError::Message {
            message: message.into(),
            hint: None,
        }
    }

    pub fn hinted(message: impl Into<String>, hint: impl Into<String>) -> Self {
        CliError::Message {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }
}

impl From<SourceDiagnostic> for CliError {
    fn from(value: SourceDiagnostic) -> Self {
        CliError::Diagnostic(value)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Diagnostic(d) => write!(f, "{d}"),
            CliError::Message { message, .. } => f.write_str(message),
        }
    }
}

/// A source diagnostic as a miette report over the file's own text.
pub fn render_diagnostic(diagnostic: &SourceDiagnostic, color: bool) -> String {
    let file_name = diagnostic.file.display().to_string();
    let text = std::fs::read_to_string(&diagnostic.file).unwrap_or_default();
    let mut report = miette::MietteDiagnostic::new(format!("{file_name}: {}", diagnostic.message));
    if let Some(help) = &diagnostic.help {
        report = report.with_help(help.clone());
    }
    let located = diagnostic.span.filter(|s| s.offset <= text.len());
    if let Some(span) = located {
        let len = span.len.min(text.len() - span.offset);
        report = report.with_label(LabeledSpan::new(diagnostic.label.clone(), span.offset, len));
    }
    let report = miette::Report::new(report)
        .with_source_code(NamedSource::new(file_name.clone(), text.clone()));
    let handler = if color {
        miette::GraphicalReportHandler::new()
    } else {
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
    };
    let mut out = String::new();
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        out = format!("{file_name}: {}", diagnostic.message);
    }
    out
}
