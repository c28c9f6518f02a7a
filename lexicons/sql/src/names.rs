//! Object kinds, entity names (`<kind>/<schema>.<name>`) and entity types (`SQL::Table`, …).

use std::fmt;

/// A kind of schema object. The word is the first segment of an entity name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Schema,
    Type,
    Sequence,
    Function,
    Table,
    View,
    MaterializedView,
    Index,
    /// A kind the DDL declares that this lexicon has no reader for (a trigger, a
    /// domain, an extension …): declared, and answered `unsupported-kind`.
    Unsupported(&'static str),
}

impl Kind {
    /// Every kind this lexicon reads, in creation order (drops run in reverse).
    pub const READ: [Kind; 8] = [
        Kind::Schema,
        Kind::Type,
        Kind::Sequence,
        Kind::Function,
        Kind::Table,
        Kind::View,
        Kind::MaterializedView,
        Kind::Index,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Kind::Schema => "schema",
            Kind::Type => "type",
            Kind::Sequence => "sequence",
            Kind::Function => "function",
            Kind::Table => "table",
            Kind::View => "view",
            Kind::MaterializedView => "materialized_view",
            Kind::Index => "index",
            Kind::Unsupported(word) => word,
        }
    }

    pub fn entity_type(self) -> &'static str {
        match self {
            Kind::Schema => "SQL::Schema",
            Kind::Type => "SQL::Type",
            Kind::Sequence => "SQL::Sequence",
            Kind::Function => "SQL::Function",
            Kind::Table => "SQL::Table",
            Kind::View => "SQL::View",
            Kind::MaterializedView => "SQL::MaterializedView",
            Kind::Index => "SQL::Index",
            Kind::Unsupported("trigger") => "SQL::Trigger",
            Kind::Unsupported("domain") => "SQL::Domain",
            Kind::Unsupported("extension") => "SQL::Extension",
            Kind::Unsupported("policy") => "SQL::Policy",
            Kind::Unsupported("composite_type") => "SQL::CompositeType",
            Kind::Unsupported("virtual_table") => "SQL::VirtualTable",
            Kind::Unsupported(_) => "SQL::Unsupported",
        }
    }

    pub fn from_entity_type(entity_type: &str) -> Option<Kind> {
        Kind::READ
            .into_iter()
            .find(|k| k.entity_type() == entity_type)
    }

    /// The keyword in `DROP <keyword>` / `COMMENT ON <keyword>`.
    pub fn keyword(self) -> &'static str {
        match self {
            Kind::Schema => "SCHEMA",
            Kind::Type => "TYPE",
            Kind::Sequence => "SEQUENCE",
            Kind::Function => "FUNCTION",
            Kind::Table => "TABLE",
            Kind::View => "VIEW",
            Kind::MaterializedView => "MATERIALIZED VIEW",
            Kind::Index => "INDEX",
            Kind::Unsupported(_) => "",
        }
    }

    pub fn is_supported(self) -> bool {
        !matches!(self, Kind::Unsupported(_))
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Where an object lives: its kind, schema and (for functions, signature-qualified) name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectKey {
    pub kind: Kind,
    pub schema: String,
    pub name: String,
}

impl ObjectKey {
    pub fn new(kind: Kind, schema: impl Into<String>, name: impl Into<String>) -> Self {
        ObjectKey {
            kind,
            schema: schema.into(),
            name: name.into(),
        }
    }

    /// `table/public.orders`, `function/public.add(integer,integer)`, `schema/app`.
    pub fn entity_name(&self) -> String {
        match self.kind {
            Kind::Schema => format!("schema/{}", self.name),
            kind => format!("{}/{}.{}", kind.word(), self.schema, self.name),
        }
    }

    /// The object's name as DDL writes it: `"public"."orders"`, `"public"."add"(integer,integer)`.
    pub fn qualified(&self) -> String {
        match self.kind {
            Kind::Schema => quote_ident(&self.name),
            Kind::Function => {
                let (base, args) = self
                    .name
                    .split_once('(')
                    .unwrap_or((self.name.as_str(), ")"));
                format!(
                    "{}.{}({}",
                    quote_ident(&self.schema),
                    quote_ident(base),
                    args
                )
            }
            _ => format!("{}.{}", quote_ident(&self.schema), quote_ident(&self.name)),
        }
    }
}

/// Read an entity name back into a key (`Kind` from its type).
pub fn parse_entity_name(name: &str, entity_type: &str) -> Option<ObjectKey> {
    let kind = Kind::from_entity_type(entity_type)?;
    let (word, rest) = name.split_once('/')?;
    if word != kind.word() {
        return None;
    }
    if kind == Kind::Schema {
        return Some(ObjectKey::new(kind, rest, rest));
    }
    let (schema, object) = rest.split_once('.')?;
    Some(ObjectKey::new(kind, schema, object))
}

/// The schema an entity name lives in (`schema/app` is itself `app`).
pub fn schema_of(name: &str) -> Option<&str> {
    let (word, rest) = name.split_once('/')?;
    if word == "schema" {
        Some(rest)
    } else {
        rest.split_once('.').map(|(schema, _)| schema)
    }
}

/// Double-quote an identifier unless it is a plain lowercase word.
pub fn quote_ident(name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !RESERVED.contains(&name);
    if plain {
        name.to_owned()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

/// Words that must be quoted when used as names.
const RESERVED: &[&str] = &[
    "all",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "both",
    "case",
    "cast",
    "check",
    "collate",
    "column",
    "constraint",
    "create",
    "default",
    "desc",
    "distinct",
    "do",
    "else",
    "end",
    "except",
    "false",
    "for",
    "foreign",
    "from",
    "grant",
    "group",
    "having",
    "in",
    "index",
    "into",
    "is",
    "join",
    "key",
    "leading",
    "limit",
    "not",
    "null",
    "offset",
    "on",
    "only",
    "or",
    "order",
    "primary",
    "references",
    "select",
    "table",
    "then",
    "to",
    "trailing",
    "true",
    "union",
    "unique",
    "user",
    "using",
    "view",
    "when",
    "where",
    "with",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_kind_schema_and_name() {
        assert_eq!(
            ObjectKey::new(Kind::Table, "public", "orders").entity_name(),
            "table/public.orders"
        );
        assert_eq!(
            ObjectKey::new(Kind::Schema, "app", "app").entity_name(),
            "schema/app"
        );
        assert_eq!(
            ObjectKey::new(Kind::Function, "public", "add(integer,integer)").qualified(),
            "public.add(integer,integer)"
        );
        assert_eq!(quote_ident("Orders"), "\"Orders\"");
        assert_eq!(quote_ident("order"), "\"order\"");
        assert_eq!(
            Kind::from_entity_type("SQL::MaterializedView"),
            Some(Kind::MaterializedView)
        );
    }
}
