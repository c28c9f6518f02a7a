//! From a request to an answer: load flows in at the entry points (entities nothing
//! references; every entity when the caller computed no edges) and along each edge to
//! what is referenced. Each priced entity gets its cost at that load, CPU headroom from
//! its utilisation, latency from a queueing curve plus the slowest thing it calls, an
//! error rate from the load it sheds, a verdict under the named failure, and a size hint.

use crate::prices::{CURRENCY, Model, Price, Units, model_for};
use crate::wire::{
    Answer, At, EngineName, Headroom, Hole, Prediction, Provenance, Rate, Request, Resilience,
    RightSize, WIRE,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub const ENGINE: &str = "chant-example-engine";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const TOLERANCE: &str = "±20%";

/// Reconciled per-hour rates by entity name, from an invoice: figures for live entities
/// with a line here are `validated`.
#[derive(Default, serde::Deserialize)]
pub struct Invoice {
    pub currency: String,
    pub rates: BTreeMap<String, f64>,
}

/// Why a request gets no answer at all.
pub struct BadRequest(pub String);

/// Requests per second, from `100`, `100rps`, `100 rps` or `100/s`.
pub fn parse_traffic(level: &str) -> Option<f64> {
    let number: String = level
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let rest = level.trim()[number.len()..].trim().to_ascii_lowercase();
    let rps = number.parse::<f64>().ok()?;
    (["", "rps", "/s", "req/s"].contains(&rest.as_str()) && rps.is_finite() && rps >= 0.0)
        .then_some(rps)
}

/// Capacity lost under a named failure, as the fraction of units that remain.
fn surviving_units(failure: &str, units: f64) -> Result<f64, BadRequest> {
    match failure {
        "one zone lost" => Ok((units / 2.0).floor()),
        "one instance lost" => Ok((units - 1.0).max(0.0)),
        other => Err(BadRequest(format!(
            "no model for the failure `{other}` (this engine knows `one zone lost` and `one instance lost`)"
        ))),
    }
}

fn units_of(model: &Model, props: &Value) -> Result<f64, String> {
    match &model.units {
        Units::Count(prop) => match props.get(*prop) {
            None => Ok(1.0),
            Some(v) => v
                .as_f64()
                .filter(|n| *n >= 0.0)
                .ok_or_else(|| format!("`{prop}` is not a count")),
        },
        Units::Size(prop, sizes) => {
            let size = props.get(*prop).and_then(Value::as_str).unwrap_or("small");
            sizes
                .iter()
                .find(|(name, _)| *name == size)
                .map(|(_, factor)| *factor)
                .ok_or_else(|| format!("no price for {prop} `{size}`"))
        }
    }
}

struct Sized {
    model: &'static Model,
    units: f64,
    load: f64,
}

pub fn answer(request: &Request, invoice: Option<&Invoice>) -> Result<Answer, BadRequest> {
    if request.wire != WIRE {
        return Err(BadRequest(format!(
            "this engine speaks {WIRE}, not `{}`",
            request.wire
        )));
    }
    let rps = parse_traffic(&request.traffic).ok_or_else(|| {
        BadRequest(format!(
            "cannot read the traffic level `{}` (say `100 rps`)",
            request.traffic
        ))
    })?;
    let names: BTreeSet<&str> = request.entities.iter().map(|e| e.name.as_str()).collect();
    let edges: Vec<(&str, &str)> = request
        .edges
        .iter()
        .flatten()
        .filter(|e| names.contains(e.from.as_str()) && names.contains(e.to.as_str()))
        .map(|e| (e.from.as_str(), e.to.as_str()))
        .collect();
    let load = loads(request, &edges, rps);

    let mut predictions = BTreeMap::new();
    let mut unpredicted = BTreeMap::new();
    let mut sized = BTreeMap::new();
    for entity in &request.entities {
        let Some(model) = model_for(&entity.entity_type) else {
            unpredicted.insert(
                entity.name.clone(),
                Hole {
                    reason: "unsupported-kind",
                    detail: format!("no price or capacity model for {}", entity.entity_type),
                },
            );
            continue;
        };
        match units_of(model, &entity.props) {
            Ok(units) => {
                sized.insert(
                    entity.name.as_str(),
                    Sized {
                        model,
                        units,
                        load: load[entity.name.as_str()],
                    },
                );
            }
            Err(detail) => {
                unpredicted.insert(
                    entity.name.clone(),
                    Hole {
                        reason: "read-failed",
                        detail,
                    },
                );
            }
        }
    }
    let latency = latencies(&sized, &edges);
    for (name, s) in &sized {
        let utilisation = s.model.capacity_per_unit.map(|cap| {
            if s.units == 0.0 {
                f64::INFINITY
            } else {
                s.load / (cap * s.units)
            }
        });
        let shed = utilisation.map_or(0.0, |u| if u > 1.0 { 1.0 - 1.0 / u } else { 0.0 });
        let (cost, basis) = cost(name, s, request, invoice);
        let resilience = match &request.failure {
            Some(failure) => Some(resilience(failure, s)?),
            None => None,
        };
        predictions.insert(
            (*name).to_owned(),
            Prediction {
                at: At {
                    traffic: request.traffic.clone(),
                },
                cost,
                headroom: Headroom {
                    cpu: utilisation.map(|u| round((1.0 - u).clamp(0.0, 1.0))),
                    latency: Some(round(
                        (1.0 - latency[name] / s.model.latency_objective_ms).clamp(0.0, 1.0),
                    )),
                },
                error_rate: round((0.0005 + shed).min(1.0)),
                resilience,
                right_size: right_size(s, utilisation),
                provenance: Provenance {
                    engine: ENGINE,
                    version: VERSION,
                    tolerance: TOLERANCE,
                    basis,
                },
            },
        );
    }
    Ok(Answer {
        wire: WIRE,
        engine: EngineName {
            name: ENGINE,
            version: VERSION,
        },
        at: request.traffic.clone(),
        predictions,
        unpredicted,
    })
}

/// Entry points take the whole traffic; each edge hands its source's load to its target.
fn loads<'a>(
    request: &'a Request,
    edges: &[(&'a str, &'a str)],
    rps: f64,
) -> BTreeMap<&'a str, f64> {
    let referenced: BTreeSet<&str> = edges.iter().map(|(_, to)| *to).collect();
    let mut load: BTreeMap<&str, f64> = request
        .entities
        .iter()
        .map(|e| {
            let entry = request.edges.is_none() || !referenced.contains(e.name.as_str());
            (e.name.as_str(), if entry { rps } else { 0.0 })
        })
        .collect();
    // Relax along edges; a cycle stops after as many rounds as there are entities.
    for _ in 0..request.entities.len() {
        let mut next: BTreeMap<&str, f64> = load
            .keys()
            .map(|name| {
                (
                    *name,
                    if referenced.contains(name) {
                        0.0
                    } else {
                        load[name]
                    },
                )
            })
            .collect();
        for (from, to) in edges {
            *next.entry(to).or_default() += load[from];
        }
        if next == load {
            break;
        }
        load = next;
    }
    load
}

/// Own queueing latency plus the slowest priced dependency.
fn latencies<'a>(
    sized: &BTreeMap<&'a str, Sized>,
    edges: &[(&'a str, &'a str)],
) -> BTreeMap<&'a str, f64> {
    let own: BTreeMap<&str, f64> = sized
        .iter()
        .map(|(name, s)| {
            let u = s.model.capacity_per_unit.map_or(0.0, |cap| {
                if s.units == 0.0 {
                    1.0
                } else {
                    (s.load / (cap * s.units)).min(0.95)
                }
            });
            (*name, s.model.base_latency_ms / (1.0 - u))
        })
        .collect();
    let mut total = own.clone();
    for _ in 0..sized.len() {
        let mut changed = false;
        for (name, latency) in own.iter() {
            let slowest = edges
                .iter()
                .filter(|(from, _)| from == name)
                .filter_map(|(_, to)| total.get(to))
                .fold(0.0_f64, |a, b| a.max(*b));
            let value = latency + slowest;
            if (value - total[name]).abs() > f64::EPSILON {
                total.insert(name, value);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    total
}

fn cost(
    name: &str,
    s: &Sized,
    request: &Request,
    invoice: Option<&Invoice>,
) -> (Rate, &'static str) {
    if request.estate == "live"
        && let Some(invoice) = invoice
        && let Some(rate) = invoice.rates.get(name)
    {
        return (
            Rate {
                rate: "per-hour",
                per_hour: round(*rate),
                currency: invoice.currency.clone(),
            },
            "validated",
        );
    }
    let per_hour = match s.model.price {
        Price::PerUnitHour(price) => price * s.units,
        Price::PerMillionRequests(price) => s.load * 3600.0 * price / 1_000_000.0,
    };
    (
        Rate {
            rate: "per-hour",
            per_hour: round(per_hour),
            currency: CURRENCY.to_owned(),
        },
        "modeled",
    )
}

fn resilience(failure: &str, s: &Sized) -> Result<Resilience, BadRequest> {
    let left = surviving_units(failure, s.units)?;
    let (verdict, note) = match s.model.capacity_per_unit {
        None => (
            "survives",
            "a managed queue keeps accepting writes".to_owned(),
        ),
        Some(_) if left == 0.0 => ("fails", format!("no unit of {} is left", s.units)),
        Some(cap) if s.load > cap * left => (
            "degrades",
            format!(
                "{left} unit(s) left carry {:.0} of {:.0} rps",
                cap * left,
                s.load
            ),
        ),
        Some(_) => ("survives", format!("{left} unit(s) left carry the load")),
    };
    Ok(Resilience {
        failure: failure.to_owned(),
        verdict,
        note,
    })
}

fn right_size(s: &Sized, utilisation: Option<f64>) -> Option<RightSize> {
    let u = utilisation?;
    let cap = s.model.capacity_per_unit?;
    let Units::Count(prop) = s.model.units else {
        return None;
    };
    let wanted = (s.load / (cap * 0.6)).ceil().max(1.0);
    let reason = format!("{:.0}% utilised at this level", u * 100.0);
    ((u < 0.25 && wanted < s.units) || u > 0.8).then(|| RightSize {
        suggestion: format!("{prop}: {wanted}"),
        reason,
    })
}

fn round(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}
