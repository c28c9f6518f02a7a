//! DDL text → schema objects. The declared files and the definitions the live side
//! rebuilds from the catalogs both go through here, so both sides share one shape.

use crate::canonical::{self, split_name};
use crate::dialect::Dialect;
use crate::marker::split_comment;
use crate::model::SqlObject;
use crate::names::{Kind, ObjectKey};
use serde_json::{Map, Value, json};
use sqlparser::ast::{
    AlterColumnOperation, AlterTableOperation, ArgMode, ColumnDef, ColumnOption, CommentObject,
    CreateFunction, CreateFunctionBody, CreateIndex, CreateTable, CreateView, Expr,
    FunctionBehavior, FunctionReturnType, GeneratedAs, Ident, IndexColumn, ObjectName, OrderBySort,
    ReferentialAction, SchemaName, SequenceOptions, Statement, TableConstraint,
    UserDefinedTypeRepresentation, Value as SqlValue,
};
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;
use std::collections::HashMap;
use std::ops::ControlFlow;

/// A statement this lexicon cannot read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DdlError {
    pub message: String,
    pub line: usize,
    pub column: Option<usize>,
    pub help: Option<String>,
}

impl DdlError {
    fn at(line: usize, message: impl Into<String>) -> Self {
        DdlError {
            message: message.into(),
            line,
            column: None,
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    fn from_parser(error: &ParserError) -> Self {
        let text = match error {
            ParserError::TokenizerError(s) | ParserError::ParserError(s) => s.clone(),
            ParserError::RecursionLimitExceeded => "statement nests too deeply".to_owned(),
        };
        let (message, line, column) = match text.rfind(" at Line: ") {
            Some(at) => {
                let position = &text[at + " at Line: ".len()..];
                let (line, column) = position.split_once(", Column: ").unwrap_or((position, ""));
                (
                    text[..at].to_owned(),
                    line.trim().parse().unwrap_or(1),
                    column.trim().parse().ok(),
                )
            }
            None => (text, 1, None),
        };
        DdlError {
            message: format!("cannot parse this statement: {message}"),
            line,
            column,
            help: None,
        }
    }
}

/// Parse DDL into objects, in declaration order.
pub fn parse(text: &str, dialect: Dialect) -> Result<Vec<SqlObject>, DdlError> {
    parse_many(&[text], dialect).map_err(|(_, e)| e)
}

/// Parse several files as one schema (a COMMENT may follow its object in a later file).
/// Each object's `file` is the index of the text it came from; an error names its text.
pub fn parse_many(texts: &[&str], dialect: Dialect) -> Result<Vec<SqlObject>, (usize, DdlError)> {
    let mut schema = Schema {
        dialect,
        objects: Vec::new(),
        index: HashMap::new(),
        file: 0,
    };
    for (file, text) in texts.iter().enumerate() {
        schema.file = file;
        let statements = statements(text, dialect).map_err(|e| (file, e))?;
        for (line, statement) in statements {
            schema.apply(line, statement).map_err(|e| (file, e))?;
        }
    }
    let mut objects = schema.objects;
    resolve_foreign_keys(&mut objects, dialect);
    Ok(objects)
}

/// Split and parse, keeping each statement's first line.
pub fn statements(text: &str, dialect: Dialect) -> Result<Vec<(usize, Statement)>, DdlError> {
    let parser_dialect = dialect.parser();
    let mut parser = Parser::new(parser_dialect.as_ref())
        .try_with_sql(text)
        .map_err(|e| DdlError::from_parser(&e))?;
    let mut out = Vec::new();
    loop {
        while parser.consume_token(&Token::SemiColon) {}
        let next = parser.peek_token();
        if next.token == Token::EOF {
            break;
        }
        let line = next.span.start.line as usize;
        let statement = parser
            .parse_statement()
            .map_err(|e| DdlError::from_parser(&e))?;
        out.push((line, statement));
        let after = parser.peek_token();
        if after.token != Token::EOF && after.token != Token::SemiColon {
            return Err(DdlError {
                message: format!("expected `;` after the statement, found `{}`", after.token),
                line: after.span.start.line as usize,
                column: Some(after.span.start.column as usize),
                help: None,
            });
        }
    }
    Ok(out)
}

struct Schema {
    dialect: Dialect,
    objects: Vec<SqlObject>,
    index: HashMap<ObjectKey, usize>,
    file: usize,
}

fn name_of(ident: &Ident, dialect: Dialect) -> String {
    canonical::ident(ident, dialect)
}

fn number(expr: &Expr) -> Option<i64> {
    match expr {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) => n.parse().ok(),
            _ => None,
        },
        Expr::UnaryOp { expr, .. } => number(expr).map(|n| -n),
        _ => None,
    }
}

fn literal_text(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Value(v) => match &v.value {
            SqlValue::SingleQuotedString(s) => Some(s.clone()),
            SqlValue::DollarQuotedString(d) => Some(d.value.clone()),
            SqlValue::EscapedStringLiteral(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn action(action: Option<&ReferentialAction>) -> &'static str {
    match action {
        None | Some(ReferentialAction::NoAction) => "no action",
        Some(ReferentialAction::Restrict) => "restrict",
        Some(ReferentialAction::Cascade) => "cascade",
        Some(ReferentialAction::SetNull) => "set null",
        Some(ReferentialAction::SetDefault) => "set default",
    }
}

/// Column names an expression mentions (PostgreSQL names a check after its only column).
fn mentioned_columns(expr: &Expr, dialect: Dialect) -> Vec<String> {
    let mut names = Vec::new();
    let _ = sqlparser::ast::visit_expressions(expr, |e| {
        let name = match e {
            Expr::Identifier(i) => Some(name_of(i, dialect)),
            Expr::CompoundIdentifier(parts) => parts.last().map(|i| name_of(i, dialect)),
            _ => None,
        };
        if let Some(name) = name
            && !names.contains(&name)
        {
            names.push(name);
        }
        ControlFlow::<()>::Continue(())
    });
    names
}

impl Schema {
    fn push(&mut self, mut object: SqlObject) -> Result<(), DdlError> {
        object.file = self.file;
        if let Some(&existing) = self.index.get(&object.key) {
            let first = self.objects[existing].line;
            return Err(DdlError::at(
                object.line,
                format!(
                    "`{}` is declared twice (first on line {first})",
                    object.entity_name()
                ),
            ));
        }
        self.index.insert(object.key.clone(), self.objects.len());
        self.objects.push(object);
        Ok(())
    }

    fn find(&mut self, key: &ObjectKey) -> Option<&mut SqlObject> {
        let i = *self.index.get(key)?;
        self.objects.get_mut(i)
    }

    fn key(&self, kind: Kind, name: &ObjectName) -> ObjectKey {
        let (schema, name) = split_name(name, self.dialect);
        ObjectKey::new(kind, schema, name)
    }

    fn apply(&mut self, line: usize, statement: Statement) -> Result<(), DdlError> {
        let dialect = self.dialect;
        match statement {
            Statement::CreateSchema { schema_name, .. } => {
                let name = match &schema_name {
                    SchemaName::Simple(n) | SchemaName::NamedAuthorization(n, _) => {
                        split_name(n, dialect).1
                    }
                    SchemaName::UnnamedAuthorization(user) => name_of(user, dialect),
                };
                self.push(SqlObject::new(
                    ObjectKey::new(Kind::Schema, &name, &name),
                    line,
                ))
            }
            Statement::CreateTable(table) => {
                let object = self.table(line, &table)?;
                self.push(object)
            }
            Statement::CreateView(view) => {
                let object = self.view(line, &view)?;
                self.push(object)
            }
            Statement::CreateIndex(index) => {
                let object = self.index_object(line, &index)?;
                self.push(object)
            }
            Statement::CreateSequence {
                name,
                sequence_options,
                ..
            } => {
                let mut object = SqlObject::new(self.key(Kind::Sequence, &name), line);
                for option in &sequence_options {
                    self.sequence_option(line, &mut object.props, option)?;
                }
                self.push(object)
            }
            Statement::CreateType {
                name,
                representation: Some(UserDefinedTypeRepresentation::Enum { labels }),
            } => {
                let mut object = SqlObject::new(self.key(Kind::Type, &name), line);
                object.props.insert("kind".into(), json!("enum"));
                let labels: Vec<Value> = labels.iter().map(|l| json!(l.value)).collect();
                object.props.insert("labels".into(), Value::Array(labels));
                self.push(object)
            }
            Statement::CreateType { name, .. } => self.push(SqlObject::new(
                self.key(Kind::Unsupported("composite_type"), &name),
                line,
            )),
            Statement::CreateFunction(function) => {
                let object = self.function(line, &function)?;
                self.push(object)
            }
            Statement::Comment {
                object_type,
                object_name,
                comment,
                ..
            } => self.comment(line, object_type, &object_name, comment),
            Statement::AlterTable(alter) => {
                let key = self.key(Kind::Table, &alter.name);
                for operation in alter.operations {
                    self.alter_table(line, &key, operation)?;
                }
                Ok(())
            }
            Statement::CreateTrigger(trigger) => self.push(SqlObject::new(
                self.key(Kind::Unsupported("trigger"), &trigger.name),
                line,
            )),
            Statement::CreateDomain(domain) => self.push(SqlObject::new(
                self.key(Kind::Unsupported("domain"), &domain.name),
                line,
            )),
            Statement::CreateExtension(extension) => {
                let name = name_of(&extension.name, dialect);
                self.push(SqlObject::new(
                    ObjectKey::new(
                        Kind::Unsupported("extension"),
                        dialect.default_schema(),
                        name,
                    ),
                    line,
                ))
            }
            Statement::CreatePolicy(policy) => {
                let (schema, table) = split_name(&policy.table_name, dialect);
                let name = format!("{table}.{}", name_of(&policy.name, dialect));
                self.push(SqlObject::new(
                    ObjectKey::new(Kind::Unsupported("policy"), schema, name),
                    line,
                ))
            }
            Statement::CreateVirtualTable { name, .. } => self.push(SqlObject::new(
                self.key(Kind::Unsupported("virtual_table"), &name),
                line,
            )),
            // Statements that declare no object: data, session settings, transactions,
            // privileges, drops and ownership changes.
            Statement::Query(_)
            | Statement::Insert(_)
            | Statement::Update(_)
            | Statement::Delete(_)
            | Statement::Set(_)
            | Statement::StartTransaction { .. }
            | Statement::Commit { .. }
            | Statement::Rollback { .. }
            | Statement::Grant(_)
            | Statement::Revoke(_)
            | Statement::Drop { .. }
            | Statement::DropFunction(_)
            | Statement::Pragma { .. }
            | Statement::Copy { .. }
            | Statement::Analyze(_)
            | Statement::AlterSchema(_) => Ok(()),
            other => {
                let text = other.to_string();
                let head: String = text
                    .split_whitespace()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" ");
                Err(DdlError::at(
                    line,
                    format!("the sql lexicon does not read `{head} …` statements"),
                )
                .help("supported: CREATE SCHEMA/TABLE/VIEW/MATERIALIZED VIEW/INDEX/SEQUENCE/TYPE … AS ENUM/FUNCTION, COMMENT ON, ALTER TABLE ADD/ALTER COLUMN, ADD CONSTRAINT"))
            }
        }
    }

    fn table(&self, line: usize, table: &CreateTable) -> Result<SqlObject, DdlError> {
        let dialect = self.dialect;
        if table.query.is_some() {
            return Err(
                DdlError::at(line, "CREATE TABLE … AS SELECT declares no columns")
                    .help("declare the columns explicitly"),
            );
        }
        let key = self.key(Kind::Table, &table.name);
        let mut object = SqlObject::new(key, line);
        let mut constraints = Constraints::new(&object.key.name);
        let mut columns = Vec::new();
        for column in &table.columns {
            columns.push(self.column(line, column, &mut constraints)?);
        }
        for constraint in &table.constraints {
            constraints.add(line, constraint, None, dialect)?;
        }
        if dialect == Dialect::Postgres {
            mark_primary_key_not_null(&mut columns, &constraints.list);
        }
        object.props.insert("columns".into(), Value::Array(columns));
        object.depends_on = constraints.references.clone();
        object
            .props
            .insert("constraints".into(), Value::Array(constraints.finish()));
        if let Some(comment) = &table.comment {
            let text = comment.to_string();
            object.set_comment(Some(text));
        }
        Ok(object)
    }

    fn column(
        &self,
        line: usize,
        column: &ColumnDef,
        constraints: &mut Constraints,
    ) -> Result<Value, DdlError> {
        let dialect = self.dialect;
        let name = name_of(&column.name, dialect);
        let data_type = canonical::type_name(&column.data_type, dialect);
        let mut out = Map::new();
        out.insert("name".into(), json!(name));
        out.insert("type".into(), json!(data_type));
        let serial = dialect == Dialect::Postgres && data_type.ends_with("serial");
        let mut nullable = !serial;
        for option in &column.options {
            match &option.option {
                ColumnOption::Null => nullable = true,
                ColumnOption::NotNull => nullable = false,
                ColumnOption::Default(expr) => {
                    out.insert("default".into(), json!(canonical::expr(expr, dialect)));
                }
                ColumnOption::Comment(text) => {
                    out.insert("comment".into(), json!(text));
                }
                ColumnOption::Collation(collation) => {
                    out.insert(
                        "collation".into(),
                        json!(canonical::reference(collation, dialect)),
                    );
                }
                ColumnOption::Generated {
                    generated_as,
                    generation_expr,
                    ..
                } => match generation_expr {
                    Some(expr) => {
                        out.insert("generated".into(), json!(canonical::expr(expr, dialect)));
                    }
                    None => {
                        let identity = match generated_as {
                            GeneratedAs::ByDefault => "by default",
                            _ => "always",
                        };
                        out.insert("identity".into(), json!(identity));
                        nullable = false;
                    }
                },
                ColumnOption::DialectSpecific(tokens) => {
                    let words: Vec<String> = tokens
                        .iter()
                        .map(|t| t.to_string().to_lowercase())
                        .collect();
                    if words.iter().any(|w| w == "autoincrement") {
                        out.insert("autoincrement".into(), json!(true));
                    }
                }
                ColumnOption::PrimaryKey(_)
                | ColumnOption::Unique(_)
                | ColumnOption::ForeignKey(_)
                | ColumnOption::Check(_) => {
                    let constraint: TableConstraint = match option.option.clone() {
                        ColumnOption::PrimaryKey(pk) => {
                            if dialect == Dialect::Postgres {
                                nullable = false;
                            }
                            pk.into()
                        }
                        ColumnOption::Unique(unique) => unique.into(),
                        ColumnOption::ForeignKey(fk) => fk.into(),
                        ColumnOption::Check(check) => check.into(),
                        _ => unreachable!("matched above"),
                    };
                    constraints.add_column_constraint(
                        line,
                        &option.name,
                        &name,
                        constraint,
                        dialect,
                    )?;
                }
                other => {
                    return Err(DdlError::at(
                        line,
                        format!("column `{name}`: the sql lexicon does not read `{other}`"),
                    ));
                }
            }
        }
        out.insert("nullable".into(), json!(nullable));
        Ok(Value::Object(out))
    }

    /// A declared table's constraints so far, to add to.
    fn table_constraints(&mut self, key: &ObjectKey) -> Constraints {
        let existing: Vec<Value> = self
            .find(key)
            .and_then(|o| o.props.get("constraints"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        Constraints::with_existing(&key.name, &existing)
    }

    fn alter_table(
        &mut self,
        line: usize,
        key: &ObjectKey,
        operation: AlterTableOperation,
    ) -> Result<(), DdlError> {
        let dialect = self.dialect;
        let entity = key.entity_name();
        if self.find(key).is_none() {
            return Err(DdlError::at(
                line,
                format!("ALTER TABLE on `{entity}`, which no statement before it creates"),
            ));
        }
        match operation {
            AlterTableOperation::OwnerTo { .. } => Ok(()),
            AlterTableOperation::AddColumn { column_def, .. } => {
                let mut constraints = self.table_constraints(key);
                let column = self.column(line, &column_def, &mut constraints)?;
                let object = self.find(key).expect("checked");
                if let Some(columns) = object.columns_mut() {
                    columns.push(column);
                }
                store_constraints(object, constraints, dialect);
                Ok(())
            }
            AlterTableOperation::AddConstraint { constraint, .. } => {
                let mut constraints = self.table_constraints(key);
                constraints.add(line, &constraint, None, dialect)?;
                store_constraints(self.find(key).expect("checked"), constraints, dialect);
                Ok(())
            }
            AlterTableOperation::AlterColumn { column_name, op } => {
                let column = name_of(&column_name, dialect);
                let object = self.find(key).expect("checked");
                let Some(target) = object.columns_mut().and_then(|columns| {
                    columns
                        .iter_mut()
                        .find(|c| c.get("name").and_then(Value::as_str) == Some(column.as_str()))
                }) else {
                    return Err(DdlError::at(
                        line,
                        format!("`{entity}` has no column `{column}`"),
                    ));
                };
                let target = target.as_object_mut().expect("columns are objects");
                match op {
                    AlterColumnOperation::SetNotNull => {
                        target.insert("nullable".into(), json!(false));
                    }
                    AlterColumnOperation::DropNotNull => {
                        target.insert("nullable".into(), json!(true));
                    }
                    AlterColumnOperation::SetDefault { value } => {
                        target.insert("default".into(), json!(canonical::expr(&value, dialect)));
                    }
                    AlterColumnOperation::DropDefault => {
                        target.remove("default");
                    }
                    other => {
                        return Err(DdlError::at(
                            line,
                            format!(
                                "the sql lexicon does not read `ALTER COLUMN {column} {other}`"
                            ),
                        )
                        .help("write the column's final definition in its CREATE TABLE"));
                    }
                }
                Ok(())
            }
            other => Err(DdlError::at(
                line,
                format!("the sql lexicon does not read `ALTER TABLE … {other}`"),
            )
            .help("write the table's final definition in its CREATE TABLE")),
        }
    }

    fn view(&self, line: usize, view: &CreateView) -> Result<SqlObject, DdlError> {
        let kind = if view.materialized {
            Kind::MaterializedView
        } else {
            Kind::View
        };
        let mut object = SqlObject::new(self.key(kind, &view.name), line);
        let explicit: Vec<String> = view
            .columns
            .iter()
            .map(|c| name_of(&c.name, self.dialect))
            .collect();
        let (definition, columns) = canonical::query(&view.query, &explicit, self.dialect);
        object.props.insert("columns".into(), json!(columns));
        object.props.insert("definition".into(), json!(definition));
        object.depends_on = relations(&view.query, self.dialect);
        Ok(object)
    }

    fn index_object(&self, line: usize, index: &CreateIndex) -> Result<SqlObject, DdlError> {
        let dialect = self.dialect;
        let (schema, table) = split_name(&index.table_name, dialect);
        let columns: Vec<String> = index
            .columns
            .iter()
            .map(|c| index_column(c, dialect))
            .collect();
        let name = match &index.name {
            Some(name) => split_name(name, dialect).1,
            None => {
                let parts: Vec<String> = index
                    .columns
                    .iter()
                    .map(|c| match &c.column.expr {
                        Expr::Identifier(i) => name_of(i, dialect),
                        _ => "expr".to_owned(),
                    })
                    .collect();
                format!("{table}_{}_idx", parts.join("_"))
            }
        };
        let mut object = SqlObject::new(ObjectKey::new(Kind::Index, &schema, name), line);
        object.props.insert(
            "table".into(),
            json!(canonical::reference(&index.table_name, dialect)),
        );
        object.props.insert("unique".into(), json!(index.unique));
        object.props.insert("columns".into(), json!(columns));
        if let Some(method) = &index.using {
            object
                .props
                .insert("method".into(), json!(method.to_string().to_lowercase()));
        }
        if !index.include.is_empty() {
            let include: Vec<String> = index.include.iter().map(|i| name_of(i, dialect)).collect();
            object.props.insert("include".into(), json!(include));
        }
        if let Some(predicate) = &index.predicate {
            object
                .props
                .insert("where".into(), json!(canonical::expr(predicate, dialect)));
        }
        object.depends_on = vec![ObjectKey::new(Kind::Table, schema, table)];
        Ok(object)
    }

    fn sequence_option(
        &self,
        line: usize,
        props: &mut Map<String, Value>,
        option: &SequenceOptions,
    ) -> Result<(), DdlError> {
        let numeric = |key: &str, expr: &Expr, props: &mut Map<String, Value>| match number(expr) {
            Some(n) => {
                props.insert(key.into(), json!(n));
                Ok(())
            }
            None => Err(DdlError::at(
                line,
                format!("sequence {key} `{expr}` is not a number"),
            )),
        };
        match option {
            SequenceOptions::DataType(data_type) => {
                props.insert(
                    "type".into(),
                    json!(canonical::type_name(data_type, self.dialect)),
                );
                Ok(())
            }
            SequenceOptions::IncrementBy(expr, _) => numeric("increment", expr, props),
            SequenceOptions::MinValue(Some(expr)) => numeric("min", expr, props),
            SequenceOptions::MaxValue(Some(expr)) => numeric("max", expr, props),
            SequenceOptions::MinValue(None) | SequenceOptions::MaxValue(None) => Ok(()),
            SequenceOptions::StartWith(expr, _) => numeric("start", expr, props),
            SequenceOptions::Cache(expr) => numeric("cache", expr, props),
            SequenceOptions::Cycle(no) => {
                props.insert("cycle".into(), json!(!no));
                Ok(())
            }
            SequenceOptions::OwnedBy(_) => Ok(()),
        }
    }

    fn function(&self, line: usize, function: &CreateFunction) -> Result<SqlObject, DdlError> {
        let dialect = self.dialect;
        let (schema, base) = split_name(&function.name, dialect);
        let mut arguments = Vec::new();
        let mut signature = Vec::new();
        for arg in function.args.iter().flatten() {
            let data_type = canonical::type_name(&arg.data_type, dialect);
            let mut entry = Map::new();
            if let Some(name) = &arg.name {
                entry.insert("name".into(), json!(name_of(name, dialect)));
            }
            entry.insert("type".into(), json!(data_type));
            match arg.mode {
                Some(ArgMode::Out) => {
                    entry.insert("mode".into(), json!("out"));
                }
                Some(ArgMode::InOut) => {
                    entry.insert("mode".into(), json!("inout"));
                    signature.push(data_type.clone());
                }
                Some(ArgMode::Variadic) => {
                    entry.insert("mode".into(), json!("variadic"));
                    signature.push(data_type.clone());
                }
                _ => signature.push(data_type.clone()),
            }
            if let Some(default) = &arg.default_expr {
                entry.insert("default".into(), json!(canonical::expr(default, dialect)));
            }
            arguments.push(Value::Object(entry));
        }
        let name = format!("{base}({})", signature.join(","));
        let mut object = SqlObject::new(ObjectKey::new(Kind::Function, schema, name), line);
        object
            .props
            .insert("arguments".into(), Value::Array(arguments));
        let returns = match &function.return_type {
            Some(FunctionReturnType::DataType(t)) => canonical::type_name(t, dialect),
            Some(FunctionReturnType::SetOf(t)) => {
                format!("setof {}", canonical::type_name(t, dialect))
            }
            None => "void".to_owned(),
        };
        object.props.insert("returns".into(), json!(returns));
        if let Some(language) = &function.language {
            object
                .props
                .insert("language".into(), json!(language.value.to_lowercase()));
        }
        let body = match &function.function_body {
            Some(CreateFunctionBody::AsBeforeOptions { body, .. })
            | Some(CreateFunctionBody::AsAfterOptions(body)) => {
                literal_text(body).unwrap_or_else(|| body.to_string())
            }
            Some(CreateFunctionBody::Return(expr) | CreateFunctionBody::AsReturnExpr(expr)) => {
                format!("RETURN {}", canonical::expr(expr, dialect))
            }
            Some(_) => {
                return Err(DdlError::at(
                    line,
                    format!(
                        "function `{base}`: the sql lexicon reads only string bodies (AS $$ … $$) and RETURN"
                    ),
                ));
            }
            None => {
                return Err(DdlError::at(line, format!("function `{base}` has no body")));
            }
        };
        object.props.insert("body".into(), json!(body.trim()));
        if let Some(behavior) = &function.behavior {
            let volatility = match behavior {
                FunctionBehavior::Immutable => "immutable",
                FunctionBehavior::Stable => "stable",
                FunctionBehavior::Volatile => "volatile",
            };
            object.props.insert("volatility".into(), json!(volatility));
        }
        Ok(object)
    }

    fn comment(
        &mut self,
        line: usize,
        object_type: CommentObject,
        name: &ObjectName,
        comment: Option<String>,
    ) -> Result<(), DdlError> {
        let dialect = self.dialect;
        let (declared, marker) = match comment.as_deref() {
            Some(text) => split_comment(text),
            None => (None, None),
        };
        if object_type == CommentObject::Column {
            let mut parts: Vec<String> = name
                .0
                .iter()
                .filter_map(|p| p.as_ident().map(|i| name_of(i, dialect)))
                .collect();
            let column = parts.pop().unwrap_or_default();
            let table = parts.pop().unwrap_or_default();
            let schema = parts
                .pop()
                .unwrap_or_else(|| dialect.default_schema().to_owned());
            let key = ObjectKey::new(Kind::Table, schema, table);
            let entity = key.entity_name();
            let target = self
                .find(&key)
                .and_then(|o| o.columns_mut())
                .and_then(|columns| {
                    columns
                        .iter_mut()
                        .find(|c| c.get("name").and_then(Value::as_str) == Some(column.as_str()))
                })
                .and_then(Value::as_object_mut);
            let Some(target) = target else {
                return Err(DdlError::at(
                    line,
                    format!("COMMENT ON COLUMN: `{entity}` declares no column `{column}`"),
                ));
            };
            match declared {
                Some(text) => target.insert("comment".into(), json!(text)),
                None => target.remove("comment"),
            };
            return Ok(());
        }
        let kind = match object_type {
            CommentObject::Table => Kind::Table,
            CommentObject::View => Kind::View,
            CommentObject::MaterializedView => Kind::MaterializedView,
            CommentObject::Index => Kind::Index,
            CommentObject::Sequence => Kind::Sequence,
            CommentObject::Type => Kind::Type,
            CommentObject::Schema => Kind::Schema,
            CommentObject::Function => Kind::Function,
            other => {
                return Err(DdlError::at(
                    line,
                    format!("the sql lexicon does not read `COMMENT ON {other}`"),
                ));
            }
        };
        let (schema, base) = split_name(name, dialect);
        let key = match kind {
            Kind::Schema => ObjectKey::new(Kind::Schema, &base, &base),
            Kind::Function => {
                let prefix = format!("{base}(");
                let matches: Vec<&ObjectKey> = self
                    .index
                    .keys()
                    .filter(|k| {
                        k.kind == Kind::Function
                            && k.schema == schema
                            && k.name.starts_with(&prefix)
                    })
                    .collect();
                match matches.as_slice() {
                    [one] => (*one).clone(),
                    _ => ObjectKey::new(Kind::Function, &schema, &base),
                }
            }
            kind => ObjectKey::new(kind, &schema, &base),
        };
        let entity = key.entity_name();
        let Some(object) = self.find(&key) else {
            return Err(DdlError::at(
                line,
                format!(
                    "COMMENT ON {}: no statement before it creates `{entity}`",
                    kind.keyword()
                ),
            ));
        };
        object.set_comment(declared);
        object.marker = marker;
        Ok(())
    }
}

/// A foreign key that names no columns references the target's primary key.
pub fn resolve_foreign_keys(objects: &mut [SqlObject], dialect: Dialect) {
    let primary_keys: HashMap<String, Value> = objects
        .iter()
        .filter(|o| o.kind() == Kind::Table)
        .filter_map(|o| {
            let pk = o
                .props
                .get("constraints")?
                .as_array()?
                .iter()
                .find(|c| c.get("kind").and_then(Value::as_str) == Some("primary key"))?;
            let reference = if o.key.schema == dialect.default_schema() {
                o.key.name.clone()
            } else {
                format!("{}.{}", o.key.schema, o.key.name)
            };
            Some((reference, pk.get("columns")?.clone()))
        })
        .collect();
    for object in objects.iter_mut() {
        let Some(constraints) = object
            .props
            .get_mut("constraints")
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        for constraint in constraints.iter_mut() {
            let empty = constraint
                .get("referenced_columns")
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty);
            if !empty {
                continue;
            }
            let target = constraint
                .get("references")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if let Some(columns) = primary_keys.get(target) {
                constraint["referenced_columns"] = columns.clone();
            }
        }
    }
}

fn store_constraints(object: &mut SqlObject, constraints: Constraints, dialect: Dialect) {
    if dialect == Dialect::Postgres
        && let Some(columns) = object.columns_mut()
    {
        mark_primary_key_not_null(columns, &constraints.list);
    }
    object.depends_on.extend(constraints.references.clone());
    object
        .props
        .insert("constraints".into(), Value::Array(constraints.finish()));
}

fn mark_primary_key_not_null(columns: &mut [Value], constraints: &[Value]) {
    for constraint in constraints {
        if constraint.get("kind").and_then(Value::as_str) != Some("primary key") {
            continue;
        }
        for name in constraint
            .get("columns")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for column in columns.iter_mut() {
                if column.get("name") == Some(name) {
                    column["nullable"] = json!(false);
                }
            }
        }
    }
}

fn index_column(column: &IndexColumn, dialect: Dialect) -> String {
    let mut text = canonical::expr(&column.column.expr, dialect);
    let descending = matches!(column.column.options.sort, Some(OrderBySort::Desc));
    if descending {
        text.push_str(" DESC");
    }
    match column.column.options.nulls_first {
        Some(true) if !descending => text.push_str(" NULLS FIRST"),
        Some(false) if descending => text.push_str(" NULLS LAST"),
        _ => {}
    }
    if let Some(class) = &column.operator_class {
        text.push(' ');
        text.push_str(&class.to_string().to_lowercase());
    }
    text
}

/// The tables and views a query reads.
fn relations(query: &sqlparser::ast::Query, dialect: Dialect) -> Vec<ObjectKey> {
    let mut out: Vec<ObjectKey> = Vec::new();
    let _ = sqlparser::ast::visit_relations(query, |name| {
        let (schema, name) = split_name(name, dialect);
        let key = ObjectKey::new(Kind::Table, schema, name);
        if !out.contains(&key) {
            out.push(key);
        }
        ControlFlow::<()>::Continue(())
    });
    out
}

/// A table's constraints, named as PostgreSQL names them when the DDL does not.
struct Constraints {
    table: String,
    list: Vec<Value>,
    references: Vec<ObjectKey>,
}

impl Constraints {
    fn new(table: &str) -> Self {
        Constraints {
            table: table.to_owned(),
            list: Vec::new(),
            references: Vec::new(),
        }
    }

    fn with_existing(table: &str, existing: &[Value]) -> Self {
        let mut out = Constraints::new(table);
        out.list = existing.to_vec();
        out
    }

    fn taken(&self, name: &str) -> bool {
        self.list
            .iter()
            .any(|c| c.get("name").and_then(Value::as_str) == Some(name))
    }

    fn default_name(&self, columns: &[String], label: &str) -> String {
        let mut stem = self.table.clone();
        if !columns.is_empty() {
            stem.push('_');
            stem.push_str(&columns.join("_"));
        }
        let mut name = format!("{stem}_{label}");
        let mut n = 1;
        while self.taken(&name) {
            name = format!("{stem}_{label}{n}");
            n += 1;
        }
        name
    }

    fn add_column_constraint(
        &mut self,
        line: usize,
        name: &Option<Ident>,
        column: &str,
        constraint: TableConstraint,
        dialect: Dialect,
    ) -> Result<(), DdlError> {
        let constraint = match constraint {
            TableConstraint::PrimaryKey(mut pk) => {
                pk.columns = vec![IndexColumn::from(Ident::new(column))];
                pk.name = pk.name.or_else(|| name.clone());
                TableConstraint::PrimaryKey(pk)
            }
            TableConstraint::Unique(mut u) => {
                u.columns = vec![IndexColumn::from(Ident::new(column))];
                u.name = u.name.or_else(|| name.clone());
                TableConstraint::Unique(u)
            }
            TableConstraint::ForeignKey(mut fk) => {
                fk.columns = vec![Ident::new(column)];
                fk.name = fk.name.or_else(|| name.clone());
                TableConstraint::ForeignKey(fk)
            }
            TableConstraint::Check(mut c) => {
                c.name = c.name.or_else(|| name.clone());
                TableConstraint::Check(c)
            }
            other => other,
        };
        self.add(line, &constraint, Some(column), dialect)
    }

    fn add(
        &mut self,
        line: usize,
        constraint: &TableConstraint,
        _column: Option<&str>,
        dialect: Dialect,
    ) -> Result<(), DdlError> {
        let names = |columns: &[IndexColumn]| -> Vec<String> {
            columns
                .iter()
                .map(|c| match &c.column.expr {
                    Expr::Identifier(i) => name_of(i, dialect),
                    other => canonical::expr(other, dialect),
                })
                .collect()
        };
        let given = |name: &Option<Ident>| name.as_ref().map(|n| name_of(n, dialect));
        let value = match constraint {
            TableConstraint::PrimaryKey(pk) => {
                let columns = names(&pk.columns);
                let name = given(&pk.name).unwrap_or_else(|| self.default_name(&[], "pkey"));
                json!({"name": name, "kind": "primary key", "columns": columns})
            }
            TableConstraint::Unique(u) => {
                let columns = names(&u.columns);
                let name = given(&u.name).unwrap_or_else(|| self.default_name(&columns, "key"));
                json!({"name": name, "kind": "unique", "columns": columns})
            }
            TableConstraint::ForeignKey(fk) => {
                let columns: Vec<String> = fk.columns.iter().map(|c| name_of(c, dialect)).collect();
                let name = given(&fk.name).unwrap_or_else(|| self.default_name(&columns, "fkey"));
                let referenced: Vec<String> = fk
                    .referred_columns
                    .iter()
                    .map(|c| name_of(c, dialect))
                    .collect();
                let (schema, table) = split_name(&fk.foreign_table, dialect);
                let key = ObjectKey::new(Kind::Table, schema, table);
                if !self.references.contains(&key) {
                    self.references.push(key);
                }
                json!({
                    "name": name,
                    "kind": "foreign key",
                    "columns": columns,
                    "references": canonical::reference(&fk.foreign_table, dialect),
                    "referenced_columns": referenced,
                    "on_delete": action(fk.on_delete.as_ref()),
                    "on_update": action(fk.on_update.as_ref()),
                })
            }
            TableConstraint::Check(check) => {
                let mentioned = mentioned_columns(&check.expr, dialect);
                let stem: Vec<String> = if mentioned.len() == 1 {
                    mentioned
                } else {
                    Vec::new()
                };
                let name = given(&check.name).unwrap_or_else(|| self.default_name(&stem, "check"));
                json!({"name": name, "kind": "check", "expression": canonical::expr(&check.expr, dialect)})
            }
            other => {
                return Err(DdlError::at(
                    line,
                    format!("the sql lexicon does not read the constraint `{other}`"),
                ));
            }
        };
        self.list.push(value);
        Ok(())
    }

    fn finish(self) -> Vec<Value> {
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> SqlObject {
        let mut objects = parse(text, Dialect::Postgres).unwrap();
        assert_eq!(objects.len(), 1, "{objects:?}");
        objects.remove(0)
    }

    #[test]
    fn a_table_reads_columns_and_named_constraints() {
        let t = one("CREATE TABLE orders (
               id serial PRIMARY KEY,
               customer_id int NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
               total numeric(10,2) NOT NULL DEFAULT 0 CHECK (total >= 0),
               note text DEFAULT 'x',
               CONSTRAINT orders_sane CHECK (total < 1000000 AND customer_id > 0)
             );");
        assert_eq!(t.entity_name(), "table/public.orders");
        let props = Value::Object(t.props.clone());
        assert_eq!(
            props["columns"][0],
            json!({"name": "id", "type": "serial", "nullable": false})
        );
        assert_eq!(props["columns"][2]["default"], json!("0"));
        assert_eq!(
            props["columns"][3],
            json!({"name": "note", "type": "text", "nullable": true, "default": "'x'"})
        );
        let names: Vec<&str> = props["constraints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "orders_pkey",
                "orders_customer_id_fkey",
                "orders_total_check",
                "orders_sane"
            ]
        );
        assert_eq!(props["constraints"][1]["on_update"], json!("no action"));
        assert_eq!(props["constraints"][1]["on_delete"], json!("cascade"));
        assert_eq!(
            t.depends_on,
            vec![ObjectKey::new(Kind::Table, "public", "customers")]
        );
    }

    #[test]
    fn comments_attach_and_the_trailer_becomes_the_marker() {
        let objects = parse(
            "CREATE TABLE app.t (a int);
             COMMENT ON TABLE app.t IS 'Things [chant managed-by=chant stack=shop env=dev]';
             COMMENT ON COLUMN app.t.a IS 'the a';",
            Dialect::Postgres,
        )
        .unwrap();
        let t = &objects[0];
        assert_eq!(t.comment(), Some("Things"));
        assert_eq!(t.marker.as_ref().map(|m| m.stack.as_str()), Some("shop"));
        assert_eq!(t.props["columns"][0]["comment"], json!("the a"));
    }

    #[test]
    fn a_statement_the_parser_cannot_read_names_its_line() {
        let err = parse(
            "CREATE TABLE a (x int);\n\nCREATE TABLE b (x int,,);\n",
            Dialect::Postgres,
        )
        .unwrap_err();
        assert_eq!(err.line, 3, "{err:?}");
        assert!(err.message.starts_with("cannot parse"), "{}", err.message);
    }

    #[test]
    fn unmodelled_ddl_is_a_diagnostic_and_unsupported_objects_are_declared() {
        let err = parse("CREATE ROLE bob;", Dialect::Postgres).unwrap_err();
        assert!(err.message.contains("does not read"), "{}", err.message);
        let objects = parse("CREATE EXTENSION pgcrypto;", Dialect::Postgres).unwrap();
        assert_eq!(objects[0].entity_name(), "extension/public.pgcrypto");
        assert!(!objects[0].kind().is_supported());
    }

    #[test]
    fn duplicates_are_refused() {
        let err = parse(
            "CREATE TABLE a (x int);\nCREATE TABLE a (y int);",
            Dialect::Postgres,
        )
        .unwrap_err();
        assert_eq!(err.line, 2);
    }
}
