//! The aws lexicon (being written).
