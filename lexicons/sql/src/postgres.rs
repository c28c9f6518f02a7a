//! PostgreSQL: the catalogs (`pg_catalog`, never `information_schema`, which hides what
//! the role may not touch and never lists materialized views), one query per kind.

use crate::ddl;
use crate::dialect::Dialect;
use crate::marker::split_comment;
use crate::model::SqlObject;
use crate::names::{Kind, ObjectKey, quote_ident};
use crate::secret::mask;
use crate::session::{
    Definitions, DropReport, DropStep, Fault, Listing, LiveObject, Session, WhoAmI,
};
use crate::sslmode::TlsSettings;
use crate::tls::{self, RecordingConnect};
use async_trait::async_trait;
use chant_lexicon::{ProjectMarker, UnobservedReason};
use futures::future::join_all;
use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;
use tokio_postgres::config::SslMode;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, Config, GenericClient, Row};

/// A resolved PostgreSQL binding: the config and where it came from.
#[derive(Clone)]
pub struct PgBinding {
    pub config: Config,
    /// libpq's `sslmode` and certificates, which tokio-postgres's `Config` cannot hold.
    pub tls: TlsSettings,
    /// `env SHOP_DEV_DATABASE_URL`, `libpq environment (PGHOST, PGUSER, …)`.
    pub source: String,
}

impl std::fmt::Debug for PgBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PgBinding({}, {}, sslmode={})",
            endpoint(&self.config),
            self.source,
            self.tls.mode.as_str()
        )
    }
}

/// `host:port/db` — the target a guard compares and an address prints, never credentials.
pub fn endpoint(config: &Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".to_owned(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let db = config
        .get_dbname()
        .or(config.get_user())
        .unwrap_or("postgres");
    format!("{host}:{port}/{db}")
}

pub struct PostgresSession {
    client: Client,
    target: String,
    password: Option<String>,
    timeout: Duration,
    search_path: String,
    /// `over TLS (…)` / `without TLS (…)`, for `whoami`.
    transport: String,
}

fn password(config: &Config) -> Option<String> {
    config
        .get_password()
        .map(|p| String::from_utf8_lossy(p).into_owned())
}

/// What a connection or query error means for the entities behind it.
pub fn classify(error: &tokio_postgres::Error, secret: Option<&str>) -> Fault {
    let detail = mask(&error_text(error), secret);
    if let Some(db) = error.as_db_error() {
        let code = db.code();
        let reason = if *code == SqlState::INVALID_PASSWORD
            || *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION
        {
            UnobservedReason::NoCredentials
        } else if *code == SqlState::INVALID_CATALOG_NAME {
            UnobservedReason::NoBinding
        } else {
            UnobservedReason::ReadFailed
        };
        return Fault::new(reason, detail);
    }
    let unreachable = std::error::Error::source(error)
        .is_some_and(|s| s.downcast_ref::<std::io::Error>().is_some())
        || error.to_string().starts_with("error connecting");
    if unreachable {
        Fault::new(UnobservedReason::NoBinding, detail)
    } else {
        Fault::read_failed(detail)
    }
}

fn error_text(error: &tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => db.message().to_owned(),
        None => match std::error::Error::source(error) {
            Some(source) => format!("{error}: {source}"),
            None => error.to_string(),
        },
    }
}

fn retryable(error: &tokio_postgres::Error) -> bool {
    error
        .code()
        .is_some_and(|c| *c == SqlState::TOO_MANY_CONNECTIONS || *c == SqlState::CANNOT_CONNECT_NOW)
}

enum Failure {
    TimedOut,
    Refused(tokio_postgres::Error),
}

/// One connection, retrying a server that is starting up or out of connection slots;
/// `Ok` carries whether TLS was negotiated.
async fn attempt(
    config: &Config,
    tls: &rustls::ClientConfig,
    timeout: Duration,
) -> Result<(Client, bool), Failure> {
    let mut delay = Duration::from_millis(100);
    let mut retries = 0;
    loop {
        let connector = RecordingConnect::new(tls);
        match tokio::time::timeout(timeout, config.connect(connector.clone())).await {
            Err(_) => return Err(Failure::TimedOut),
            Ok(Ok((client, connection))) => {
                tokio::spawn(async move {
                    if let Err(e) = connection.await {
                        tracing::debug!("postgres connection closed: {e}");
                    }
                });
                return Ok((client, connector.negotiated()));
            }
            Ok(Err(e)) if retryable(&e) && retries < 4 => {
                retries += 1;
                tokio::time::sleep(delay).await;
                delay *= 2;
            }
            Ok(Err(e)) => return Err(Failure::Refused(e)),
        }
    }
}

fn over_unix_sockets(config: &Config) -> bool {
    !config.get_hosts().is_empty()
        && config
            .get_hosts()
            .iter()
            .all(|h| !matches!(h, tokio_postgres::config::Host::Tcp(_)))
}

/// Connect as `sslmode` says: one attempt, and libpq's second one for `allow` / `prefer`.
pub async fn connect(binding: &PgBinding, timeout: Duration) -> Result<PostgresSession, Fault> {
    let mut config = binding.config.clone();
    config.connect_timeout(timeout);
    let secret = password(&config);
    let target = endpoint(&config);
    let at_target = |mut fault: Fault| {
        fault.detail = format!("{target}: {}", mask(&fault.detail, secret.as_deref()));
        fault
    };
    let tls = tls::client_config(&binding.tls).map_err(at_target)?;
    // As libpq: a Unix socket never carries TLS, whatever sslmode says.
    let first = if over_unix_sockets(&config) {
        SslMode::Disable
    } else {
        binding.tls.first_attempt()
    };
    let mut outcome = attempt(config.ssl_mode(first), &tls, timeout).await;
    if let Err(Failure::Refused(e)) = &outcome
        && let Some(second) = binding.tls.fallback(e)
    {
        let retried = attempt(config.ssl_mode(second), &tls, timeout).await;
        // `allow`'s TLS retry against a server without TLS leaves the first answer standing.
        let unanswerable = matches!(&retried, Err(Failure::Refused(e)) if binding.tls.handshake_fault(e).is_some());
        if !unanswerable {
            outcome = retried;
        }
    }
    let (client, negotiated) = outcome.map_err(|failure| match failure {
        Failure::TimedOut => Fault::new(
            UnobservedReason::NoBinding,
            format!("{target} did not answer within {}s", timeout.as_secs()),
        ),
        Failure::Refused(e) => at_target(
            binding
                .tls
                .handshake_fault(&e)
                .unwrap_or_else(|| classify(&e, secret.as_deref())),
        ),
    })?;
    let session = PostgresSession {
        client,
        target,
        password: secret,
        timeout,
        search_path: String::new(),
        transport: binding.tls.describe(negotiated),
    };
    let search_path = session
        .bounded(session.client.query_one("SHOW search_path", &[]))
        .await?
        .get::<_, String>(0);
    session
        .bounded(
            session
                .client
                .batch_execute("SET search_path = pg_catalog, public"),
        )
        .await?;
    Ok(PostgresSession {
        search_path,
        ..session
    })
}

const NOT_EXTENSION_MEMBER: &str = "NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend e \
     WHERE e.classid = '{catalog}'::regclass AND e.objid = {oid} AND e.deptype = 'e')";

fn not_member(catalog: &str, oid: &str) -> String {
    NOT_EXTENSION_MEMBER
        .replace("{catalog}", catalog)
        .replace("{oid}", oid)
}

/// The thin query of each kind: schema, name, comment, oid, status[, table schema, table].
fn list_query(kind: Kind) -> String {
    let relation = |relkind: &str, status: &str| {
        format!(
            "SELECT n.nspname, c.relname, pg_catalog.obj_description(c.oid, 'pg_class'), c.oid::text, {status} \
             FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = ANY($1) AND c.relkind IN ({relkind}) AND NOT c.relispartition AND {} \
             ORDER BY c.oid",
            not_member("pg_catalog.pg_class", "c.oid")
        )
    };
    match kind {
        Kind::Schema => {
            "SELECT n.nspname, n.nspname, pg_catalog.obj_description(n.oid, 'pg_namespace'), \
             n.oid::text, 'PRESENT' FROM pg_catalog.pg_namespace n WHERE n.nspname = ANY($1)"
                .to_owned()
        }
        Kind::Table => relation("'r', 'p'", "'PRESENT'"),
        Kind::View => relation("'v'", "'PRESENT'"),
        Kind::MaterializedView => relation(
            "'m'",
            "CASE WHEN c.relispopulated THEN 'POPULATED' ELSE 'NOT POPULATED' END",
        ),
        Kind::Sequence => format!(
            "SELECT n.nspname, c.relname, pg_catalog.obj_description(c.oid, 'pg_class'), c.oid::text, 'PRESENT' \
             FROM pg_catalog.pg_sequence s JOIN pg_catalog.pg_class c ON c.oid = s.seqrelid \
             JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = ANY($1) AND {} AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d \
               WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = c.oid \
               AND d.refclassid = 'pg_catalog.pg_class'::regclass AND d.deptype IN ('a', 'i')) \
             ORDER BY c.oid",
            not_member("pg_catalog.pg_class", "c.oid")
        ),
        Kind::Index => format!(
            "SELECT n.nspname, c.relname, pg_catalog.obj_description(c.oid, 'pg_class'), c.oid::text, \
               CASE WHEN i.indisvalid THEN 'VALID' ELSE 'INVALID' END, tn.nspname, t.relname \
             FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid \
             JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
             JOIN pg_catalog.pg_class t ON t.oid = i.indrelid \
             JOIN pg_catalog.pg_namespace tn ON tn.oid = t.relnamespace \
             WHERE n.nspname = ANY($1) AND t.relkind IN ('r', 'p', 'm') AND NOT c.relispartition \
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k \
                 WHERE k.conindid = c.oid AND k.contype IN ('p', 'u', 'x')) AND {} AND {} \
             ORDER BY c.oid",
            not_member("pg_catalog.pg_class", "c.oid"),
            not_member("pg_catalog.pg_class", "t.oid")
        ),
        Kind::Type => format!(
            "SELECT n.nspname, t.typname, pg_catalog.obj_description(t.oid, 'pg_type'), t.oid::text, 'PRESENT' \
             FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace \
             WHERE n.nspname = ANY($1) AND t.typtype = 'e' AND {} ORDER BY t.oid",
            not_member("pg_catalog.pg_type", "t.oid")
        ),
        Kind::Function => format!(
            "SELECT n.nspname, p.proname || '(' || replace(pg_catalog.oidvectortypes(p.proargtypes), ', ', ',') || ')', \
               pg_catalog.obj_description(p.oid, 'pg_proc'), p.oid::text, 'PRESENT' \
             FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace \
             WHERE n.nspname = ANY($1) AND p.prokind = 'f' AND {} ORDER BY p.oid",
            not_member("pg_catalog.pg_proc", "p.oid")
        ),
        Kind::Unsupported(_) => unreachable!("unsupported kinds are never listed"),
    }
}

/// One listed object and its raw comment.
struct Listed {
    object: LiveObject,
    comment: Option<String>,
}

fn listed(kind: Kind, row: &Row) -> Listed {
    let schema: String = row.get(0);
    let name: String = row.get(1);
    let comment: Option<String> = row.get(2);
    let marker = comment.as_deref().and_then(|c| split_comment(c).1);
    let depends_on = if kind == Kind::Index {
        vec![ObjectKey::new(
            Kind::Table,
            row.get::<_, String>(5),
            row.get::<_, String>(6),
        )]
    } else {
        Vec::new()
    };
    Listed {
        object: LiveObject {
            key: ObjectKey::new(kind, schema, name),
            marker,
            status: row.get(4),
            physical_id: Some(row.get(3)),
            unreadable: None,
            depends_on,
        },
        comment,
    }
}

async fn list_kinds<C: GenericClient + Sync>(
    client: &C,
    schemas: &[String],
    timeout: Duration,
    secret: Option<&str>,
) -> BTreeMap<Kind, Result<Vec<Listed>, String>> {
    let reads = Kind::READ.into_iter().map(|kind| async move {
        let query = list_query(kind);
        let rows = match tokio::time::timeout(timeout, client.query(&query, &[&schemas])).await {
            Err(_) => Err(format!("no answer within {}s", timeout.as_secs())),
            Ok(Err(e)) => Err(classify(&e, secret).detail),
            Ok(Ok(rows)) => Ok(rows.iter().map(|r| listed(kind, r)).collect()),
        };
        (kind, rows)
    });
    join_all(reads).await.into_iter().collect()
}

fn into_listing(
    kinds: BTreeMap<Kind, Result<Vec<Listed>, String>>,
) -> (Listing, BTreeMap<String, Option<String>>) {
    let mut listing = Listing::default();
    let mut comments = BTreeMap::new();
    for (kind, rows) in kinds {
        match rows {
            Ok(rows) => {
                for Listed { object, comment } in rows {
                    let name = object.key.entity_name();
                    comments.insert(name.clone(), comment);
                    listing.objects.insert(name, object);
                }
            }
            Err(detail) => {
                listing.failed.insert(kind, detail);
            }
        }
    }
    (listing, comments)
}

const COLUMNS: &str = "SELECT n.nspname, c.relname, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), \
       a.attnotnull, pg_catalog.pg_get_expr(d.adbin, d.adrelid), a.attidentity::text, a.attgenerated::text, \
       pg_catalog.col_description(c.oid, a.attnum), \
       EXISTS (SELECT 1 FROM pg_catalog.pg_depend dep JOIN pg_catalog.pg_class s ON s.oid = dep.objid AND s.relkind = 'S' \
               WHERE dep.refobjid = c.oid AND dep.refobjsubid = a.attnum AND dep.deptype = 'a') \
     FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid \
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
     LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum \
     WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY($1) AND a.attnum > 0 AND NOT a.attisdropped \
     ORDER BY n.nspname, c.relname, a.attnum";

const CONSTRAINTS: &str = "SELECT n.nspname, c.relname, k.conname, pg_catalog.pg_get_constraintdef(k.oid) \
     FROM pg_catalog.pg_constraint k JOIN pg_catalog.pg_class c ON c.oid = k.conrelid \
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
     WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY($1) AND k.contype IN ('p', 'u', 'f', 'c') \
     ORDER BY n.nspname, c.relname, k.conname";

const VIEWS: &str = "SELECT n.nspname, c.relname, c.relkind::text, pg_catalog.pg_get_viewdef(c.oid, true) \
     FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
     WHERE c.relkind IN ('v', 'm') AND n.nspname = ANY($1)";

const INDEXES: &str = "SELECT n.nspname, c.relname, pg_catalog.pg_get_indexdef(c.oid) \
     FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid \
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY($1)";

const SEQUENCES: &str = "SELECT n.nspname, c.relname, pg_catalog.format_type(s.seqtypid, NULL), s.seqstart, \
       s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle \
     FROM pg_catalog.pg_sequence s JOIN pg_catalog.pg_class c ON c.oid = s.seqrelid \
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY($1)";

const ENUMS: &str = "SELECT n.nspname, t.typname, \
       array(SELECT e.enumlabel::text FROM pg_catalog.pg_enum e WHERE e.enumtypid = t.oid ORDER BY e.enumsortorder) \
     FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace \
     WHERE t.typtype = 'e' AND n.nspname = ANY($1)";

const FUNCTIONS: &str = "SELECT n.nspname, p.proname || '(' || replace(pg_catalog.oidvectortypes(p.proargtypes), ', ', ',') || ')', \
       pg_catalog.pg_get_functiondef(p.oid) \
     FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace \
     WHERE p.prokind = 'f' AND n.nspname = ANY($1)";

/// Rebuild one object's DDL from catalog text and read it back through the declared parser.
fn reparse(key: &ObjectKey, ddl: &str) -> Result<SqlObject, String> {
    let mut objects = ddl::parse(ddl, Dialect::Postgres).map_err(|e| {
        format!(
            "cannot read the definition PostgreSQL printed: {}",
            e.message
        )
    })?;
    match objects.iter().position(|o| &o.key == key) {
        Some(i) => Ok(objects.swap_remove(i)),
        None => Err(format!(
            "the definition PostgreSQL printed names {} instead",
            objects
                .first()
                .map(|o| o.entity_name())
                .unwrap_or_else(|| "nothing".to_owned())
        )),
    }
}

fn table_ddl(key: &ObjectKey, columns: &[Row], constraints: &[&Row]) -> String {
    let mut parts = Vec::new();
    for row in columns {
        let name: String = row.get(2);
        let data_type: String = row.get(3);
        let not_null: bool = row.get(4);
        let default: Option<String> = row.get(5);
        let identity: String = row.get(6);
        let generated: String = row.get(7);
        let owns_sequence: bool = row.get(9);
        let serial = owns_sequence
            && identity.is_empty()
            && default
                .as_deref()
                .is_some_and(|d| d.starts_with("nextval("));
        let mut def = quote_ident(&name);
        def.push(' ');
        def.push_str(&match (serial, data_type.as_str()) {
            (true, "integer") => "serial".to_owned(),
            (true, "bigint") => "bigserial".to_owned(),
            (true, "smallint") => "smallserial".to_owned(),
            _ => data_type,
        });
        if not_null && !serial {
            def.push_str(" NOT NULL");
        }
        match (generated.as_str(), identity.as_str(), default) {
            ("s", _, Some(expr)) => def.push_str(&format!(" GENERATED ALWAYS AS ({expr}) STORED")),
            (_, "a", _) => def.push_str(" GENERATED ALWAYS AS IDENTITY"),
            (_, "d", _) => def.push_str(" GENERATED BY DEFAULT AS IDENTITY"),
            (_, _, Some(expr)) if !serial => def.push_str(&format!(" DEFAULT {expr}")),
            _ => {}
        }
        parts.push(def);
    }
    for row in constraints {
        let name: String = row.get(2);
        let definition: String = row.get(3);
        parts.push(format!("CONSTRAINT {} {definition}", quote_ident(&name)));
    }
    format!(
        "CREATE TABLE {} (\n  {}\n);",
        key.qualified(),
        parts.join(",\n  ")
    )
}

fn set_column_comments(object: &mut SqlObject, columns: &[Row]) {
    let Some(list) = object.columns_mut() else {
        return;
    };
    for (column, row) in list.iter_mut().zip(columns) {
        if let Some(text) = row.get::<_, Option<String>>(8)
            && let Some(map) = column.as_object_mut()
        {
            map.insert("comment".into(), serde_json::Value::String(text));
        }
    }
}

impl PostgresSession {
    async fn bounded<T>(
        &self,
        query: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, Fault> {
        match tokio::time::timeout(self.timeout, query).await {
            Err(_) => Err(Fault::read_failed(format!(
                "{}: no answer within {}s",
                self.target,
                self.timeout.as_secs()
            ))),
            Ok(result) => result.map_err(|e| classify(&e, self.password.as_deref())),
        }
    }

    async fn rows(&self, query: &str, schemas: &[String]) -> Result<Vec<Row>, String> {
        self.bounded(self.client.query(query, &[&schemas]))
            .await
            .map_err(|f| f.detail)
    }

    fn secret(&self) -> Option<&str> {
        self.password.as_deref()
    }
}

fn key_of(kind: Kind, row: &Row) -> ObjectKey {
    ObjectKey::new(kind, row.get::<_, String>(0), row.get::<_, String>(1))
}

#[async_trait]
impl Session for PostgresSession {
    fn address(&self) -> String {
        format!("postgres://{}", self.target)
    }

    async fn list(&self, schemas: &[String]) -> Listing {
        into_listing(list_kinds(&self.client, schemas, self.timeout, self.secret()).await).0
    }

    async fn definitions(&self, schemas: &[String]) -> Definitions {
        let (listing, comments) =
            into_listing(list_kinds(&self.client, schemas, self.timeout, self.secret()).await);
        let (columns, constraints, views, indexes, sequences, enums, functions) = futures::join!(
            self.rows(COLUMNS, schemas),
            self.rows(CONSTRAINTS, schemas),
            self.rows(VIEWS, schemas),
            self.rows(INDEXES, schemas),
            self.rows(SEQUENCES, schemas),
            self.rows(ENUMS, schemas),
            self.rows(FUNCTIONS, schemas),
        );
        let mut failed = listing.failed.clone();
        let mut texts: BTreeMap<String, String> = BTreeMap::new();
        let mut table_columns: BTreeMap<String, Vec<Row>> = BTreeMap::new();
        match (columns, constraints) {
            (Ok(columns), Ok(constraints)) => {
                for row in columns {
                    table_columns
                        .entry(key_of(Kind::Table, &row).entity_name())
                        .or_default()
                        .push(row);
                }
                let mut table_constraints: BTreeMap<String, Vec<&Row>> = BTreeMap::new();
                for row in &constraints {
                    table_constraints
                        .entry(key_of(Kind::Table, row).entity_name())
                        .or_default()
                        .push(row);
                }
                for (name, rows) in &table_columns {
                    let key = listing.objects.get(name).map(|o| o.key.clone());
                    let Some(key) = key else { continue };
                    let own = table_constraints.remove(name).unwrap_or_default();
                    texts.insert(name.clone(), table_ddl(&key, rows, &own));
                }
            }
            (Err(e), _) | (_, Err(e)) => {
                failed.insert(Kind::Table, e);
            }
        }
        match views {
            Ok(rows) => {
                for row in rows {
                    let relkind: String = row.get(2);
                    let (kind, keyword) = if relkind == "m" {
                        (Kind::MaterializedView, "MATERIALIZED VIEW")
                    } else {
                        (Kind::View, "VIEW")
                    };
                    let key = key_of(kind, &row);
                    let definition: String = row.get(3);
                    texts.insert(
                        key.entity_name(),
                        format!("CREATE {keyword} {} AS {definition}", key.qualified()),
                    );
                }
            }
            Err(e) => {
                failed.insert(Kind::View, e.clone());
                failed.insert(Kind::MaterializedView, e);
            }
        }
        match indexes {
            Ok(rows) => {
                for row in rows {
                    texts.insert(key_of(Kind::Index, &row).entity_name(), row.get(2));
                }
            }
            Err(e) => {
                failed.insert(Kind::Index, e);
            }
        }
        match sequences {
            Ok(rows) => {
                for row in rows {
                    let key = key_of(Kind::Sequence, &row);
                    let cycle: bool = row.get(8);
                    let ddl = format!(
                        "CREATE SEQUENCE {} AS {} INCREMENT BY {} MINVALUE {} MAXVALUE {} START WITH {} CACHE {}{}",
                        key.qualified(),
                        row.get::<_, String>(2),
                        row.get::<_, i64>(4),
                        row.get::<_, i64>(5),
                        row.get::<_, i64>(6),
                        row.get::<_, i64>(3),
                        row.get::<_, i64>(7),
                        if cycle { " CYCLE" } else { " NO CYCLE" }
                    );
                    texts.insert(key.entity_name(), ddl);
                }
            }
            Err(e) => {
                failed.insert(Kind::Sequence, e);
            }
        }
        match enums {
            Ok(rows) => {
                for row in rows {
                    let key = key_of(Kind::Type, &row);
                    let labels: Vec<String> = row.get(2);
                    let labels: Vec<String> = labels
                        .iter()
                        .map(|l| format!("'{}'", l.replace('\'', "''")))
                        .collect();
                    texts.insert(
                        key.entity_name(),
                        format!(
                            "CREATE TYPE {} AS ENUM ({})",
                            key.qualified(),
                            labels.join(", ")
                        ),
                    );
                }
            }
            Err(e) => {
                failed.insert(Kind::Type, e);
            }
        }
        match functions {
            Ok(rows) => {
                for row in rows {
                    texts.insert(key_of(Kind::Function, &row).entity_name(), row.get(2));
                }
            }
            Err(e) => {
                failed.insert(Kind::Function, e);
            }
        }

        let mut out = Definitions {
            failed,
            ..Definitions::default()
        };
        for (name, live) in &listing.objects {
            if out.failed.contains_key(&live.key.kind) {
                continue;
            }
            let parsed = if live.key.kind == Kind::Schema {
                Ok(SqlObject::new(live.key.clone(), 0))
            } else {
                match texts.get(name) {
                    Some(text) => reparse(&live.key, text),
                    None => Err("listed, but its definition was not returned".to_owned()),
                }
            };
            let parsed = parsed.map(|mut object| {
                if let Some(rows) = table_columns.get(name) {
                    set_column_comments(&mut object, rows);
                }
                let (declared, marker) = comments
                    .get(name)
                    .cloned()
                    .flatten()
                    .map(|c| split_comment(&c))
                    .unwrap_or((None, None));
                object.set_comment(declared);
                object.marker = marker;
                object
            });
            out.statuses.insert(
                name.clone(),
                (live.status.clone(), live.physical_id.clone()),
            );
            out.objects.insert(name.clone(), parsed);
        }
        out
    }

    async fn whoami(&self) -> Result<WhoAmI, Fault> {
        let row = self
            .bounded(self.client.query_one(
                "SELECT current_user::text, session_user::text, current_database()::text",
                &[],
            ))
            .await?;
        let current: String = row.get(0);
        let session: String = row.get(1);
        let database: String = row.get(2);
        let principal = if current == session {
            current
        } else {
            format!("{current} (session user {session})")
        };
        let host_port = self
            .target
            .split_once('/')
            .map(|(h, _)| h.to_owned())
            .unwrap_or_else(|| self.target.clone());
        Ok(WhoAmI {
            principal,
            scope: format!(
                "server {host_port} {}, database {database}, search_path {}",
                self.transport, self.search_path
            ),
            endpoint: host_port,
            target: self.target.clone(),
        })
    }

    async fn drop_verified(
        &self,
        schemas: &[String],
        steps: &[DropStep],
    ) -> Result<DropReport, Fault> {
        // `Client::transaction` needs `&mut`; the session is shared, so drive the
        // transaction by hand on the one connection.
        self.bounded(self.client.batch_execute("BEGIN")).await?;
        let outcome = self.drop_in_transaction(schemas, steps).await;
        let end = if outcome.as_ref().is_ok_and(|r| r.failed.is_none()) {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        self.bounded(self.client.batch_execute(end)).await?;
        let mut report = outcome?;
        if report.failed.is_some() {
            report.dropped.clear();
        }
        Ok(report)
    }
}

impl PostgresSession {
    async fn drop_in_transaction(
        &self,
        schemas: &[String],
        steps: &[DropStep],
    ) -> Result<DropReport, Fault> {
        let listing = self.list(schemas).await;
        let mut report = DropReport::default();
        for step in steps {
            if !step.still_ours(&listing) {
                report.skipped.push(step.entity.clone());
                continue;
            }
            let statement = format!("DROP {} {}", step.key.kind.keyword(), step.key.qualified());
            match self.bounded(self.client.batch_execute(&statement)).await {
                Ok(()) => report.dropped.push(step.entity.clone()),
                Err(fault) => {
                    report.failed = Some((step.entity.clone(), fault.detail));
                    break;
                }
            }
        }
        Ok(report)
    }
}

/// The marker this project stamps, for tests and the generator.
pub fn project_marker(project: &ProjectMarker) -> chant_lexicon::OwnershipMarker {
    chant_lexicon::OwnershipMarker {
        stack: project.stack.clone(),
        env: Some(project.env.clone()),
    }
}
