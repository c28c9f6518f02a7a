//! One canonical spelling for types, expressions and view queries, applied to the
//! declared DDL and to what the server prints back alike, so that an unchanged object
//! compares equal.
//!
//! The rules, each a deliberate loss of information stated once:
//! - casts are not compared (`'x'::text` is `'x'`): PostgreSQL adds them everywhere;
//! - parentheses are re-derived from the tree, not kept as written;
//! - `= ANY (ARRAY[…])` is `IN (…)` (PostgreSQL stores an IN list that way; the IN form
//!   stays valid DDL once casts are gone), `BETWEEN` is two comparisons, `LIKE` is `~~`;
//! - in a view's query a column's table qualifier is dropped (`orders.id` is `id`) and the
//!   default schema (`public`, `main`) is dropped from every name.

use crate::dialect::Dialect;
use sqlparser::ast::{
    BinaryOperator, CastKind, DataType, Expr, Ident, InTarget, JoinOperator, ObjectName,
    ObjectNamePart, Query, SelectItem, SetExpr, UnaryOperator, Value, visit_expressions_mut,
    visit_relations_mut,
};
use std::ops::ControlFlow;

/// A name as the engine stores it: PostgreSQL folds unquoted names to lowercase.
pub fn ident(ident: &Ident, dialect: Dialect) -> String {
    if ident.quote_style.is_none() && dialect.folds_case() {
        ident.value.to_lowercase()
    } else {
        ident.value.clone()
    }
}

fn parts(name: &ObjectName, dialect: Dialect) -> Vec<String> {
    name.0
        .iter()
        .map(|part| match part {
            ObjectNamePart::Identifier(i) => ident(i, dialect),
            ObjectNamePart::Function(f) => f.name.value.clone(),
        })
        .collect()
}

/// `(schema, name)` of a possibly qualified object name.
pub fn split_name(name: &ObjectName, dialect: Dialect) -> (String, String) {
    let mut parts = parts(name, dialect);
    let last = parts.pop().unwrap_or_default();
    let schema = parts
        .pop()
        .unwrap_or_else(|| dialect.default_schema().to_owned());
    (schema, last)
}

/// A reference to another object: qualified only outside the default schema.
pub fn reference(name: &ObjectName, dialect: Dialect) -> String {
    let (schema, name) = split_name(name, dialect);
    if schema == dialect.default_schema() {
        name
    } else {
        format!("{schema}.{name}")
    }
}

/// A type as PostgreSQL's `format_type` prints it (`character varying(255)`,
/// `timestamp with time zone`, `integer[]`); SQLite types stay as written.
pub fn type_name(data_type: &DataType, dialect: Dialect) -> String {
    let text = data_type.to_string().to_lowercase();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match dialect {
        Dialect::Sqlite => text,
        Dialect::Postgres => postgres_type(&text),
    }
}

fn postgres_type(text: &str) -> String {
    if let Some(element) = text.strip_suffix("[]") {
        return format!("{}[]", postgres_type(element));
    }
    let (base, args, rest) = match text.find('(') {
        Some(open) => {
            let close = text[open..].find(')').map_or(text.len(), |c| open + c + 1);
            (
                text[..open].trim(),
                Some(text[open..close].replace(' ', "")),
                text[close..].trim(),
            )
        }
        None => (text, None, ""),
    };
    let (base, rest) = match (base, rest) {
        ("timestamptz", _) => ("timestamp", "with time zone"),
        ("timetz", _) => ("time", "with time zone"),
        (b @ ("timestamp" | "time"), "") => (b, "without time zone"),
        (b, r) => (b, r),
    };
    let base = match base {
        "int" | "int4" | "integer" => "integer",
        "int8" | "bigint" => "bigint",
        "int2" | "smallint" => "smallint",
        "serial4" | "serial" => "serial",
        "serial8" | "bigserial" => "bigserial",
        "serial2" | "smallserial" => "smallserial",
        "varchar" | "character varying" | "char varying" => "character varying",
        "char" | "character" | "bpchar" => "character",
        "bool" | "boolean" => "boolean",
        "decimal" | "numeric" | "dec" => "numeric",
        "float8" | "double precision" | "double" => "double precision",
        "float4" | "real" => "real",
        "float" => match args.as_deref() {
            Some(a)
                if a.trim_matches(['(', ')'])
                    .parse::<u32>()
                    .is_ok_and(|n| n <= 24) =>
            {
                return "real".to_owned();
            }
            _ => return "double precision".to_owned(),
        },
        other => other.strip_prefix("public.").unwrap_or(other),
    };
    let args = match (base, args) {
        ("character", None) => Some("(1)".to_owned()),
        (_, a) => a,
    };
    let mut out = base.to_owned();
    if let Some(args) = args {
        out.push_str(&args);
    }
    if !rest.is_empty() {
        out.push(' ');
        out.push_str(rest);
    }
    out
}

/// Normalize an expression tree in place (see the module rules).
pub fn normalize_expr(expr: &mut Expr, dialect: Dialect, drop_qualifiers: bool) {
    let _ = visit_expressions_mut(expr, |e| {
        normalize_node(e, dialect, drop_qualifiers);
        ControlFlow::<()>::Continue(())
    });
}

/// The canonical text of an expression.
pub fn expr(expr: &Expr, dialect: Dialect) -> String {
    let mut expr = expr.clone();
    normalize_expr(&mut expr, dialect, false);
    expr.to_string()
}

fn normalize_ident(ident: &mut Ident, dialect: Dialect) {
    let value = self::ident(ident, dialect);
    let plain = crate::names::quote_ident(&value) == value;
    ident.value = value;
    if plain || dialect == Dialect::Sqlite {
        ident.quote_style = None;
    }
}

fn take(expr: &mut Expr) -> Expr {
    std::mem::replace(expr, Expr::Value(Value::Null.into()))
}

/// Runs after the node's children were normalized (post-order).
fn normalize_node(expr: &mut Expr, dialect: Dialect, drop_qualifiers: bool) {
    match expr {
        Expr::Nested(inner) => *expr = take(inner),
        Expr::Cast {
            kind: CastKind::DoubleColon | CastKind::Cast,
            expr: inner,
            ..
        } => *expr = take(inner),
        Expr::Identifier(ident) => normalize_ident(ident, dialect),
        Expr::CompoundIdentifier(idents) => {
            for ident in idents.iter_mut() {
                normalize_ident(ident, dialect);
            }
            if drop_qualifiers && let Some(last) = idents.pop() {
                *expr = Expr::Identifier(last);
            }
        }
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr: inner,
        } if matches!(inner.as_ref(), Expr::Value(v) if matches!(v.value, Value::Number(..))) => {
            if let Expr::Value(v) = inner.as_ref()
                && let Value::Number(n, long) = &v.value
            {
                *expr = Expr::Value(Value::Number(format!("-{n}"), *long).into());
            }
        }
        Expr::Function(function) => {
            let mut name = function.name.clone();
            for part in name.0.iter_mut() {
                if let ObjectNamePart::Identifier(i) = part {
                    normalize_ident(i, dialect);
                }
            }
            if name.0.len() == 2
                && let ObjectNamePart::Identifier(schema) = &name.0[0]
                && (schema.value == "pg_catalog" || schema.value == dialect.default_schema())
            {
                name.0.remove(0);
            }
            function.name = name;
        }
        Expr::AnyOp {
            left,
            compare_op: BinaryOperator::Eq,
            right,
            ..
        }
        | Expr::AllOp {
            left,
            compare_op: BinaryOperator::NotEq,
            right,
        } if matches!(right.as_ref(), Expr::Array(_)) => {
            let (left, right) = (take(left), take(right));
            let negated = matches!(expr, Expr::AllOp { .. });
            let Expr::Array(array) = right else {
                unreachable!("matched above")
            };
            *expr = Expr::In {
                expr: Box::new(left),
                target: InTarget::List(array.elem),
                negated,
                global: false,
            };
        }
        Expr::Between {
            expr: subject,
            negated: false,
            low,
            high,
        } => {
            let subject = take(subject);
            let low = Expr::BinaryOp {
                left: Box::new(subject.clone()),
                op: BinaryOperator::GtEq,
                right: Box::new(take(low)),
            };
            let high = Expr::BinaryOp {
                left: Box::new(subject),
                op: BinaryOperator::LtEq,
                right: Box::new(take(high)),
            };
            *expr = Expr::BinaryOp {
                left: Box::new(low),
                op: BinaryOperator::And,
                right: Box::new(high),
            };
        }
        Expr::Like {
            negated,
            any: false,
            expr: subject,
            pattern,
            escape_char: None,
        }
        | Expr::ILike {
            negated,
            any: false,
            expr: subject,
            pattern,
            escape_char: None,
        } => {
            let negated = *negated;
            let (left, right) = (take(subject), take(pattern));
            let insensitive = matches!(expr, Expr::ILike { .. });
            let op = match (insensitive, negated) {
                (false, false) => BinaryOperator::PGLikeMatch,
                (false, true) => BinaryOperator::PGNotLikeMatch,
                (true, false) => BinaryOperator::PGILikeMatch,
                (true, true) => BinaryOperator::PGNotILikeMatch,
            };
            *expr = Expr::BinaryOp {
                left: Box::new(left),
                op,
                right: Box::new(right),
            };
        }
        _ => {}
    }
    parenthesize_children(expr);
}

fn is_compound(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::BinaryOp { .. }
            | Expr::UnaryOp {
                op: UnaryOperator::Not,
                ..
            }
            | Expr::AnyOp { .. }
            | Expr::AllOp { .. }
            | Expr::IsNull(_)
            | Expr::IsNotNull(_)
            | Expr::IsDistinctFrom(..)
            | Expr::IsNotDistinctFrom(..)
            | Expr::Between { .. }
            | Expr::In { .. }
    )
}

/// Re-derive parentheses from the tree: every compound operand is wrapped once.
fn parenthesize_children(expr: &mut Expr) {
    let wrap = |child: &mut Box<Expr>| {
        if is_compound(child) {
            let inner = take(child);
            **child = Expr::Nested(Box::new(inner));
        }
    };
    match expr {
        Expr::BinaryOp { left, right, .. } => {
            wrap(left);
            wrap(right);
        }
        Expr::AnyOp { left, .. } | Expr::AllOp { left, .. } => wrap(left),
        Expr::UnaryOp { expr: inner, .. } | Expr::IsNull(inner) | Expr::IsNotNull(inner) => {
            wrap(inner)
        }
        _ => {}
    }
}

/// A view's query, canonicalized; and the names of its output columns.
///
/// `columns` is the view's explicit column list, if it has one: its names become the
/// projection's aliases, which is how PostgreSQL prints such a view back.
pub fn query(query: &Query, columns: &[String], dialect: Dialect) -> (String, Vec<String>) {
    let mut query = query.clone();
    let _ = visit_expressions_mut(&mut query, |e| {
        normalize_node(e, dialect, true);
        ControlFlow::<()>::Continue(())
    });
    let _ = visit_relations_mut(&mut query, |name| {
        for part in name.0.iter_mut() {
            if let ObjectNamePart::Identifier(i) = part {
                normalize_ident(i, dialect);
            }
        }
        if name.0.len() == 2
            && let ObjectNamePart::Identifier(schema) = &name.0[0]
            && schema.value == dialect.default_schema()
        {
            name.0.remove(0);
        }
        ControlFlow::<()>::Continue(())
    });
    normalize_joins(&mut query.body);
    let names = normalize_projection(&mut query.body, columns);
    (query.to_string(), names)
}

fn normalize_joins(body: &mut SetExpr) {
    match body {
        SetExpr::Select(select) => {
            for table in select.from.iter_mut() {
                for join in table.joins.iter_mut() {
                    let op = std::mem::replace(&mut join.join_operator, JoinOperator::CrossApply);
                    join.join_operator = match op {
                        JoinOperator::Inner(c) => JoinOperator::Join(c),
                        JoinOperator::LeftOuter(c) => JoinOperator::Left(c),
                        JoinOperator::RightOuter(c) => JoinOperator::Right(c),
                        other => other,
                    };
                }
            }
        }
        SetExpr::SetOperation { left, right, .. } => {
            normalize_joins(left);
            normalize_joins(right);
        }
        SetExpr::Query(q) => normalize_joins(&mut q.body),
        _ => {}
    }
}

/// The output name PostgreSQL gives a select item without an alias.
fn implied_name(expr: &Expr) -> String {
    match expr {
        Expr::Identifier(i) => i.value.clone(),
        Expr::CompoundIdentifier(parts) => {
            parts.last().map(|i| i.value.clone()).unwrap_or_default()
        }
        Expr::Function(f) => match f.name.0.last() {
            Some(ObjectNamePart::Identifier(i)) => i.value.clone(),
            _ => "?column?".to_owned(),
        },
        _ => "?column?".to_owned(),
    }
}

fn normalize_projection(body: &mut SetExpr, columns: &[String]) -> Vec<String> {
    let select = match body {
        SetExpr::Select(select) => select,
        SetExpr::SetOperation { left, .. } => return normalize_projection(left, columns),
        SetExpr::Query(q) => return normalize_projection(&mut q.body, columns),
        _ => return columns.to_vec(),
    };
    let mut names = Vec::new();
    for (index, item) in select.projection.iter_mut().enumerate() {
        let (expr, alias) = match item {
            SelectItem::UnnamedExpr(e) => (e.clone(), None),
            SelectItem::ExprWithAlias { expr, alias } => (expr.clone(), Some(alias.value.clone())),
            _ => {
                names.push("*".to_owned());
                continue;
            }
        };
        let implied = implied_name(&expr);
        let name = columns
            .get(index)
            .cloned()
            .or(alias)
            .unwrap_or_else(|| implied.clone());
        *item = if name == implied && !matches!(expr, Expr::Function(_)) {
            SelectItem::UnnamedExpr(expr)
        } else {
            SelectItem::ExprWithAlias {
                expr,
                alias: Ident::new(name.clone()),
            }
        };
        names.push(name);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::parser::Parser;

    fn parse_expr(text: &str) -> Expr {
        let dialect = Dialect::Postgres.parser();
        Parser::new(dialect.as_ref())
            .try_with_sql(text)
            .unwrap()
            .parse_expr()
            .unwrap()
    }

    fn canon(text: &str) -> String {
        expr(&parse_expr(text), Dialect::Postgres)
    }

    #[test]
    fn expressions_converge_with_what_postgres_prints() {
        assert_eq!(canon("total >= 0"), canon("((total >= (0)::numeric))"));
        assert_eq!(
            canon("total < 1000000 AND customer_id > 0"),
            canon("(((total < (1000000)::numeric) AND (customer_id > 0)))")
        );
        assert_eq!(canon("'pending'"), canon("'pending'::order_status"));
        assert_eq!(
            canon("status IN ('a', 'b')"),
            canon(
                "((status)::text = ANY ((ARRAY['a'::character varying, 'b'::character varying])::text[]))"
            )
        );
        assert_eq!(canon("-1"), canon("'-1'::integer").replace('\'', ""));
        assert_eq!(canon("NOW()"), "now()");
        assert_eq!(canon("x BETWEEN 1 AND 2"), canon("((x >= 1) AND (x <= 2))"));
        assert_eq!(canon("name LIKE 'a%'"), canon("(name ~~ 'a%'::text)"));
    }

    #[test]
    fn grouping_survives_canonicalization() {
        assert_ne!(canon("(a OR b) AND c"), canon("a OR (b AND c)"));
    }

    #[test]
    fn canonical_text_is_a_fixpoint() {
        for text in [
            "((total >= (0)::numeric))",
            "status IN ('a', 'b')",
            "x BETWEEN 1 AND 2",
            "NOT (a AND b)",
            "name LIKE 'a%'",
            "x IS NOT NULL AND y > -1",
        ] {
            let once = canon(text);
            assert_eq!(canon(&once), once, "{text}");
        }
    }

    #[test]
    fn types_read_as_format_type_prints_them() {
        let t = |s: &str| {
            let dialect = Dialect::Postgres.parser();
            let dt = Parser::new(dialect.as_ref())
                .try_with_sql(s)
                .unwrap()
                .parse_data_type()
                .unwrap();
            type_name(&dt, Dialect::Postgres)
        };
        assert_eq!(t("int"), "integer");
        assert_eq!(t("varchar(255)"), "character varying(255)");
        assert_eq!(t("character varying(255)"), "character varying(255)");
        assert_eq!(t("timestamptz"), "timestamp with time zone");
        assert_eq!(t("timestamp with time zone"), "timestamp with time zone");
        assert_eq!(t("timestamp"), "timestamp without time zone");
        assert_eq!(t("numeric(10, 2)"), "numeric(10,2)");
        assert_eq!(t("decimal(10,2)"), "numeric(10,2)");
        assert_eq!(t("int[]"), "integer[]");
        assert_eq!(t("bool"), "boolean");
        assert_eq!(t("double precision"), "double precision");
        assert_eq!(t("public.order_status"), "order_status");
        assert_eq!(t("serial"), "serial");
        assert_eq!(t("text"), "text");
    }
}
