//! The k8s lexicon (being written).
