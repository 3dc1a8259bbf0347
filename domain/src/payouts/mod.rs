//! Paying mentors: their payout preferences, the weekly batch that turns completed paid bookings
//! into one pending payout per mentor, what a mentor has earned, and the admins' side (pending
//! payouts, history, mark-paid, CSV export).
//!
//! Rules (spec 02 and docs/payouts.md): the platform keeps 15% of each booking (taken per booking
//! in whole cents, half up: `payments::fees`); a booking is in at most one payout, ever (the
//! database's primary key on `payout_bookings.booking_id`); a mentor whose net is below their
//! minimum payout (default 50.00) rolls over to the next batch.

pub mod adjustments;
pub mod admin;
pub mod batch;
pub mod earnings;
pub mod jobs;
pub mod preferences;

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    Result,
    job_queue::email::{self, EmailJob},
    money, notifications,
};

/// A mentor without preferences is paid once their net reaches $50.00.
pub const DEFAULT_MINIMUM_PAYOUT_CENTS: i64 = 5_000;

/// A destination changed less than this before a batch is not used by that batch: the mentor's
/// payout waits for the next one, so whoever changed it (perhaps not the mentor) cannot take the
/// money before the mentor has heard of the change.
pub const DESTINATION_HOLD: chrono::Duration = chrono::Duration::hours(72);

closed_set! {
    /// A payout is pending until an admin marks it paid.
    pub enum PayoutStatus ("payout status") {
        Pending = "pending",
        Paid = "paid",
    }
}

closed_set! {
    /// The methods a mentor can choose: their preferences and a payout's destination.
    pub enum PayoutMethod ("payout method") {
        Paypal = "paypal",
        Venmo = "venmo",
        Zelle = "zelle",
    }
}

closed_set! {
    /// What an admin says a payout was paid with: a mentor's method, or by hand.
    pub enum PaidMethod ("paid method") {
        Paypal = "paypal",
        Venmo = "venmo",
        Zelle = "zelle",
        Manual = "manual",
    }
}

/// Mark-paid's method when the admin names none.
pub const MANUAL_METHOD: PaidMethod = PaidMethod::Manual;
/// Mark-paid's recipient when the admin names none.
pub const MANUAL_RECIPIENT: &str = "Manual payout";

impl PaidMethod {
    /// How a method reads in texts.
    pub fn label(self) -> &'static str {
        match self {
            Self::Paypal => "PayPal",
            Self::Venmo => "Venmo",
            Self::Zelle => "Zelle",
            Self::Manual => "Manual",
        }
    }
}

impl From<PayoutMethod> for PaidMethod {
    fn from(m: PayoutMethod) -> Self {
        match m {
            PayoutMethod::Paypal => Self::Paypal,
            PayoutMethod::Venmo => Self::Venmo,
            PayoutMethod::Zelle => Self::Zelle,
        }
    }
}

impl PayoutMethod {
    /// How a method reads in texts.
    pub fn label(self) -> &'static str {
        PaidMethod::from(self).label()
    }
}

/// What a payout e-mail needs.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PayoutMail {
    pub mentor_user_id: uuid::Uuid,
    pub email: String,
    pub first_name: String,
    pub status: PayoutStatus,
    pub booking_count: i32,
    pub pending_amount_cents: i64,
    pub platform_fee_cents: i64,
    pub mentor_net_cents: i64,
    pub method: Option<PaidMethod>,
}

pub async fn find_for_mail(db: &sqlx::PgPool, payout_id: Uuid) -> Result<Option<PayoutMail>> {
    Ok(sqlx::query_as!(
        PayoutMail,
        r#"SELECT u.id AS mentor_user_id, u.email, u.first_name, po.status AS "status: PayoutStatus", po.booking_count,
                  po.pending_amount_cents, po.platform_fee_cents, po.mentor_net_cents, po.method AS "method: PaidMethod"
           FROM payouts po JOIN mentors m ON m.id = po.mentor_id JOIN users u ON u.id = m.user_id WHERE po.id = $1"#,
        payout_id,
    )
    .fetch_optional(db)
    .await?)
}

/// A mentor's e-mail address and first name.
pub async fn mentor_for_mail(db: &sqlx::PgPool, mentor_id: Uuid) -> Result<Option<(String, String)>> {
    let row = sqlx::query!(
        "SELECT u.email, u.first_name FROM mentors m JOIN users u ON u.id = m.user_id WHERE m.id = $1",
        mentor_id
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| (r.email, r.first_name)))
}

/// The mentor's notification and e-mail for a new pending payout.
async fn announce_created(
    conn: &mut PgConnection,
    mentor_user_id: Uuid,
    payout_id: Uuid,
    net_cents: i64,
    bookings: usize,
) -> Result<()> {
    let sessions = if bookings == 1 {
        "1 session".to_string()
    } else {
        format!("{bookings} sessions")
    };
    notifications::notify(
        conn,
        mentor_user_id,
        notifications::Kind::PaymentReceived,
        "Payout on its way",
        &format!(
            "A payout of ${} for {sessions} is being prepared.",
            money::format(net_cents)
        ),
        Some("/mentor-dashboard"),
    )
    .await?;
    email::enqueue(conn, &EmailJob::PayoutCreated { payout_id }).await
}

/// The mentor hears of a changed payout destination at once, by notification and e-mail (sent
/// whatever their e-mail preferences: it may be someone else changing it).
async fn announce_destination_changed(
    conn: &mut PgConnection,
    mentor_id: Uuid,
    old: &preferences::Preferences,
    new: &preferences::Preferences,
) -> Result<()> {
    let (old, new) = (preferences::masked(old), preferences::masked(new));
    let mentor_user_id = sqlx::query_scalar!("SELECT user_id FROM mentors WHERE id = $1", mentor_id)
        .fetch_one(&mut *conn)
        .await?;
    notifications::notify(
        conn,
        mentor_user_id,
        notifications::Kind::PayoutDestinationChanged,
        "Payout method changed",
        &format!(
            "Your payouts now go to {new} instead of {old}. Payouts wait {} hours after a change. \
             If you did not make this change, contact support at once.",
            DESTINATION_HOLD.num_hours()
        ),
        Some("/mentor-dashboard"),
    )
    .await?;
    email::enqueue(conn, &EmailJob::PayoutDestinationChanged { mentor_id, old, new }).await
}

/// The mentor's notification and e-mail once a payout was sent.
async fn announce_paid(
    conn: &mut PgConnection,
    mentor_user_id: Uuid,
    payout_id: Uuid,
    net_cents: i64,
    method: PaidMethod,
) -> Result<()> {
    notifications::notify(
        conn,
        mentor_user_id,
        notifications::Kind::PaymentReceived,
        "Payout sent",
        &format!(
            "Your payout of ${} was sent ({}).",
            money::format(net_cents),
            method.label()
        ),
        Some("/mentor-dashboard"),
    )
    .await?;
    email::enqueue(conn, &EmailJob::PayoutPaid { payout_id }).await
}
