//! A throwaway PostgreSQL cluster on 127.0.0.1: `initdb` into a temp dir (as user
//! `postgres` when the tests run as root, since initdb refuses root), a free port, password
//! authentication over TCP, stopped on drop — or, for the per-binary shared cluster, by a
//! watchdog when the test process exits.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

/// The superuser's password in every throwaway cluster.
pub const SUPERUSER_PASSWORD: &str = "chant-test-superuser";

/// A server certificate and key (PEM) to serve TLS with; `client_ca_pem` is the CA that
/// client certificates are checked against (`ssl_ca_file`).
pub struct ServerTls {
    pub cert_pem: String,
    pub key_pem: String,
    pub client_ca_pem: Option<String>,
}

/// How a cluster differs from the default (no TLS, scram-sha-256 over TCP).
#[derive(Default)]
pub struct ClusterOptions {
    pub tls: Option<ServerTls>,
    /// pg_hba.conf lines placed before initdb's, e.g. `hostssl all cert_role 127.0.0.1/32 cert`.
    pub hba: Vec<String>,
}

pub struct PostgresCluster {
    dir: PathBuf,
    bindir: PathBuf,
    port: u16,
    as_postgres: bool,
    owned: bool,
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// `pg_config --bindir`, the Debian layout, then `PATH`.
pub fn find_bindir() -> Option<PathBuf> {
    let has_initdb = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if has_initdb(&dir) {
            return Some(dir);
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| has_initdb(p))
        .collect();
    versions.sort();
    if let Some(dir) = versions.pop() {
        return Some(dir);
    }
    std::env::var_os("PATH").and_then(|path| std::env::split_paths(&path).find(|p| has_initdb(p)))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(54329)
}

fn describe(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

impl PostgresCluster {
    /// initdb and start a new cluster; it stops when the value is dropped.
    pub fn start() -> Result<Self, String> {
        PostgresCluster::start_with(ClusterOptions::default())
    }

    /// As `start`, with TLS and pg_hba.conf lines.
    pub fn start_with(options: ClusterOptions) -> Result<Self, String> {
        let bindir = find_bindir().ok_or(
            "no PostgreSQL server binaries (initdb, pg_ctl) found; run .ci/install.d/postgres.sh",
        )?;
        let as_postgres = is_root();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("chant-pg-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        std::fs::write(dir.join("pwfile"), SUPERUSER_PASSWORD).map_err(|e| e.to_string())?;
        let mut cluster = PostgresCluster {
            dir,
            bindir,
            port: 0,
            as_postgres,
            owned: true,
        };
        let mut tls_options = String::new();
        if let Some(tls) = &options.tls {
            tls_options = cluster.write_tls_files(tls)?;
        }
        if as_postgres {
            let chown = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&cluster.dir)
                .output()
                .map_err(|e| e.to_string())?;
            if !chown.status.success() {
                return Err(format!("chown postgres: {}", describe(&chown)));
            }
        }
        let data = cluster.dir.join("data");
        let pwfile = cluster.dir.join("pwfile");
        let init = cluster
            .command("initdb")
            .arg("-D")
            .arg(&data)
            .args([
                "-U",
                "postgres",
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "-E",
                "UTF8",
                "--locale=C",
                "-N",
            ])
            .arg(format!("--pwfile={}", pwfile.display()))
            .output()
            .map_err(|e| format!("initdb: {e}"))?;
        if !init.status.success() {
            return Err(format!("initdb failed: {}", describe(&init)));
        }
        if !options.hba.is_empty() {
            let hba = data.join("pg_hba.conf");
            let generated =
                std::fs::read_to_string(&hba).map_err(|e| format!("pg_hba.conf: {e}"))?;
            std::fs::write(&hba, format!("{}\n{generated}", options.hba.join("\n")))
                .map_err(|e| format!("pg_hba.conf: {e}"))?;
        }
        let mut last = String::new();
        for _ in 0..3 {
            cluster.port = free_port();
            let options = format!(
                "-k {} -p {} -c listen_addresses=127.0.0.1 -c fsync=off{tls_options}",
                cluster.dir.display(),
                cluster.port
            );
            let start = cluster
                .command("pg_ctl")
                .arg("-D")
                .arg(&data)
                .args(["-w", "-t", "30", "-l"])
                .arg(cluster.dir.join("log"))
                .args(["-o", &options, "start"])
                .output()
                .map_err(|e| format!("pg_ctl: {e}"))?;
            if start.status.success() {
                return Ok(cluster);
            }
            last = format!(
                "{}{}",
                describe(&start),
                std::fs::read_to_string(cluster.dir.join("log")).unwrap_or_default()
            );
        }
        Err(format!("pg_ctl start failed: {last}"))
    }

    /// The certificate files in the cluster's directory (the key private to its owner, as
    /// the server demands), and the server options naming them.
    fn write_tls_files(&self, tls: &ServerTls) -> Result<String, String> {
        use std::os::unix::fs::PermissionsExt;
        let write = |name: &str, text: &str| {
            let path = self.dir.join(name);
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok::<PathBuf, String>(path)
        };
        let cert = write("server.crt", &tls.cert_pem)?;
        let key = write("server.key", &tls.key_pem)?;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("{}: {e}", key.display()))?;
        let mut options = format!(
            " -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
            cert.display(),
            key.display()
        );
        if let Some(ca) = &tls.client_ca_pem {
            let ca = write("client-ca.crt", ca)?;
            options.push_str(&format!(" -c ssl_ca_file={}", ca.display()));
        }
        Ok(options)
    }

    /// One cluster for the whole test binary, stopped by a watchdog when the process exits.
    pub fn shared() -> &'static PostgresCluster {
        static SHARED: OnceLock<&'static PostgresCluster> = OnceLock::new();
        SHARED.get_or_init(|| {
            PostgresCluster::start()
                .expect("start a throwaway PostgreSQL cluster")
                .until_exit()
        })
    }

    /// Keep this cluster for the rest of the test process: a watchdog stops it when the
    /// process exits (a `static` is never dropped).
    pub fn until_exit(mut self) -> &'static PostgresCluster {
        self.owned = false;
        self.watch(std::process::id());
        Box::leak(Box::new(self))
    }

    fn watch(&self, pid: u32) {
        let pg_ctl = self.bindir.join("pg_ctl");
        let stop = format!(
            "{}{} -D {} -m immediate stop",
            if self.as_postgres {
                "runuser -u postgres -- "
            } else {
                ""
            },
            pg_ctl.display(),
            self.dir.join("data").display()
        );
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {stop} >/dev/null 2>&1; rm -rf {}",
            self.dir.display()
        );
        let _ = Command::new("setsid")
            .args(["sh", "-c", &script])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
    }

    fn command(&self, program: &str) -> Command {
        let binary = self.bindir.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(binary);
            c
        } else {
            Command::new(binary)
        }
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `127.0.0.1:<port>`.
    pub fn host_port(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub fn url(&self, user: &str, password: &str, database: &str) -> String {
        format!(
            "postgres://{user}:{password}@127.0.0.1:{}/{database}",
            self.port
        )
    }

    pub fn superuser_url(&self, database: &str) -> String {
        self.url("postgres", SUPERUSER_PASSWORD, database)
    }

    /// Run SQL as the superuser (psql, stop at the first error); stdout on success.
    pub fn psql(&self, database: &str, sql: &str) -> Result<String, String> {
        let output = Command::new(self.bindir.join("psql"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                "-d",
                database,
            ])
            .args(["-v", "ON_ERROR_STOP=1", "-q", "-A", "-t", "-c", sql])
            .env("PGPASSWORD", SUPERUSER_PASSWORD)
            .output()
            .map_err(|e| format!("psql: {e}"))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(describe(&output))
        }
    }

    /// A fresh database with `schema` applied (as the superuser).
    pub fn database(&self, name: &str, schema: &str) -> Result<(), String> {
        self.psql("postgres", &format!("CREATE DATABASE \"{name}\""))?;
        if !schema.trim().is_empty() {
            self.psql(name, schema)?;
        }
        Ok(())
    }

    /// Stop the server now (to test an unreachable database); idempotent.
    pub fn stop(&self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "stop"])
            .output();
    }
}

impl Drop for PostgresCluster {
    fn drop(&mut self) {
        if self.owned {
            self.stop();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
