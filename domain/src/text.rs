//! Which characters a text field may hold. Control characters break storage (PostgreSQL
//! refuses NUL), headers and calendar files (CR, LF); bidirectional controls make a name or title
//! read differently from what it is. Every text a user sends passes one of these two rules.

use crate::{Error, Result};

/// Invisible characters that reorder the text around them (embeddings, overrides, isolates and
/// the directional marks).
pub const BIDI_CONTROLS: [char; 12] = [
    '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', // embeddings and overrides
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', // isolates
    '\u{200E}', '\u{200F}', '\u{061C}', // marks
];
/// The only control characters a multi-line text (bio, description, comment) may hold.
pub const MULTI_LINE_CONTROLS: [char; 2] = ['\n', '\t'];

/// The message for a field holding a character it may not: "Title contains characters that are not allowed".
pub fn not_allowed(label: &str) -> String {
    format!("{label} contains characters that are not allowed")
}

/// A one-line text (names, titles, search, tags): no control character at all, no bidi control.
pub fn is_single_line(raw: &str) -> bool {
    !raw.chars().any(|c| c.is_control() || BIDI_CONTROLS.contains(&c))
}

/// A multi-line text: newline and tab are the only control characters, no bidi control.
/// A CR is refused: browsers send line breaks as LF in JSON bodies.
pub fn is_multi_line(raw: &str) -> bool {
    !raw.chars()
        .any(|c| (c.is_control() && !MULTI_LINE_CONTROLS.contains(&c)) || BIDI_CONTROLS.contains(&c))
}

/// Refuses a one-line text holding a character it may not; `label` names the field ("Title").
pub fn single_line(raw: &str, label: &str) -> Result<()> {
    if is_single_line(raw) {
        Ok(())
    } else {
        Err(Error::validation(not_allowed(label)))
    }
}

/// Refuses a multi-line text holding a character it may not; `label` names the field ("Bio").
pub fn multi_line(raw: &str, label: &str) -> Result<()> {
    if is_multi_line(raw) {
        Ok(())
    } else {
        Err(Error::validation(not_allowed(label)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_line_texts_refuse_every_control_and_bidi_character() {
        assert!(single_line("Ann-Marie O'Brien, Tarot & Reiki", "Name").is_ok());
        assert!(
            single_line("Zoë 占星術 مرحبا", "Name").is_ok(),
            "letters of any script are fine"
        );
        for bad in ["a\0b", "a\rb", "a\nb", "a\tb", "a\u{7f}b", "a\u{85}b", "a\u{1b}[31mb"] {
            assert_eq!(
                single_line(bad, "Title").unwrap_err().to_string(),
                "Title contains characters that are not allowed",
                "{bad:?}"
            );
        }
        for c in BIDI_CONTROLS {
            assert!(single_line(&format!("abc{c}def"), "Title").is_err(), "{c:?}");
        }
    }

    #[test]
    fn multi_line_texts_allow_only_newline_and_tab() {
        assert!(multi_line("line one\nline two\n\tindented", "Bio").is_ok());
        for bad in ["a\0b", "a\r\nb", "a\rb", "a\u{7}b", "a\u{9b}b"] {
            assert_eq!(
                multi_line(bad, "Bio").unwrap_err().to_string(),
                "Bio contains characters that are not allowed",
                "{bad:?}"
            );
        }
        for c in BIDI_CONTROLS {
            assert!(multi_line(&format!("abc{c}def"), "Bio").is_err(), "{c:?}");
        }
    }
}
