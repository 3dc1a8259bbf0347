//! The platform's fee: the share of each completed session's price the platform keeps; the mentor
//! earns the rest (the net).

use sqlx::PgPool;
use uuid::Uuid;

use crate::{Result, booking::BookingStatus};

/// The platform keeps this share (in percent) of each booking's total.
pub const PLATFORM_FEE_PERCENT: i64 = 15;

/// The fee on one booking's total, in whole cents, half a cent rounded up.
pub fn fee_cents(total_cents: i64) -> i64 {
    // Integer arithmetic: adding half the divisor before dividing rounds half up.
    (total_cents.max(0) * PLATFORM_FEE_PERCENT + 50) / 100
}

/// What a mentor's completed bookings brought in, in cents: `fee + net = gross` always.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Earnings {
    pub gross_cents: i64,
    pub fee_cents: i64,
    pub net_cents: i64,
}

impl Earnings {
    /// The breakdown of bookings with these totals: the fee is taken per booking.
    pub fn of_totals(totals: impl IntoIterator<Item = i64>) -> Self {
        totals.into_iter().fold(Self::default(), |sum, total| {
            let fee = fee_cents(total);
            Self {
                gross_cents: sum.gross_cents + total,
                fee_cents: sum.fee_cents + fee,
                net_cents: sum.net_cents + total - fee,
            }
        })
    }
}

/// The earnings of a mentor's completed bookings.
pub async fn mentor_earnings(db: &PgPool, mentor_id: Uuid) -> Result<Earnings> {
    // One row per distinct price keeps the answer small however many sessions a mentor has had.
    let rows: Vec<(i64, i64)> = sqlx::query!(
        r#"SELECT total_cents, count(*) AS "count!" FROM bookings WHERE mentor_id = $1 AND status = $2 GROUP BY total_cents"#,
        mentor_id,
        BookingStatus::Completed as BookingStatus,
    )
    .fetch_all(db)
    .await?
    .into_iter()
    .map(|r| (r.total_cents, r.count))
    .collect();
    Ok(Earnings::of_totals(
        rows.into_iter()
            .flat_map(|(total, count)| std::iter::repeat_n(total, count as usize)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platform_keeps_fifteen_percent() {
        assert_eq!(fee_cents(10_000), 1_500);
        assert_eq!(fee_cents(4_500), 675);
    }

    #[test]
    fn fee_edges_round_half_a_cent_up() {
        assert_eq!(fee_cents(0), 0);
        assert_eq!(fee_cents(1), 0, "0.15 of a cent");
        assert_eq!(fee_cents(3), 0, "0.45 of a cent");
        assert_eq!(fee_cents(4), 1, "0.6 of a cent");
        assert_eq!(fee_cents(10), 2, "1.5 cents round up");
        assert_eq!(fee_cents(250), 38, "2.50 -> 0.375 -> 0.38");
        assert_eq!(fee_cents(3_333), 500, "33.33 -> 4.9995 -> 5.00");
        assert_eq!(fee_cents(1_999), 300, "19.99 -> 2.9985 -> 3.00");
        assert_eq!(fee_cents(-100), 0, "no fee on a negative total");
    }

    #[test]
    fn net_is_gross_minus_fee_booking_by_booking() {
        assert_eq!(
            Earnings::of_totals([]),
            Earnings {
                gross_cents: 0,
                fee_cents: 0,
                net_cents: 0
            }
        );
        assert_eq!(
            Earnings::of_totals([1]),
            Earnings {
                gross_cents: 1,
                fee_cents: 0,
                net_cents: 1
            }
        );
        assert_eq!(
            Earnings::of_totals([250]),
            Earnings {
                gross_cents: 250,
                fee_cents: 38,
                net_cents: 212
            }
        );
        // Per booking: 0.38 + 0.38, not 15% of 5.00 (0.75).
        assert_eq!(
            Earnings::of_totals([250, 250]),
            Earnings {
                gross_cents: 500,
                fee_cents: 76,
                net_cents: 424
            }
        );
        for totals in [vec![333, 1, 7_777], vec![4_000, 4_000, 99]] {
            let e = Earnings::of_totals(totals.clone());
            assert_eq!(e.fee_cents + e.net_cents, e.gross_cents, "{totals:?}");
            assert_eq!(e.gross_cents, totals.iter().sum::<i64>());
        }
    }
}
