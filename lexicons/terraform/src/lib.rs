//! The terraform lexicon: terraform roots declared as HCL, observed through
//! `terraform show -json` (stock roots: ownership is state membership) or
//! `choudoufu live-plan -json` (live roots: ownership is the `tofu-estate` tag).
//!
//! The configuration format, entity names and types, and the choudoufu document shapes
//! are in this crate's README.

pub mod address;
pub mod ambient;
pub mod backend;
pub mod declared;
pub mod describe;
pub mod drift;
pub mod identity;
pub mod lexicon;
pub mod live;
pub mod settings;
pub mod stock;
pub mod teardown;
pub mod tool;
pub mod verdict;

pub use lexicon::{TOFU_TAG_KEYS, TerraformFactory, TerraformLexicon};

/// The lexicon's name in `chant.toml`.
pub const NAME: &str = "terraform";
