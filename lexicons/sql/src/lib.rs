//! The sql lexicon: PostgreSQL and embedded SQLite schemas.
//!
//! The declared side is DDL (`[lexicons.sql] source`), parsed with `sqlparser`; the live
//! side is the engine's own catalog (`pg_catalog`; `sqlite_schema`), read one query per
//! kind. Both go through one parser into one definition tree per object, so a deep diff
//! compares like with like.
//!
//! # Entity names and types
//!
//! `<kind>/<schema>.<name>`; SQLite's schema is `main`; a schema is `schema/<name>`;
//! a function carries its argument types (`function/public.add(integer,integer)`).
//!
//! | kind | type | definition tree |
//! |---|---|---|
//! | `schema` | `SQL::Schema` | `comment` |
//! | `table` | `SQL::Table` | `columns` (ordered: `name`, `type`, `nullable`, `default`, `identity`, `generated`, `comment`), `constraints` (keyed by `name`: `kind`, `columns`, `references`, `referenced_columns`, `on_delete`, `on_update`, `expression`), `comment` |
//! | `view` | `SQL::View` | `columns`, `definition` (canonical query), `comment` |
//! | `materialized_view` | `SQL::MaterializedView` | as a view |
//! | `index` | `SQL::Index` | `table`, `unique`, `columns`, `method`, `include`, `where`, `comment` |
//! | `sequence` | `SQL::Sequence` | `type`, `start`, `increment`, `min`, `max`, `cache`, `cycle`, `comment` |
//! | `type` | `SQL::Type` | `kind: enum`, `labels`, `comment` |
//! | `function` | `SQL::Function` | `arguments`, `returns`, `language`, `body`, `volatility`, `comment` |
//!
//! Declared triggers, domains, extensions, policies, composite types and SQLite virtual
//! tables are entities too (`SQL::Trigger`, …), answered `unsupported-kind`.
//! Unnamed constraints and indexes get the names PostgreSQL would give them.
//!
//! # Ownership
//!
//! `[chant managed-by=chant stack=<stack> env=<env>]` at the end of the object's COMMENT
//! (PostgreSQL), or in a block comment right after the object's name in its CREATE
//! statement (SQLite keeps that one through ALTER TABLE). The declared comment never
//! includes it; the generator writes it back for owned objects.

mod binding;
pub mod canonical;
pub mod conninfo;
pub mod ddl;
pub mod declared;
pub mod deep;
pub mod describe;
pub mod dialect;
pub mod disruption;
pub mod export;
pub mod identity;
pub mod lexicon;
pub mod marker;
pub mod model;
pub mod names;
pub mod postgres;
pub mod secret;
pub mod session;
pub mod settings;
pub mod sqlite;
pub mod sslmode;
pub mod teardown;
pub mod tls;
pub mod writer;

pub use binding::{Environment, ProcessEnvironment};
pub use lexicon::{SqlFactory, SqlLexicon};

/// The lexicon's name in `chant.toml`.
pub const NAME: &str = "sql";
