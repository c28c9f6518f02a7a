//! The command transport: spawn the engine on PATH with the request on stdin, read the
//! answer from stdout. Its environment is PATH and nothing else, so an inherited variable
//! cannot carry a credential past the request screen; the token is never handed to it.

use async_trait::async_trait;
use chant_lexicon::behaviour::{
    BehaviourRefusal, BehaviourTransport, Resolved, Variables, WireCondition,
    behaviour_wire_refusal,
};
use chant_lexicon::exec::{Command, Exec, ExecError};
use std::sync::Arc;
use std::time::Duration;

/// The environment an engine command runs with: `PATH`, and nothing else.
pub fn child_environment(variables: &dyn Variables) -> Vec<(String, String)> {
    variables
        .get("PATH")
        .map(|path| vec![("PATH".to_owned(), path)])
        .unwrap_or_default()
}

pub struct CommandTransport {
    lexicon: String,
    endpoint: Resolved,
    program: String,
    args: Vec<String>,
    environment: Vec<(String, String)>,
    timeout: Duration,
    exec: Arc<dyn Exec>,
}

impl CommandTransport {
    pub fn new(
        lexicon: &str,
        endpoint: Resolved,
        variables: &dyn Variables,
        timeout: Duration,
        exec: Arc<dyn Exec>,
    ) -> Result<Self, BehaviourRefusal> {
        let mut words = endpoint.value.split_whitespace().map(str::to_owned);
        let Some(program) = words.next() else {
            return Err(behaviour_wire_refusal(
                lexicon,
                &endpoint,
                None,
                &WireCondition::NotStarted("the address names no program".into()),
                &[],
            ));
        };
        Ok(CommandTransport {
            lexicon: lexicon.to_owned(),
            program,
            args: words.collect(),
            environment: child_environment(variables),
            endpoint,
            timeout,
            exec,
        })
    }

    fn refuse(&self, condition: WireCondition) -> BehaviourRefusal {
        behaviour_wire_refusal(&self.lexicon, &self.endpoint, None, &condition, &[])
    }
}

#[async_trait]
impl BehaviourTransport for CommandTransport {
    async fn send(&self, body: &str) -> Result<String, BehaviourRefusal> {
        let mut command = Command::new(&self.program)
            .args(self.args.iter().cloned())
            .env_clear()
            .stdin(body.as_bytes().to_vec())
            .timeout(self.timeout);
        for (key, value) in &self.environment {
            command = command.env(key, value);
        }
        match self.exec.run(&command).await {
            Ok(output) if output.success() => Ok(output.stdout),
            Ok(output) => Err(self.refuse(WireCondition::Exited {
                code: output.code,
                stderr: output.stderr,
            })),
            Err(ExecError::TimedOut { .. }) => {
                Err(self.refuse(WireCondition::TimedOut(self.timeout)))
            }
            Err(error) => Err(self.refuse(WireCondition::NotStarted(error.to_string()))),
        }
    }

    fn endpoint(&self) -> &Resolved {
        &self.endpoint
    }
}
