//! What a mentor offers for instant readings (issue 36): a per-minute rate and the modes. Here, in
//! the catalogue, because the profile carries them; `presence` and the readings read them.

use crate::{Error, Result, money};

/// The lowest per-minute rate: $0.99.
pub const MIN_RATE_CENTS: i64 = 99;
/// The highest per-minute rate: $20.00.
pub const MAX_RATE_CENTS: i64 = 2_000;

pub const RATE_RANGE: &str = "Per-minute rate must be between 0.99 and 20.00, or 0.00 to turn instant readings off";
pub const MODES_REQUIRED: &str = "Instant modes must be chat, video or both";

closed_set! {
    /// How an instant reading happens: in the pair's conversation, or on a one-to-one call.
    #[cfg_attr(feature = "openapi", oai(rename = "InstantMode"))]
    pub enum InstantMode ("instant mode") {
        Chat = "chat",
        Video = "video",
    }
}

/// `perMinuteRate` on the profile: `None` leaves it, `"0.00"` turns readings off (`Some(None)`),
/// otherwise 0.99 to 20.00.
pub fn parse_rate(raw: Option<&str>) -> Result<Option<Option<i64>>> {
    let Some(raw) = raw else { return Ok(None) };
    let cents = money::parse(raw, RATE_RANGE)?;
    if cents == 0 {
        return Ok(Some(None));
    }
    if !(MIN_RATE_CENTS..=MAX_RATE_CENTS).contains(&cents) {
        return Err(Error::validation(RATE_RANGE));
    }
    Ok(Some(Some(cents)))
}

/// `instantModes` on the profile: one or both of chat and video, each once.
pub fn parse_modes(raw: &[String]) -> Result<Vec<String>> {
    let mut modes: Vec<InstantMode> = Vec::new();
    for m in raw {
        let mode: InstantMode = m.trim().parse().map_err(|_| Error::validation(MODES_REQUIRED))?;
        if !modes.contains(&mode) {
            modes.push(mode);
        }
    }
    if modes.is_empty() {
        return Err(Error::validation(MODES_REQUIRED));
    }
    Ok(modes.into_iter().map(|m| m.as_str().to_string()).collect())
}

/// The modes stored on a profile, as the enum (unknown text is skipped; the CHECK allows none).
pub fn modes_of(stored: &[String]) -> Vec<InstantMode> {
    stored.iter().filter_map(|m| m.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_run_from_99_cents_to_20_dollars() {
        assert_eq!(MIN_RATE_CENTS, 99);
        assert_eq!(MAX_RATE_CENTS, 2_000);
    }

    #[test]
    fn rates_are_off_or_between_99_cents_and_20_dollars() {
        assert_eq!(parse_rate(None).unwrap(), None);
        assert_eq!(parse_rate(Some("0.00")).unwrap(), Some(None));
        assert_eq!(parse_rate(Some("0.99")).unwrap(), Some(Some(99)));
        assert_eq!(parse_rate(Some("20")).unwrap(), Some(Some(2_000)));
        for bad in ["0.98", "20.01", "x", "-1"] {
            assert_eq!(parse_rate(Some(bad)).unwrap_err().to_string(), RATE_RANGE, "{bad}");
        }
    }

    #[test]
    fn modes_are_chat_video_or_both() {
        assert_eq!(
            parse_modes(&["video".into(), "chat".into(), "video".into()]).unwrap(),
            ["video", "chat"]
        );
        assert!(parse_modes(&[]).is_err());
        assert!(parse_modes(&["phone".into()]).is_err());
    }
}
