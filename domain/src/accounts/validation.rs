//! Input rules for account fields, with the messages the spec gives.

use crate::{Error, Result, text};

pub const MIN_PASSWORD_LEN: usize = 8;
/// Bounds the work of one argon2 hash.
pub const MAX_PASSWORD_LEN: usize = 128;
pub const MAX_NAME_LEN: usize = 100;
pub const MAX_EMAIL_LEN: usize = 254;

pub const PASSWORD_TOO_SHORT: &str = "Password must be at least 8 characters long";
pub const INVALID_EMAIL: &str = "Please enter a valid email address";

/// Trims the address and checks its shape; case is kept, uniqueness ignores it.
pub fn email(raw: &str) -> Result<String> {
    let email = raw.trim();
    if email.is_empty() {
        return Err(Error::validation("Email is required"));
    }
    if email.len() > MAX_EMAIL_LEN {
        return Err(Error::validation("Email must be at most 254 characters"));
    }
    let valid = match email.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !email.chars().any(char::is_whitespace)
                && text::is_single_line(raw)
        }
        None => false,
    };
    if !valid {
        return Err(Error::validation(INVALID_EMAIL));
    }
    Ok(email.to_string())
}

pub fn password(raw: &str) -> Result<()> {
    let chars = raw.chars().count();
    if chars < MIN_PASSWORD_LEN {
        return Err(Error::validation(PASSWORD_TOO_SHORT));
    }
    if chars > MAX_PASSWORD_LEN {
        return Err(Error::validation("Password must be at most 128 characters long"));
    }
    Ok(())
}

/// A required person's name, trimmed; `label` is e.g. "First name".
pub fn name(raw: &str, label: &str) -> Result<String> {
    text::single_line(raw, label)?;
    let name = raw.trim();
    if name.is_empty() {
        return Err(Error::validation(format!("{label} is required")));
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(Error::validation(format!(
            "{label} must be at most {MAX_NAME_LEN} characters"
        )));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<impl std::fmt::Debug>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn password_length_edges() {
        assert_eq!(message(password("1234567")), PASSWORD_TOO_SHORT);
        assert!(password("12345678").is_ok());
        assert!(password(&"x".repeat(MAX_PASSWORD_LEN)).is_ok());
        assert!(password(&"x".repeat(MAX_PASSWORD_LEN + 1)).is_err());
        // characters, not bytes
        assert!(password("ééééééé").is_err());
        assert!(password("éééééééé").is_ok());
    }

    #[test]
    fn emails_are_trimmed_and_checked() {
        assert_eq!(email("  Ann@Example.com ").unwrap(), "Ann@Example.com");
        assert_eq!(message(email("")), "Email is required");
        for bad in [
            "ann\0@example.com",
            "ann@exam\u{202E}ple.com",
            "ann",
            "ann@",
            "@example.com",
            "ann@example",
            "a b@example.com",
            "a@b@c.com",
            "ann@.com",
        ] {
            assert_eq!(message(email(bad)), INVALID_EMAIL, "{bad}");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert!(email(&long).is_err());
    }

    #[test]
    fn names_are_required_and_bounded() {
        assert_eq!(name("  Ann ", "First name").unwrap(), "Ann");
        assert_eq!(message(name("   ", "Last name")), "Last name is required");
        assert!(name(&"a".repeat(MAX_NAME_LEN), "First name").is_ok());
        assert_eq!(
            message(name(&"a".repeat(MAX_NAME_LEN + 1), "First name")),
            "First name must be at most 100 characters"
        );
        assert_eq!(
            message(name("Ann\0", "First name")),
            "First name contains characters that are not allowed"
        );
        assert_eq!(
            message(name("Ann\r", "First name")),
            "First name contains characters that are not allowed",
            "checked before trimming"
        );
        assert_eq!(
            message(name("Ann\u{202E}eeL", "Last name")),
            "Last name contains characters that are not allowed"
        );
    }
}

/// The longest destination a sign-up carries through e-mail verification.
pub const MAX_RETURN_PATH_LEN: usize = 512;
pub const INVALID_RETURN_PATH: &str = "The destination must be a path of this site, starting with a single '/'";

/// A place in this app to come back to after verifying the address (`/become-mentor`): a path that
/// starts with exactly one `/`, never a URL (`//host`, `/\host`, `https://…`) nor control characters.
pub fn return_path(raw: &str) -> Result<String> {
    let path = raw.trim();
    let valid = path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && path.len() <= MAX_RETURN_PATH_LEN
        && !path.chars().any(|c| c.is_control() || c.is_whitespace());
    if !valid {
        return Err(Error::validation(INVALID_RETURN_PATH));
    }
    Ok(path.to_string())
}

#[cfg(test)]
mod return_path_tests {
    use super::*;

    #[test]
    fn only_paths_of_this_site() {
        assert_eq!(return_path("/become-mentor").unwrap(), "/become-mentor");
        assert_eq!(return_path("/mentors?service=tarot").unwrap(), "/mentors?service=tarot");
        for bad in [
            "",
            "become-mentor",
            "//evil.example",
            "/\\evil.example",
            "https://evil.example/",
            "/a b",
            "/a\nb",
        ] {
            assert!(return_path(bad).is_err(), "{bad:?}");
        }
        assert!(return_path(&format!("/{}", "a".repeat(MAX_RETURN_PATH_LEN))).is_err());
    }
}
