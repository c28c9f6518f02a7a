//! A throwaway moto server (the AWS API emulator) on a free port of 127.0.0.1.
//!
//! One server per test binary ([`MotoServer::shared`]); each test takes it exclusively
//! with [`MotoServer::session`], which resets moto's state (`POST /moto-api/reset`) and
//! holds a lock so tests in the same binary never see each other's resources. The server
//! is found as `moto_server` on PATH, else run as `python3 -m moto.server`
//! (`.ci/install.d/moto.sh` installs it). A watchdog shell stops it when the test process
//! ends, so a shared server never outlives its binary.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// Credentials moto accepts (it checks none); never real ones.
pub const MOTO_ACCESS_KEY_ID: &str = "testing";
pub const MOTO_SECRET_ACCESS_KEY: &str = "testing";
/// The account moto answers as.
pub const MOTO_ACCOUNT: &str = "123456789012";

pub struct MotoServer {
    addr: SocketAddr,
    child: Mutex<Option<Child>>,
    exclusive: Mutex<()>,
}

/// Exclusive use of a freshly reset server; dropping it lets the next test in.
pub struct MotoSession<'a> {
    server: &'a MotoServer,
    _lock: MutexGuard<'a, ()>,
}

impl MotoSession<'_> {
    pub fn url(&self) -> String {
        self.server.url()
    }

    pub fn addr(&self) -> SocketAddr {
        self.server.addr
    }

    /// Call an AWS Query-protocol action (CloudFormation, SQS, SNS, EC2, IAM, STS) in
    /// `region`, with the form `params`; the response body, or the error body.
    pub fn query(
        &self,
        region: &str,
        service: &str,
        params: &[(&str, &str)],
    ) -> Result<String, String> {
        self.server.query(region, service, params)
    }
}

impl MotoServer {
    /// Start a server of its own (stopped on drop).
    pub fn start() -> Result<Self, String> {
        let port = free_port()?;
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let launch = launch_command(port)?;
        // The watchdog ends moto when this process goes, even if nothing drops the server.
        let script = format!(
            "{launch} >/dev/null 2>&1 & m=$!; trap 'kill $m 2>/dev/null' EXIT INT TERM; \
             while kill -0 {parent} 2>/dev/null && kill -0 $m 2>/dev/null; do sleep 0.5; done",
            parent = std::process::id()
        );
        let child = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start moto: {e}"))?;
        let server = MotoServer {
            addr,
            child: Mutex::new(Some(child)),
            exclusive: Mutex::new(()),
        };
        server.wait_ready(Duration::from_secs(30))?;
        Ok(server)
    }

    /// The binary's one server, started on first use.
    pub fn shared() -> &'static MotoServer {
        static SHARED: OnceLock<MotoServer> = OnceLock::new();
        SHARED.get_or_init(|| MotoServer::start().unwrap_or_else(|e| panic!("{e}")))
    }

    /// Take the server exclusively, with its state reset.
    pub fn session(&self) -> MotoSession<'_> {
        let lock = self
            .exclusive
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.reset()
            .unwrap_or_else(|e| panic!("moto reset failed: {e}"));
        MotoSession {
            server: self,
            _lock: lock,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Forget every resource.
    pub fn reset(&self) -> Result<(), String> {
        let answer = http(self.addr, "POST", "/moto-api/reset")?;
        if answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.0 200") {
            Ok(())
        } else {
            Err(answer.lines().next().unwrap_or_default().to_owned())
        }
    }

    /// See [`MotoSession::query`]. moto checks no signature; the credential scope only
    /// tells it the region and service.
    pub fn query(
        &self,
        region: &str,
        service: &str,
        params: &[(&str, &str)],
    ) -> Result<String, String> {
        let body: Vec<String> = params
            .iter()
            .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
            .collect();
        let body = body.join("&");
        let mut stream = TcpStream::connect_timeout(&self.addr, Duration::from_secs(2))
            .map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|e| e.to_string())?;
        write!(
            stream,
            "POST / HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/x-www-form-urlencoded\r\n\
             authorization: AWS4-HMAC-SHA256 Credential={MOTO_ACCESS_KEY_ID}/20260101/{region}/{service}/aws4_request, SignedHeaders=host, Signature=0\r\n\
             content-length: {len}\r\nconnection: close\r\n\r\n{body}",
            addr = self.addr,
            len = body.len()
        )
        .map_err(|e| e.to_string())?;
        let mut answer = String::new();
        stream
            .read_to_string(&mut answer)
            .map_err(|e| e.to_string())?;
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        if head.starts_with("HTTP/1.1 200") || head.starts_with("HTTP/1.0 200") {
            Ok(body.to_owned())
        } else {
            Err(format!(
                "{}: {body}",
                head.lines().next().unwrap_or_default()
            ))
        }
    }

    fn wait_ready(&self, limit: Duration) -> Result<(), String> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if http(self.addr, "GET", "/moto-api/").is_ok() {
                return Ok(());
            }
            if let Some(child) = self.child.lock().ok().as_mut().and_then(|c| c.as_mut())
                && let Ok(Some(status)) = child.try_wait()
            {
                return Err(format!("moto exited before answering ({status})"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(format!(
            "moto did not answer on {} within {limit:?}",
            self.addr
        ))
    }
}

impl Drop for MotoServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.lock().ok().and_then(|mut c| c.take()) {
            // Ending the watchdog's shell runs its trap, which stops moto.
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let _ = child.wait();
        }
    }
}

fn launch_command(port: u16) -> Result<String, String> {
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join("moto_server").is_file()))
        .unwrap_or(false);
    if on_path {
        return Ok(format!("exec moto_server -H 127.0.0.1 -p {port}"));
    }
    let module = Command::new("python3")
        .args(["-c", "import moto.server"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if module {
        Ok(format!(
            "exec python3 -m moto.server -H 127.0.0.1 -p {port}"
        ))
    } else {
        Err("moto is not installed: run .ci/install.d/moto.sh".to_owned())
    }
}

fn form_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

fn http(addr: SocketAddr, method: &str, path: &str) -> Result<String, String> {
    let mut stream =
        TcpStream::connect_timeout(&addr, Duration::from_secs(2)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_answers_resets_and_stops() {
        let server = MotoServer::start().expect("moto starts");
        let addr = server.addr();
        assert!(
            http(addr, "GET", "/moto-api/")
                .unwrap()
                .starts_with("HTTP/1.")
        );
        server.reset().expect("reset answers 200");
        let identity = server
            .query(
                "eu-west-1",
                "sts",
                &[("Action", "GetCallerIdentity"), ("Version", "2011-06-15")],
            )
            .expect("STS answers");
        assert!(identity.contains(MOTO_ACCOUNT), "{identity}");
        let missing = server
            .query(
                "eu-west-1",
                "cloudformation",
                &[
                    ("Action", "DescribeStacks"),
                    ("StackName", "no such stack"),
                    ("Version", "2010-05-15"),
                ],
            )
            .unwrap_err();
        assert!(missing.contains("does not exist"), "{missing}");
        drop(server);
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            assert!(Instant::now() < deadline, "moto still answers after drop");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
