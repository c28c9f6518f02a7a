//! Definition trees → DDL this lexicon reads back under the same entity names and props.

use crate::dialect::Dialect;
use crate::marker::{block_comment, join_comment};
use crate::names::{Kind, ObjectKey, quote_ident};
use chant_lexicon::OwnershipMarker;
use serde_json::{Map, Value};

fn text<'a>(props: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    props.get(key).and_then(Value::as_str)
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn idents(names: &[String]) -> String {
    names
        .iter()
        .map(|n| quote_ident(n))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A qualified name; SQLite's single schema is never written.
fn qualified(key: &ObjectKey, dialect: Dialect) -> String {
    match dialect {
        Dialect::Sqlite => quote_ident(&key.name),
        Dialect::Postgres => key.qualified(),
    }
}

/// The name, followed (SQLite) by the marker comment SQLite keeps in its schema.
fn named(key: &ObjectKey, dialect: Dialect, marker: Option<&OwnershipMarker>) -> String {
    let name = qualified(key, dialect);
    match (dialect, marker) {
        (Dialect::Sqlite, Some(m)) => format!("{name} {}", block_comment(m)),
        _ => name,
    }
}

/// One object's DDL, with its COMMENT statements (PostgreSQL).
pub fn render(
    key: &ObjectKey,
    props: &Map<String, Value>,
    marker: Option<&OwnershipMarker>,
    dialect: Dialect,
) -> String {
    let mut out = match key.kind {
        Kind::Schema => format!("CREATE SCHEMA {};\n", quote_ident(&key.name)),
        Kind::Table => table(key, props, marker, dialect),
        Kind::View | Kind::MaterializedView => {
            let keyword = if key.kind == Kind::View {
                "VIEW"
            } else {
                "MATERIALIZED VIEW"
            };
            format!(
                "CREATE {keyword} {} AS {};\n",
                named(key, dialect, marker),
                text(props, "definition").unwrap_or("SELECT 1")
            )
        }
        Kind::Index => index(key, props, marker, dialect),
        Kind::Sequence => sequence(key, props),
        Kind::Type => format!(
            "CREATE TYPE {} AS ENUM ({});\n",
            key.qualified(),
            strings(props.get("labels"))
                .iter()
                .map(|l| literal(l))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Kind::Function => function(key, props),
        Kind::Unsupported(_) => String::new(),
    };
    if dialect == Dialect::Postgres {
        out.push_str(&comments(key, props, marker));
    }
    out
}

fn comments(
    key: &ObjectKey,
    props: &Map<String, Value>,
    marker: Option<&OwnershipMarker>,
) -> String {
    let mut out = String::new();
    if let Some(comment) = join_comment(text(props, "comment"), marker) {
        // PostgreSQL finds a function by name alone when the name is unique in its schema.
        let target = match key.kind {
            Kind::Function => {
                let base = key
                    .name
                    .split_once('(')
                    .map_or(key.name.as_str(), |(b, _)| b);
                format!("{}.{}", quote_ident(&key.schema), quote_ident(base))
            }
            _ => key.qualified(),
        };
        out.push_str(&format!(
            "COMMENT ON {} {target} IS {};\n",
            key.kind.keyword(),
            literal(&comment)
        ));
    }
    if key.kind == Kind::Table {
        for column in props
            .get("columns")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let (Some(name), Some(comment)) = (
                column.get("name").and_then(Value::as_str),
                column.get("comment").and_then(Value::as_str),
            ) {
                out.push_str(&format!(
                    "COMMENT ON COLUMN {}.{} IS {};\n",
                    key.qualified(),
                    quote_ident(name),
                    literal(comment)
                ));
            }
        }
    }
    out
}

fn table(
    key: &ObjectKey,
    props: &Map<String, Value>,
    marker: Option<&OwnershipMarker>,
    dialect: Dialect,
) -> String {
    let constraints: Vec<&Map<String, Value>> = props
        .get("constraints")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    let mut lines = Vec::new();
    let mut inline_primary_key = None;
    for column in props
        .get("columns")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(column) = column.as_object() else {
            continue;
        };
        let name = text(column, "name").unwrap_or_default();
        let data_type = text(column, "type").unwrap_or_default();
        let mut line = format!("{} {data_type}", quote_ident(name));
        let autoincrement = column.get("autoincrement") == Some(&Value::Bool(true));
        if autoincrement {
            // SQLite accepts AUTOINCREMENT only on a column-level PRIMARY KEY.
            inline_primary_key = constraints
                .iter()
                .find(|c| {
                    text(c, "kind") == Some("primary key")
                        && strings(c.get("columns")) == [name.to_owned()]
                })
                .and_then(|c| text(c, "name"));
            line.push_str(" PRIMARY KEY AUTOINCREMENT");
        }
        let implied = data_type.ends_with("serial") && dialect == Dialect::Postgres;
        if column.get("nullable") == Some(&Value::Bool(false)) && !implied {
            line.push_str(" NOT NULL");
        }
        if let Some(default) = text(column, "default") {
            line.push_str(&format!(" DEFAULT {default}"));
        }
        if let Some(collation) = text(column, "collation") {
            line.push_str(&format!(" COLLATE {collation}"));
        }
        if let Some(generated) = text(column, "generated") {
            line.push_str(&format!(" GENERATED ALWAYS AS ({generated}) STORED"));
        }
        match text(column, "identity") {
            Some("always") => line.push_str(" GENERATED ALWAYS AS IDENTITY"),
            Some("by default") => line.push_str(" GENERATED BY DEFAULT AS IDENTITY"),
            _ => {}
        }
        if dialect == Dialect::Sqlite
            && let Some(comment) = text(column, "comment")
        {
            line.push_str(&format!(" /* {} */", comment.replace("*/", "* /")));
        }
        lines.push(line);
    }
    for constraint in constraints {
        let name = text(constraint, "name").unwrap_or_default();
        if inline_primary_key == Some(name) {
            continue;
        }
        let columns = idents(&strings(constraint.get("columns")));
        let body = match text(constraint, "kind") {
            Some("primary key") => format!("PRIMARY KEY ({columns})"),
            Some("unique") => format!("UNIQUE ({columns})"),
            Some("check") => format!(
                "CHECK ({})",
                text(constraint, "expression").unwrap_or("true")
            ),
            Some("foreign key") => {
                let mut body = format!(
                    "FOREIGN KEY ({columns}) REFERENCES {}",
                    text(constraint, "references").unwrap_or_default()
                );
                let referenced = strings(constraint.get("referenced_columns"));
                if !referenced.is_empty() {
                    body.push_str(&format!(" ({})", idents(&referenced)));
                }
                for (clause, key) in [("ON DELETE", "on_delete"), ("ON UPDATE", "on_update")] {
                    match text(constraint, key) {
                        Some("no action") | None => {}
                        Some(action) => {
                            body.push_str(&format!(" {clause} {}", action.to_uppercase()))
                        }
                    }
                }
                body
            }
            _ => continue,
        };
        lines.push(format!("CONSTRAINT {} {body}", quote_ident(name)));
    }
    format!(
        "CREATE TABLE {} (\n    {}\n);\n",
        named(key, dialect, marker),
        lines.join(",\n    ")
    )
}

fn index(
    key: &ObjectKey,
    props: &Map<String, Value>,
    marker: Option<&OwnershipMarker>,
    dialect: Dialect,
) -> String {
    let unique = if props.get("unique") == Some(&Value::Bool(true)) {
        "UNIQUE "
    } else {
        ""
    };
    let name = match (dialect, marker) {
        (Dialect::Sqlite, Some(m)) => format!("{} {}", quote_ident(&key.name), block_comment(m)),
        _ => quote_ident(&key.name),
    };
    let mut out = format!(
        "CREATE {unique}INDEX {name} ON {}",
        text(props, "table").unwrap_or_default()
    );
    if let Some(method) = text(props, "method") {
        out.push_str(&format!(" USING {method}"));
    }
    out.push_str(&format!(" ({})", strings(props.get("columns")).join(", ")));
    let include = strings(props.get("include"));
    if !include.is_empty() {
        out.push_str(&format!(" INCLUDE ({})", idents(&include)));
    }
    if let Some(predicate) = text(props, "where") {
        out.push_str(&format!(" WHERE {predicate}"));
    }
    out.push_str(";\n");
    out
}

fn sequence(key: &ObjectKey, props: &Map<String, Value>) -> String {
    let mut out = format!("CREATE SEQUENCE {}", key.qualified());
    if let Some(data_type) = text(props, "type") {
        out.push_str(&format!(" AS {data_type}"));
    }
    for (clause, field) in [
        ("INCREMENT BY", "increment"),
        ("MINVALUE", "min"),
        ("MAXVALUE", "max"),
        ("START WITH", "start"),
        ("CACHE", "cache"),
    ] {
        if let Some(n) = props.get(field).and_then(Value::as_i64) {
            out.push_str(&format!(" {clause} {n}"));
        }
    }
    match props.get("cycle").and_then(Value::as_bool) {
        Some(true) => out.push_str(" CYCLE"),
        Some(false) => out.push_str(" NO CYCLE"),
        None => {}
    }
    out.push_str(";\n");
    out
}

fn function(key: &ObjectKey, props: &Map<String, Value>) -> String {
    let base = key
        .name
        .split_once('(')
        .map_or(key.name.as_str(), |(b, _)| b);
    let arguments: Vec<String> = props
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .map(|arg| {
            let mut parts = Vec::new();
            if let Some(mode) = text(arg, "mode") {
                parts.push(mode.to_uppercase());
            }
            if let Some(name) = text(arg, "name") {
                parts.push(quote_ident(name));
            }
            parts.push(text(arg, "type").unwrap_or_default().to_owned());
            if let Some(default) = text(arg, "default") {
                parts.push(format!("DEFAULT {default}"));
            }
            parts.join(" ")
        })
        .collect();
    let mut out = format!(
        "CREATE FUNCTION {}.{}({}) RETURNS {}",
        quote_ident(&key.schema),
        quote_ident(base),
        arguments.join(", "),
        text(props, "returns").unwrap_or("void")
    );
    if let Some(language) = text(props, "language") {
        out.push_str(&format!(" LANGUAGE {language}"));
    }
    if let Some(volatility) = text(props, "volatility") {
        out.push_str(&format!(" {}", volatility.to_uppercase()));
    }
    let body = text(props, "body").unwrap_or_default();
    match body.strip_prefix("RETURN ") {
        Some(expression) => out.push_str(&format!(" RETURN {expression};\n")),
        None => out.push_str(&format!(" AS $chant$\n{body}\n$chant$;\n")),
    }
    out
}
