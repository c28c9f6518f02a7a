//! The subprocess seam: lexicons that drive a CLI (terraform, kubectl kustomize, helm)
//! take an `Arc<dyn Exec>` so tests can replace the process with recorded answers.

use async_trait::async_trait;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Command {
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// Start from an empty environment (plus `env`).
    pub env_clear: bool,
    pub cwd: Option<PathBuf>,
    pub stdin: Option<Vec<u8>>,
    pub timeout: Option<Duration>,
}

impl Command {
    pub fn new(program: impl Into<String>) -> Self {
        Command {
            program: program.into(),
            ..Default::default()
        }
    }

    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    pub fn env_clear(mut self) -> Self {
        self.env_clear = true;
        self
    }

    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }

    pub fn stdin(mut self, input: impl Into<Vec<u8>>) -> Self {
        self.stdin = Some(input.into());
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// `program arg arg` — what a fake matches on and what a message names.
    pub fn line(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecOutput {
    /// `None` when killed by a signal.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl ExecOutput {
    pub fn ok(stdout: impl Into<String>) -> Self {
        ExecOutput {
            code: Some(0),
            stdout: stdout.into(),
            stderr: String::new(),
        }
    }

    pub fn failed(code: i32, stderr: impl Into<String>) -> Self {
        ExecOutput {
            code: Some(code),
            stdout: String::new(),
            stderr: stderr.into(),
        }
    }

    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ExecError {
    #[error("`{0}` was not found on PATH")]
    NotFound(String),
    #[error("could not start `{program}`: {message}")]
    Spawn { program: String, message: String },
    #[error("`{program}` did not finish within {seconds}s")]
    TimedOut { program: String, seconds: u64 },
}

#[async_trait]
pub trait Exec: Send + Sync {
    async fn run(&self, command: &Command) -> Result<ExecOutput, ExecError>;
}

/// Real processes, through tokio.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemExec;

#[async_trait]
impl Exec for SystemExec {
    async fn run(&self, command: &Command) -> Result<ExecOutput, ExecError> {
        let mut cmd = tokio::process::Command::new(&command.program);
        cmd.args(&command.args)
            .stdin(if command.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if command.env_clear {
            cmd.env_clear();
        }
        cmd.envs(command.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &command.cwd {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ExecError::NotFound(command.program.clone()),
            _ => ExecError::Spawn {
                program: command.program.clone(),
                message: e.to_string(),
            },
        })?;
        if let (Some(input), Some(mut stdin)) = (&command.stdin, child.stdin.take()) {
            let _ = stdin.write_all(input).await;
        }
        let wait = child.wait_with_output();
        let output = match command.timeout {
            Some(limit) => {
                tokio::time::timeout(limit, wait)
                    .await
                    .map_err(|_| ExecError::TimedOut {
                        program: command.program.clone(),
                        seconds: limit.as_secs(),
                    })?
            }
            None => wait.await,
        }
        .map_err(|e| ExecError::Spawn {
            program: command.program.clone(),
            message: e.to_string(),
        })?;
        Ok(ExecOutput {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        })
    }
}
