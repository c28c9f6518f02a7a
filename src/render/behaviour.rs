//! `lifecycle predict` for a person: each answer as a table on stdout; a refusal in red on
//! stderr, naming what to set or check; a partial answer's holes in amber, each with its
//! reason; and a delta whose figures are not comparable marked with every axis they
//! disagree on.

use crate::commands::predict::{DeltaRow, LexiconPrediction, Side};
use crate::output::{Output, Tone};
use crate::render::table::aligned;
use chant_lexicon::behaviour::{
    BehaviourOutcome, BehaviourReport, CoverageVerdict, EdgeCoverage, EdgeOrigin, PredictedRate,
    TrafficLevel,
};

pub fn print(
    env: &str,
    traffic: &TrafficLevel,
    predictions: &[LexiconPrediction],
    output: &Output,
) {
    let mut first = true;
    for prediction in predictions {
        let lexicon = &prediction.lexicon;
        let sides = std::iter::once(("declared", &prediction.declared))
            .chain(prediction.live.as_ref().map(|live| ("live", live)));
        for (estate, side) in sides {
            if let Some(text) = side_report(lexicon, estate, env, traffic, side, output) {
                if !first {
                    output.print("");
                }
                first = false;
                output.print(&text);
            }
        }
        if !prediction.delta.is_empty() {
            output.print("");
            output.print(&delta(lexicon, &prediction.delta, output));
        }
    }
    for prediction in predictions {
        let sides = std::iter::once(("declared", &prediction.declared))
            .chain(prediction.live.as_ref().map(|live| ("live", live)));
        for (estate, side) in sides {
            problems(&prediction.lexicon, estate, side, output);
        }
    }
}

fn side_report(
    lexicon: &str,
    estate: &str,
    env: &str,
    traffic: &TrafficLevel,
    side: &Side,
    output: &Output,
) -> Option<String> {
    let Side::Answered(BehaviourOutcome::Report(report)) = side else {
        return None;
    };
    let mut text = format!(
        "{} {estate} estate of {env} at {traffic} — {} {}, edges {}",
        output.paint(&format!("{lexicon}:"), Tone::Bold),
        report.meta.engine,
        report.meta.version,
        coverage(&report.meta.edge_coverage)
    );
    if let Some(failure) = &report.meta.failure {
        text.push_str(&format!(", under `{failure}`"));
    }
    text.push('\n');
    text.push_str(&figures(report, output));
    for (name, hole) in &report.unpredicted {
        let mut line = format!("  {name}");
        if let Some(t) = &hole.entity_type {
            line.push_str(&format!(" ({t})"));
        }
        line.push_str(&format!(
            " — unpredicted ({}): {}",
            hole.reason,
            hole.reason.text()
        ));
        if let Some(detail) = &hole.detail {
            line.push_str(&format!(": {detail}"));
        }
        text.push('\n');
        text.push_str(&output.paint(&line, Tone::Amber));
    }
    Some(text)
}

fn coverage(coverage: &EdgeCoverage) -> String {
    let mut text = match (coverage.edges, coverage.origin) {
        (Some(n), Some(EdgeOrigin::Declared)) => format!("{n} declared"),
        (Some(n), Some(EdgeOrigin::Rebuilt)) => format!("{n} rebuilt"),
        _ => "not computed".to_owned(),
    };
    if coverage.verdict == CoverageVerdict::Partial {
        text.push_str(&format!(
            " (partial: no reference rule for {})",
            coverage.unresolved_kinds.join(", ")
        ));
    }
    if !coverage.dangling.is_empty() {
        text.push_str(&format!(", {} dangling", coverage.dangling.len()));
    }
    text
}

fn rate(rate: &PredictedRate) -> String {
    format!("{:.4} {}/h", rate.per_hour, rate.currency)
}

fn percent(value: Option<f64>, decimals: usize) -> String {
    value.map_or("—".to_owned(), |v| format!("{:.*}%", decimals, v * 100.0))
}

fn figures(report: &BehaviourReport, output: &Output) -> String {
    let with_resilience = report.meta.failure.is_some();
    let mut header = vec!["ENTITY", "COST", "CPU FREE", "LATENCY FREE", "ERRORS"];
    if with_resilience {
        header.push("RESILIENCE");
    }
    header.extend(["RIGHT-SIZE", "BASIS", "TOLERANCE"]);
    let rows = report
        .entities
        .iter()
        .map(|(name, f)| {
            let mut row = vec![
                name.clone(),
                rate(&f.cost),
                percent(f.headroom.cpu, 0),
                percent(f.headroom.latency, 0),
                percent(Some(f.error_rate), 2),
            ];
            if with_resilience {
                row.push(f.resilience.as_ref().map_or("—".to_owned(), |r| {
                    let tone = match r.verdict.as_str() {
                        "survives" => Tone::Green,
                        "degrades" => Tone::Amber,
                        _ => Tone::Red,
                    };
                    output.paint(r.verdict.as_str(), tone)
                }));
            }
            row.push(
                f.right_size
                    .as_ref()
                    .map_or(String::new(), |h| h.suggestion.clone()),
            );
            row.push(f.provenance.basis.as_str().to_owned());
            row.push(f.provenance.tolerance.clone());
            row
        })
        .collect();
    aligned(Some(&header), rows, 2)
}

fn delta(lexicon: &str, rows: &[DeltaRow], output: &Output) -> String {
    let table = rows
        .iter()
        .map(|row| {
            let change = match (row.per_hour_delta, &row.declared) {
                (Some(d), Some(declared)) => format!("{d:+.4} {}/h", declared.currency),
                _ => "—".to_owned(),
            };
            let mark = if let Some(missing) = &row.missing {
                output.paint(missing, Tone::Dim)
            } else if row.mismatches.is_empty() {
                String::new()
            } else {
                let axes: Vec<&str> = row.mismatches.iter().map(|m| m.as_str()).collect();
                output.paint(
                    &format!("≠ not comparable: {}", axes.join(", ")),
                    Tone::Amber,
                )
            };
            vec![
                row.entity.clone(),
                row.declared.as_ref().map_or("—".to_owned(), rate),
                row.live.as_ref().map_or("—".to_owned(), rate),
                change,
                mark,
            ]
        })
        .collect();
    format!(
        "{} declared → live, per hour\n{}",
        output.paint(&format!("{lexicon}:"), Tone::Bold),
        aligned(
            Some(&["ENTITY", "DECLARED", "LIVE", "DELTA", "MARK"]),
            table,
            2
        )
    )
}

/// Refusals and failures in red, partial answers in amber, on stderr after the answer.
fn problems(lexicon: &str, estate: &str, side: &Side, output: &Output) {
    match side {
        Side::Answered(BehaviourOutcome::Refusal(refusal)) => {
            let text = format!(
                "error: {lexicon}: {estate} prediction refused ({}) — {}\n  {}",
                refusal.cause, refusal.reason, refusal.remedy
            );
            output.eprint(&output.paint_err(&text, Tone::Red));
        }
        Side::Failed {
            message,
            unpredicted,
        } => {
            let text = format!(
                "error: {lexicon}: {estate} prediction failed — {message} ({} entity(ies) unpredicted: read failed)",
                unpredicted.len()
            );
            output.eprint(&output.paint_err(&text, Tone::Red));
        }
        Side::Answered(BehaviourOutcome::Report(report)) if report.is_partial() => {
            let total = report.entities.len() + report.unpredicted.len();
            let text = format!(
                "warning: {lexicon}: {} of {total} entities have no {estate} prediction — the answer is partial, not a zero",
                report.unpredicted.len()
            );
            output.eprint(&output.paint_err(&text, Tone::Amber));
        }
        Side::Unsupported => output.warning(&format!(
            "{lexicon}: lexicon does not implement predict_behaviour — skipping"
        )),
        Side::Answered(BehaviourOutcome::Report(_)) => {}
    }
}
