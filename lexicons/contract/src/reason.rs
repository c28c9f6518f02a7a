//! Why a declared entity was not observed. The set is closed and total: a lexicon picks one.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnobservedReason {
    /// The provider was reached and the read errored.
    ReadFailed,
    /// No usable credentials for the target.
    NoCredentials,
    /// The environment resolves to no concrete target.
    NoBinding,
    /// The lexicon has no reader for this entity type.
    UnsupportedKind,
    /// Reached, but withheld by `--owned` (it exists, it just is not ours).
    Filtered,
}

impl UnobservedReason {
    pub const ALL: [UnobservedReason; 5] = [
        Self::ReadFailed,
        Self::NoCredentials,
        Self::NoBinding,
        Self::UnsupportedKind,
        Self::Filtered,
    ];

    /// The wire spelling (`read-failed`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReadFailed => "read-failed",
            Self::NoCredentials => "no-credentials",
            Self::NoBinding => "no-binding",
            Self::UnsupportedKind => "unsupported-kind",
            Self::Filtered => "filtered",
        }
    }

    /// The words a person reads.
    pub fn text(self) -> &'static str {
        match self {
            Self::ReadFailed => "read failed",
            Self::NoCredentials => "no credentials",
            Self::NoBinding => "no binding for this environment",
            Self::UnsupportedKind => "no reader for this resource kind",
            Self::Filtered => "withheld by the --owned filter",
        }
    }
}

impl fmt::Display for UnobservedReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
