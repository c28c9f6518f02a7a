//! The census: how many entities per lexicon were looked at, and what came of it.

use crate::commands::read::{Reading, Thin};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CensusRow {
    pub lexicon: String,
    pub declared: usize,
    pub present: usize,
    pub absent: usize,
    pub unobserved: usize,
    /// Live objects the read returned that nothing declares.
    pub undeclared_live: usize,
    /// `observed`, `unsupported` or `refused`.
    pub read: &'static str,
}

pub fn census(readings: &[Reading]) -> Vec<CensusRow> {
    readings
        .iter()
        .map(|r| {
            let names = r.declared.names();
            let mut row = CensusRow {
                lexicon: r.declared.name().to_owned(),
                declared: names.len(),
                present: 0,
                absent: 0,
                unobserved: 0,
                undeclared_live: 0,
                read: match r.thin {
                    Thin::Observed(_) => "observed",
                    Thin::Unsupported => "unsupported",
                    Thin::Refused(_) => "refused",
                },
            };
            match r.observation() {
                Some(obs) => {
                    for name in &names {
                        if obs.resources.contains_key(name) {
                            row.present += 1;
                        } else if obs.unobserved.contains_key(name) {
                            row.unobserved += 1;
                        } else {
                            row.absent += 1;
                        }
                    }
                    row.undeclared_live =
                        obs.resources.keys().filter(|n| !names.contains(n)).count();
                }
                None => row.unobserved = names.len(),
            }
            row
        })
        .collect()
}

/// `Looked at: sql 5 declared (4 present, 1 absent), 2 undeclared live; k8s …`
pub fn render(rows: &[CensusRow]) -> String {
    let parts: Vec<String> = rows
        .iter()
        .map(|row| match row.read {
            "unsupported" => format!("{} {} declared (no live reader)", row.lexicon, row.declared),
            "refused" => format!("{} {} declared (refused)", row.lexicon, row.declared),
            _ => {
                let mut detail = vec![
                    format!("{} present", row.present),
                    format!("{} absent", row.absent),
                ];
                if row.unobserved > 0 {
                    detail.push(format!("{} not observed", row.unobserved));
                }
                format!(
                    "{} {} declared ({}), {} undeclared live",
                    row.lexicon,
                    row.declared,
                    detail.join(", "),
                    row.undeclared_live
                )
            }
        })
        .collect();
    format!("Looked at: {}", parts.join("; "))
}
