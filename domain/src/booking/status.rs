//! The states of a booking. A paid service is first held ('reserved', until the hold expires,
//! then 'expired'); a booking is 'pending' or 'confirmed' while it is live, then 'completed' or
//! 'cancelled'. Stored as text; a new state added here makes the compiler find every `match`.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};
use sqlx::{
    Decode, Encode, Postgres, Type,
    encode::IsNull,
    error::BoxDynError,
    postgres::{PgArgumentBuffer, PgTypeInfo, PgValueRef},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookingStatus {
    Reserved,
    Pending,
    Confirmed,
    Completed,
    Cancelled,
    Expired,
}

impl BookingStatus {
    pub const ALL: [BookingStatus; 6] = [
        Self::Reserved,
        Self::Pending,
        Self::Confirmed,
        Self::Completed,
        Self::Cancelled,
        Self::Expired,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Reserved => "reserved",
            Self::Pending => "pending",
            Self::Confirmed => "confirmed",
            Self::Completed => "completed",
            Self::Cancelled => "cancelled",
            Self::Expired => "expired",
        }
    }

    /// Pending or confirmed: the session is still to take place.
    pub fn is_live(self) -> bool {
        matches!(self, Self::Pending | Self::Confirmed)
    }

    /// A hold, paid or lapsed: not yet (or never) a booking.
    pub fn is_hold(self) -> bool {
        matches!(self, Self::Reserved | Self::Expired)
    }
}

impl fmt::Display for BookingStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BookingStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| format!("not a booking status: {s}"))
    }
}

impl Type<Postgres> for BookingStatus {
    fn type_info() -> PgTypeInfo {
        <String as Type<Postgres>>::type_info()
    }
    fn compatible(ty: &PgTypeInfo) -> bool {
        <String as Type<Postgres>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Postgres> for BookingStatus {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(<&str as Decode<Postgres>>::decode(value)?.parse()?)
    }
}

impl Encode<'_, Postgres> for BookingStatus {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        <&str as Encode<Postgres>>::encode(self.as_str(), buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in BookingStatus::ALL {
            assert_eq!(s.as_str().parse::<BookingStatus>().unwrap(), s);
            assert_eq!(serde_json::to_value(s).unwrap(), serde_json::json!(s.as_str()));
        }
        assert!("held".parse::<BookingStatus>().is_err());
        assert!(BookingStatus::Confirmed.is_live() && !BookingStatus::Completed.is_live());
    }
}
