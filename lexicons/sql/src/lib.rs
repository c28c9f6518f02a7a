//! The sql lexicon (being written).
