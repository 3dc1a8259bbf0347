//! Calendars outside the platform (issue 33): the private feed every user can subscribe to, and
//! the mentor's own CalDAV calendar: its connection, the busy times read from it and the
//! sessions written back to it.

pub mod busy_events;
pub mod caldav;
pub mod connection;
pub mod dav_xml;
pub mod feed;
pub mod store;
pub mod sync;
pub mod writeback;
