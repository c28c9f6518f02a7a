//! Human output: tables and lists built from command results. JSON shapes live beside
//! the commands that produce them and carry a `schema` field.

pub mod behaviour;
pub mod census;
pub mod live;
pub mod plan;
pub mod table;
pub mod value;
