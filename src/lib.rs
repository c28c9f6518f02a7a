//! chant: what is really deployed, how it differs from what was declared, and what a
//! change would cost — without a state file.

pub mod cli;
pub mod commands;
pub mod config;
pub mod engine;
pub mod error;
pub mod lifecycle;
pub mod output;
pub mod pretty_json;
pub mod quick_exit;
pub mod registry;
pub mod render;
pub mod snapshot_file;
pub mod store;
