//! The two engines this lexicon reads, and what differs between them.

use serde::Deserialize;
use sqlparser::dialect::{PostgreSqlDialect, SQLiteDialect};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    #[default]
    Postgres,
    Sqlite,
}

impl Dialect {
    pub fn parser(self) -> Box<dyn sqlparser::dialect::Dialect> {
        match self {
            Dialect::Postgres => Box::new(PostgreSqlDialect {}),
            Dialect::Sqlite => Box::new(SQLiteDialect {}),
        }
    }

    /// The schema an unqualified name lands in.
    pub fn default_schema(self) -> &'static str {
        match self {
            Dialect::Postgres => "public",
            Dialect::Sqlite => "main",
        }
    }

    /// PostgreSQL folds unquoted names to lowercase; SQLite keeps them as written.
    pub fn folds_case(self) -> bool {
        self == Dialect::Postgres
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Postgres => "postgres",
            Dialect::Sqlite => "sqlite",
        }
    }
}
