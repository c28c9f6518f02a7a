//! SQLite: `sqlite_schema` holds every object's CREATE statement as written, so the live
//! definition is that text read through the declared parser. Reads run on the blocking pool.

use crate::ddl;
use crate::dialect::Dialect;
use crate::marker::marker_in_statement;
use crate::model::SqlObject;
use crate::names::{Kind, ObjectKey};
use crate::session::{
    Definitions, DropReport, DropStep, Fault, Listing, LiveObject, Session, WhoAmI,
};
use async_trait::async_trait;
use chant_lexicon::UnobservedReason;
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct SqliteSession {
    path: PathBuf,
    connection: Arc<Mutex<Connection>>,
    timeout: Duration,
}

const SCHEMA: &str = "main";

fn open(path: &Path, flags: OpenFlags, timeout: Duration) -> Result<Connection, Fault> {
    let connection = Connection::open_with_flags(path, flags)
        .map_err(|e| Fault::read_failed(format!("{}: {e}", path.display())))?;
    connection
        .busy_timeout(timeout)
        .map_err(|e| Fault::read_failed(e.to_string()))?;
    // Opening is lazy: the first read says whether this is a database at all.
    connection
        .query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_err(|e| Fault::read_failed(format!("{}: {e}", path.display())))?;
    Ok(connection)
}

/// Bind to the file; a missing file is no target at all, never an empty database.
pub async fn connect(path: &Path, timeout: Duration) -> Result<SqliteSession, Fault> {
    if !path.is_file() {
        return Err(Fault::new(
            UnobservedReason::NoBinding,
            format!("no SQLite database at {}", path.display()),
        ));
    }
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let opened = path.clone();
    let connection = tokio::task::spawn_blocking(move || {
        open(
            &opened,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            timeout,
        )
    })
    .await
    .map_err(|e| Fault::read_failed(e.to_string()))??;
    Ok(SqliteSession {
        path,
        connection: Arc::new(Mutex::new(connection)),
        timeout,
    })
}

/// One row of `sqlite_schema`.
struct Stored {
    kind: Kind,
    name: String,
    sql: String,
}

fn kind_of(object_type: &str, sql: &str) -> Kind {
    let virtual_table = sql
        .get(..20)
        .is_some_and(|head| head.to_ascii_uppercase().starts_with("CREATE VIRTUAL"));
    match object_type {
        "table" if virtual_table => Kind::Unsupported("virtual_table"),
        "table" => Kind::Table,
        "view" => Kind::View,
        "index" => Kind::Index,
        _ => Kind::Unsupported("trigger"),
    }
}

fn read_stored(connection: &Connection) -> rusqlite::Result<Vec<Stored>> {
    let mut statement = connection.prepare(
        "SELECT type, name, sql FROM sqlite_schema \
         WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
    )?;
    let rows = statement.query_map([], |row| {
        let object_type: String = row.get(0)?;
        let sql: String = row.get(2)?;
        Ok(Stored {
            kind: kind_of(&object_type, &sql),
            name: row.get(1)?,
            sql,
        })
    })?;
    rows.collect()
}

/// Each stored statement through the declared parser; one that does not parse is that
/// object's own read failure.
fn parse_stored(stored: &[Stored]) -> Vec<(ObjectKey, Result<SqlObject, String>, String)> {
    let mut parsed: Vec<(ObjectKey, Result<SqlObject, String>, String)> = stored
        .iter()
        .map(|s| {
            let key = ObjectKey::new(s.kind, SCHEMA, &s.name);
            let object = ddl::parse(&s.sql, Dialect::Sqlite)
                .map_err(|e| format!("its stored definition cannot be read: {}", e.message))
                .and_then(|mut objects| match objects.pop() {
                    Some(mut object) if object.key == key => {
                        object.marker = marker_in_statement(&s.sql);
                        Ok(object)
                    }
                    _ => Err("its stored definition names another object".to_owned()),
                });
            (key, object, s.sql.clone())
        })
        .collect();
    let mut good: Vec<SqlObject> = parsed
        .iter()
        .filter_map(|(_, o, _)| o.as_ref().ok().cloned())
        .collect();
    ddl::resolve_foreign_keys(&mut good, Dialect::Sqlite);
    for (_, object, _) in parsed.iter_mut() {
        if let Ok(o) = object
            && let Some(resolved) = good.iter().find(|g| g.key == o.key)
        {
            *o = resolved.clone();
        }
    }
    parsed
}

fn listing(stored: &[Stored]) -> Listing {
    let mut out = Listing::default();
    for (key, object, sql) in parse_stored(stored) {
        let (unreadable, depends_on) = match &object {
            Ok(o) => (None, o.depends_on.clone()),
            Err(e) => (Some(e.clone()), Vec::new()),
        };
        out.objects.insert(
            key.entity_name(),
            LiveObject {
                marker: marker_in_statement(&sql),
                status: "PRESENT".to_owned(),
                physical_id: None,
                unreadable,
                depends_on,
                key,
            },
        );
    }
    out
}

impl SqliteSession {
    async fn with_connection<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, String> {
        let connection = self.connection.clone();
        tokio::task::spawn_blocking(move || {
            let connection = connection
                .lock()
                .map_err(|_| "connection poisoned".to_owned())?;
            read(&connection).map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| e.to_string())?
    }

    async fn stored(&self, schemas: &[String]) -> Result<Vec<Stored>, String> {
        if !schemas.iter().any(|s| s == SCHEMA) {
            return Ok(Vec::new());
        }
        self.with_connection(read_stored).await
    }
}

fn all_kinds_failed(detail: &str) -> std::collections::BTreeMap<Kind, String> {
    [Kind::Table, Kind::View, Kind::Index]
        .into_iter()
        .map(|k| (k, detail.to_owned()))
        .collect()
}

#[async_trait]
impl Session for SqliteSession {
    fn address(&self) -> String {
        format!("sqlite://{}", self.path.display())
    }

    async fn list(&self, schemas: &[String]) -> Listing {
        match self.stored(schemas).await {
            Ok(stored) => listing(&stored),
            Err(e) => Listing {
                failed: all_kinds_failed(&e),
                ..Listing::default()
            },
        }
    }

    async fn definitions(&self, schemas: &[String]) -> Definitions {
        let stored = match self.stored(schemas).await {
            Ok(stored) => stored,
            Err(e) => {
                return Definitions {
                    failed: all_kinds_failed(&e),
                    ..Definitions::default()
                };
            }
        };
        let mut out = Definitions::default();
        for (key, object, _) in parse_stored(&stored) {
            let name = key.entity_name();
            out.statuses
                .insert(name.clone(), ("PRESENT".to_owned(), None));
            out.objects.insert(name, object);
        }
        out
    }

    async fn whoami(&self) -> Result<WhoAmI, Fault> {
        let path = self.path.display().to_string();
        Ok(WhoAmI {
            principal: os_user(),
            scope: format!("SQLite file {path} (schema main)"),
            endpoint: path.clone(),
            target: path,
        })
    }

    async fn drop_verified(
        &self,
        _schemas: &[String],
        steps: &[DropStep],
    ) -> Result<DropReport, Fault> {
        let path = self.path.clone();
        let timeout = self.timeout;
        let steps = steps.to_vec();
        tokio::task::spawn_blocking(move || {
            let mut connection = open(&path, OpenFlags::SQLITE_OPEN_READ_WRITE, timeout)?;
            let transaction = connection
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .map_err(|e| Fault::read_failed(e.to_string()))?;
            let live =
                listing(&read_stored(&transaction).map_err(|e| Fault::read_failed(e.to_string()))?);
            let mut report = DropReport::default();
            for step in &steps {
                if !step.still_ours(&live) {
                    report.skipped.push(step.entity.clone());
                    continue;
                }
                let statement = format!(
                    "DROP {} {}",
                    step.key.kind.keyword(),
                    crate::names::quote_ident(&step.key.name)
                );
                if let Err(e) = transaction.execute_batch(&statement) {
                    report.failed = Some((step.entity.clone(), e.to_string()));
                    report.dropped.clear();
                    return Ok(report);
                }
                report.dropped.push(step.entity.clone());
            }
            transaction
                .commit()
                .map_err(|e| Fault::read_failed(e.to_string()))?;
            Ok(report)
        })
        .await
        .map_err(|e| Fault::read_failed(e.to_string()))?
    }
}

/// The operating-system account the process runs as: the only principal a file has.
fn os_user() -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(meta) = std::fs::metadata("/proc/self") {
            let uid = meta.uid();
            let name = std::fs::read_to_string("/etc/passwd")
                .ok()
                .and_then(|passwd| {
                    passwd.lines().find_map(|line| {
                        let mut fields = line.split(':');
                        let name = fields.next()?;
                        let id = fields.nth(1)?;
                        (id.parse::<u32>().ok()? == uid).then(|| name.to_owned())
                    })
                });
            return name.unwrap_or_else(|| format!("uid {uid}"));
        }
    }
    std::env::var("USER").unwrap_or_else(|_| "the current OS user".to_owned())
}
