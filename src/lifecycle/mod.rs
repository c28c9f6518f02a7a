//! Pure lifecycle algorithms: data in, data out. No I/O, no clock, no environment.

pub mod change_set;
pub mod live_diff;
