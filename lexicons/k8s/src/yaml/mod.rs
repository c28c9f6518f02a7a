//! Multi-document YAML: split at `---` lines (so each document's index and first line
//! are known for diagnostics, and documents can be parsed on every core), each composed
//! into JSON as kubectl reads it.
//!
//! The parser is yaml-rust2's, not serde-saphyr's (which the kube crate brings for
//! kubeconfig files): build output holds thousands of documents, and serde-saphyr took
//! ~24 µs for a 12-line manifest where yaml-rust2's events composed here take ~8 µs.
//! Most documents never reach it: [`fast`] reads the block YAML generators write in a
//! fraction of that, and gives up, to yaml-rust2, on anything else.

mod compose;
mod fast;
mod scalar;

use serde_json::Value;

/// One document of a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// 0-based position in the file, counting empty documents.
    pub index: usize,
    /// 1-based line where the document's text starts.
    pub line: usize,
    pub value: Value,
}

/// A document that did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentError {
    pub index: usize,
    /// 1-based line in the file.
    pub line: usize,
    pub message: String,
}

/// Parse every document; empty documents (comments only) are skipped.
pub fn parse_documents(text: &str) -> Result<Vec<Document>, DocumentError> {
    let mut out = Vec::new();
    for chunk in chunks(text) {
        if let Some(document) = chunk.parse()? {
            out.push(document);
        }
    }
    Ok(out)
}

/// The text of one document, before it is parsed.
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'t> {
    index: usize,
    line: usize,
    text: &'t str,
}

/// Every document's text, in order.
pub fn chunks(text: &str) -> Vec<Chunk<'_>> {
    split(text)
        .into_iter()
        .enumerate()
        .map(|(index, (line, text))| Chunk { index, line, text })
        .collect()
}

impl Chunk<'_> {
    /// The document, or `None` when it holds nothing (only comments, or null).
    pub fn parse(&self) -> Result<Option<Document>, DocumentError> {
        let value = compose::document(self.text).map_err(|e| DocumentError {
            index: self.index,
            line: self.line + e.line - 1,
            message: e.message,
        })?;
        Ok((!value.is_null()).then_some(Document {
            index: self.index,
            line: self.line,
            value,
        }))
    }
}

/// `(first line, text)` of each document.
fn split(text: &str) -> Vec<(usize, &str)> {
    let mut docs = Vec::new();
    let (mut start, mut start_line, mut offset) = (0, 1, 0);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end();
        if bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t") {
            docs.push((start_line, &text[start..offset]));
            if bare[3..].trim_start().is_empty() {
                start = offset + line.len();
                start_line = i + 2;
            } else {
                start = offset + 3;
                start_line = i + 1;
            }
        }
        offset += line.len();
    }
    docs.push((start_line, &text[start..]));
    docs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_documents_and_keeps_their_lines() {
        let text = "a: 1\n---\n# only a comment\n---\nb: 2\nc: 3\n--- \nd: [1, 2]\n";
        let docs = parse_documents(text).unwrap();
        assert_eq!(docs.len(), 3);
        assert_eq!((docs[0].index, docs[0].line), (0, 1));
        assert_eq!((docs[1].index, docs[1].line), (2, 5));
        assert_eq!(docs[1].value["c"], 3);
        assert_eq!((docs[2].index, docs[2].line), (3, 8));
    }

    #[test]
    fn a_leading_separator_is_not_an_empty_document_error() {
        let docs = parse_documents("---\nkind: A\n").unwrap();
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].line, 2);
    }

    #[test]
    fn a_bad_document_names_its_index_and_line() {
        let err = parse_documents("a: 1\n---\nb: [1, 2\n").unwrap_err();
        assert_eq!(err.index, 1);
        assert!(err.line >= 3, "{err:?}");
        assert!(!err.message.is_empty());
    }
}
