//! Where a PostgreSQL server is in its write-ahead log: the primary's position after a write, and
//! how far a streaming replica has replayed. The api reads the catalogue from a replica only when
//! it has replayed past what a reader must see (`api/src/replica/`, docs/operations.md); the
//! worker shows the lag in its metrics.

use sqlx::PgPool;

mod lag;
pub use lag::LagTracker;

/// The environment variable naming the replica (api and worker).
pub const READ_URL_VAR: &str = "DATABASE_READ_URL";

/// A position in the write-ahead log (a `pg_lsn`), as a number of bytes from its start: positions
/// compare as numbers, and the text form `16/B374D848` is the one PostgreSQL writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lsn(pub u64);

impl std::fmt::Display for Lsn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:X}/{:X}", self.0 >> 32, self.0 & 0xFFFF_FFFF)
    }
}

impl std::str::FromStr for Lsn {
    type Err = ();

    /// `hi/lo` in hexadecimal, each at most 8 digits (as PostgreSQL writes a `pg_lsn`).
    fn from_str(s: &str) -> Result<Self, ()> {
        let (hi, lo) = s.split_once('/').ok_or(())?;
        let half = |part: &str| {
            if part.is_empty() || part.len() > 8 || !part.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(());
            }
            u64::from_str_radix(part, 16).map_err(|_| ())
        };
        Ok(Lsn((half(hi)? << 32) | half(lo)?))
    }
}

fn lsn(bytes: i64) -> Lsn {
    Lsn(u64::try_from(bytes).unwrap_or(0))
}

/// The primary's position now: everything committed before this call is at or before it.
pub async fn primary_position(pool: &PgPool) -> sqlx::Result<Lsn> {
    let bytes = sqlx::query_scalar!(r#"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS "bytes!""#)
        .fetch_one(pool)
        .await?;
    Ok(lsn(bytes))
}

/// How far the replica has replayed; `None` when the server is not a replica (it is then as new
/// as anything: a primary named as its own replica).
pub async fn replayed_position(pool: &PgPool) -> sqlx::Result<Option<Lsn>> {
    let bytes = sqlx::query_scalar!(
        r#"SELECT CASE WHEN pg_is_in_recovery()
                  THEN pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint END AS "bytes""#
    )
    .fetch_one(pool)
    .await?;
    Ok(bytes.map(lsn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_read_and_write_as_postgresql_writes_them() {
        assert_eq!("0/0".parse(), Ok(Lsn(0)));
        assert_eq!("16/B374D848".parse(), Ok(Lsn(0x16_B374_D848)));
        assert_eq!(Lsn(0x16_B374_D848).to_string(), "16/B374D848");
        assert_eq!("0/3000148".parse::<Lsn>().unwrap().to_string(), "0/3000148");
        assert!("0/3000148".parse::<Lsn>().unwrap() < "1/0".parse().unwrap());
        for bad in ["", "/", "1/", "/1", "1/2/3", "x/1", "123456789/0", "1 /2", "-1/2"] {
            assert!(bad.parse::<Lsn>().is_err(), "{bad}");
        }
    }
}
