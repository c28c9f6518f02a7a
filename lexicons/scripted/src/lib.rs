//! The scripted lexicon.
//!
//! Its declared side is a JSON file of entities; its "live" side is a JSON file per
//! environment describing what a substrate would answer to each hook. It talks to
//! nothing, which makes it the lexicon the engine's and the CLI's tests are driven by,
//! and a way to try chant without any cloud.
//!
//! ```toml
//! [lexicons.scripted]
//! source = "declared.json"          # or a list of files
//! [environments.dev.scripted]
//! live = "live/dev.json"
//! allowed_targets = ["acct-1"]      # optional
//! ```
//!
//! `catalog = "catalog.json"` under `[lexicons.scripted]` names a reference catalog
//! (`{"identities": [...], "refs": [...]}`) for rebuilding live edges. Declared references
//! are written `{"ref": "<entity>"}` inside props. `predict_behaviour` sends the estate to
//! the engine `CHANT_BEHAVIOUR_ENGINE…` names (see `behaviour.rs`).

mod behaviour;
mod declared;
mod lexicon;
mod world;

pub use lexicon::{ScriptedFactory, ScriptedLexicon};
pub use world::{ExportedObject, LiveWorld};

/// The lexicon's name in `chant.toml`.
pub const NAME: &str = "scripted";
