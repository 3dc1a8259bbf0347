//! One error type for every business rule; the api maps each kind to an HTTP status.

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input; the text is shown to the user.
    #[error("{0}")]
    Validation(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// It existed but is no longer available (an expired download).
    #[error("{0}")]
    Gone(String),
    /// A conflict of its own kind: the time asked for is taken (by a booking, a hold or a group session).
    #[error("{0}")]
    SlotTaken(String),
    /// A conflict of its own kind: the seeker already holds as many unpaid reservations as allowed.
    #[error("{0}")]
    HoldLimit(String),
    /// A conflict of its own kind: the booking has this seeker's review already.
    #[error("{0}")]
    AlreadyReviewed(String),
    /// Sign-in refused until the e-mail address is verified (a new link helps).
    #[error("{0}")]
    EmailNotVerified(String),
    /// Sign-in refused: an admin deactivated the account (a new link does not help).
    #[error("{0}")]
    AccountDeactivated(String),
    #[error("{0}")]
    TooManyRequests(String),
    /// Sign-in's second step: a wrong code; the attempt goes on.
    #[error("{0}")]
    InvalidTwoFactorCode(String),
    /// Sign-in's second step: the pending sign-in is over (expired, or its last code was wrong).
    #[error("{0}")]
    TwoFactorAttemptEnded(String),
    /// An administrator without two factors where they are required.
    #[error("{0}")]
    TwoFactorRequired(String),
    /// The database does not answer (stopped, restarting, unreachable): worth retrying shortly.
    #[error("the database is unavailable: {0}")]
    Unavailable(#[source] sqlx::Error),
    /// Anything unexpected: logged, never shown.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
    /// A service beside us (the SFU of group calls) does not answer; the text is shown.
    #[error("{0}")]
    ServiceDown(String),
    /// The wallet does not cover what is asked (a reading's first three paid minutes): 402 with
    /// what it lacks.
    #[error("{message}")]
    InsufficientBalance { message: String, missing_cents: i64 },
}

impl Error {
    pub fn validation(message: impl Into<String>) -> Self {
        Self::Validation(message.into())
    }
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::Unauthorized(message.into())
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::Forbidden(message.into())
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(message.into())
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::Conflict(message.into())
    }
}

/// PostgreSQL cannot store the character NUL in text: a request carrying one is bad input.
pub const NUL_IN_TEXT: &str = "Text cannot contain NUL characters";

impl From<sqlx::Error> for Error {
    fn from(err: sqlx::Error) -> Self {
        if is_outage(&err) {
            Self::Unavailable(err)
        } else if is_unstorable_text(&err) {
            Self::Validation(NUL_IN_TEXT.into())
        } else {
            Self::Internal(err.into())
        }
    }
}

/// SQLSTATE 22021 (character_not_in_repertoire, a NUL byte in text) or 22P05 (untranslatable_character,
/// `\u0000` in JSON text): the client sent a string no text column can hold.
fn is_unstorable_text(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("22021" | "22P05")))
}

/// Whether `err` says the database cannot be reached right now, rather than that a query is wrong:
/// no connection within the pool's acquire timeout, a closed pool (the process is shutting down),
/// a broken socket or connection task, or the server shutting down, starting up or out of
/// connections (SQLSTATE classes 08 and 53, 57P01..57P03 and 57P05).
pub fn is_outage(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_) => true,
        // A server going down or coming back can answer a new connection's first message with
        // garbage ('unexpected response from SSLRequest'): the connection's fault, not the query's.
        sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| is_outage_sqlstate(&code)),
        _ => false,
    }
}

/// Class 08: connection exception; class 53: insufficient resources (53300 too many connections);
/// 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, 57P05 idle session timeout.
fn is_outage_sqlstate(code: &str) -> bool {
    code.starts_with("08") || code.starts_with("53") || matches!(code, "57P01" | "57P02" | "57P03" | "57P05")
}

/// Whether anything in the chain of `err` is a database outage (an error wrapped with context
/// keeps its cause there).
pub fn is_outage_chain(err: &anyhow::Error) -> Option<&sqlx::Error> {
    err.chain()
        .filter_map(|cause| cause.downcast_ref::<sqlx::Error>())
        .find(|db| is_outage(db))
}

/// Turns a violation of the named unique or exclusion constraint into a client error.
pub trait OnConstraint<T> {
    fn on_constraint(self, name: &str, to: impl FnOnce() -> Error) -> Result<T>;
    /// The same for any of several constraints (one client error for all of them).
    fn on_constraints(self, names: &[&str], to: impl FnOnce() -> Error) -> Result<T>;
}

impl<T> OnConstraint<T> for std::result::Result<T, sqlx::Error> {
    fn on_constraint(self, name: &str, to: impl FnOnce() -> Error) -> Result<T> {
        self.on_constraints(&[name], to)
    }
    fn on_constraints(self, names: &[&str], to: impl FnOnce() -> Error) -> Result<T> {
        match self {
            Err(sqlx::Error::Database(db)) if db.constraint().is_some_and(|c| names.contains(&c)) => Err(to()),
            other => other.map_err(Error::from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreachable_database_is_an_outage() {
        assert!(is_outage(&sqlx::Error::PoolTimedOut));
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        assert!(is_outage(&sqlx::Error::Io(refused)));
        assert!(matches!(Error::from(sqlx::Error::PoolTimedOut), Error::Unavailable(_)));
        // Seen while PostgreSQL restarted under load (a 500 before this counted as an outage).
        let garbled = sqlx::Error::Protocol("unexpected response from SSLRequest: 0x00".into());
        assert!(is_outage(&garbled));
    }

    #[test]
    fn query_mistakes_are_not_an_outage() {
        assert!(!is_outage(&sqlx::Error::RowNotFound));
        assert!(!is_outage(&sqlx::Error::ColumnNotFound("x".into())));
        assert!(matches!(Error::from(sqlx::Error::RowNotFound), Error::Internal(_)));
    }

    #[test]
    fn a_closing_pool_or_a_crashed_connection_is_an_outage() {
        assert!(is_outage(&sqlx::Error::PoolClosed));
        assert!(is_outage(&sqlx::Error::WorkerCrashed));
    }

    #[test]
    fn an_outage_wrapped_in_context_is_still_found() {
        let wrapped = anyhow::Error::from(sqlx::Error::PoolTimedOut).context("settling a payment");
        assert!(is_outage_chain(&wrapped).is_some());
        let wrong = anyhow::Error::from(sqlx::Error::RowNotFound).context("settling a payment");
        assert!(is_outage_chain(&wrong).is_none());
    }

    #[test]
    fn shutdown_and_connection_sqlstates_are_outages() {
        for code in [
            "57P01", "57P02", "57P03", "57P05", "08006", "08001", "08P01", "53300", "53400",
        ] {
            assert!(is_outage_sqlstate(code), "{code}");
        }
        for code in ["23505", "40001", "57014", "57P04", "42P01", "54000", "52000"] {
            assert!(!is_outage_sqlstate(code), "{code}");
        }
    }
}
