//! All terminal output goes through here: reports and JSON to stdout; errors, warnings,
//! notes and progress to stderr. Colour only on a terminal and never with NO_COLOR;
//! progress only when stderr is a terminal.

use crate::cli::ColorChoice;
use indicatif::{ProgressBar, ProgressStyle};
use owo_colors::OwoColorize;
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// What a piece of text means, which decides its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Errors and refusals.
    Red,
    /// Partial or unknown answers: the estate is unknown, not clean.
    Amber,
    /// Success.
    Green,
    Bold,
    Dim,
    Plain,
}

/// How much JSON is written to stdout at a time.
const JSON_BUFFER: usize = 64 * 1024;

#[derive(Clone, Debug)]
pub struct Output {
    stdout_color: bool,
    stderr_color: bool,
    progress: bool,
}

impl Output {
    pub fn new(choice: ColorChoice) -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let decide = |terminal: bool| match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && !no_color,
        };
        let stderr_terminal = std::io::stderr().is_terminal();
        Output {
            stdout_color: decide(std::io::stdout().is_terminal()),
            stderr_color: decide(stderr_terminal),
            progress: stderr_terminal,
        }
    }

    /// No colour, no progress (for tests).
    pub fn plain() -> Self {
        Output {
            stdout_color: false,
            stderr_color: false,
            progress: false,
        }
    }

    pub fn stderr_color(&self) -> bool {
        self.stderr_color
    }

    /// Paint for stdout.
    pub fn paint(&self, text: &str, tone: Tone) -> String {
        paint(text, tone, self.stdout_color)
    }

    /// Paint for stderr.
    pub fn paint_err(&self, text: &str, tone: Tone) -> String {
        paint(text, tone, self.stderr_color)
    }

    /// A report line (or block) on stdout.
    pub fn print(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
    }

    /// `value` as pretty JSON, written straight from it: a struct's fields in the order
    /// the type declares them, a map's keys sorted (chant writes no unordered map). Written
    /// as it is serialized, through a buffer: a report over 2,000 objects is 1.6 MB, and
    /// held whole it cost ~800 fresh pages and the copies of its growth.
    pub fn json<T: Serialize + ?Sized>(&self, value: &T) {
        let mut out = std::io::BufWriter::with_capacity(JSON_BUFFER, std::io::stdout().lock());
        // Every key chant serializes is a string, so only the write itself can fail (a
        // closed pipe), and then there is no one to tell.
        let _ = crate::pretty_json::to_writer_pretty(&mut out, value);
        let _ = out.write_all(b"\n").and_then(|()| out.flush());
    }

    pub fn error(&self, message: &str, hint: Option<&str>) {
        self.labelled("error", Tone::Red, message, hint);
    }

    pub fn warning(&self, message: &str) {
        self.labelled("warning", Tone::Amber, message, None);
    }

    pub fn success(&self, message: &str) {
        self.eprint(&self.paint_err(message, Tone::Green));
    }

    pub fn note(&self, message: &str) {
        self.labelled("note", Tone::Dim, message, None);
    }

    fn labelled(&self, label: &str, tone: Tone, message: &str, hint: Option<&str>) {
        let mut text = format!("{}: {message}", self.paint_err(label, tone));
        if let Some(hint) = hint {
            text.push_str(&format!("\n  {}", self.paint_err(hint, Tone::Dim)));
        }
        self.eprint(&text);
    }

    pub fn eprint(&self, text: &str) {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{text}");
    }

    /// A spinner on stderr while `message` is in progress; nothing when not a terminal.
    pub fn spinner(&self, message: String) -> Option<ProgressBar> {
        if !self.progress {
            return None;
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(message);
        bar.enable_steady_tick(Duration::from_millis(100));
        Some(bar)
    }
}

fn paint(text: &str, tone: Tone, color: bool) -> String {
    if !color {
        return text.to_owned();
    }
    match tone {
        Tone::Red => text.red().bold().to_string(),
        Tone::Amber => text.yellow().to_string(),
        Tone::Green => text.green().to_string(),
        Tone::Bold => text.bold().to_string(),
        Tone::Dim => text.dimmed().to_string(),
        Tone::Plain => text.to_owned(),
    }
}
