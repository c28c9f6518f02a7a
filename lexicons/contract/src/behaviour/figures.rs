//! What one entity's prediction says, and the rules every figure obeys before it is built.
//!
//! A prediction is never a bill: money has one shape, [`PredictedRate`], a rate for one
//! imagined hour with a literal `per-hour` discriminant and no field for an amount, a
//! period, an account or an invoice. Every block carries `at` (the traffic level it was
//! predicted for) and [`Provenance`] (which engine, which version, its stated tolerance,
//! and whether the figure came off a price list or a bill).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The traffic level a prediction is for, echoed verbatim: `100 rps`, `peak hour`.
/// chant does not parse, default or convert it; the engine does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TrafficLevel {
    pub traffic: String,
}

impl TrafficLevel {
    pub fn new(traffic: impl Into<String>) -> Self {
        TrafficLevel {
            traffic: traffic.into(),
        }
    }
}

impl fmt::Display for TrafficLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.traffic)
    }
}

/// The only discriminant a rate can carry: it is for one hour the engine imagined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RatePeriod {
    #[default]
    #[serde(rename = "per-hour")]
    PerHour,
}

/// Money, in the one shape this contract has for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PredictedRate {
    pub rate: RatePeriod,
    /// In `currency` per hour.
    pub per_hour: f64,
    /// ISO 4217, as the engine states it. chant converts nothing.
    pub currency: String,
}

impl PredictedRate {
    pub fn per_hour(per_hour: f64, currency: impl Into<String>) -> Self {
        PredictedRate {
            rate: RatePeriod::PerHour,
            per_hour,
            currency: currency.into(),
        }
    }
}

/// How much of each axis is still free at `at`, as a fraction in `0..=1`. An axis the
/// engine does not model is absent, never zero (zero means saturated).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Headroom {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResilienceVerdict {
    Survives,
    Degrades,
    Fails,
}

impl ResilienceVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Survives => "survives",
            Self::Degrades => "degrades",
            Self::Fails => "fails",
        }
    }
}

/// The verdict under one named failure, and which failure it is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resilience {
    pub failure: String,
    pub verdict: ResilienceVerdict,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A smaller (or larger) size the engine believes would carry the stated traffic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RightSize {
    pub suggestion: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Off a price list, or reconciled against a real bill. Closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    Modeled,
    Validated,
}

impl Basis {
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Modeled => "modeled",
            Basis::Validated => "validated",
        }
    }
}

/// Which engine said it, and how far it can be trusted. Required on every block.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    pub engine: String,
    pub version: String,
    /// The engine's stated tolerance, echoed verbatim (`±15%`).
    pub tolerance: String,
    pub basis: Basis,
}

/// One entity's prediction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PredictedBehaviour {
    pub at: TrafficLevel,
    pub cost: PredictedRate,
    pub headroom: Headroom,
    /// Expected fraction of requests failing at `at`, in `0..=1`.
    pub error_rate: f64,
    /// Present when the request named a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resilience: Option<Resilience>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right_size: Option<RightSize>,
    pub provenance: Provenance,
}

/// Words that state nothing, refused wherever an engine is asked to state something.
const STATES_NOTHING: [&str; 8] = ["n/a", "na", "none", "unknown", "-", "?", "tbd", "null"];

fn states_nothing(value: &str) -> bool {
    let v = value.trim().trim_end_matches('.').to_lowercase();
    v.is_empty() || STATES_NOTHING.contains(&v.as_str())
}

fn fraction(value: f64) -> bool {
    value.is_finite() && (0.0..=1.0).contains(&value)
}

/// Every rule a block obeys, checked before a report holding it exists.
pub fn validate_block(block: &PredictedBehaviour) -> Result<(), String> {
    if block.at.traffic.trim().is_empty() {
        return Err("at.traffic is empty: name the traffic level priced".into());
    }
    let cost = &block.cost;
    if !cost.per_hour.is_finite() || cost.per_hour < 0.0 {
        return Err(format!(
            "cost.perHour {} is not a non-negative number",
            cost.per_hour
        ));
    }
    if cost.currency.len() != 3 || !cost.currency.chars().all(|c| c.is_ascii_uppercase()) {
        return Err(format!(
            "cost.currency `{}` is not an ISO 4217 code",
            cost.currency
        ));
    }
    let Headroom { cpu, latency } = &block.headroom;
    if cpu.is_none() && latency.is_none() {
        return Err("headroom carries neither cpu nor latency".into());
    }
    for (axis, value) in [("cpu", cpu), ("latency", latency)] {
        if let Some(v) = value
            && !fraction(*v)
        {
            return Err(format!("headroom.{axis} {v} is not a fraction 0..1"));
        }
    }
    if !fraction(block.error_rate) {
        return Err(format!(
            "errorRate {} is not a fraction 0..1",
            block.error_rate
        ));
    }
    if let Some(resilience) = &block.resilience
        && states_nothing(&resilience.failure)
    {
        return Err(format!(
            "resilience.failure `{}` names no failure",
            resilience.failure
        ));
    }
    if let Some(hint) = &block.right_size
        && hint.suggestion.trim().is_empty()
    {
        return Err("rightSize has no suggestion".into());
    }
    let p = &block.provenance;
    if p.engine.trim().is_empty() || p.version.trim().is_empty() {
        return Err("provenance names no engine or no version".into());
    }
    if states_nothing(&p.tolerance) {
        return Err(format!(
            "provenance.tolerance `{}` states no tolerance",
            p.tolerance
        ));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn block(at: &str) -> PredictedBehaviour {
        PredictedBehaviour {
            at: TrafficLevel::new(at),
            cost: PredictedRate::per_hour(0.25, "USD"),
            headroom: Headroom {
                cpu: Some(0.4),
                latency: None,
            },
            error_rate: 0.001,
            resilience: None,
            right_size: None,
            provenance: Provenance {
                engine: "acme".into(),
                version: "1.0".into(),
                tolerance: "±15%".into(),
                basis: Basis::Modeled,
            },
        }
    }

    #[test]
    fn a_rate_serializes_with_its_discriminant_and_nothing_owed() {
        let json = serde_json::to_value(PredictedRate::per_hour(0.5, "USD")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"rate": "per-hour", "perHour": 0.5, "currency": "USD"})
        );
        let owed =
            serde_json::json!({"rate": "per-hour", "perHour": 1, "currency": "USD", "amount": 9});
        assert!(serde_json::from_value::<PredictedRate>(owed).is_err());
        let monthly = serde_json::json!({"rate": "per-month", "perHour": 1, "currency": "USD"});
        assert!(serde_json::from_value::<PredictedRate>(monthly).is_err());
    }

    #[test]
    fn a_block_needs_at_and_provenance_to_parse() {
        let mut json = serde_json::to_value(block("100 rps")).unwrap();
        assert!(serde_json::from_value::<PredictedBehaviour>(json.clone()).is_ok());
        json.as_object_mut().unwrap().remove("at");
        assert!(serde_json::from_value::<PredictedBehaviour>(json.clone()).is_err());
        let mut json = serde_json::to_value(block("100 rps")).unwrap();
        json.as_object_mut().unwrap().remove("provenance");
        assert!(serde_json::from_value::<PredictedBehaviour>(json).is_err());
    }

    #[test]
    fn validation_rejects_what_states_nothing() {
        assert!(validate_block(&block("100 rps")).is_ok());
        let mut b = block("");
        assert!(validate_block(&b).unwrap_err().contains("at.traffic"));
        b = block("1 rps");
        b.provenance.tolerance = "n/a".into();
        assert!(validate_block(&b).unwrap_err().contains("tolerance"));
        b = block("1 rps");
        b.headroom = Headroom::default();
        assert!(validate_block(&b).unwrap_err().contains("neither"));
        b = block("1 rps");
        b.error_rate = 1.5;
        assert!(validate_block(&b).is_err());
        b = block("1 rps");
        b.cost.per_hour = -1.0;
        assert!(validate_block(&b).is_err());
        b = block("1 rps");
        b.cost.currency = "dollars".into();
        assert!(validate_block(&b).is_err());
        b = block("1 rps");
        b.resilience = Some(Resilience {
            failure: "none".into(),
            verdict: ResilienceVerdict::Survives,
            note: None,
        });
        assert!(validate_block(&b).unwrap_err().contains("names no failure"));
    }
}
