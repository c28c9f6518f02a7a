//! `diff --live`, for people: per lexicon, the identity-level report, then the
//! property-level one, then artifacts.

use crate::lifecycle::deep::claim::PropertyRow;
use crate::lifecycle::deep::diff::{DeepDiff, DeepEntityDrift};
use crate::lifecycle::live_diff::{LiveDiff, SnapshotDiff};
use crate::output::{Output, Tone};
use crate::render::value::format_value;

const RULE: &str =
    "--------------------------------------------------------------------------------";

pub fn resources(lexicon: &str, env: &str, diff: &LiveDiff, output: &Output) -> String {
    let mut out = vec![
        String::new(),
        format!("{} — environment: {env}", output.paint(lexicon, Tone::Bold)),
    ];
    let mut counts = format!(
        "{} missing, {} orphan, {} disappeared, {} newly observed, {} drifted, {} unchanged",
        diff.missing.len(),
        diff.orphan.len(),
        diff.disappeared.len(),
        diff.newly_observed.len(),
        diff.drifted_since_snapshot.len(),
        diff.unchanged.len()
    );
    if !diff.runtime_children.is_empty() {
        counts.push_str(&format!(", {} runtime", diff.runtime_children.len()));
    }
    if !diff.unobserved.is_empty() {
        counts.push_str(&format!(", {} unobserved", diff.unobserved.len()));
    }
    out.push(counts);
    out.push(RULE.to_owned());
    let mut section = |heading: &str, tone: Tone, lines: Vec<String>| {
        if !lines.is_empty() {
            out.push(output.paint(heading, tone));
            out.extend(lines);
        }
    };
    section(
        "UNOBSERVED (declared; chant could not read live state — status unknown):",
        Tone::Amber,
        diff.unobserved
            .iter()
            .map(|u| {
                let entry = chant_lexicon::UnobservedEntity {
                    entity_type: u.entity_type.clone(),
                    reason: u.reason,
                    detail: u.detail.clone(),
                    queried: u.queried.clone(),
                };
                format!(
                    "  ? {}",
                    chant_lexicon::observation::format_unobserved(&u.name, &entry)
                )
            })
            .collect(),
    );
    section(
        "MISSING (declared, provider reports not there):",
        Tone::Bold,
        diff.missing
            .iter()
            .map(|n| match diff.queried.get(n) {
                Some(q) => format!("  - {n} [queried {q}]"),
                None => format!("  - {n}"),
            })
            .collect(),
    );
    section(
        "ORPHAN (live, not declared):",
        Tone::Bold,
        diff.orphan.iter().map(|n| format!("  - {n}")).collect(),
    );
    section(
        "RUNTIME (owned by a declared resource; not drift, not an orphan):",
        Tone::Bold,
        diff.runtime_children
            .iter()
            .map(|c| format!("  - {} ({}) — owned by {}", c.name, c.entity_type, c.owner))
            .collect(),
    );
    section(
        "DISAPPEARED (in last snapshot, gone now):",
        Tone::Bold,
        diff.disappeared
            .iter()
            .map(|n| format!("  - {n}"))
            .collect(),
    );
    section(
        "NEWLY OBSERVED (declared, observed, no prior snapshot):",
        Tone::Bold,
        diff.newly_observed
            .iter()
            .map(|n| format!("  - {n}"))
            .collect(),
    );
    section(
        "DRIFTED (changed since last snapshot):",
        Tone::Bold,
        diff.drifted_since_snapshot
            .iter()
            .flat_map(|d| {
                std::iter::once(format!("  - {} ({})", d.name, d.entity_type)).chain(
                    d.changes.iter().map(|c| {
                        format!(
                            "      {}: {} → {}",
                            c.path,
                            format_value(c.old_value.as_ref()),
                            format_value(c.new_value.as_ref())
                        )
                    }),
                )
            })
            .collect(),
    );
    out.join("\n")
}

fn row_line(row: &PropertyRow) -> String {
    let declared = row
        .declared
        .as_ref()
        .map_or("<undeclared>".to_owned(), |v| format_value(Some(v)));
    let live = row
        .live
        .as_ref()
        .map_or("<absent>".to_owned(), |v| format_value(Some(v)));
    let mut line = format!("      {}: {declared} → {live}", row.path);
    if let Some(baseline) = &row.baseline {
        line.push_str(&format!(" [accepted: {}]", format_value(Some(baseline))));
    }
    if let Some(owner) = row.owner.as_ref().or(row.held_by.as_ref()) {
        line.push_str(&format!(" [held by {owner}]"));
    }
    line
}

fn entity_lines(entities: &[DeepEntityDrift]) -> Vec<String> {
    entities
        .iter()
        .flat_map(|e| {
            std::iter::once(format!("  - {} ({})", e.name, e.entity_type))
                .chain(e.changes.iter().map(row_line))
        })
        .collect()
}

/// Silent when there is nothing to say.
pub fn properties(lexicon: &str, deep: &DeepDiff, output: &Output) -> Option<String> {
    if deep.drifted.is_empty()
        && deep.accepted.is_empty()
        && deep.unobserved.is_empty()
        && deep.unclaimed.is_empty()
        && deep.undeclared_entities.is_empty()
    {
        return None;
    }
    let mut out = vec![
        String::new(),
        output.paint(&format!("{lexicon} (properties)"), Tone::Bold),
    ];
    let mut counts = format!(
        "{} property drift across {} resource(s), {} unclaimed, {} accepted, {} unchanged",
        deep.drift_count(),
        deep.drifted.len(),
        deep.unclaimed_count(),
        deep.accepted_count(),
        deep.unchanged.len()
    );
    if !deep.unobserved.is_empty() {
        counts.push_str(&format!(", {} unobserved", deep.unobserved.len()));
    }
    out.push(counts);
    out.push(RULE.to_owned());
    if !deep.unobserved.is_empty() {
        out.push(output.paint(
            "PROPERTIES UNOBSERVED (declared; the deep read could not look):",
            Tone::Amber,
        ));
        for u in &deep.unobserved {
            let detail = u
                .detail
                .as_ref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            out.push(format!("  ? {} — {}{detail}", u.name, u.reason.text()));
        }
    }
    if !deep.drifted.is_empty() {
        out.push(output.paint(
            "PROPERTY DRIFT (declared vs live; baseline shown where one exists):",
            Tone::Bold,
        ));
        out.extend(entity_lines(&deep.drifted));
    }
    if !deep.unclaimed.is_empty() {
        out.push(output.paint(
            "UNCLAIMED (live fields nothing declares; never drift, never an update):",
            Tone::Dim,
        ));
        out.extend(entity_lines(&deep.unclaimed));
    }
    if !deep.undeclared_entities.is_empty() {
        out.push(output.paint(
            "UNDECLARED (read deeply, never declared in source):",
            Tone::Bold,
        ));
        out.extend(deep.undeclared_entities.iter().map(|n| format!("  - {n}")));
    }
    if !deep.accepted.is_empty() {
        out.push(output.paint("ACCEPTED (in the baseline; not drift):", Tone::Bold));
        for e in &deep.accepted {
            let paths: Vec<&str> = e.changes.iter().map(|r| r.path.as_str()).collect();
            out.push(format!("  - {}: {}", e.name, paths.join(", ")));
        }
    }
    Some(out.join("\n"))
}

/// Silent when every list is empty.
pub fn artifacts(lexicon: &str, env: &str, diff: &SnapshotDiff, output: &Output) -> Option<String> {
    if diff.is_empty() {
        return None;
    }
    let mut out = vec![
        String::new(),
        format!(
            "{} (artifacts) — environment: {env}",
            output.paint(lexicon, Tone::Bold)
        ),
        format!(
            "{} added, {} removed, {} changed, {} unchanged",
            diff.added.len(),
            diff.removed.len(),
            diff.changed.len(),
            diff.unchanged.len()
        ),
        RULE.to_owned(),
    ];
    if !diff.added.is_empty() {
        out.push("ARTIFACTS ADDED (live now, not in last snapshot):".to_owned());
        out.extend(diff.added.iter().map(|n| format!("  - {n}")));
    }
    if !diff.removed.is_empty() {
        out.push("ARTIFACTS REMOVED (in last snapshot, gone now):".to_owned());
        out.extend(diff.removed.iter().map(|n| format!("  - {n}")));
    }
    if !diff.changed.is_empty() {
        out.push("ARTIFACTS CHANGED (metadata differs since last snapshot):".to_owned());
        for d in &diff.changed {
            out.push(format!("  - {} ({})", d.name, d.entity_type));
            for c in &d.changes {
                out.push(format!(
                    "      {}: {} → {}",
                    c.path,
                    format_value(c.old_value.as_ref()),
                    format_value(c.new_value.as_ref())
                ));
            }
        }
    }
    Some(out.join("\n"))
}
