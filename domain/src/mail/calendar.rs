//! iCalendar (RFC 5545) invitations attached to booking e-mails. One UID per booking, so a
//! reschedule (higher SEQUENCE) or a cancellation (METHOD:CANCEL) updates the same event.

use chrono::{DateTime, Utc};

use super::templates::PRODUCT_NAME;
use crate::booking::bookings::Booking;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Request,
    Cancel,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Request => "REQUEST",
            Method::Cancel => "CANCEL",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Invite {
    pub method: Method,
    pub content: String,
}

fn stamp(t: DateTime<Utc>) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

/// Escapes TEXT values (RFC 5545 3.3.11).
fn text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(';', "\\;").replace(',', "\\,").replace('\n', "\\n")
}

/// Folds lines longer than 75 octets (RFC 5545 3.1).
fn fold(line: &str) -> String {
    let mut out = String::new();
    let mut len = 0;
    for c in line.chars() {
        if len + c.len_utf8() > 75 {
            out.push_str("\r\n ");
            len = 1;
        }
        out.push(c);
        len += c.len_utf8();
    }
    out
}

pub fn invite(b: &Booking, method: Method, sequence: i32, link: &str, now: DateTime<Utc>) -> Invite {
    let status = if method == Method::Cancel { "CANCELLED" } else { "CONFIRMED" };
    let lines = [
        "BEGIN:VCALENDAR".to_string(),
        "VERSION:2.0".to_string(),
        format!("PRODID:-//{PRODUCT_NAME}//Bookings//EN"),
        "CALSCALE:GREGORIAN".to_string(),
        format!("METHOD:{}", method.as_str()),
        "BEGIN:VEVENT".to_string(),
        format!("UID:booking-{}@mystic-mentors", b.id),
        format!("SEQUENCE:{sequence}"),
        format!("DTSTAMP:{}", stamp(now)),
        format!("DTSTART:{}", stamp(b.scheduled_at)),
        format!("DTEND:{}", stamp(b.ends_at)),
        format!("SUMMARY:{}", text(&format!("{} with {}", b.service_title, b.mentor_display_name))),
        format!("DESCRIPTION:{}", text(&format!("Your {PRODUCT_NAME} video session. Join from your dashboard: {link}"))),
        format!("URL:{link}"),
        format!("ORGANIZER;CN={}:mailto:{}", text(&b.mentor_display_name), b.mentor_email),
        format!("ATTENDEE;CN={};ROLE=REQ-PARTICIPANT:mailto:{}", text(&format!("{} {}", b.user_first_name, b.user_last_name)), b.user_email),
        format!("STATUS:{status}"),
        "END:VEVENT".to_string(),
        "END:VCALENDAR".to_string(),
    ];
    let content = lines.iter().map(|l| fold(l)).collect::<Vec<_>>().join("\r\n") + "\r\n";
    Invite { method, content }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_fold_and_text_is_escaped() {
        let long = "DESCRIPTION:".to_string() + &"x".repeat(100);
        let folded = fold(&long);
        assert!(folded.split("\r\n").all(|l| l.len() <= 75));
        assert_eq!(folded.replace("\r\n ", ""), long);
        assert_eq!(text("a,b;c\nd"), "a\\,b\\;c\\nd");
    }
}
