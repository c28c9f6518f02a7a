//! The drift signal: has the world moved under a stock root? Answered the way terraform
//! answers it — `plan -refresh-only -detailed-exitcode`: exit 0 is no drift, exit 2 is
//! drift — and reported as that yes/no plus the `-no-color` render.
//!
//! No plan file is written and no plan JSON is ever requested: `show -json` over a plan
//! carries attribute values no sensitive marking covers, so there is nothing of it here to
//! leak. Opt-in per environment (`drift = true`); `-lock=false`, so it never queues behind
//! or blocks an apply.

use crate::settings::Root;
use crate::tool::{Runner, failure_of, summarize};

/// One root's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriftSignal {
    pub root: String,
    /// `None` when the plan itself failed.
    pub drift: Option<bool>,
    /// The `-no-color` render (drift), or why there is no answer.
    pub render: String,
}

impl DriftSignal {
    /// The line printed once per run, after the answer.
    pub fn note(&self) -> String {
        match self.drift {
            Some(false) => format!(
                "terraform root {}: no drift (plan -refresh-only found no changes)",
                self.root
            ),
            Some(true) => format!(
                "terraform root {}: drift (plan -refresh-only found changes)\n{}",
                self.root,
                indent(&self.render)
            ),
            None => format!(
                "terraform root {}: drift not known: {}",
                self.root, self.render
            ),
        }
    }
}

/// The exact arguments the drift plan runs with (after the binary).
pub fn plan_args(runner: &Runner) -> Vec<String> {
    let mut args: Vec<String> = [
        "plan",
        "-detailed-exitcode",
        "-lock=false",
        "-input=false",
        "-refresh-only",
        "-no-color",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.extend(runner.var_file_args());
    args
}

/// Run the refresh-only plan in `root`.
pub async fn check(runner: &Runner, root: &Root) -> DriftSignal {
    let args = plan_args(runner);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let command = runner.command(root, &refs, runner.timeout);
    let signal = |drift, render| DriftSignal {
        root: root.name.clone(),
        drift,
        render,
    };
    match runner.run_any(&command).await {
        Ok(output) if output.code == Some(0) => signal(Some(false), String::new()),
        Ok(output) if output.code == Some(2) => signal(Some(true), render(&output.stdout)),
        Ok(output) => signal(None, failure_of(&command, &output).detail),
        Err(failure) => signal(None, summarize(&failure.detail)),
    }
}

/// The render without terraform's per-resource progress lines.
fn render(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| {
            !(l.contains(": Refreshing state...")
                || l.ends_with(": Reading...")
                || l.contains(": Read complete after"))
        })
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_owned()
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("    {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_are_dropped_from_the_render() {
        let stdout = "terraform_data.one: Refreshing state... [id=1]\ndata.x.y: Reading...\ndata.x.y: Read complete after 0s\n\nChanges to Outputs:\n  ~ o = \"v1\" -> \"v2\"\n";
        assert_eq!(
            render(stdout),
            "Changes to Outputs:\n  ~ o = \"v1\" -> \"v2\""
        );
    }

    #[test]
    fn notes_say_yes_no_or_unknown() {
        let yes = DriftSignal {
            root: "net".into(),
            drift: Some(true),
            render: "Changes to Outputs:\n  ~ o".into(),
        };
        assert_eq!(
            yes.note(),
            "terraform root net: drift (plan -refresh-only found changes)\n    Changes to Outputs:\n      ~ o"
        );
        let no = DriftSignal {
            drift: Some(false),
            ..yes.clone()
        };
        assert!(
            no.note()
                .ends_with("no drift (plan -refresh-only found no changes)")
        );
        let unknown = DriftSignal {
            drift: None,
            render: "terraform plan failed (exit 1): lock".into(),
            ..yes
        };
        assert!(
            unknown
                .note()
                .contains("drift not known: terraform plan failed")
        );
    }
}
