//! A fake exec seam: commands answered from recorded outputs, matched by prefix.

use async_trait::async_trait;
use chant_lexicon::exec::{Command, Exec, ExecError, ExecOutput};
use std::sync::Mutex;

type Answer = Result<ExecOutput, ExecError>;

#[derive(Default)]
pub struct FakeExec {
    handlers: Vec<(String, Answer)>,
    calls: Mutex<Vec<Command>>,
}

impl FakeExec {
    pub fn new() -> Self {
        Self::default()
    }

    /// Answer any command whose `program args…` line starts with `prefix`. The first
    /// matching handler wins.
    pub fn on(mut self, prefix: impl Into<String>, answer: Answer) -> Self {
        self.handlers.push((prefix.into(), answer));
        self
    }

    pub fn ok(self, prefix: impl Into<String>, stdout: impl Into<String>) -> Self {
        self.on(prefix, Ok(ExecOutput::ok(stdout)))
    }

    pub fn fails(self, prefix: impl Into<String>, code: i32, stderr: impl Into<String>) -> Self {
        self.on(prefix, Ok(ExecOutput::failed(code, stderr)))
    }

    /// Every command run so far.
    pub fn calls(&self) -> Vec<Command> {
        self.calls.lock().map(|c| c.clone()).unwrap_or_default()
    }

    pub fn lines(&self) -> Vec<String> {
        self.calls().iter().map(Command::line).collect()
    }
}

#[async_trait]
impl Exec for FakeExec {
    async fn run(&self, command: &Command) -> Result<ExecOutput, ExecError> {
        if let Ok(mut calls) = self.calls.lock() {
            calls.push(command.clone());
        }
        let line = command.line();
        self.handlers
            .iter()
            .find(|(prefix, _)| line.starts_with(prefix.as_str()))
            .map(|(_, answer)| answer.clone())
            .unwrap_or_else(|| {
                Err(ExecError::Spawn {
                    program: command.program.clone(),
                    message: format!("unexpected command: {line}"),
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn answers_by_prefix_and_records_calls() {
        let exec =
            FakeExec::new()
                .ok("terraform show", "{}")
                .fails("terraform init", 1, "lock held");
        assert_eq!(
            exec.run(&Command::new("terraform").args(["show", "-json"]))
                .await
                .unwrap()
                .stdout,
            "{}"
        );
        assert!(
            !exec
                .run(&Command::new("terraform").arg("init"))
                .await
                .unwrap()
                .success()
        );
        assert!(exec.run(&Command::new("kubectl")).await.is_err());
        assert_eq!(
            exec.lines(),
            vec!["terraform show -json", "terraform init", "kubectl"]
        );
    }
}
