//! One schema object, as the DDL declares it or as the catalog reads back: the same shape
//! on both sides, so the deep diff compares like with like.

use crate::names::{Kind, ObjectKey};
use chant_lexicon::OwnershipMarker;
use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct SqlObject {
    pub key: ObjectKey,
    /// The definition tree (see the crate docs for its shape per kind).
    pub props: Map<String, Value>,
    /// The marker carried in the object's comment, if any. Never part of `props`.
    pub marker: Option<OwnershipMarker>,
    /// 1-based line of the statement that created it, in source text `file`.
    pub line: usize,
    pub file: usize,
    /// Objects this one needs (a view's tables, an index's table, a foreign key's target).
    pub depends_on: Vec<ObjectKey>,
}

impl SqlObject {
    pub fn new(key: ObjectKey, line: usize) -> Self {
        SqlObject {
            key,
            props: Map::new(),
            marker: None,
            line,
            file: 0,
            depends_on: Vec::new(),
        }
    }

    pub fn kind(&self) -> Kind {
        self.key.kind
    }

    pub fn entity_name(&self) -> String {
        self.key.entity_name()
    }

    pub fn comment(&self) -> Option<&str> {
        self.props.get("comment").and_then(Value::as_str)
    }

    pub fn set_comment(&mut self, comment: Option<String>) {
        match comment {
            Some(c) => {
                self.props.insert("comment".into(), Value::String(c));
            }
            None => {
                self.props.remove("comment");
            }
        }
    }

    /// The columns array of a table (empty for other kinds).
    pub fn columns_mut(&mut self) -> Option<&mut Vec<Value>> {
        self.props.get_mut("columns").and_then(Value::as_array_mut)
    }
}
