//! The block YAML that generators write (indented mappings and sequences, one-line
//! scalars, one-line flow collections, `|` blocks) read a line at a time instead of by
//! yaml-rust2's character-at-a-time scanner, which took ~20 ms of a 2,000-manifest read.
//!
//! It emits the events yaml-rust2 emits for the same text, or gives up at the first
//! construct it does not read: anchors, aliases, tags, quoted or complex keys, escapes,
//! multi-line scalars and flow collections, folded and indented blocks, tabs, carriage
//! returns and non-ASCII text. A document it gave up on is read by yaml-rust2 from the
//! start, so what is read never depends on which reader read it (the tests compare the
//! two on a corpus and on generated documents).

use yaml_rust2::parser::Event;
use yaml_rust2::scanner::TScalarStyle;

/// This reader does not handle the document.
#[derive(Debug, PartialEq, Eq)]
pub struct GiveUp;

type Step = Result<(), GiveUp>;

/// Feed `text`'s events (without the stream and document events) to `emit`, with the
/// 1-based line of each; `emit` answers `false` to stop, which gives up too.
pub fn read(text: &str, emit: &mut dyn FnMut(Event, usize) -> bool) -> Step {
    if !text
        .bytes()
        .all(|b| b == b'\n' || (b' '..=b'~').contains(&b))
    {
        return Err(GiveUp);
    }
    let lines = text
        .split('\n')
        .enumerate()
        .map(|(i, raw)| {
            let indent = raw.len() - raw.trim_start_matches(' ').len();
            Line {
                number: i + 1,
                indent,
                text: &raw[indent..],
                raw,
            }
        })
        .collect();
    let mut reader = Reader {
        lines,
        at: 0,
        ends_with_newline: text.ends_with('\n'),
        emit,
    };
    reader.document()
}

struct Line<'t> {
    number: usize,
    indent: usize,
    /// After the indentation. A sequence entry's content is read as a line of its own:
    /// `indent` and `text` are moved past the `- `.
    text: &'t str,
    raw: &'t str,
}

struct Reader<'t, 'e> {
    lines: Vec<Line<'t>>,
    at: usize,
    ends_with_newline: bool,
    emit: &'e mut dyn FnMut(Event, usize) -> bool,
}

fn is_sequence_entry(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Bytes that may not start a plain scalar here (or that this reader leaves to yaml-rust2).
fn is_indicator(b: u8) -> bool {
    b"-?:,[]{}#&*!|>'\"%@`".contains(&b)
}

/// `key: ...` → the key and where the value starts; `None` when `text` is not a simple
/// mapping entry.
fn simple_key(text: &str) -> Option<(&str, usize)> {
    let bytes = text.as_bytes();
    if bytes.first().is_none_or(|b| is_indicator(*b)) {
        return None;
    }
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b':' if i + 1 == bytes.len() || bytes[i + 1] == b' ' => {
                let key = text[..i].trim_end_matches(' ');
                return (key.len() <= 1024).then_some((key, i + 1));
            }
            b'#' if bytes[i - 1] == b' ' => return None,
            b',' | b'[' | b']' | b'{' | b'}' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Nothing after a value but spaces and a comment.
fn only_comment(rest: &str) -> bool {
    let trimmed = rest.trim_start_matches(' ');
    trimmed.is_empty() || (trimmed.starts_with('#') && trimmed.len() < rest.len())
}

fn scalar(text: String, style: TScalarStyle) -> Event {
    Event::Scalar(text, style, 0, None)
}

impl<'t> Reader<'t, '_> {
    fn emit(&mut self, event: Event, line: usize) -> Step {
        if (self.emit)(event, line) {
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    fn line_number(&self) -> usize {
        self.lines.get(self.at).map_or(0, |l| l.number)
    }

    /// The next line that holds structure (not blank, not a comment), made current.
    fn next_structural(&mut self) -> Result<Option<(usize, &'t str)>, GiveUp> {
        while let Some(line) = self.lines.get(self.at) {
            if line.raw.starts_with("---") || line.raw.starts_with("...") {
                return Err(GiveUp);
            }
            if line.raw.starts_with('%') && line.indent == 0 {
                return Err(GiveUp);
            }
            if !line.text.is_empty() && !line.text.starts_with('#') {
                return Ok(Some((line.indent, line.text)));
            }
            self.at += 1;
        }
        Ok(None)
    }

    fn document(&mut self) -> Step {
        let Some((indent, text)) = self.next_structural()? else {
            return Ok(());
        };
        if is_sequence_entry(text) {
            self.sequence(indent)?;
        } else if simple_key(text).is_some() {
            self.mapping(indent)?;
        } else {
            return Err(GiveUp);
        }
        match self.next_structural()? {
            None => Ok(()),
            Some(_) => Err(GiveUp),
        }
    }

    /// The node that starts on the current line, inside a collection indented by `parent`.
    fn node_here(&mut self, parent: usize) -> Step {
        let line = &self.lines[self.at];
        let (indent, text) = (line.indent, line.text);
        if is_sequence_entry(text) {
            self.sequence(indent)
        } else if simple_key(text).is_some() {
            self.mapping(indent)
        } else {
            self.inline_value(text, parent)
        }
    }

    fn sequence(&mut self, indent: usize) -> Step {
        self.emit(Event::SequenceStart(0, None), self.line_number())?;
        while let Some((at, text)) = self.next_structural()? {
            if at < indent || (at == indent && !is_sequence_entry(text)) {
                break;
            }
            if at > indent {
                return Err(GiveUp);
            }
            let rest = text[1..].trim_start_matches(' ');
            if rest.is_empty() || rest.starts_with('#') {
                self.at += 1;
                self.value_below(indent, false)?;
            } else {
                let line = &mut self.lines[self.at];
                line.indent += line.text.len() - rest.len();
                line.text = rest;
                self.node_here(indent)?;
            }
        }
        self.emit(Event::SequenceEnd, self.line_number())
    }

    fn mapping(&mut self, indent: usize) -> Step {
        self.emit(Event::MappingStart(0, None), self.line_number())?;
        while let Some((at, text)) = self.next_structural()? {
            if at < indent {
                break;
            }
            if at > indent {
                return Err(GiveUp);
            }
            let (key, value_at) = simple_key(text).ok_or(GiveUp)?;
            let line = self.line_number();
            self.emit(scalar(key.to_owned(), TScalarStyle::Plain), line)?;
            let rest = text[value_at..].trim_start_matches(' ');
            if rest.is_empty() || rest.starts_with('#') {
                self.at += 1;
                self.value_below(indent, true)?;
            } else {
                self.inline_value(rest, indent)?;
            }
        }
        self.emit(Event::MappingEnd, self.line_number())
    }

    /// The value of an entry that ends its line: the node on the lines below, indented
    /// deeper than `parent` (or a sequence at its indentation, for a mapping's entry), or
    /// nothing.
    fn value_below(&mut self, parent: usize, in_mapping: bool) -> Step {
        match self.next_structural()? {
            Some((at, _)) if at > parent => self.node_here(parent),
            Some((at, text)) if in_mapping && at == parent && is_sequence_entry(text) => {
                self.sequence(parent)
            }
            _ => self.emit(
                scalar(String::new(), TScalarStyle::Plain),
                self.line_number(),
            ),
        }
    }

    /// A value that starts at `text` on the current line; the line is consumed, and the
    /// next structural line may not continue it.
    fn inline_value(&mut self, text: &'t str, parent: usize) -> Step {
        let line = self.line_number();
        let first = text.as_bytes()[0];
        let rest = match first {
            b'|' => return self.literal(&text[1..], parent),
            b'"' | b'\'' => {
                let (event, end) = quoted(text).ok_or(GiveUp)?;
                self.emit(event, line)?;
                &text[end..]
            }
            b'[' | b'{' => {
                let mut events = Vec::new();
                let end = flow_node(text, 0, &mut events).ok_or(GiveUp)?;
                for event in events {
                    self.emit(event, line)?;
                }
                &text[end..]
            }
            // `-1`, `-Xmx512m`: a dash that is not an entry's starts a plain scalar.
            b'-' if text.len() > 1 && text.as_bytes()[1] != b' ' => self.plain(text, line)?,
            b if is_indicator(b) => return Err(GiveUp),
            _ => self.plain(text, line)?,
        };
        if !only_comment(rest) {
            return Err(GiveUp);
        }
        self.at += 1;
        self.not_continued(parent)
    }

    /// A one-line plain scalar; what follows it on the line (a comment, or nothing).
    fn plain(&mut self, text: &'t str, line: usize) -> Result<&'t str, GiveUp> {
        let end = text.find(" #").unwrap_or(text.len());
        let value = text[..end].trim_end_matches(' ');
        if value.contains(": ") || value.ends_with(':') {
            return Err(GiveUp);
        }
        self.emit(scalar(value.to_owned(), TScalarStyle::Plain), line)?;
        Ok(&text[end..])
    }

    fn not_continued(&mut self, parent: usize) -> Step {
        match self.next_structural()? {
            Some((at, _)) if at > parent => Err(GiveUp),
            _ => Ok(()),
        }
    }

    /// A `|` block (its header after the `|`): clipped or stripped, indentation detected.
    fn literal(&mut self, header: &str, parent: usize) -> Step {
        let line = self.line_number();
        let (strip, comment) = match header.as_bytes().first() {
            Some(b'-') => (true, &header[1..]),
            Some(b'+' | b'0'..=b'9') => return Err(GiveUp),
            _ => (false, header),
        };
        if !only_comment(comment) {
            return Err(GiveUp);
        }
        self.at += 1;
        let start = self.at;
        let is_blank = |l: &Line| l.text.is_empty();
        let first = self.lines[start..]
            .iter()
            .position(|l| !is_blank(l))
            .ok_or(GiveUp)?
            + start;
        let indent = self.lines[first].indent;
        if indent <= parent {
            return Err(GiveUp);
        }
        let mut end = first;
        while end < self.lines.len()
            && (is_blank(&self.lines[end]) || self.lines[end].indent >= indent)
        {
            end += 1;
        }
        let block = &self.lines[start..end];
        if block.iter().any(|l| is_blank(l) && l.raw.len() > indent) {
            return Err(GiveUp);
        }
        let last_content = block.iter().rposition(|l| !is_blank(l)).ok_or(GiveUp)?;
        if start + last_content + 1 == self.lines.len() && !self.ends_with_newline {
            return Err(GiveUp);
        }
        let mut value = String::new();
        for l in &block[..=last_content] {
            if !is_blank(l) {
                value.push_str(&l.raw[indent..]);
            }
            value.push('\n');
        }
        if strip {
            value.pop();
        }
        self.emit(scalar(value, TScalarStyle::Literal), line)?;
        self.at = end;
        self.not_continued(parent)
    }
}

/// A quoted scalar at the start of `text`, closed on the same line, without escapes: its
/// event and the byte after the closing quote.
fn quoted(text: &str) -> Option<(Event, usize)> {
    let quote = text.as_bytes()[0];
    let mut value = String::new();
    let mut from = 1;
    loop {
        let close = text[from..].find(quote as char)? + from;
        value.push_str(&text[from..close]);
        if quote == b'\'' && text.as_bytes().get(close + 1) == Some(&b'\'') {
            value.push('\'');
            from = close + 2;
            continue;
        }
        if quote == b'"' && value.contains('\\') {
            return None;
        }
        let style = if quote == b'"' {
            TScalarStyle::DoubleQuoted
        } else {
            TScalarStyle::SingleQuoted
        };
        return Some((scalar(value, style), close + 1));
    }
}

/// A one-line flow node at `text[i..]`: its events, and the byte after it.
fn flow_node(text: &str, i: usize, events: &mut Vec<Event>) -> Option<usize> {
    let bytes = text.as_bytes();
    match *bytes.get(i)? {
        b'{' => {
            events.push(Event::MappingStart(0, None));
            let end = flow_entries(text, i + 1, b'}', events, flow_pair)?;
            events.push(Event::MappingEnd);
            Some(end)
        }
        b'[' => {
            events.push(Event::SequenceStart(0, None));
            let end = flow_entries(text, i + 1, b']', events, flow_node)?;
            events.push(Event::SequenceEnd);
            Some(end)
        }
        _ => flow_scalar(text, i, events),
    }
}

/// The entries of a flow collection from `text[i..]` to its `close`, each read by
/// `entry`, separated by commas (no empty entry, no trailing comma): the byte after
/// `close`.
fn flow_entries(
    text: &str,
    i: usize,
    close: u8,
    events: &mut Vec<Event>,
    entry: fn(&str, usize, &mut Vec<Event>) -> Option<usize>,
) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = skip_spaces(bytes, i);
    if bytes.get(i) == Some(&close) {
        return Some(i + 1);
    }
    loop {
        i = skip_spaces(bytes, entry(text, i, events)?);
        match *bytes.get(i)? {
            b',' => i = skip_spaces(bytes, i + 1),
            b if b == close => return Some(i + 1),
            _ => return None,
        }
        if bytes.get(i).is_some_and(|b| *b == close || *b == b',') {
            return None;
        }
    }
}

/// `key: value` inside a flow mapping.
fn flow_pair(text: &str, i: usize, events: &mut Vec<Event>) -> Option<usize> {
    let bytes = text.as_bytes();
    let i = skip_spaces(bytes, flow_scalar(text, i, events)?);
    if bytes.get(i) != Some(&b':') || bytes.get(i + 1) != Some(&b' ') {
        return None;
    }
    flow_node(text, skip_spaces(bytes, i + 1), events)
}

/// A quoted or plain scalar inside a flow collection.
fn flow_scalar(text: &str, i: usize, events: &mut Vec<Event>) -> Option<usize> {
    let bytes = text.as_bytes();
    match *bytes.get(i)? {
        b'"' | b'\'' => {
            let (event, end) = quoted(&text[i..])?;
            events.push(event);
            Some(i + end)
        }
        b'-' if bytes.get(i + 1).is_some_and(|b| !b" ,[]{}".contains(b)) => {
            flow_plain(text, i, events)
        }
        b if is_indicator(b) => None,
        _ => flow_plain(text, i, events),
    }
}

/// A plain scalar inside a flow collection, ended by a flow indicator or `: `.
fn flow_plain(text: &str, i: usize, events: &mut Vec<Event>) -> Option<usize> {
    let bytes = text.as_bytes();
    let end = bytes[i..]
        .iter()
        .position(|b| b",[]{}:#".contains(b))
        .map_or(bytes.len(), |p| p + i);
    // Only `: ` ends a plain scalar at a colon (`{url: http://x}` is left alone).
    match bytes.get(end) {
        None | Some(b'#') => return None,
        Some(b':') if bytes.get(end + 1) != Some(&b' ') => return None,
        _ => {}
    }
    let value = text[i..end].trim_end_matches(' ');
    events.push(scalar(value.to_owned(), TScalarStyle::Plain));
    Some(i + value.len())
}

fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use yaml_rust2::parser::Parser;

    /// yaml-rust2's events, without the stream and document events; `None` on an error.
    fn slow(text: &str) -> Option<Vec<Event>> {
        let mut parser = Parser::new_from_str(text);
        let mut events = Vec::new();
        loop {
            match parser.next_token().ok()?.0 {
                Event::StreamEnd => return Some(events),
                Event::StreamStart | Event::DocumentStart | Event::DocumentEnd => {}
                event => events.push(event),
            }
        }
    }

    fn fast(text: &str) -> Option<Vec<Event>> {
        let mut events = Vec::new();
        read(text, &mut |event, _| {
            events.push(event);
            true
        })
        .ok()
        .map(|()| events)
    }

    /// Whether the fast reader read `text`; when it did, it read what yaml-rust2 reads.
    fn read_alike(text: &str) -> bool {
        let Some(events) = fast(text) else {
            return false;
        };
        assert_eq!(Some(events), slow(text), "{text:?}");
        true
    }

    const READ_FAST: &[&str] = &[
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: ns0\n  labels:\n    app.kubernetes.io/managed-by: chant\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: x}\n  template:\n    metadata:\n      labels: {app: x}\n    spec:\n      containers:\n      - name: x\n        image: nginx\n",
        "# leading comment\nkind: ConfigMap # trailing\n\ndata:\n  script: |\n    #!/bin/sh\n    echo hi\n\n    exit 0\n  trimmed: |-\n      indented\n        more\n  empty:\n  other: 'it''s'\n",
        "items:\n  - a\n  -   b  \n  - - nested\n    - more\n  -\n    k: v\n  - k: v\n    j: [1, 'two', \"three\", {x: y}]\n",
        "args: [--port, -1, \"a b\", 'c d']\nempty: []\nnone: {}\nneg: -1\nflag: -Xmx512m\nurl: http://example.com/a#b\nspaced key: value with  spaces\ncolon: a:b\n",
        "top:\n- one\n- two\nnext: 3\n",
        "a:\n  b:\n    c:\n      - |\n        text\n      - x\nd: \"quoted # not a comment\"\n",
        "    indented: root\n    other: 1\n",
        "- a\n- b: 1\n  c: 2\n-\n- last\n",
        "",
        "# only a comment\n",
        "key:\n  scalar on its own line\nnext: 1\n",
        "a: 1\na: 2\n",
        "<<: {a: 1}\nb: 2\n",
    ];

    #[test]
    fn reads_what_generators_write_as_yaml_rust2_does() {
        for text in READ_FAST {
            assert!(read_alike(text), "gave up on {text:?}");
        }
    }

    #[test]
    fn gives_up_on_what_it_does_not_read() {
        let cases = [
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "\"quoted\": key\n",
            "a: \"esc\\n\"\n",
            "a: multi\n  line\n",
            "a: >\n  folded\n",
            "a: |+\n  kept\n\n",
            "a: |2\n   explicit\n",
            "a: [1,\n  2]\n",
            "? complex\n: key\n",
            "a:\tb\n",
            "a: b\r\n",
            "a: caf\u{e9}\n",
            "a: 'open\n",
            "a: [x, ]\n",
            "a: - x\n",
            "a: b: c\n",
            "a: [x]y\n",
            "a: 1\n    b: 2\n",
            "--- \na: 1\n",
            "a: |\n  last line without a newline",
            "just a scalar\n",
            "%YAML 1.1\n",
        ];
        for text in cases {
            assert_eq!(fast(text), None, "{text:?}");
        }
    }

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    const KEYS: &[&str] = &[
        "a",
        "name",
        "app.kubernetes.io/name",
        "spaced key",
        "80",
        "on",
        "x-y",
        "a  ",
        "<<",
        "a'b",
        "-k",
        "k#",
        "~",
    ];
    const SCALARS: &[&str] = &[
        "x",
        "nginx:1.27",
        "80",
        "-1",
        "true",
        "no",
        "~",
        "null",
        "1.5",
        "0o17",
        "'q'",
        "'it''s'",
        "\"dq\"",
        "\"a b\"",
        "a b",
        "http://x/y",
        "a#b",
        "x # c",
        "-",
        "@x",
        "*x",
        "a: b",
        "\"e\\n\"",
        "- a",
        "[1, 2]",
        "{a: b, c: [d]}",
        "[]",
        "{}",
        "[a, {b: c}]",
        "{a: }",
        "[a: b]",
        "'",
        "|",
        "|-",
        ">",
        "a:",
        "a  #b",
        "x #",
        "'a' # c",
        "{ a: b }",
        "[ a , b ]",
        "[-1, -x, - y]",
        "{a: -1}",
        "[\"q\", 'r']",
        "{'k': v}",
        "{\"k\":v}",
        "a #",
        "|  # c",
        "|-2",
        "-x",
        "--",
        "x:y",
        "[a,b]",
        "{a:b}",
        "a'b",
        "a\"b",
        "[[a], [b, [c]]]",
    ];

    fn scalar_or_block(rng: &mut Rng, indent: usize, out: &mut String) {
        let value = rng.pick(SCALARS);
        out.push_str(value);
        if value.starts_with('|') || value == ">" {
            out.push('\n');
            for _ in 0..=rng.below(3) {
                if rng.below(4) == 0 {
                    out.push('\n');
                }
                out.push_str(&" ".repeat(indent + 2 + rng.below(2)));
                out.push_str(rng.pick(&["line", "# not a comment", "a: b", "- x"]));
                out.push('\n');
            }
        } else {
            out.push('\n');
        }
    }

    fn mapping(rng: &mut Rng, depth: usize, indent: usize, out: &mut String) {
        for _ in 0..=rng.below(3) {
            decorate(rng, indent, out);
            out.push_str(&" ".repeat(indent));
            out.push_str(rng.pick(KEYS));
            out.push(':');
            value(rng, depth, indent, true, out);
        }
    }

    fn sequence(rng: &mut Rng, depth: usize, indent: usize, out: &mut String) {
        for _ in 0..=rng.below(3) {
            decorate(rng, indent, out);
            out.push_str(&" ".repeat(indent));
            out.push('-');
            if depth > 0 && rng.below(3) == 0 {
                // A compact mapping: its first entry on the dash's line.
                out.push_str(&" ".repeat(1 + rng.below(2)));
                let inner = out.len() - out.rfind('\n').map_or(0, |i| i + 1);
                out.push_str(rng.pick(KEYS));
                out.push(':');
                value(rng, depth - 1, inner, true, out);
                mapping(rng, depth - 1, inner, out);
            } else {
                value(rng, depth, indent, false, out);
            }
        }
    }

    fn value(rng: &mut Rng, depth: usize, indent: usize, in_mapping: bool, out: &mut String) {
        match if depth == 0 { 0 } else { rng.below(5) } {
            0 | 1 => {
                out.push(' ');
                scalar_or_block(rng, indent, out);
            }
            2 => {
                out.push('\n');
                let deeper = indent + 2 * (1 + rng.below(2));
                mapping(rng, depth - 1, deeper, out);
            }
            3 => {
                out.push('\n');
                let same = in_mapping && rng.below(2) == 0;
                sequence(rng, depth - 1, if same { indent } else { indent + 2 }, out);
            }
            _ => out.push_str(if rng.below(2) == 0 {
                "\n"
            } else {
                " # empty\n"
            }),
        }
    }

    fn decorate(rng: &mut Rng, indent: usize, out: &mut String) {
        match rng.below(12) {
            0 => out.push('\n'),
            1 => out.push_str(&format!("{}# comment\n", " ".repeat(rng.below(indent + 2)))),
            _ => {}
        }
    }

    #[test]
    fn agrees_with_yaml_rust2_on_generated_documents() {
        let mut rng = Rng(0x0bad_c0de_1357_9bdf);
        let (mut read, total) = (0, 20_000);
        for _ in 0..total {
            let mut text = String::new();
            if rng.below(4) == 0 {
                sequence(&mut rng, 3, 0, &mut text);
            } else {
                mapping(&mut rng, 3, 0, &mut text);
            }
            read += usize::from(read_alike(&text));
        }
        // The generator writes many constructs the fast reader leaves alone; it must still
        // have read a good share itself, or this test would compare nothing.
        assert!(read > total / 10, "read {read} of {total}");
    }

    #[test]
    fn agrees_with_yaml_rust2_on_damaged_documents() {
        let mut rng = Rng(0x0bad_c0de_1357_9bdf);
        let mut read = 0;
        let noise = b" :-#'\"[]{},|>\n&*!?x";
        for _ in 0..30_000 {
            let mut text = rng.pick(READ_FAST).as_bytes().to_vec();
            for _ in 0..=rng.below(2) {
                let at = rng.below(text.len() + 1);
                match rng.below(3) {
                    0 if at < text.len() => {
                        text.remove(at);
                    }
                    1 if at < text.len() => text[at] = noise[rng.below(noise.len())],
                    _ => text.insert(at, noise[rng.below(noise.len())]),
                }
            }
            read += usize::from(read_alike(&String::from_utf8(text).unwrap()));
        }
        assert!(read > 5_000, "read {read}");
    }
}
