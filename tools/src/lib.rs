//! Developer commands that never ship in the production binaries: the demo data (`seed`) and
//! the job system's benchmark (`bench`).

// Command-line tools: what they print is their answer.
#![allow(clippy::print_stdout)]

pub mod bench;
pub mod seed;
