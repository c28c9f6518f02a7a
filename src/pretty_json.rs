//! Pretty JSON byte for byte as `serde_json::to_vec_pretty` writes it (two-space indent),
//! with each line's indentation written at once: serde_json writes it two bytes per level,
//! and a report over 2,000 objects has some 80,000 lines, most of them four levels deep.

use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};

pub fn to_writer_pretty<W: Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    value.serialize(&mut serde_json::Serializer::with_formatter(
        writer,
        Indented::default(),
    ))
}

#[cfg(test)]
fn to_vec_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::new();
    to_writer_pretty(&mut out, value)?;
    Ok(out)
}

#[derive(Default)]
struct Indented {
    depth: usize,
    /// Whether the array or object being written has an element yet.
    has_value: bool,
}

const SPACES: &[u8] = &[b' '; 64];

impl Indented {
    /// A line break (after a comma, unless `first`) and the indentation of `self.depth`.
    fn new_line<W: ?Sized + Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        writer.write_all(if first { b"\n" } else { b",\n" })?;
        let mut left = 2 * self.depth;
        while left > 0 {
            let now = left.min(SPACES.len());
            writer.write_all(&SPACES[..now])?;
            left -= now;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.new_line(writer, true)?;
        }
        writer.write_all(bracket)
    }
}

impl Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn nested(depth: usize) -> Value {
        (0..depth).fold(
            json!({"leaf": [1, "two", null]}),
            |inner, i| json!({format!("level{i}"): [inner, {}, []]}),
        )
    }

    #[test]
    fn writes_what_serde_json_writes() {
        let values = [
            json!(null),
            json!([]),
            json!({}),
            json!([[], {}, [[]], {"a": {}}]),
            json!({"b": [1, 2.5, -3, true, false], "a": "tab\there \"quoted\" \u{1F600} \\ /"}),
            json!([{"x": [{"y": [{"z": []}]}]}]),
            // Deeper than one run of spaces.
            nested(40),
        ];
        for value in values {
            assert_eq!(
                String::from_utf8(to_vec_pretty(&value).unwrap()).unwrap(),
                serde_json::to_string_pretty(&value).unwrap()
            );
        }
    }

    #[test]
    fn writes_structs_as_serde_json_does() {
        #[derive(Serialize)]
        struct Report<'a> {
            schema: &'a str,
            empty: Vec<u8>,
            rows: Vec<Option<(u8, &'a str)>>,
            nested: Option<Box<Report<'a>>>,
        }
        let report = Report {
            schema: "s/v1",
            empty: Vec::new(),
            rows: vec![Some((1, "a")), None],
            nested: Some(Box::new(Report {
                schema: "inner",
                empty: vec![1],
                rows: Vec::new(),
                nested: None,
            })),
        };
        assert_eq!(
            to_vec_pretty(&report).unwrap(),
            serde_json::to_vec_pretty(&report).unwrap()
        );
    }
}
