//! What one announcement on `catalogue_changed` says changed (migration `catalogue_change_ids`).

use uuid::Uuid;

/// How far a change to one mentor reaches, widest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// Whether or where the mentor is listed may have changed: every listing.
    Order,
    /// The mentor's search text changed: every search, and what shows the mentor.
    Text,
    /// Only what shows the mentor: their page, their services' pages, the listings showing them.
    View,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Anything may have changed.
    Everything,
    Mentors(Vec<(Reach, Uuid)>),
}

impl Change {
    /// `o<id> t<id> v<id> ...`; an empty payload, or one this process cannot read, is everything.
    pub fn parse(payload: &str) -> Self {
        if payload.is_empty() {
            return Change::Everything;
        }
        let mut touched = Vec::new();
        for item in payload.split(' ') {
            let reach = match item.get(..1) {
                Some("o") => Reach::Order,
                Some("t") => Reach::Text,
                Some("v") => Reach::View,
                _ => return Change::Everything,
            };
            match item.get(1..).and_then(|id| Uuid::parse_str(id).ok()) {
                Some(id) => touched.push((reach, id)),
                None => return Change::Everything,
            }
        }
        Change::Mentors(touched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_name_mentors_and_anything_else_is_everything() {
        let a = Uuid::from_u128(1);
        let b = Uuid::from_u128(2);
        assert_eq!(
            Change::parse(&format!("o{a} v{b}")),
            Change::Mentors(vec![(Reach::Order, a), (Reach::View, b)])
        );
        assert_eq!(Change::parse(&format!("t{a}")), Change::Mentors(vec![(Reach::Text, a)]));
        for odd in ["", " ", "x", &format!("x{a}"), "o123", &format!("o{a}  v{b}"), "é"] {
            assert_eq!(Change::parse(odd), Change::Everything, "{odd:?}");
        }
    }
}
