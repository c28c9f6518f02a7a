//! The terraform lexicon (being written).
