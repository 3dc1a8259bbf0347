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
    #[error("{0}")]
    TooManyRequests(String),
    /// Anything unexpected: logged, never shown.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
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

impl From<sqlx::Error> for Error {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

/// Turns a violation of the named unique or exclusion constraint into a client error.
pub trait OnConstraint<T> {
    fn on_constraint(self, name: &str, to: impl FnOnce() -> Error) -> Result<T>;
}

impl<T> OnConstraint<T> for std::result::Result<T, sqlx::Error> {
    fn on_constraint(self, name: &str, to: impl FnOnce() -> Error) -> Result<T> {
        match self {
            Err(sqlx::Error::Database(db)) if db.constraint() == Some(name) => Err(to()),
            other => other.map_err(Error::from),
        }
    }
}
