//! The chant binary end to end, driven by the scripted lexicon: every command's human and
//! JSON output and exit code, bad input, and the snapshot branch.

// Each test crate that includes the support module uses a different part of it.
#[allow(dead_code)]
mod support;

mod config;
mod diff;
mod help;
mod import;
mod plan;
mod predict;
mod secrets;
mod snapshot;
mod teardown;
mod whoami;
