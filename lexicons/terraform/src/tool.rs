//! Running terraform and choudoufu through the exec seam: one environment for every
//! invocation, a bounded wait, retries on throttling, and failures turned into reasons
//! whose detail carries no secret.

use crate::settings::{EnvironmentSettings, Root};
use chant_lexicon::UnobservedReason;
use chant_lexicon::exec::{Command, Exec, ExecOutput};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Attempts for a run whose failure names throttling.
const ATTEMPTS: u32 = 3;
const BACKOFF: Duration = Duration::from_millis(500);
/// The longest detail a failure carries.
const DETAIL_LIMIT: usize = 400;

/// Where and how one environment's commands run.
#[derive(Clone)]
pub struct Runner {
    pub exec: Arc<dyn Exec>,
    pub environment: String,
    pub settings: EnvironmentSettings,
    /// The project root, which `var_files` are relative to.
    pub project_root: std::path::PathBuf,
    /// The bound on each read (`show`, `plan`, `live-plan`, `live-ls`).
    pub timeout: Duration,
}

/// A command that did not answer, as a reason and a secret-free detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub reason: UnobservedReason,
    pub detail: String,
}

impl Failure {
    pub fn read_failed(detail: impl Into<String>) -> Self {
        Failure {
            reason: UnobservedReason::ReadFailed,
            detail: detail.into(),
        }
    }
}

impl Runner {
    /// `init` fetches modules and providers: it gets four read bounds.
    pub fn init_timeout(&self) -> Duration {
        self.timeout * 4
    }

    /// The command line for `root`, run in its folder with the environment's workspace.
    pub fn command(&self, root: &Root, args: &[&str], timeout: Duration) -> Command {
        let mut command = Command::new(&root.binary)
            .args(args.iter().copied())
            .cwd(&root.dir)
            .env("TF_IN_AUTOMATION", "1")
            .env("TF_INPUT", "0")
            .env("CHECKPOINT_DISABLE", "1")
            .timeout(timeout);
        if let Some(workspace) = &self.settings.workspace {
            command = command.env("TF_WORKSPACE", workspace);
        }
        command
    }

    /// `-var-file=<abs>` for every configured var file.
    pub fn var_file_args(&self) -> Vec<String> {
        self.settings
            .var_files
            .iter()
            .map(|f| format!("-var-file={}", self.project_root.join(f).display()))
            .collect()
    }

    /// `-backend-config=` for every configured entry: a file as an absolute path, a
    /// `key=value` pair as written.
    pub fn backend_config_args(&self) -> Vec<String> {
        self.settings
            .backend_config
            .iter()
            .map(|entry| match entry.contains('=') {
                true => format!("-backend-config={entry}"),
                false => format!(
                    "-backend-config={}",
                    self.project_root.join(entry).display()
                ),
            })
            .collect()
    }

    /// Run, retrying while the failure names throttling. Any exit code is returned.
    pub async fn run_any(&self, command: &Command) -> Result<ExecOutput, Failure> {
        let mut attempt = 1;
        loop {
            let output = self
                .exec
                .run(command)
                .await
                .map_err(|e| Failure::read_failed(mask_userinfo(&e.to_string())))?;
            if output.success() || attempt >= ATTEMPTS || !is_throttled(&output.stderr) {
                return Ok(output);
            }
            tokio::time::sleep(BACKOFF * 2u32.pow(attempt - 1)).await;
            attempt += 1;
        }
    }

    /// Run and insist on exit 0.
    pub async fn run(&self, command: &Command) -> Result<ExecOutput, Failure> {
        let output = self.run_any(command).await?;
        if output.success() {
            Ok(output)
        } else {
            Err(failure_of(command, &output))
        }
    }

    /// Run a terraform command; when it asks for `terraform init`, init and run it again.
    pub async fn run_initialized(
        &self,
        root: &Root,
        command: &Command,
    ) -> Result<ExecOutput, Failure> {
        let output = self.run_any(command).await?;
        if output.success() {
            return Ok(output);
        }
        if !asks_for_init(&output.stderr) {
            return Err(failure_of(command, &output));
        }
        let backend = self.backend_config_args();
        let mut args = vec!["init", "-input=false", "-no-color"];
        args.extend(backend.iter().map(String::as_str));
        let init = self.command(root, &args, self.init_timeout());
        self.run(&init).await?;
        self.run(command).await
    }
}

/// A document that did not parse. Only the position is kept: serde's message may quote
/// the document, and the document may hold secrets.
pub fn unreadable(what: &str, error: &serde_json::Error) -> Failure {
    Failure::read_failed(format!(
        "{what} returned a document this lexicon cannot read ({:?} error at line {} column {})",
        error.classify(),
        error.line(),
        error.column()
    ))
}

/// A failed command: the reason its output names, and its first error lines.
pub fn failure_of(command: &Command, output: &ExecOutput) -> Failure {
    // A `-json` command's stdout is the document itself (a state, a plan): never a detail.
    let emits_json = command.args.iter().any(|a| a == "-json");
    let text = if output.stderr.trim().is_empty() && !emits_json {
        &output.stdout
    } else {
        &output.stderr
    };
    let program = Path::new(&command.program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(&command.program);
    let verb = command.args.first().map(String::as_str).unwrap_or_default();
    let code = output
        .code
        .map_or_else(|| "a signal".to_owned(), |c| format!("exit {c}"));
    let summary = summarize(text);
    Failure {
        reason: classify(text),
        detail: if summary.is_empty() {
            format!("{program} {verb} failed ({code})")
        } else {
            format!("{program} {verb} failed ({code}): {summary}")
        },
    }
}

/// `no-credentials` where the failure names credentials, else `read-failed`.
pub fn classify(text: &str) -> UnobservedReason {
    const NAMES_CREDENTIALS: [&str; 9] = [
        "credential",
        "expiredtoken",
        "expired token",
        "invalidclienttokenid",
        "security token",
        "unrecognizedclientexception",
        "signaturedoesnotmatch",
        "authenticat",
        "no_credentials",
    ];
    let lower = text.to_lowercase();
    if NAMES_CREDENTIALS.iter().any(|n| lower.contains(n)) {
        UnobservedReason::NoCredentials
    } else {
        UnobservedReason::ReadFailed
    }
}

fn is_throttled(text: &str) -> bool {
    let lower = text.to_lowercase();
    ["throttl", "rate exceeded", "too many requests", " 429"]
        .iter()
        .any(|n| lower.contains(n))
}

fn asks_for_init(text: &str) -> bool {
    text.contains("terraform init")
}

/// The `Error:` lines of terraform's diagnostic boxes (else the last line), colours and
/// box drawing removed, URL credentials masked, bounded in length.
pub fn summarize(text: &str) -> String {
    let lines: Vec<String> = strip_ansi(text)
        .lines()
        .map(|l| l.trim_start_matches(['│', '╷', '╵', ' ']).trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect();
    let errors: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("Error:") || l.starts_with("error:"))
        .map(|l| l.split_once(':').map_or("", |(_, rest)| rest).trim())
        .collect();
    let picked = if errors.is_empty() {
        lines.last().cloned().unwrap_or_default()
    } else {
        errors.join("; ")
    };
    truncate(&mask_userinfo(&picked), DETAIL_LIMIT)
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn truncate(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(limit).collect();
    out.push('…');
    out
}

/// `scheme://user:pass@host` → `scheme://***@host`, everywhere in `text`.
pub fn mask_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let authority_end = tail
            .find(|c: char| c == '/' || c == '?' || c == '#' || c.is_whitespace() || c == '"')
            .unwrap_or(tail.len());
        match tail[..authority_end].rfind('@') {
            Some(userinfo_end) => {
                out.push_str("***");
                rest = &tail[userinfo_end..];
            }
            None => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Mode;
    use chant_testkit::exec::FakeExec;

    #[tokio::test]
    async fn init_on_demand_passes_the_backend_config() {
        let exec = Arc::new(
            FakeExec::new()
                .fails(
                    "terraform show",
                    1,
                    "Error: Backend initialization required, please run \"terraform init\"",
                )
                .ok(
                    "terraform init",
                    "Terraform has been successfully initialized!",
                ),
        );
        let runner = Runner {
            exec: exec.clone(),
            environment: "dev".into(),
            settings: EnvironmentSettings {
                backend_config: vec![
                    "backends/dev.tfbackend".into(),
                    "key=net/dev.tfstate".into(),
                ],
                ..Default::default()
            },
            project_root: "/project".into(),
            timeout: Duration::from_secs(5),
        };
        let root = Root {
            name: "net".into(),
            dir: "/project/net".into(),
            binary: "terraform".into(),
            mode: Mode::Stock,
            estate: None,
        };
        let show = runner.command(&root, &["show", "-json"], runner.timeout);
        let _ = runner.run_initialized(&root, &show).await;
        let init = exec
            .lines()
            .into_iter()
            .find(|l| l.starts_with("terraform init"))
            .expect("init ran");
        assert_eq!(
            init,
            "terraform init -input=false -no-color -backend-config=/project/backends/dev.tfbackend -backend-config=key=net/dev.tfstate"
        );
    }

    #[test]
    fn summaries_keep_error_lines_and_mask_credentials() {
        let stderr = "\u{1b}[31m╷\u{1b}[0m\n│ Error: Failed to load state: GET http://user:s3cret@127.0.0.1:1/state giving up\n│\n│ more text\n╵\n";
        let summary = summarize(stderr);
        assert_eq!(
            summary,
            "Failed to load state: GET http://***@127.0.0.1:1/state giving up"
        );
        assert!(!summary.contains("s3cret"));
        assert_eq!(summarize("just one line\nlast line\n"), "last line");
        assert_eq!(
            summarize(&"x".repeat(1000)).chars().count(),
            DETAIL_LIMIT + 1
        );
    }

    #[test]
    fn masking_leaves_urls_without_userinfo_alone() {
        assert_eq!(
            mask_userinfo("a https://h/x@y and pg://u:p@db:5432/x, s3://b/k"),
            "a https://h/x@y and pg://***@db:5432/x, s3://b/k"
        );
    }

    #[test]
    fn a_json_document_on_stdout_is_never_a_detail() {
        let show = Command::new("terraform").args(["show", "-json"]);
        let output = ExecOutput {
            code: Some(1),
            stdout: r#"{"values":{"password":"pw-123"}}"#.into(),
            stderr: String::new(),
        };
        assert_eq!(
            failure_of(&show, &output).detail,
            "terraform show failed (exit 1)"
        );
        let init = Command::new("terraform").arg("init");
        let output = ExecOutput {
            stdout: "Error: Failed to install provider".into(),
            ..output
        };
        assert_eq!(
            failure_of(&init, &output).detail,
            "terraform init failed (exit 1): Failed to install provider"
        );
    }

    #[test]
    fn credentials_are_named_or_not() {
        assert_eq!(
            classify("Error: No valid credential sources found"),
            UnobservedReason::NoCredentials
        );
        assert_eq!(
            classify("operation error STS: GetCallerIdentity, ExpiredToken: expired"),
            UnobservedReason::NoCredentials
        );
        assert_eq!(
            classify("Error acquiring the state lock: ConditionalCheckFailedException"),
            UnobservedReason::ReadFailed
        );
        assert_eq!(
            classify("dial tcp: connection refused"),
            UnobservedReason::ReadFailed
        );
    }
}
