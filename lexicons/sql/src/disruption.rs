//! `classify_disruption`: what applying an update to an object costs, from the paths that
//! changed. PostgreSQL alters most things in place; SQLite can only add a column.

use crate::dialect::Dialect;
use chant_lexicon::{AttributeChange, Disruption, DisruptionQuery, DisruptionVerdict};
use serde_json::Value;
use std::collections::BTreeMap;

fn verdict(disruption: Disruption, because: &str) -> DisruptionVerdict {
    DisruptionVerdict::new(disruption, because)
}

/// `columns[3].type` → (`columns`, Some(3), `type`); `constraints[#pk].columns[0]` → key `pk`.
fn split(path: &str) -> (&str, Option<&str>, &str) {
    let Some(open) = path.find('[') else {
        return (path.split('.').next().unwrap_or(path), None, "");
    };
    let close = path[open..].find(']').map_or(path.len(), |c| open + c);
    let rest = path.get(close + 1..).unwrap_or("").trim_start_matches('.');
    let field = rest.split(['.', '[']).next().unwrap_or("");
    (&path[..open], Some(&path[open + 1..close]), field)
}

fn widens(old: Option<&Value>, new: Option<&Value>) -> bool {
    let (Some(old), Some(new)) = (old.and_then(Value::as_str), new.and_then(Value::as_str)) else {
        return false;
    };
    let length = |t: &str| {
        t.strip_prefix("character varying(")
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|n| n.parse::<u32>().ok())
    };
    match (length(old), length(new)) {
        (Some(a), Some(b)) => b >= a,
        (Some(_), None) => new == "text" || new == "character varying",
        _ => false,
    }
}

fn table(deltas: &[AttributeChange], dialect: Dialect) -> Option<DisruptionVerdict> {
    let mut verdicts = Vec::new();
    let mut columns: BTreeMap<&str, Vec<&AttributeChange>> = BTreeMap::new();
    for delta in deltas {
        let (head, index, field) = split(&delta.path);
        match (head, index) {
            ("columns", Some(i)) => columns.entry(i).or_default().push(delta),
            ("constraints", Some(name)) => {
                let pk = deltas.iter().any(|d| {
                    d.path.starts_with(&format!("constraints[{name}]"))
                        && [&d.old_value, &d.new_value]
                            .into_iter()
                            .flatten()
                            .any(|v| v == "primary key")
                }) || name.ends_with("_pkey");
                verdicts.push(match (dialect, pk, &delta.old_value, &delta.new_value) {
                    (Dialect::Sqlite, ..) => verdict(
                        Disruption::Replace,
                        "SQLite cannot alter a constraint: the table is rebuilt",
                    ),
                    (_, true, ..) => verdict(
                        Disruption::Replace,
                        "changing a primary key rebuilds its index under an ACCESS EXCLUSIVE lock",
                    ),
                    (_, false, Some(_), None) if field.is_empty() || field == "name" => verdict(
                        Disruption::InPlace,
                        "dropping a constraint is a catalog change",
                    ),
                    _ => verdict(
                        Disruption::Rolling,
                        "a constraint can be added NOT VALID and validated without blocking writes",
                    ),
                });
            }
            ("comment", _) => {
                verdicts.push(verdict(Disruption::InPlace, "COMMENT is a catalog change"))
            }
            _ => {}
        }
    }
    for changes in columns.values() {
        let added = changes.iter().all(|d| d.old_value.is_none());
        let removed = changes.iter().all(|d| d.new_value.is_none());
        let field = |name: &str| changes.iter().find(|d| split(&d.path).2 == name);
        if added {
            let not_null =
                field("nullable").and_then(|d| d.new_value.as_ref()) == Some(&Value::Bool(false));
            let has_default = field("default").is_some();
            verdicts.push(match (not_null, has_default) {
                (true, false) => verdict(
                    Disruption::Unknown,
                    "a NOT NULL column without a default cannot be added to a table that has rows",
                ),
                _ => verdict(
                    Disruption::InPlace,
                    "adding a nullable column (or one with a constant default) is a catalog change",
                ),
            });
            continue;
        }
        if removed {
            verdicts.push(verdict(
                Disruption::Destroy,
                "dropping a column destroys its data",
            ));
            continue;
        }
        for change in changes.iter() {
            let name = split(&change.path).2;
            verdicts.push(match (dialect, name) {
                (Dialect::Sqlite, _) => verdict(
                    Disruption::Replace,
                    "SQLite cannot alter a column: the table is rebuilt",
                ),
                (_, "type") if widens(change.old_value.as_ref(), change.new_value.as_ref()) => {
                    verdict(
                        Disruption::InPlace,
                        "widening a varchar is binary-compatible: no rewrite",
                    )
                }
                (_, "type") => verdict(
                    Disruption::Replace,
                    "changing a column's type rewrites the table under an ACCESS EXCLUSIVE lock",
                ),
                (_, "name") => verdict(
                    Disruption::Replace,
                    "a different column at this position: the table's column list changes",
                ),
                (_, "nullable") => verdict(
                    Disruption::InPlace,
                    "SET/DROP NOT NULL (SET scans the table under a lock)",
                ),
                (_, "default" | "comment") => verdict(
                    Disruption::InPlace,
                    "ALTER COLUMN SET DEFAULT / COMMENT is a catalog change",
                ),
                (_, "identity" | "generated") => verdict(
                    Disruption::Replace,
                    "an identity or generated column is re-created",
                ),
                _ => verdict(Disruption::Unknown, "no rule for this column property"),
            });
        }
    }
    worst(verdicts)
}

fn worst(verdicts: Vec<DisruptionVerdict>) -> Option<DisruptionVerdict> {
    verdicts.into_iter().max_by_key(|v| v.disruption.severity())
}

fn view(
    deltas: &[AttributeChange],
    dialect: Dialect,
    materialized: bool,
) -> Option<DisruptionVerdict> {
    if deltas.is_empty() {
        return None;
    }
    if materialized {
        return Some(verdict(
            Disruption::Replace,
            "a materialized view is dropped, re-created and repopulated",
        ));
    }
    if dialect == Dialect::Sqlite {
        return Some(verdict(
            Disruption::Replace,
            "SQLite has no CREATE OR REPLACE VIEW: DROP and CREATE",
        ));
    }
    let columns_changed = deltas
        .iter()
        .any(|d| d.path.starts_with("columns") && d.old_value.is_some());
    if columns_changed {
        Some(verdict(
            Disruption::Replace,
            "a view's column list cannot change in place: DROP and CREATE, with its dependents",
        ))
    } else {
        Some(verdict(
            Disruption::InPlace,
            "CREATE OR REPLACE VIEW keeps the view when its column list is unchanged or only appended to",
        ))
    }
}

fn classify(query: &DisruptionQuery, dialect: Dialect) -> Option<DisruptionVerdict> {
    let deltas: Vec<AttributeChange> = query
        .deltas
        .iter()
        .filter(|d| !matches!(d.path.as_str(), "status" | "physicalId" | "lastUpdated"))
        .cloned()
        .collect();
    if deltas.is_empty() {
        return None;
    }
    let only_comment = deltas.iter().all(|d| d.path == "comment");
    if only_comment {
        return Some(verdict(Disruption::InPlace, "COMMENT is a catalog change"));
    }
    match query.entity_type.as_deref()? {
        "SQL::Table" => table(&deltas, dialect),
        "SQL::View" => view(&deltas, dialect, false),
        "SQL::MaterializedView" => view(&deltas, dialect, true),
        "SQL::Index" => Some(match dialect {
            Dialect::Sqlite => verdict(Disruption::Replace, "an index is dropped and re-created"),
            Dialect::Postgres => verdict(
                Disruption::Rolling,
                "CREATE INDEX CONCURRENTLY under a new name, then drop the old one",
            ),
        }),
        "SQL::Sequence" => Some(verdict(Disruption::InPlace, "ALTER SEQUENCE")),
        "SQL::Type" => {
            let appended = deltas
                .iter()
                .all(|d| d.old_value.is_none() && d.path.starts_with("labels"));
            Some(if appended {
                verdict(
                    Disruption::InPlace,
                    "ALTER TYPE … ADD VALUE appends a label",
                )
            } else {
                verdict(
                    Disruption::Replace,
                    "an enum label cannot be removed or reordered: the type is re-created",
                )
            })
        }
        "SQL::Function" => {
            let returns = deltas.iter().any(|d| d.path == "returns");
            Some(if returns {
                verdict(
                    Disruption::Replace,
                    "a function's return type cannot change: DROP and CREATE",
                )
            } else {
                verdict(Disruption::InPlace, "CREATE OR REPLACE FUNCTION")
            })
        }
        _ => None,
    }
}

/// A partial map: an entity whose change no rule covers is left out (unknown).
pub fn classify_all(
    queries: &[DisruptionQuery],
    dialect: Dialect,
) -> BTreeMap<String, DisruptionVerdict> {
    queries
        .iter()
        .filter_map(|q| classify(q, dialect).map(|v| (q.name.clone(), v)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn change(path: &str, old: Option<Value>, new: Option<Value>) -> AttributeChange {
        AttributeChange {
            path: path.to_owned(),
            old_value: old,
            new_value: new,
        }
    }

    fn one(entity_type: &str, deltas: Vec<AttributeChange>, dialect: Dialect) -> DisruptionVerdict {
        let query = DisruptionQuery {
            name: "x".into(),
            entity_type: Some(entity_type.into()),
            deltas,
        };
        classify_all(&[query], dialect)
            .remove("x")
            .unwrap_or_default()
    }

    #[test]
    fn columns_cost_what_postgres_makes_them_cost() {
        let added = vec![
            change("columns[3].name", None, Some(json!("note"))),
            change("columns[3].type", None, Some(json!("text"))),
            change("columns[3].nullable", None, Some(json!(true))),
        ];
        assert_eq!(
            one("SQL::Table", added, Dialect::Postgres).disruption,
            Disruption::InPlace
        );
        let retyped = vec![change(
            "columns[1].type",
            Some(json!("integer")),
            Some(json!("bigint")),
        )];
        let v = one("SQL::Table", retyped, Dialect::Postgres);
        assert_eq!(v.disruption, Disruption::Replace);
        assert!(v.because.unwrap().contains("rewrites"));
        let widened = vec![change(
            "columns[1].type",
            Some(json!("character varying(20)")),
            Some(json!("character varying(80)")),
        )];
        assert_eq!(
            one("SQL::Table", widened, Dialect::Postgres).disruption,
            Disruption::InPlace
        );
        let dropped = vec![
            change("columns[2].name", Some(json!("x")), None),
            change("columns[2].type", Some(json!("text")), None),
        ];
        assert_eq!(
            one("SQL::Table", dropped, Dialect::Postgres).disruption,
            Disruption::Destroy
        );
        let pk = vec![change(
            "constraints[#orders_pkey].columns[0]",
            Some(json!("id")),
            Some(json!("uuid")),
        )];
        assert_eq!(
            one("SQL::Table", pk, Dialect::Postgres).disruption,
            Disruption::Replace
        );
    }

    #[test]
    fn views_replace_only_when_their_columns_change() {
        let body = vec![change(
            "definition",
            Some(json!("SELECT a FROM t")),
            Some(json!("SELECT a FROM u")),
        )];
        assert_eq!(
            one("SQL::View", body.clone(), Dialect::Postgres).disruption,
            Disruption::InPlace
        );
        assert_eq!(
            one("SQL::View", body, Dialect::Sqlite).disruption,
            Disruption::Replace
        );
        let renamed = vec![change("columns[0]", Some(json!("a")), Some(json!("b")))];
        assert_eq!(
            one("SQL::View", renamed, Dialect::Postgres).disruption,
            Disruption::Replace
        );
    }

    #[test]
    fn sqlite_alters_nothing_but_an_added_column() {
        let retyped = vec![change(
            "columns[1].type",
            Some(json!("INTEGER")),
            Some(json!("TEXT")),
        )];
        assert_eq!(
            one("SQL::Table", retyped, Dialect::Sqlite).disruption,
            Disruption::Replace
        );
        let unknown = DisruptionQuery {
            name: "x".into(),
            entity_type: Some("SQL::Table".into()),
            deltas: vec![change("status", Some(json!("A")), Some(json!("B")))],
        };
        assert!(classify_all(&[unknown], Dialect::Sqlite).is_empty());
    }
}
