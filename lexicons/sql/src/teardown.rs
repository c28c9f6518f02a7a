//! Teardown: owned, undeclared objects by marker, dropped in reverse dependency order in
//! one transaction after a re-read. A kind that could not be listed is a hole.

use crate::describe::is_builtin;
use crate::names::{Kind, parse_entity_name};
use crate::session::{DropReport, DropStep, Fault, Listing};
use chant_lexicon::teardown::TeardownFailure;
use chant_lexicon::{
    TeardownCandidate, TeardownHole, TeardownOutcome, TeardownPlan, TeardownRequest,
};

/// Drop order: dependents first.
fn drop_rank(kind: Kind) -> usize {
    match kind {
        Kind::Index => 0,
        Kind::MaterializedView => 1,
        Kind::View => 2,
        Kind::Function => 3,
        Kind::Table => 4,
        Kind::Sequence => 5,
        Kind::Type => 6,
        Kind::Schema => 7,
        Kind::Unsupported(_) => 8,
    }
}

pub fn unbound(fault: &Fault) -> TeardownPlan {
    TeardownPlan {
        candidates: Vec::new(),
        holes: Kind::READ
            .into_iter()
            .map(|k| TeardownHole {
                kind: k.entity_type().to_owned(),
                reason: fault.reason,
                detail: Some(fault.detail.clone()),
            })
            .collect(),
    }
}

pub fn plan(listing: &Listing, request: &TeardownRequest, address: &str) -> TeardownPlan {
    let mut owned: Vec<_> = listing
        .objects
        .iter()
        .filter(|(name, _)| !is_builtin(name) && !request.declared.contains(name))
        .filter_map(|(name, object)| {
            let marker = object.marker.as_ref()?;
            request
                .project
                .matches(marker)
                .then_some((name, object, marker))
        })
        .collect();
    // Later objects first within a kind: what was created after may depend on what came before.
    owned.sort_by(|(_, a, _), (_, b, _)| {
        let id = |o: &crate::session::LiveObject| {
            o.physical_id
                .as_deref()
                .and_then(|p| p.parse::<u64>().ok())
                .unwrap_or(0)
        };
        drop_rank(a.key.kind)
            .cmp(&drop_rank(b.key.kind))
            .then(id(b).cmp(&id(a)))
            .then(b.key.name.cmp(&a.key.name))
    });
    let names: Vec<String> = owned.iter().map(|(n, _, _)| (*n).clone()).collect();
    let candidates = owned
        .into_iter()
        .map(|(name, object, marker)| TeardownCandidate {
            name: name.clone(),
            entity_type: object.key.kind.entity_type().to_owned(),
            physical_id: object.physical_id.clone(),
            marker: marker.clone(),
            depends_on: object
                .depends_on
                .iter()
                .map(|k| k.entity_name())
                .filter(|n| names.contains(n))
                .collect(),
            queried: Some(format!("{address}#{name}")),
        })
        .collect();
    let holes = listing
        .failed
        .iter()
        .map(|(kind, detail)| TeardownHole {
            kind: kind.entity_type().to_owned(),
            reason: chant_lexicon::UnobservedReason::ReadFailed,
            detail: Some(detail.clone()),
        })
        .collect();
    TeardownPlan { candidates, holes }
}

/// The plan's candidates as drop steps, in the plan's order.
pub fn steps(plan: &TeardownPlan) -> Vec<DropStep> {
    plan.candidates
        .iter()
        .filter_map(|c| {
            Some(DropStep {
                entity: c.name.clone(),
                key: parse_entity_name(&c.name, &c.entity_type)?,
                marker: c.marker.clone(),
            })
        })
        .collect()
}

pub fn outcome(plan: &TeardownPlan, report: DropReport) -> TeardownOutcome {
    let mut outcome = TeardownOutcome {
        deleted: report.dropped,
        failed: Vec::new(),
        skipped: report.skipped,
    };
    if let Some((entity, detail)) = report.failed {
        for candidate in &plan.candidates {
            if outcome.skipped.contains(&candidate.name) {
                continue;
            }
            let detail = if candidate.name == entity {
                detail.clone()
            } else {
                format!("rolled back: dropping {entity} failed")
            };
            outcome.failed.push(TeardownFailure {
                name: candidate.name.clone(),
                detail,
            });
        }
    }
    outcome
}
