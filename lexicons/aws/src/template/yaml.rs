//! CloudFormation YAML, read from the YAML event stream so the short-form intrinsic tags
//! (`!Ref`, `!GetAtt`, `!Sub`, …) become their long JSON form and every logical id keeps
//! the line it was written on.

use serde_json::{Map, Number, Value};
use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, Span, Tag};
use std::collections::BTreeMap;

/// A parsed template: the JSON model and the 1-based line of each `Resources` key.
#[derive(Debug)]
pub struct ParsedYaml {
    pub value: Value,
    pub resource_lines: BTreeMap<String, usize>,
}

/// A YAML error at a 1-based line and column.
#[derive(Debug, PartialEq)]
pub struct YamlError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

pub fn parse(text: &str) -> Result<ParsedYaml, YamlError> {
    let mut reader = Reader {
        events: Parser::new_from_str(text),
        anchors: BTreeMap::new(),
        resource_lines: BTreeMap::new(),
        last: None,
    };
    let mut value = Value::Null;
    let mut documents = 0;
    loop {
        let (event, span) = reader.next()?;
        match event {
            Event::StreamEnd => break,
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return Err(error_at(&span, "a template is one YAML document"));
                }
                let (event, span) = reader.next()?;
                value = reader.node(event, span, Depth::Root)?;
            }
            _ => {}
        }
    }
    Ok(ParsedYaml {
        value,
        resource_lines: reader.resource_lines,
    })
}

/// Where a node sits, so keys of the top-level `Resources` mapping record their lines.
#[derive(Clone, Copy, PartialEq)]
enum Depth {
    Root,
    Resources,
    Other,
}

struct Reader<'a> {
    events: Parser<'a, serde_saphyr::granit_parser::StrInput<'a>>,
    anchors: BTreeMap<usize, Value>,
    resource_lines: BTreeMap<String, usize>,
    last: Option<Span>,
}

impl<'a> Reader<'a> {
    fn next(&mut self) -> Result<(Event<'a>, Span), YamlError> {
        loop {
            match self.events.next_event() {
                Some(Ok((event, span))) =>
                {
                    #[allow(unreachable_patterns)]
                    match event {
                        Event::Comment(..) => continue,
                        _ => {
                            self.last = Some(span);
                            return Ok((event, span));
                        }
                    }
                }
                Some(Err(e)) => {
                    return Err(YamlError {
                        message: e.info(),
                        line: e.marker().line(),
                        column: e.marker().col() + 1,
                    });
                }
                None => {
                    let span = self.last.unwrap_or_default();
                    return Err(error_at(&span, "unexpected end of the YAML stream"));
                }
            }
        }
    }

    fn node(&mut self, event: Event<'a>, span: Span, depth: Depth) -> Result<Value, YamlError> {
        let (value, anchor) = match event {
            Event::Scalar(text, style, anchor, tag) => {
                let value = match tag.as_deref() {
                    Some(tag) if is_local(tag) => {
                        intrinsic(tag.suffix(), Value::String(text.into_owned()), &span)?
                    }
                    Some(tag) if tag.suffix() == "str" => Value::String(text.into_owned()),
                    _ => scalar(&text, style),
                };
                (value, anchor)
            }
            Event::SequenceStart(_, anchor, tag) => {
                let mut items = Vec::new();
                loop {
                    let (event, child_span) = self.next()?;
                    if matches!(event, Event::SequenceEnd) {
                        break;
                    }
                    items.push(self.node(event, child_span, Depth::Other)?);
                }
                let value = Value::Array(items);
                match tag.as_deref() {
                    Some(tag) if is_local(tag) => (intrinsic(tag.suffix(), value, &span)?, anchor),
                    _ => (value, anchor),
                }
            }
            Event::MappingStart(_, anchor, tag) => {
                let value = Value::Object(self.mapping(depth)?);
                match tag.as_deref() {
                    Some(tag) if is_local(tag) => (intrinsic(tag.suffix(), value, &span)?, anchor),
                    _ => (value, anchor),
                }
            }
            Event::Alias(id) => {
                return self
                    .anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| error_at(&span, "an alias to an unknown anchor"));
            }
            _ => return Err(error_at(&span, "expected a YAML node")),
        };
        if anchor != 0 {
            self.anchors.insert(anchor, value.clone());
        }
        Ok(value)
    }

    fn mapping(&mut self, depth: Depth) -> Result<Map<String, Value>, YamlError> {
        let mut map = Map::new();
        loop {
            let (event, key_span) = self.next()?;
            let key = match event {
                Event::MappingEnd => return Ok(map),
                Event::Scalar(text, ..) => text.into_owned(),
                _ => return Err(error_at(&key_span, "a mapping key must be a plain string")),
            };
            if map.contains_key(&key) {
                return Err(error_at(&key_span, &format!("duplicate key `{key}`")));
            }
            if depth == Depth::Resources {
                self.resource_lines
                    .insert(key.clone(), key_span.start.line());
            }
            let child_depth = if depth == Depth::Root && key == "Resources" {
                Depth::Resources
            } else {
                Depth::Other
            };
            let (event, value_span) = self.next()?;
            let value = self.node(event, value_span, child_depth)?;
            map.insert(key, value);
        }
    }
}

fn is_local(tag: &Tag) -> bool {
    tag.handle() == "!"
}

/// `!Ref x` → `{"Ref": "x"}`, `!GetAtt a.b` → `{"Fn::GetAtt": ["a", "b"]}`, `!Name v` → `{"Fn::Name": v}`.
fn intrinsic(name: &str, value: Value, span: &Span) -> Result<Value, YamlError> {
    const KNOWN: [&str; 23] = [
        "Ref",
        "Condition",
        "GetAtt",
        "Sub",
        "Join",
        "Select",
        "Split",
        "FindInMap",
        "Base64",
        "Cidr",
        "GetAZs",
        "ImportValue",
        "If",
        "Equals",
        "And",
        "Or",
        "Not",
        "Transform",
        "ToJsonString",
        "Length",
        "ForEach",
        "GetStackOutput",
        "ValueOf",
    ];
    if !KNOWN.contains(&name) {
        return Err(error_at(
            span,
            &format!("unknown tag `!{name}`: not a CloudFormation intrinsic function"),
        ));
    }
    let key = match name {
        "Ref" | "Condition" => name.to_owned(),
        _ => format!("Fn::{name}"),
    };
    let args = match (name, value) {
        ("GetAtt", Value::String(text)) => match text.split_once('.') {
            Some((resource, attribute)) => Value::Array(vec![
                Value::String(resource.to_owned()),
                Value::String(attribute.to_owned()),
            ]),
            None => {
                return Err(error_at(
                    span,
                    &format!("`!GetAtt {text}` names no attribute (write `Resource.Attribute`)"),
                ));
            }
        },
        (_, value) => value,
    };
    Ok(Value::Object(Map::from_iter([(key, args)])))
}

/// The YAML 1.2 core schema for untagged scalars; quoted scalars are always strings.
fn scalar(text: &str, style: ScalarStyle) -> Value {
    if style != ScalarStyle::Plain {
        return Value::String(text.to_owned());
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Ok(i) = text.parse::<i64>()
        && !has_leading_zero(text)
    {
        return Value::Number(i.into());
    }
    if looks_like_float(text)
        && let Ok(f) = text.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(text.to_owned())
}

fn has_leading_zero(text: &str) -> bool {
    let digits = text.trim_start_matches(['-', '+']);
    digits.len() > 1 && digits.starts_with('0')
}

fn looks_like_float(text: &str) -> bool {
    let body = text.trim_start_matches(['-', '+']);
    !body.is_empty()
        && body
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '.')
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))
        && body.contains(['.', 'e', 'E'])
}

fn error_at(span: &Span, message: &str) -> YamlError {
    YamlError {
        message: message.to_owned(),
        line: span.start.line(),
        column: span.start.col() + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_form_tags_become_long_form_intrinsics() {
        let text = r#"
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Sub "${AWS::StackName}-jobs"
      DelaySeconds: 5
      FifoQueue: false
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      Role: !GetAtt Role.Arn
      Layers: !If [HasLayer, [!Ref Layer], !Ref "AWS::NoValue"]
      Code: { ZipFile: !Join ["", ["a", !Select [0, !GetAZs ""]]] }
      Version: "007"
      Ratio: 0.5
"#;
        let parsed = parse(text).unwrap();
        let r = &parsed.value["Resources"];
        assert_eq!(
            r["Queue"]["Properties"],
            json!({"QueueName": {"Fn::Sub": "${AWS::StackName}-jobs"}, "DelaySeconds": 5, "FifoQueue": false})
        );
        let f = &r["Fn"]["Properties"];
        assert_eq!(f["Role"], json!({"Fn::GetAtt": ["Role", "Arn"]}));
        assert_eq!(
            f["Layers"],
            json!({"Fn::If": ["HasLayer", [{"Ref": "Layer"}], {"Ref": "AWS::NoValue"}]})
        );
        assert_eq!(
            f["Code"]["ZipFile"],
            json!({"Fn::Join": ["", ["a", {"Fn::Select": [0, {"Fn::GetAZs": ""}]}]]})
        );
        assert_eq!(f["Version"], "007");
        assert_eq!(f["Ratio"], 0.5);
        assert_eq!(parsed.resource_lines["Queue"], 4);
        assert_eq!(parsed.resource_lines["Fn"], 10);
        assert_eq!(parsed.value["AWSTemplateFormatVersion"], "2010-09-09");
    }

    #[test]
    fn anchors_and_aliases_are_expanded() {
        let text = "Resources:\n  A:\n    Type: T\n    Properties: &p {X: 1}\n  B:\n    Type: T\n    Properties: *p\n";
        let parsed = parse(text).unwrap();
        assert_eq!(
            parsed.value["Resources"]["B"]["Properties"],
            json!({"X": 1})
        );
    }

    #[test]
    fn errors_carry_their_line() {
        let bad_tag = "Resources:\n  A:\n    Type: T\n    Properties:\n      X: !Bogus y\n";
        let err = parse(bad_tag).unwrap_err();
        assert_eq!(err.line, 5);
        assert!(err.message.contains("!Bogus"), "{}", err.message);

        let duplicate = "Resources:\n  A:\n    Type: T\n  A:\n    Type: U\n";
        assert_eq!(parse(duplicate).unwrap_err().line, 4);

        let broken = "Resources:\n  A:\n    Type: [T\n";
        assert!(parse(broken).unwrap_err().line >= 3);

        let no_attribute = "Resources:\n  A:\n    Properties:\n      R: !GetAtt Role\n";
        assert!(
            parse(no_attribute)
                .unwrap_err()
                .message
                .contains("Resource.Attribute")
        );
    }
}
