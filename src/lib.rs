//! chant: what is really deployed, how it differs from what was declared, and what a
//! change would cost — without a state file.

pub mod lifecycle;
pub mod registry;
