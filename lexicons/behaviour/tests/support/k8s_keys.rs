//! Every property key of the Kubernetes types the k8s lexicon reads, found by deserializing
//! each type from a probe that answers whatever the type asks for and records each struct
//! field it is asked about, with whether the field holds text.
//!
//! Each struct is walked in full the first time it is met; a struct met again (ObjectMeta
//! in every kind, the recursive JSONSchemaProps) is filled shallowly — required fields
//! only, no options, empty lists and maps — so the walk terminates without skipping a key.

use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Holds {
    Text,
    Other,
}

#[derive(Default)]
pub struct Found {
    pub keys: BTreeMap<String, BTreeSet<Holds>>,
    visited: BTreeSet<&'static str>,
    /// `apiVersion` and `kind` of each resource type by name: a resource nested in another
    /// (a StatefulSet's PersistentVolumeClaim templates) checks its own.
    pub identities: BTreeMap<&'static str, (&'static str, &'static str)>,
}

/// Fields whose schema type is "a schema or a bool/list": they take a map, not text.
const SCHEMA_OR_OTHER: &[&str] = &[
    "additionalProperties",
    "additionalItems",
    "items",
    "dependencies",
];

#[derive(Debug)]
pub struct ProbeError(String);

impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProbeError {}

impl de::Error for ProbeError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        ProbeError(msg.to_string())
    }
}

#[derive(Clone, Copy)]
pub struct Probe<'a> {
    found: &'a RefCell<Found>,
    /// The struct field this value belongs to, when it is one (and the walk is full).
    key: Option<&'static str>,
    /// The nearest struct field above this value (for a list item or a map entry too).
    field: Option<&'static str>,
    shallow: bool,
    /// What a text value reads as (a timestamp inside `Time`, the type's own apiVersion).
    text: &'static str,
    /// The top-level kind's `apiVersion` and `kind`, which its deserializer checks.
    identity: Option<(&'static str, &'static str)>,
}

impl<'a> Probe<'a> {
    pub fn top(found: &'a RefCell<Found>, api_version: &'static str, kind: &'static str) -> Self {
        Probe {
            found,
            key: None,
            field: None,
            shallow: false,
            text: "",
            identity: Some((api_version, kind)),
        }
    }

    fn record(&self, holds: Holds) {
        if let (Some(key), false) = (self.key, self.shallow) {
            self.found
                .borrow_mut()
                .keys
                .entry(key.to_owned())
                .or_default()
                .insert(holds);
        }
    }

    fn inner(&self) -> Probe<'a> {
        Probe {
            key: None,
            identity: None,
            text: "",
            ..*self
        }
    }
}

macro_rules! answer {
    ($($method:ident => |$this:ident, $v:ident| $body:expr, $holds:expr;)*) => {
        $(fn $method<V: Visitor<'de>>(self, $v: V) -> Result<V::Value, ProbeError> {
            let $this = self;
            $this.record($holds);
            $body
        })*
    };
}

impl<'de, 'a> Deserializer<'de> for Probe<'a> {
    type Error = ProbeError;

    answer! {
        deserialize_bool => |this, v| v.visit_bool(false), Holds::Other;
        deserialize_i8 => |this, v| v.visit_i64(0), Holds::Other;
        deserialize_i16 => |this, v| v.visit_i64(0), Holds::Other;
        deserialize_i32 => |this, v| v.visit_i64(0), Holds::Other;
        deserialize_i64 => |this, v| v.visit_i64(0), Holds::Other;
        deserialize_u8 => |this, v| v.visit_u64(0), Holds::Other;
        deserialize_u16 => |this, v| v.visit_u64(0), Holds::Other;
        deserialize_u32 => |this, v| v.visit_u64(0), Holds::Other;
        deserialize_u64 => |this, v| v.visit_u64(0), Holds::Other;
        deserialize_f32 => |this, v| v.visit_f64(0.0), Holds::Other;
        deserialize_f64 => |this, v| v.visit_f64(0.0), Holds::Other;
        deserialize_char => |this, v| v.visit_char('a'), Holds::Text;
        deserialize_str => |this, v| v.visit_str(this.text), Holds::Text;
        deserialize_string => |this, v| v.visit_str(this.text), Holds::Text;
        deserialize_bytes => |this, v| v.visit_bytes(&[]), Holds::Other;
        deserialize_byte_buf => |this, v| v.visit_bytes(&[]), Holds::Other;
        deserialize_unit => |this, v| v.visit_unit(), Holds::Other;
        deserialize_ignored_any => |this, v| v.visit_unit(), Holds::Other;
        deserialize_identifier => |this, v| v.visit_str(this.text), Holds::Text;
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        if self.field.is_some_and(|f| SCHEMA_OR_OTHER.contains(&f)) {
            self.record(Holds::Other);
            return visitor.visit_map(Fields {
                probe: self.inner(),
                fields: &[],
                next: 0,
                record: false,
                identity: None,
                entries: true,
            });
        }
        self.record(Holds::Text);
        // "0" reads as a quantity, an int-or-string and a JSON value alike.
        visitor.visit_str(if self.text.is_empty() { "0" } else { self.text })
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        if self.shallow {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        self.record(Holds::Other);
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        let text = if matches!(name, "Time" | "MicroTime") {
            "2024-01-01T00:00:00Z"
        } else {
            self.text
        };
        visitor.visit_newtype_struct(Probe { text, ..self })
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        self.record(Holds::Other);
        let items = if self.shallow { 0 } else { 1 };
        visitor.visit_seq(Items {
            probe: self.inner(),
            left: items,
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        self.record(Holds::Other);
        visitor.visit_seq(Items {
            probe: self.inner(),
            left: len,
        })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        self.record(Holds::Other);
        let entries: &'static [&'static str] = if self.shallow { &[] } else { &["entry"] };
        visitor.visit_map(Fields {
            probe: self.inner(),
            fields: entries,
            next: 0,
            record: false,
            identity: None,
            entries: true,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        self.record(Holds::Other);
        let first_visit = !self.shallow && self.found.borrow_mut().visited.insert(name);
        let probe = Probe {
            shallow: !first_visit,
            ..self.inner()
        };
        let identity = self
            .identity
            .or_else(|| self.found.borrow().identities.get(name).copied());
        visitor.visit_map(Fields {
            probe,
            fields,
            next: 0,
            record: first_visit,
            identity,
            entries: false,
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        self.record(Holds::Other);
        visitor.visit_enum(de::value::StrDeserializer::<ProbeError>::new(
            variants.first().copied().unwrap_or(""),
        ))
    }
}

struct Items<'a> {
    probe: Probe<'a>,
    left: usize,
}

impl<'de, 'a> SeqAccess<'de> for Items<'a> {
    type Error = ProbeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, ProbeError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(self.probe).map(Some)
    }
}

struct Fields<'a> {
    probe: Probe<'a>,
    fields: &'static [&'static str],
    next: usize,
    record: bool,
    identity: Option<(&'static str, &'static str)>,
    /// Entries of a map rather than fields of a struct: values keep the map's field.
    entries: bool,
}

impl<'de, 'a> MapAccess<'de> for Fields<'a> {
    type Error = ProbeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ProbeError> {
        let Some(field) = self.fields.get(self.next) else {
            return Ok(None);
        };
        seed.deserialize(field.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, ProbeError> {
        let field = self.fields[self.next];
        self.next += 1;
        let text = match (self.identity, field) {
            (Some((api_version, _)), "apiVersion") => api_version,
            (Some((_, kind)), "kind") => kind,
            _ => "",
        };
        let key = self.record.then_some(field);
        let field = if self.entries {
            self.probe.field
        } else {
            Some(field)
        };
        seed.deserialize(Probe {
            key,
            field,
            text,
            ..self.probe
        })
    }
}
