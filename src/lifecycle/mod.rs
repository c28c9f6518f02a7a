//! Pure lifecycle algorithms: data in, data out. No I/O, no clock, no environment.

pub mod baseline;
pub mod canonical;
pub mod change_set;
pub mod deep;
pub mod digest;
pub mod live_diff;
pub mod mask;
pub mod teardown;
