//! The behaviour conformance suite every predicting lexicon runs, against its own mocked
//! engine, the refusal case included.
//!
//! Per scenario it checks tri-state totality (every asked entity in exactly one of
//! `entities` and `unpredicted`, nothing else in either), that no figure exists without
//! `at` (the run's level) and provenance, that every block passes the contract's
//! validation, that a refusal carries no figures and names what to do, and the scenario's
//! own expectations.

use chant_lexicon::behaviour::{
    BehaviourOutcome, BehaviourReport, BehaviourUnpredictedReason, DanglingRef, EdgeOrigin, Edges,
    validate_block,
};
use chant_lexicon::{HookError, HookResult};
use futures::future::BoxFuture;
use std::collections::BTreeSet;

/// What a scenario expects of its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A report; these names predicted, these unpredicted (with the reason when named).
    Report {
        predicted: Vec<String>,
        unpredicted: Vec<(String, Option<BehaviourUnpredictedReason>)>,
    },
    /// A refusal, with this cause when one is named.
    Refusal(Option<BehaviourUnpredictedReason>),
    /// A whole-lexicon failure (a credential-shaped value in the request).
    Failure,
}

pub struct BehaviourScenario<'a> {
    pub name: String,
    /// The entity names the request asked about.
    pub asked: Vec<String>,
    pub expect: Expect,
    pub run: BoxFuture<'a, HookResult<BehaviourOutcome>>,
}

impl<'a> BehaviourScenario<'a> {
    pub fn new(
        name: impl Into<String>,
        asked: &[&str],
        run: BoxFuture<'a, HookResult<BehaviourOutcome>>,
    ) -> Self {
        BehaviourScenario {
            name: name.into(),
            asked: asked.iter().map(|s| s.to_string()).collect(),
            expect: Expect::Report {
                predicted: Vec::new(),
                unpredicted: Vec::new(),
            },
            run,
        }
    }

    pub fn predicted(mut self, names: &[&str]) -> Self {
        if let Expect::Report { predicted, .. } = &mut self.expect {
            predicted.extend(names.iter().map(|s| s.to_string()));
        } else {
            self.expect = Expect::Report {
                predicted: names.iter().map(|s| s.to_string()).collect(),
                unpredicted: Vec::new(),
            };
        }
        self
    }

    pub fn unpredicted(mut self, name: &str, reason: Option<BehaviourUnpredictedReason>) -> Self {
        if let Expect::Report { unpredicted, .. } = &mut self.expect {
            unpredicted.push((name.to_owned(), reason));
        }
        self
    }

    pub fn refusal(mut self, cause: Option<BehaviourUnpredictedReason>) -> Self {
        self.expect = Expect::Refusal(cause);
        self
    }

    pub fn failure(mut self) -> Self {
        self.expect = Expect::Failure;
        self
    }
}

/// Run every scenario; panics naming the lexicon, the scenario and every broken rule.
pub async fn assert_behaviour_conformance(lexicon: &str, scenarios: Vec<BehaviourScenario<'_>>) {
    let mut broken = Vec::new();
    for scenario in scenarios {
        let asked = scenario.asked.clone();
        let outcome = scenario.run.await;
        if let Err(problems) = check_outcome(&asked, &scenario.expect, &outcome) {
            broken.push(format!(
                "{lexicon} / {}:\n  {}",
                scenario.name,
                problems.join("\n  ")
            ));
        }
    }
    assert!(
        broken.is_empty(),
        "behaviour conformance failed:\n{}",
        broken.join("\n")
    );
}

/// The rules, on one outcome. `Err` lists every rule broken.
pub fn check_outcome(
    asked: &[String],
    expect: &Expect,
    outcome: &HookResult<BehaviourOutcome>,
) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    match (outcome, expect) {
        (
            Ok(BehaviourOutcome::Report(report)),
            Expect::Report {
                predicted,
                unpredicted,
            },
        ) => {
            check_report(asked, report, &mut problems);
            for name in predicted {
                if !report.entities.contains_key(name) {
                    problems.push(format!("expected `{name}` predicted"));
                }
            }
            for (name, reason) in unpredicted {
                match report.unpredicted.get(name) {
                    None => problems.push(format!("expected `{name}` unpredicted")),
                    Some(hole) if reason.is_some_and(|r| r != hole.reason) => {
                        problems.push(format!(
                            "`{name}` unpredicted as {}, expected {}",
                            hole.reason,
                            reason.map(|r| r.as_str()).unwrap_or_default()
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
        (Ok(BehaviourOutcome::Refusal(refusal)), Expect::Refusal(cause)) => {
            let json = serde_json::to_value(refusal).unwrap_or_default();
            for figure in ["entities", "meta", "unpredicted", "cost", "total"] {
                if json.get(figure).is_some() {
                    problems.push(format!("a refusal carries `{figure}`"));
                }
            }
            if !matches!(
                refusal.cause,
                BehaviourUnpredictedReason::NoEngine
                    | BehaviourUnpredictedReason::EngineUnreachable
                    | BehaviourUnpredictedReason::EngineOutOfCredit
                    | BehaviourUnpredictedReason::EngineOverQuota
                    | BehaviourUnpredictedReason::CredentialInRequest
            ) {
                problems.push(format!("`{}` is not a refusal cause", refusal.cause));
            }
            if refusal.reason.trim().is_empty() || refusal.remedy.trim().is_empty() {
                problems.push("a refusal must say why and what to do".into());
            }
            let names_a_fix = refusal.remedy.contains("CHANT_BEHAVIOUR_")
                || refusal.remedy.contains("BEHAVIOUR_")
                || refusal
                    .address
                    .as_deref()
                    .is_some_and(|a| refusal.remedy.contains(a))
                || refusal.cause == BehaviourUnpredictedReason::CredentialInRequest;
            if !names_a_fix {
                problems.push(format!(
                    "the remedy names neither a variable nor the address: {}",
                    refusal.remedy
                ));
            }
            if let Some(cause) = cause
                && *cause != refusal.cause
            {
                problems.push(format!("refused as {}, expected {cause}", refusal.cause));
            }
        }
        (Err(HookError::Failed(_)), Expect::Failure) => {}
        (other, expected) => problems.push(format!("expected {expected:?}, got {other:?}")),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

fn check_report(asked: &[String], report: &BehaviourReport, problems: &mut Vec<String>) {
    let asked_set: BTreeSet<&str> = asked.iter().map(String::as_str).collect();
    for name in asked {
        match (
            report.entities.contains_key(name),
            report.unpredicted.contains_key(name),
        ) {
            (true, true) => problems.push(format!("`{name}` is both predicted and unpredicted")),
            (false, false) => problems.push(format!("`{name}` is in neither map")),
            _ => {}
        }
    }
    for name in report.entities.keys().chain(report.unpredicted.keys()) {
        if !asked_set.contains(name.as_str()) {
            problems.push(format!("`{name}` was not asked about"));
        }
    }
    let json = serde_json::to_value(report).unwrap_or_default();
    for (name, block) in &report.entities {
        let shown = &json["entities"][name];
        if shown.get("at").is_none() || shown.get("provenance").is_none() {
            problems.push(format!("`{name}`'s figure has no `at` or no provenance"));
        }
        if block.at != report.meta.at {
            problems.push(format!(
                "`{name}` is at `{}`, the run at `{}`",
                block.at, report.meta.at
            ));
        }
        if let Err(why) = validate_block(block) {
            problems.push(format!("`{name}`: {why}"));
        }
        if shown["cost"]["rate"] != "per-hour" {
            problems.push(format!("`{name}`'s cost is not a per-hour rate"));
        }
    }
    if json["meta"].get("at").is_none() || json["meta"].get("edgeCoverage").is_none() {
        problems.push("the report's meta has no `at` or no edge coverage".into());
    }
}

/// Declared edges as `(from, to, label)` triples and their dangling refs; panics unless
/// the edges were computed from declarations.
pub fn declared_edge_triples(edges: &Edges) -> (Vec<(&str, &str, &str)>, &[DanglingRef]) {
    let Edges::Computed {
        edges: list,
        dangling,
        origin,
        ..
    } = edges
    else {
        panic!("the edges were not computed: {edges:?}")
    };
    assert_eq!(*origin, EdgeOrigin::Declared);
    let list = list
        .iter()
        .map(|e| (e.from.as_str(), e.to.as_str(), e.label.as_str()))
        .collect();
    (list, dangling)
}
