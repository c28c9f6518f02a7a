//! The observation conformance suite every observing lexicon runs.
//!
//! Give it scenarios driven by the lexicon's own transport fakes (or real services); it
//! checks the result shape, reason totality, ownership totality against the declared
//! channel, marker expectations, and — through the real change-set builder — that an
//! unobserved entity never classifies as a create.

use chant::lifecycle::change_set::{Action, PlanInput, build_change_set};
use chant_lexicon::observation::settle_describe;
use chant_lexicon::{
    DeclaredEntity, DescribeResult, HookResult, Observation, Ownership, OwnershipChannel,
    OwnershipMarker, ReadPath, UnobservedReason,
};
use futures::future::BoxFuture;
use std::collections::{BTreeMap, BTreeSet};

/// One conformance scenario.
pub struct Scenario<'a> {
    pub name: String,
    /// The declared entities the lexicon was asked about.
    pub declared: Vec<DeclaredEntity>,
    /// The read ran with `owned: true`.
    pub owned: bool,
    pub expect_present: Vec<String>,
    /// In neither map, and must classify as create.
    pub expect_absent: Vec<String>,
    /// In `unobserved`, with the given reason when one is named; never a create.
    pub expect_unobserved: Vec<(String, Option<UnobservedReason>)>,
    pub expect_marker: BTreeMap<String, OwnershipMarker>,
    pub expect_no_marker: Vec<String>,
    pub expect_ownership: BTreeMap<String, Ownership>,
    pub run: BoxFuture<'a, HookResult<DescribeResult>>,
}

impl<'a> Scenario<'a> {
    pub fn new(
        name: impl Into<String>,
        declared: Vec<DeclaredEntity>,
        run: BoxFuture<'a, HookResult<DescribeResult>>,
    ) -> Self {
        Scenario {
            name: name.into(),
            declared,
            owned: false,
            expect_present: Vec::new(),
            expect_absent: Vec::new(),
            expect_unobserved: Vec::new(),
            expect_marker: BTreeMap::new(),
            expect_no_marker: Vec::new(),
            expect_ownership: BTreeMap::new(),
            run,
        }
    }

    pub fn owned(mut self) -> Self {
        self.owned = true;
        self
    }

    pub fn present(mut self, names: &[&str]) -> Self {
        self.expect_present
            .extend(names.iter().map(|n| (*n).to_owned()));
        self
    }

    pub fn absent(mut self, names: &[&str]) -> Self {
        self.expect_absent
            .extend(names.iter().map(|n| (*n).to_owned()));
        self
    }

    pub fn unobserved(mut self, names: &[&str], reason: UnobservedReason) -> Self {
        self.expect_unobserved
            .extend(names.iter().map(|n| ((*n).to_owned(), Some(reason))));
        self
    }

    pub fn marker(mut self, name: &str, stack: &str, env: Option<&str>) -> Self {
        self.expect_marker.insert(
            name.to_owned(),
            OwnershipMarker {
                stack: stack.to_owned(),
                env: env.map(str::to_owned),
            },
        );
        self
    }

    pub fn no_marker(mut self, names: &[&str]) -> Self {
        self.expect_no_marker
            .extend(names.iter().map(|n| (*n).to_owned()));
        self
    }

    pub fn ownership(mut self, name: &str, ownership: Ownership) -> Self {
        self.expect_ownership.insert(name.to_owned(), ownership);
        self
    }
}

/// Run every scenario and panic with every violation found (not just the first).
pub async fn assert_observation_conformance(
    lexicon: &str,
    channel: Option<&OwnershipChannel>,
    scenarios: Vec<Scenario<'_>>,
) {
    let mut failures = Vec::new();
    for scenario in scenarios {
        let name = scenario.name.clone();
        for problem in check(lexicon, channel, scenario).await {
            failures.push(format!("[{lexicon}] {name}: {problem}"));
        }
    }
    assert!(
        failures.is_empty(),
        "observation conformance failed:\n  {}",
        failures.join("\n  ")
    );
}

async fn check(
    lexicon: &str,
    channel: Option<&OwnershipChannel>,
    scenario: Scenario<'_>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let raw = scenario.run.await;
    if let Ok(DescribeResult::Envelope(envelope)) = &raw {
        for name in envelope.resources.keys() {
            if envelope.unobserved.contains_key(name) {
                problems.push(format!("`{name}` is both returned and unobserved"));
            }
        }
    }
    let observation: Observation = match settle_describe(raw, &scenario.declared) {
        Ok(observation) => observation,
        Err(error) => return vec![format!("describe_resources gave no observation: {error}")],
    };
    let declared: BTreeSet<&str> = scenario.declared.iter().map(|e| e.name.as_str()).collect();

    for (name, entry) in &observation.unobserved {
        if entry.detail.as_deref().is_some_and(str::is_empty) {
            problems.push(format!(
                "`{name}` is unobserved ({}) with an empty detail",
                entry.reason
            ));
        }
        if entry.reason == UnobservedReason::Filtered && !scenario.owned {
            problems.push(format!(
                "`{name}` is filtered although the read was not --owned"
            ));
        }
    }

    let describes_ownership = channel.is_some_and(|c| c.resolves_on(ReadPath::DescribeResources));
    for (name, meta) in &observation.resources {
        let verdict = meta.ownership();
        if channel.is_none() && verdict != Ownership::Unknown {
            problems.push(format!(
                "`{name}` is {verdict} but {lexicon} declares no ownership channel"
            ));
        }
        if scenario.owned
            && describes_ownership
            && verdict == Ownership::Unknown
            && declared.contains(name.as_str())
        {
            problems.push(format!(
                "`{name}` is unknown on an --owned read, but {lexicon} declares describe_resources resolves ownership"
            ));
        }
        if scenario.owned && verdict != Ownership::Owned && declared.contains(name.as_str()) {
            problems.push(format!(
                "`{name}` is returned as {verdict} on an --owned read; it must be filtered"
            ));
        }
        if verdict == Ownership::Owned && meta.marker.is_none() && describes_ownership {
            problems.push(format!("`{name}` is owned but carries no marker"));
        }
    }

    for name in &scenario.expect_present {
        if !observation.resources.contains_key(name) {
            problems.push(format!(
                "expected `{name}` present; {}",
                where_is(&observation, name)
            ));
        }
    }
    for name in &scenario.expect_absent {
        if observation.resources.contains_key(name) || observation.unobserved.contains_key(name) {
            problems.push(format!(
                "expected `{name}` absent; {}",
                where_is(&observation, name)
            ));
        }
    }
    for (name, reason) in &scenario.expect_unobserved {
        match observation.unobserved.get(name) {
            None => problems.push(format!(
                "expected `{name}` unobserved; {}",
                where_is(&observation, name)
            )),
            Some(entry) => {
                if let Some(reason) = reason
                    && entry.reason != *reason
                {
                    problems.push(format!(
                        "expected `{name}` unobserved as {reason}, got {}",
                        entry.reason
                    ));
                }
            }
        }
    }
    for (name, marker) in &scenario.expect_marker {
        let found = observation
            .resources
            .get(name)
            .and_then(|m| m.marker.as_ref());
        if found != Some(marker) {
            problems.push(format!(
                "expected `{name}` to carry marker {marker:?}, got {found:?}"
            ));
        }
    }
    for name in &scenario.expect_no_marker {
        if let Some(marker) = observation
            .resources
            .get(name)
            .and_then(|m| m.marker.as_ref())
        {
            problems.push(format!(
                "expected `{name}` to carry no marker, got {marker:?}"
            ));
        }
    }
    for (name, ownership) in &scenario.expect_ownership {
        let found = observation.resources.get(name).map(|m| m.ownership());
        if found != Some(*ownership) {
            problems.push(format!("expected `{name}` {ownership}, got {found:?}"));
        }
    }

    let names: Vec<String> = scenario.declared.iter().map(|e| e.name.clone()).collect();
    let entries = build_change_set(&PlanInput {
        lexicon,
        declared: &names,
        now: &observation,
        then: None,
        property_drift: None,
    });
    let action = |name: &str| entries.iter().find(|e| e.name == name).map(|e| e.action);
    for name in observation.unobserved.keys() {
        match action(name) {
            Some(Action::Unobserved) => {}
            other => problems.push(format!(
                "unobserved `{name}` classified as {other:?}, not unobserved"
            )),
        }
    }
    for name in &scenario.expect_absent {
        if action(name) != Some(Action::Create) {
            problems.push(format!(
                "absent `{name}` classified as {:?}, not create",
                action(name)
            ));
        }
    }
    for entry in &entries {
        if entry.action == Action::Delete && entry.ownership != Ownership::Owned {
            problems.push(format!(
                "`{}` is a delete without an owned verdict",
                entry.name
            ));
        }
    }
    problems
}

fn where_is(observation: &Observation, name: &str) -> String {
    if let Some(meta) = observation.resources.get(name) {
        format!("it was present ({})", meta.status)
    } else if let Some(entry) = observation.unobserved.get(name) {
        format!(
            "it was unobserved ({}: {})",
            entry.reason,
            entry.detail.clone().unwrap_or_default()
        )
    } else {
        "it was absent".to_owned()
    }
}
