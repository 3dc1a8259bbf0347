//! The catalogue: mentor profiles, their services, browsing and search, favourites
//! (reviews are written after bookings and live in `booking::reviews`).

pub mod changes;
pub mod favorites;
pub mod instant;
pub mod listed;
pub mod mentors;
pub mod scheduling_rules;
pub mod search;
pub mod services;
pub mod stats;
pub mod vetting;
pub mod vocabulary;
