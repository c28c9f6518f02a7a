//! Whether two figures may be shown as a plain difference. Provenance does not survive
//! subtraction, so every axis on which a pair disagrees is returned, not the first; a
//! delta across any of them is marked wherever it is shown.

use super::figures::PredictedBehaviour;
use serde::Serialize;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FigureMismatch {
    /// The engine, its version or its stated tolerance differs: two models, two scales.
    MixedEngine,
    /// Different `at`: the same question asked of two different worlds.
    MixedLevel,
    /// Different currencies: chant converts nothing.
    MixedCurrency,
    /// One figure off a price list, the other off a bill.
    MixedBasis,
    /// Verdicts about two different failures.
    MixedFailure,
}

/// Display order, most fundamental first. Membership is the contract; order is presentation.
pub const FIGURE_MISMATCHES: [FigureMismatch; 5] = [
    FigureMismatch::MixedEngine,
    FigureMismatch::MixedLevel,
    FigureMismatch::MixedCurrency,
    FigureMismatch::MixedBasis,
    FigureMismatch::MixedFailure,
];

impl FigureMismatch {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MixedEngine => "mixed-engine",
            Self::MixedLevel => "mixed-level",
            Self::MixedCurrency => "mixed-currency",
            Self::MixedBasis => "mixed-basis",
            Self::MixedFailure => "mixed-failure",
        }
    }

    fn holds(self, a: &PredictedBehaviour, b: &PredictedBehaviour) -> bool {
        let (pa, pb) = (&a.provenance, &b.provenance);
        match self {
            Self::MixedEngine => {
                (&pa.engine, &pa.version, &pa.tolerance) != (&pb.engine, &pb.version, &pb.tolerance)
            }
            Self::MixedLevel => a.at != b.at,
            Self::MixedCurrency => a.cost.currency != b.cost.currency,
            Self::MixedBasis => pa.basis != pb.basis,
            Self::MixedFailure => {
                a.resilience.as_ref().map(|r| &r.failure)
                    != b.resilience.as_ref().map(|r| &r.failure)
            }
        }
    }
}

impl fmt::Display for FigureMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every axis on which `a` and `b` disagree, in [`FIGURE_MISMATCHES`] order.
pub fn compare_figures(a: &PredictedBehaviour, b: &PredictedBehaviour) -> Vec<FigureMismatch> {
    FIGURE_MISMATCHES
        .into_iter()
        .filter(|m| m.holds(a, b))
        .collect()
}

/// True when the pair may be shown as a plain difference, with no mark.
pub fn is_comparable_figure(a: &PredictedBehaviour, b: &PredictedBehaviour) -> bool {
    compare_figures(a, b).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::behaviour::figures::tests::block;
    use crate::behaviour::figures::{Basis, Resilience, ResilienceVerdict, TrafficLevel};

    #[test]
    fn every_axis_is_reported_in_display_order() {
        let a = block("100 rps");
        assert!(is_comparable_figure(&a, &a.clone()));
        let mut b = a.clone();
        b.provenance.basis = Basis::Validated;
        b.at = TrafficLevel::new("1000 rps");
        assert_eq!(
            compare_figures(&a, &b),
            vec![FigureMismatch::MixedLevel, FigureMismatch::MixedBasis]
        );
        b.provenance.tolerance = "±5%".into();
        b.cost.currency = "EUR".into();
        b.resilience = Some(Resilience {
            failure: "one zone lost".into(),
            verdict: ResilienceVerdict::Survives,
            note: None,
        });
        assert_eq!(compare_figures(&a, &b), FIGURE_MISMATCHES.to_vec());
        assert_eq!(compare_figures(&b, &a), FIGURE_MISMATCHES.to_vec());
    }

    #[test]
    fn a_version_alone_makes_it_another_engine() {
        let a = block("1 rps");
        let mut b = a.clone();
        b.provenance.version = "2.0".into();
        assert_eq!(compare_figures(&a, &b), vec![FigureMismatch::MixedEngine]);
    }
}
