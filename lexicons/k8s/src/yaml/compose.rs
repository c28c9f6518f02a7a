//! One YAML document, from yaml-rust2's parser events straight into JSON: scalars resolved
//! as kubectl resolves them ([`super::scalar`]), anchors and aliases, `<<` merge keys,
//! scalar keys as strings (`80: x` is `"80"`), and the errors kubectl would give for a
//! duplicate key or a mapping used as a key.

use super::{fast, scalar};
use serde_json::{Map, Value};
use std::collections::HashMap;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::TScalarStyle;

/// Why a document did not compose, and where (1-based line within the text).
#[derive(Debug, PartialEq, Eq)]
pub struct ComposeError {
    pub line: usize,
    pub message: String,
}

impl ComposeError {
    fn at(line: usize, message: impl Into<String>) -> Self {
        ComposeError {
            line: line.max(1),
            message: message.into(),
        }
    }
}

const CORE_TAGS: &str = "tag:yaml.org,2002:";

/// The value of the one document in `text` (`Null` when it holds none).
pub fn document(text: &str) -> Result<Value, ComposeError> {
    let mut composer = Composer::default();
    let read = fast::read(text, &mut |event, line| composer.event(event, line).is_ok());
    if read.is_ok() {
        return Ok(composer.root.unwrap_or(Value::Null));
    }
    // What the fast reader gave up on, and every error, is yaml-rust2's to read and word.
    let mut parser = Parser::new_from_str(text);
    let mut composer = Composer::default();
    let mut documents = 0;
    loop {
        let (event, mark) = parser
            .next_token()
            .map_err(|e| ComposeError::at(e.marker().line(), e.info()))?;
        match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(ComposeError::at(
                        mark.line(),
                        "a second document without a `---` line before it",
                    ));
                }
            }
            event => composer.event(event, mark.line())?,
        }
    }
    Ok(composer.root.unwrap_or(Value::Null))
}

#[derive(Default)]
struct Composer {
    open: Vec<Open>,
    anchors: HashMap<usize, Value>,
    root: Option<Value>,
}

enum Open {
    Sequence {
        items: Vec<Value>,
        anchor: usize,
    },
    Mapping {
        entries: Map<String, Value>,
        key: Option<Key>,
        /// Mappings named by `<<`, in the order given; the first to set a key wins.
        merged: Vec<Map<String, Value>>,
        anchor: usize,
    },
}

enum Key {
    Text(String),
    Merge,
}

impl Composer {
    fn event(&mut self, event: Event, line: usize) -> Result<(), ComposeError> {
        match event {
            Event::SequenceStart(anchor, _) => {
                self.open.push(Open::Sequence {
                    items: Vec::new(),
                    anchor,
                });
                Ok(())
            }
            Event::MappingStart(anchor, _) => {
                self.open.push(Open::Mapping {
                    entries: Map::new(),
                    key: None,
                    merged: Vec::new(),
                    anchor,
                });
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, anchor) = match self.open.pop() {
                    Some(Open::Sequence { items, anchor }) => (Value::Array(items), anchor),
                    Some(Open::Mapping {
                        mut entries,
                        merged,
                        anchor,
                        ..
                    }) => {
                        for source in merged {
                            for (k, v) in source {
                                entries.entry(k).or_insert(v);
                            }
                        }
                        (Value::Object(entries), anchor)
                    }
                    None => return Err(ComposeError::at(line, "a collection closed twice")),
                };
                self.place(value, anchor, line)
            }
            Event::Scalar(text, style, anchor, tag) => {
                if self.expects_key() && is_merge_key(&text, style, tag.as_ref()) {
                    return self.set_key(Key::Merge);
                }
                let value =
                    resolve(&text, style, tag.as_ref()).map_err(|m| ComposeError::at(line, m))?;
                self.place(value, anchor, line)
            }
            Event::Alias(id) => match self.anchors.get(&id) {
                Some(value) => {
                    let value = value.clone();
                    self.place(value, 0, line)
                }
                None => Err(ComposeError::at(
                    line,
                    "an alias to an anchor that is not defined",
                )),
            },
            Event::Nothing | Event::StreamStart | Event::DocumentStart | Event::DocumentEnd => {
                Ok(())
            }
            Event::StreamEnd => Ok(()),
        }
    }

    fn expects_key(&self) -> bool {
        matches!(self.open.last(), Some(Open::Mapping { key: None, .. }))
    }

    fn set_key(&mut self, new: Key) -> Result<(), ComposeError> {
        if let Some(Open::Mapping { key, .. }) = self.open.last_mut() {
            *key = Some(new);
        }
        Ok(())
    }

    /// A finished node: remembered under its anchor, then put into its parent.
    fn place(&mut self, value: Value, anchor: usize, line: usize) -> Result<(), ComposeError> {
        if anchor > 0 {
            self.anchors.insert(anchor, value.clone());
        }
        match self.open.last_mut() {
            None => {
                self.root = Some(value);
                Ok(())
            }
            Some(Open::Sequence { items, .. }) => {
                items.push(value);
                Ok(())
            }
            Some(Open::Mapping {
                entries,
                key,
                merged,
                ..
            }) => match key.take() {
                None => {
                    *key = Some(Key::Text(key_text(value, line)?));
                    Ok(())
                }
                Some(Key::Merge) => {
                    merged.extend(merge_sources(value, line)?);
                    Ok(())
                }
                Some(Key::Text(name)) => {
                    if entries.contains_key(&name) {
                        return Err(ComposeError::at(
                            line,
                            format!("the key `{name}` is defined twice in one mapping"),
                        ));
                    }
                    entries.insert(name, value);
                    Ok(())
                }
            },
        }
    }
}

fn is_merge_key(text: &str, style: TScalarStyle, tag: Option<&Tag>) -> bool {
    text == "<<"
        && match tag {
            None => style == TScalarStyle::Plain,
            Some(tag) => tag.handle == CORE_TAGS && tag.suffix == "merge",
        }
}

fn resolve(text: &str, style: TScalarStyle, tag: Option<&Tag>) -> Result<Value, String> {
    match tag {
        Some(tag) if tag.handle == CORE_TAGS => scalar::tagged(text, &tag.suffix),
        _ if style != TScalarStyle::Plain => Ok(Value::String(text.to_owned())),
        _ => scalar::plain(text),
    }
}

/// A scalar key as JSON's string key (what sigs.k8s.io/yaml makes of it).
fn key_text(key: Value, line: usize) -> Result<String, ComposeError> {
    match key {
        Value::String(text) => Ok(text),
        Value::Null => Ok("null".to_owned()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Array(_) | Value::Object(_) => Err(ComposeError::at(
            line,
            "a mapping key must be a scalar, not a sequence or a mapping",
        )),
    }
}

/// What `<<` names: one mapping, or a sequence of mappings.
fn merge_sources(value: Value, line: usize) -> Result<Vec<Map<String, Value>>, ComposeError> {
    let not_a_mapping = || ComposeError::at(line, "`<<` merges mappings only");
    match value {
        Value::Object(map) => Ok(vec![map]),
        Value::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Value::Object(map) => Ok(map),
                _ => Err(not_a_mapping()),
            })
            .collect(),
        _ => Err(not_a_mapping()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Value {
        document(text).unwrap_or_else(|e| panic!("{text:?}: {e:?}"))
    }

    #[test]
    fn a_manifest_composes_into_json() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {app: web, tier: \"1\"}\nspec:\n  replicas: 3\n  paused: no\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        args: [\"--port\", 80]\n        env:\n        - {name: A, value: 'yes'}\n      - name: side\n        command:\n        - |\n          echo hi\n";
        assert_eq!(
            read(text),
            json!({
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": "web", "labels": {"app": "web", "tier": "1"}},
                "spec": {"replicas": 3, "paused": false, "template": {"spec": {"containers": [
                    {"name": "web", "image": "nginx:1.27", "args": ["--port", 80],
                     "env": [{"name": "A", "value": "yes"}]},
                    {"name": "side", "command": ["echo hi\n"]}
                ]}}}
            })
        );
    }

    #[test]
    fn anchors_aliases_and_merge_keys() {
        let text = "base: &base {cpu: 1, memory: 2}\nextra: &extra {memory: 9, gpu: 1}\nsmall:\n  <<: *base\n  cpu: 5\nboth:\n  <<: [*base, *extra]\ncopy: *base\n";
        assert_eq!(
            read(text),
            json!({
                "base": {"cpu": 1, "memory": 2},
                "extra": {"memory": 9, "gpu": 1},
                "small": {"cpu": 5, "memory": 2},
                "both": {"cpu": 1, "memory": 2, "gpu": 1},
                "copy": {"cpu": 1, "memory": 2}
            })
        );
    }

    #[test]
    fn an_explicit_key_wins_over_a_merged_one_wherever_it_stands() {
        assert_eq!(
            read("base: &b {a: 1}\nm:\n  a: 2\n  <<: *b\n")["m"],
            json!({"a": 2})
        );
    }

    #[test]
    fn quoted_and_tagged_scalars_keep_their_meaning() {
        assert_eq!(
            read("a: '12'\nb: \"on\"\nc: !!str 12\nd: !!int \"7\"\ne: !custom 5\n"),
            json!({"a": "12", "b": "on", "c": "12", "d": 7, "e": 5})
        );
    }

    #[test]
    fn scalar_keys_become_strings() {
        assert_eq!(
            read("80: http\ntrue: t\n~: x\n1.5: f\n"),
            json!({"80": "http", "true": "t", "null": "x", "1.5": "f"})
        );
    }

    #[test]
    fn empty_and_comment_only_documents_are_null() {
        assert_eq!(read(""), Value::Null);
        assert_eq!(read("# nothing here\n"), Value::Null);
        assert_eq!(read("key:\n"), json!({"key": null}));
    }

    #[test]
    fn malformed_documents_say_what_and_where() {
        let cases = [
            ("a: 1\na: 2\n", 2, "defined twice"),
            ("? [a]\n: 1\n", 1, "must be a scalar"),
            ("a: *nowhere\n", 1, ""),
            ("a:\n  b: [1, 2\n", 3, ""),
            ("a: .inf\n", 1, "not a finite number"),
            ("a: !!int x\n", 1, "!!int"),
            ("m:\n  <<: 5\n", 2, "merges mappings only"),
            ("a: 1\n...\nb: 2\n", 3, "second document"),
        ];
        for (text, line, words) in cases {
            let err = document(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err:?}");
            assert!(err.message.contains(words), "{text:?}: {err:?}");
            assert!(!err.message.is_empty());
        }
    }
}
