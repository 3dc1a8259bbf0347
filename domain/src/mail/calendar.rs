//! iCalendar (RFC 5545) invitations attached to booking e-mails. One UID per booking, so a
//! reschedule (higher SEQUENCE) or a cancellation (METHOD:CANCEL) updates the same event.

use chrono::{DateTime, Utc};

use super::PRODUCT_NAME;
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

pub(crate) fn stamp(t: DateTime<Utc>) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

/// Content lines longer than this many octets are folded (RFC 5545 3.1).
pub const MAX_LINE_OCTETS: usize = 75;

/// Escapes TEXT values (RFC 5545 3.3.11): backslash, semicolon, comma and newline are escaped;
/// CR and every other control character but tab are dropped (TEXT may not hold them).
pub(crate) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A parameter value (such as CN): quoted, without DQUOTE or control characters, which a
/// parameter value cannot hold (RFC 5545 3.2).
fn param(s: &str) -> String {
    let clean: String = s
        .chars()
        .filter(|c| *c != '"' && (*c == '\t' || !c.is_control()))
        .collect();
    format!("\"{clean}\"")
}

/// Folds lines longer than [`MAX_LINE_OCTETS`] with CRLF and one space, never inside a UTF-8
/// character (RFC 5545 3.1).
pub(crate) fn fold(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / MAX_LINE_OCTETS * 3);
    let mut len = 0;
    for c in line.chars() {
        if len + c.len_utf8() > MAX_LINE_OCTETS {
            out.push_str("\r\n ");
            len = 1;
        }
        out.push(c);
        len += c.len_utf8();
    }
    out
}

/// `organizer` is the platform's own address (`MAIL_FROM`): the invitation names the mentor but never
/// shows their personal e-mail address.
/// The UID of a booking's event, in invitations, the feed and the mentor's own calendar.
pub fn booking_uid(id: uuid::Uuid) -> String {
    format!("booking-{id}@mystic-mentors")
}

pub fn invite(b: &Booking, method: Method, sequence: i32, link: &str, organizer: &str, now: DateTime<Utc>) -> Invite {
    let status = if method == Method::Cancel {
        "CANCELLED"
    } else {
        "CONFIRMED"
    };
    let lines = [
        "BEGIN:VCALENDAR".to_string(),
        "VERSION:2.0".to_string(),
        format!("PRODID:-//{PRODUCT_NAME}//Bookings//EN"),
        "CALSCALE:GREGORIAN".to_string(),
        format!("METHOD:{}", method.as_str()),
        "BEGIN:VEVENT".to_string(),
        format!("UID:{}", booking_uid(b.id)),
        format!("SEQUENCE:{sequence}"),
        format!("DTSTAMP:{}", stamp(now)),
        format!("DTSTART:{}", stamp(b.scheduled_at)),
        format!("DTEND:{}", stamp(b.ends_at)),
        format!(
            "SUMMARY:{}",
            text(&format!("{} with {}", b.service_title, b.mentor_display_name))
        ),
        format!(
            "DESCRIPTION:{}",
            text(&format!(
                "Your {PRODUCT_NAME} video session. Join from your dashboard: {link}"
            ))
        ),
        format!("URL:{link}"),
        format!("ORGANIZER;CN={}:mailto:{}", param(&b.mentor_display_name), organizer),
        format!(
            "ATTENDEE;CN={};ROLE=REQ-PARTICIPANT:mailto:{}",
            param(&format!("{} {}", b.user_first_name, b.user_last_name)),
            b.user_email
        ),
        format!("STATUS:{status}"),
        "END:VEVENT".to_string(),
        "END:VCALENDAR".to_string(),
    ];
    let content = lines.iter().map(|l| fold(l)).collect::<Vec<_>>().join("\r\n") + "\r\n";
    Invite { method, content }
}

/// A confirmed booking for tests of the mail texts.
#[cfg(test)]
pub(crate) fn test_booking(title: &str, mentor: &str) -> Booking {
    let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
    Booking {
        id: uuid::Uuid::nil(),
        status: crate::booking::BookingStatus::Confirmed,
        scheduled_at: start,
        ends_at: start + chrono::Duration::hours(1),
        duration_minutes: 60,
        total_cents: 4000,
        notes: None,
        hold_expires_at: None,
        created_at: start,
        service_id: uuid::Uuid::nil(),
        service_title: title.into(),
        service_type: crate::catalogue::vocabulary::ServiceType::Tarot,
        user_id: uuid::Uuid::nil(),
        user_first_name: "Ann".into(),
        user_last_name: "Lee".into(),
        user_email: "ann@example.com".into(),
        mentor_id: uuid::Uuid::nil(),
        mentor_user_id: uuid::Uuid::nil(),
        mentor_display_name: mentor.into(),
        mentor_profile_image_url: None,
        mentor_email: "mira@example.com".into(),
        user_time_zone: None,
        mentor_time_zone: "UTC".into(),
        calendar_sequence: 0,
        has_review: false,
        review_rating: None,
        review_comment: None,
        refund_percentage: None,
        refund_cents: None,
        refund_status: None,
        cancellation_reason: None,
        group_session_id: None,
        group_session_status: None,
        removal_reason: None,
        refunds: sqlx::types::Json(Vec::new()),
        refunded_cents: 0,
        complaint: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Undoes folding and TEXT escaping, as a calendar client reads a value.
    fn unfold(content: &str) -> String {
        content.replace("\r\n ", "")
    }

    fn unescape(value: &str) -> String {
        let mut out = String::new();
        let mut chars = value.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('n' | 'N') => out.push('\n'),
                    Some(other) => out.push(other),
                    None => out.push('\\'),
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    fn booking(title: &str, mentor: &str) -> Booking {
        super::test_booking(title, mentor)
    }

    fn invite_of(b: &Booking) -> String {
        invite(
            b,
            Method::Request,
            0,
            "http://localhost:8080/dashboard",
            "no-reply@mystic-mentors.test",
            b.created_at,
        )
        .content
    }

    fn physical_lines(content: &str) -> Vec<&str> {
        content.strip_suffix("\r\n").unwrap().split("\r\n").collect()
    }

    #[test]
    fn the_organizer_is_the_platform_with_the_mentors_name() {
        let b = booking("Tarot", "Mira");
        let content = unfold(&invite_of(&b));
        let organizer = content.lines().find(|l| l.starts_with("ORGANIZER")).unwrap();
        assert_eq!(organizer, "ORGANIZER;CN=\"Mira\":mailto:no-reply@mystic-mentors.test");
        assert!(
            !content.contains(&b.mentor_email),
            "the mentor's own address stays private"
        );
    }

    #[test]
    fn text_values_are_escaped_and_control_characters_dropped() {
        assert_eq!(text("a,b;c\nd\\e"), "a\\,b\\;c\\nd\\\\e");
        assert_eq!(text("one\r\ntwo\rthree"), "one\\ntwothree", "CR never reaches the file");
        assert_eq!(text("bell\u{7}\ttab"), "bell\ttab");
        assert_eq!(param("Mira \"the\" Seer;\r\nX"), "\"Mira the Seer;X\"");
    }

    #[test]
    fn a_hostile_title_stays_inside_its_summary() {
        let title = "Tarot\r\nATTENDEE:mailto:evil@example.com\rX, y; z \\ end";
        let content = invite_of(&booking(title, "Mira"));
        assert!(!content.replace("\r\n", "").contains('\r'), "no bare CR");
        assert!(!content.replace("\r\n", "").contains('\n'), "no bare LF");
        let lines = physical_lines(&content);
        assert!(lines.iter().all(|l| l.len() <= MAX_LINE_OCTETS), "{lines:?}");
        let unfolded = unfold(&content);
        let logical: Vec<&str> = physical_lines(&unfolded);
        assert_eq!(
            logical.iter().filter(|l| l.starts_with("ATTENDEE")).count(),
            1,
            "{logical:?}"
        );
        let summary = logical.iter().find_map(|l| l.strip_prefix("SUMMARY:")).unwrap();
        assert_eq!(
            unescape(summary),
            "Tarot\nATTENDEE:mailto:evil@example.comX, y; z \\ end with Mira"
        );
    }

    #[test]
    fn long_multibyte_lines_fold_between_characters() {
        let title = "Медитация 🌙 под звёздами — 星空の瞑想 ".repeat(6);
        let content = invite_of(&booking(&title, "Луна"));
        for line in physical_lines(&content) {
            assert!(line.len() <= MAX_LINE_OCTETS, "{} octets: {line}", line.len());
        }
        assert!(
            physical_lines(&content).iter().filter(|l| l.starts_with(' ')).count() > 3,
            "folded"
        );
        let unfolded = unfold(&content);
        let summary = physical_lines(&unfolded)
            .into_iter()
            .find_map(|l| l.strip_prefix("SUMMARY:"))
            .unwrap();
        assert_eq!(unescape(summary), format!("{title} with Луна"));
        // Every fold point sits between two characters: each physical line is valid UTF-8 by itself.
        for line in content.as_bytes().split(|b| *b == b'\n') {
            assert!(std::str::from_utf8(line).is_ok());
        }
    }

    #[test]
    fn folding_keeps_ascii_lines_whole() {
        let long = "DESCRIPTION:".to_string() + &"x".repeat(100);
        let folded = fold(&long);
        assert!(folded.split("\r\n").all(|l| l.len() <= MAX_LINE_OCTETS));
        assert_eq!(folded.split("\r\n").next().unwrap().len(), MAX_LINE_OCTETS);
        assert_eq!(folded.replace("\r\n ", ""), long);
        assert_eq!(fold("SHORT:1"), "SHORT:1");
    }
}
