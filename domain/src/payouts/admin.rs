//! The admins' side of payouts: what waits to be sent, what was sent, marking a payout paid and
//! the CSV for a bulk-payment tool.

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use super::{DESTINATION_HOLD, MANUAL_METHOD, MANUAL_RECIPIENT, PaidMethod, PayoutMethod, PayoutStatus, announce_paid};
use crate::{Error, Result, audit, booking::BookingStatus, choice::Choice, money, payments::PaymentStatus, text};

pub const NOT_ONE_PENDING_PAYOUT: &str = "These bookings are not one pending payout of this mentor";
pub const ALREADY_PAID: &str = "This payout has already been marked as paid";
pub const NO_PREFERENCES: &str = "This mentor has not set payout preferences yet";
pub const MARKED_PAID: &str = "Payout marked as paid";
pub const INVALID_METHOD: &str = "Method must be one of paypal, venmo, zelle or manual";
pub const TEXT_TOO_LONG: &str = "Recipient info must be at most 254 characters and notes at most 1000";
pub const INVALID_EXPORT_STATUS: &str = "Only pending payouts can be exported (status=pending)";

pub const MAX_RECIPIENT_LEN: usize = 254;
pub const MAX_NOTES_LEN: usize = 1000;

/// The CSV's first line.
pub const CSV_HEADER: &str = "mentor,method,recipient,amount,adjustments";

#[derive(Clone, Debug, FromRow)]
pub struct PendingPayout {
    pub id: Uuid,
    pub mentor_id: Uuid,
    pub display_name: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub booking_ids: Vec<Uuid>,
    /// The readings it pays (issue 36), oldest first.
    pub reading_ids: Vec<Uuid>,
    pub booking_count: i32,
    pub pending_amount_cents: i64,
    pub platform_fee_cents: i64,
    pub mentor_net_cents: i64,
    /// What refunds of paid-out bookings took off this payout (zero or negative).
    pub adjustment_cents: i64,
    pub method: Option<PayoutMethod>,
    pub paypal_email: Option<String>,
    pub venmo_username: Option<String>,
    pub zelle_email: Option<String>,
    pub created_at: DateTime<Utc>,
}

impl PendingPayout {
    pub fn recipient(&self) -> Option<&str> {
        match self.method? {
            PayoutMethod::Paypal => self.paypal_email.as_deref(),
            PayoutMethod::Venmo => self.venmo_username.as_deref(),
            PayoutMethod::Zelle => self.zelle_email.as_deref(),
        }
    }
}

/// Every pending payout, newest first, with the mentor and the destination it was made for (later
/// changes to the preferences do not move it).
pub async fn pending(pool: &PgPool) -> Result<Vec<PendingPayout>> {
    Ok(sqlx::query_as!(
        PendingPayout,
        r#"SELECT po.id, po.mentor_id, m.display_name, u.first_name, u.last_name, u.email,
                  ARRAY(SELECT pb.booking_id FROM payout_bookings pb JOIN bookings b ON b.id = pb.booking_id
                        WHERE pb.payout_id = po.id ORDER BY b.scheduled_at, b.id) AS "booking_ids!",
                  ARRAY(SELECT pr.instant_session_id FROM payout_readings pr JOIN instant_sessions s ON s.id = pr.instant_session_id
                        WHERE pr.payout_id = po.id ORDER BY s.ended_at, s.id) AS "reading_ids!",
                  po.booking_count, po.pending_amount_cents, po.platform_fee_cents, po.mentor_net_cents, po.adjustment_cents,
                  po.destination_method AS "method: PayoutMethod",
                  CASE WHEN po.destination_method = $2 THEN po.destination END AS paypal_email,
                  CASE WHEN po.destination_method = $3 THEN po.destination END AS venmo_username,
                  CASE WHEN po.destination_method = $4 THEN po.destination END AS zelle_email, po.created_at
           FROM payouts po JOIN mentors m ON m.id = po.mentor_id JOIN users u ON u.id = m.user_id
           WHERE po.status = $1 ORDER BY po.created_at DESC, po.id"#,
        PayoutStatus::Pending as PayoutStatus,
        PayoutMethod::Paypal as PayoutMethod,
        PayoutMethod::Venmo as PayoutMethod,
        PayoutMethod::Zelle as PayoutMethod,
    )
    .fetch_all(pool)
    .await?)
}

#[derive(Clone, Debug, FromRow)]
pub struct PaidPayout {
    pub id: Uuid,
    pub display_name: String,
    pub method: Option<PaidMethod>,
    pub recipient_info: Option<String>,
    pub mentor_net_cents: i64,
    pub paid_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// Sent payouts, newest first.
pub async fn history(pool: &PgPool) -> Result<Vec<PaidPayout>> {
    Ok(sqlx::query_as!(
        PaidPayout,
        r#"SELECT po.id, m.display_name, po.method AS "method: PaidMethod", po.recipient_info, po.mentor_net_cents,
                  po.paid_at, po.created_at
           FROM payouts po JOIN mentors m ON m.id = po.mentor_id
           WHERE po.status = $1 ORDER BY po.paid_at DESC, po.id"#,
        PayoutStatus::Paid as PayoutStatus,
    )
    .fetch_all(pool)
    .await?)
}

#[derive(Clone, Debug, Default)]
pub struct MarkPaid {
    pub mentor_id: Uuid,
    pub booking_ids: Vec<Uuid>,
    /// The payout's readings (issue 36); with `booking_ids`, exactly what the payout holds.
    pub reading_ids: Vec<Uuid>,
    pub method: Option<Choice<PaidMethod>>,
    pub recipient_info: Option<String>,
    pub notes: Option<String>,
}

fn trimmed(v: &Option<String>) -> Option<String> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Moves the pending payout that holds exactly `booking_ids` to paid, in one transaction with its
/// audit row, the mentor's notification and e-mail. A 409 changes nothing.
pub async fn mark_paid(pool: &PgPool, admin_id: Uuid, req: &MarkPaid, now: DateTime<Utc>) -> Result<Uuid> {
    let named_method = req
        .method
        .as_ref()
        .filter(|sent| !sent.is_blank())
        .map(|sent| sent.value_ignoring_case(INVALID_METHOD))
        .transpose()?;
    let named_recipient = trimmed(&req.recipient_info);
    let notes = trimmed(&req.notes);
    if named_recipient
        .as_deref()
        .is_some_and(|r| r.chars().count() > MAX_RECIPIENT_LEN || !text::is_single_line(r))
        || notes.as_deref().is_some_and(|n| n.chars().count() > MAX_NOTES_LEN)
    {
        return Err(Error::validation(TEXT_TOO_LONG));
    }
    let mut wanted = req.booking_ids.clone();
    wanted.sort();
    wanted.dedup();
    let mut wanted_readings = req.reading_ids.clone();
    wanted_readings.sort();
    wanted_readings.dedup();
    if (wanted.is_empty() && wanted_readings.is_empty())
        || wanted.len() != req.booking_ids.len()
        || wanted_readings.len() != req.reading_ids.len()
    {
        return Err(Error::conflict(NOT_ONE_PENDING_PAYOUT));
    }

    let mut tx = pool.begin().await?;
    let holders = sqlx::query_scalar!(
        r#"SELECT payout_id AS "payout_id!" FROM payout_bookings WHERE booking_id = ANY($1)
           UNION SELECT payout_id FROM payout_readings WHERE instant_session_id = ANY($2)"#,
        &wanted,
        &wanted_readings
    )
    .fetch_all(&mut *tx)
    .await?;
    let [payout_id] = holders[..] else {
        return Err(Error::conflict(NOT_ONE_PENDING_PAYOUT));
    };
    // The row lock makes two admins at once take turns: the second sees it paid.
    let row = sqlx::query!(
        r#"SELECT po.mentor_id, po.status AS "status: PayoutStatus", m.user_id, po.mentor_net_cents,
                  po.destination_method IS NOT NULL AS "has_destination!"
           FROM payouts po JOIN mentors m ON m.id = po.mentor_id WHERE po.id = $1 FOR UPDATE OF po"#,
        payout_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    let (mentor_id, status, mentor_user_id, net_cents, has_destination) = (
        row.mentor_id,
        row.status,
        row.user_id,
        row.mentor_net_cents,
        row.has_destination,
    );
    let mut held = sqlx::query_scalar!("SELECT booking_id FROM payout_bookings WHERE payout_id = $1", payout_id)
        .fetch_all(&mut *tx)
        .await?;
    held.sort();
    let mut held_readings = sqlx::query_scalar!(
        "SELECT instant_session_id FROM payout_readings WHERE payout_id = $1",
        payout_id
    )
    .fetch_all(&mut *tx)
    .await?;
    held_readings.sort();
    if mentor_id != req.mentor_id || held != wanted || held_readings != wanted_readings {
        return Err(Error::conflict(NOT_ONE_PENDING_PAYOUT));
    }
    if status == PayoutStatus::Paid {
        return Err(Error::conflict(ALREADY_PAID));
    }
    // A payout is paid to the destination it was made for (the pending list and the CSV show it);
    // one made while the mentor had none waits for their first preferences.
    if !has_destination {
        return Err(Error::conflict(NO_PREFERENCES));
    }
    // What the admin says they used, falling back as the spec says.
    let method = named_method.unwrap_or(MANUAL_METHOD);
    let recipient = named_recipient.unwrap_or_else(|| MANUAL_RECIPIENT.to_string());
    sqlx::query!(
        "UPDATE payouts SET status = $7, method = $2, recipient_info = $3, notes = $4, paid_at = $5, paid_by = $6 WHERE id = $1",
        payout_id,
        method as PaidMethod,
        &recipient,
        notes.as_deref(),
        now,
        admin_id,
        PayoutStatus::Paid as PayoutStatus,
    )
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut tx,
        audit::AuditEntry {
            admin_id,
            action: "payout.mark_paid",
            object_type: "payout",
            object_id: payout_id.to_string(),
            before: Some(json!({"status": "pending"})),
            after: Some(json!({"status": "paid", "method": method, "recipientInfo": recipient, "notes": notes, "mentorNet": money::format(net_cents)})),
        },
    )
    .await?;
    announce_paid(&mut tx, mentor_user_id, payout_id, net_cents, method).await?;
    tx.commit().await?;
    Ok(payout_id)
}

/// A mentor whose payout the next batch holds back: their destination changed less than
/// [`DESTINATION_HOLD`] ago.
#[derive(Clone, Debug, FromRow)]
pub struct HeldPayout {
    pub mentor_id: Uuid,
    pub display_name: String,
    pub destination_changed_at: DateTime<Utc>,
    /// The first moment a batch uses the new destination.
    pub held_until: DateTime<Utc>,
}

/// Mentors with completed, paid bookings waiting for a payout whose destination changed recently,
/// soonest released first: the admin page says why their payout waits.
pub async fn held(pool: &PgPool) -> Result<Vec<HeldPayout>> {
    Ok(sqlx::query_as!(
        HeldPayout,
        r#"SELECT m.id AS mentor_id, m.display_name, pp.destination_changed_at AS "destination_changed_at!",
                  pp.destination_changed_at + $1::interval AS "held_until!"
           FROM payout_preferences pp JOIN mentors m ON m.id = pp.mentor_id
           WHERE pp.destination_changed_at > now() - $1::interval
             AND EXISTS (SELECT 1 FROM bookings b JOIN payments p ON p.booking_id = b.id AND p.status = $2
                         WHERE b.mentor_id = m.id AND b.status = $3
                           AND NOT EXISTS (SELECT 1 FROM payout_bookings pb WHERE pb.booking_id = b.id))
           ORDER BY 4, m.id"#,
        DESTINATION_HOLD as chrono::Duration,
        PaymentStatus::Approved as PaymentStatus,
        BookingStatus::Completed as BookingStatus,
    )
    .fetch_all(pool)
    .await?)
}

/// Whether `status` names the export's only list.
pub fn check_export_status(status: Option<&str>) -> Result<()> {
    match status.map(str::trim) {
        Some("pending") => Ok(()),
        _ => Err(Error::validation(INVALID_EXPORT_STATUS)),
    }
}

/// A cell as a spreadsheet may open it: a leading = + - @ (or tab, CR) gets a `'` in front, so the
/// spreadsheet never runs it as a formula. Quoting is the CSV writer's.
pub fn formula_safe(raw: &str) -> String {
    if raw.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{raw}")
    } else {
        raw.to_string()
    }
}

/// The recipient as a payment tool takes it: a Venmo handle without its leading @ (the method
/// column says Venmo), so the formula guard has nothing to neutralise and the handle pastes as it is.
fn recipient_cell(method: Option<PayoutMethod>, recipient: &str) -> String {
    match method {
        Some(PayoutMethod::Venmo) => recipient.trim_start_matches('@').to_string(),
        _ => recipient.to_string(),
    }
}

/// The pending payouts as CSV: mentor, method, recipient, amount (the mentor's net, after adjustments),
/// adjustments (what refunds of paid-out bookings took off it).
pub fn csv(payouts: &[PendingPayout]) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    let header: Vec<&str> = CSV_HEADER.split(',').collect();
    out.write_record(&header).expect("writing to memory");
    for p in payouts {
        let row = [
            formula_safe(&p.display_name),
            formula_safe(p.method.map(PayoutMethod::as_str).unwrap_or_default()),
            formula_safe(&recipient_cell(p.method, p.recipient().unwrap_or_default())),
            money::format(p.mentor_net_cents),
            money::format(p.adjustment_cents),
        ];
        out.write_record(&row).expect("writing to memory");
    }
    let bytes = out.into_inner().expect("writing to memory");
    String::from_utf8(bytes).expect("every cell is text")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CSV of one payout to `name` by `method` to `recipient`, its lines apart.
    fn export(name: &str, method: Option<PayoutMethod>, recipient: &str) -> Vec<String> {
        let recipient = Some(recipient.to_owned());
        let payout = PendingPayout {
            id: Uuid::nil(),
            mentor_id: Uuid::nil(),
            display_name: name.into(),
            first_name: "Mira".into(),
            last_name: "Moon".into(),
            email: "mira@example.com".into(),
            booking_ids: Vec::new(),
            reading_ids: Vec::new(),
            booking_count: 1,
            pending_amount_cents: 1_200,
            platform_fee_cents: 200,
            mentor_net_cents: 1_000,
            adjustment_cents: 0,
            method,
            paypal_email: recipient.clone(),
            venmo_username: recipient.clone(),
            zelle_email: recipient,
            created_at: Utc::now(),
        };
        csv(&[payout]).lines().map(str::to_owned).collect()
    }

    #[test]
    fn csv_cells_are_escaped_and_never_formulas() {
        let name = |name: &str| export(name, Some(PayoutMethod::Paypal), "p@pay.example")[1].clone();
        assert_eq!(name("Mira"), "Mira,paypal,p@pay.example,10.00,0.00");
        assert_eq!(
            name("Mira, the seer"),
            "\"Mira, the seer\",paypal,p@pay.example,10.00,0.00"
        );
        assert_eq!(name("say \"hi\""), "\"say \"\"hi\"\"\",paypal,p@pay.example,10.00,0.00");
        assert_eq!(
            name("=HYPERLINK(\"x\")"),
            "\"'=HYPERLINK(\"\"x\"\")\",paypal,p@pay.example,10.00,0.00"
        );
        assert_eq!(name("+1"), "'+1,paypal,p@pay.example,10.00,0.00");
        assert_eq!(name("-1"), "'-1,paypal,p@pay.example,10.00,0.00");
        assert_eq!(name("@mira"), "'@mira,paypal,p@pay.example,10.00,0.00");
        assert_eq!(formula_safe("\tx"), "'\tx");
        assert_eq!(formula_safe("\rx"), "'\rx");
    }

    #[test]
    fn the_export_starts_with_its_header() {
        assert_eq!(export("Mira", None, "")[0], CSV_HEADER);
    }

    #[test]
    fn venmo_handles_lose_their_at_and_other_cells_keep_the_guard() {
        assert_eq!(
            export("Mira", Some(PayoutMethod::Venmo), "@mira-moon")[1],
            "Mira,venmo,mira-moon,10.00,0.00"
        );
        assert_eq!(
            export("Mira", Some(PayoutMethod::Venmo), "=cmd")[1],
            "Mira,venmo,'=cmd,10.00,0.00"
        );
        assert_eq!(
            export("Mira", Some(PayoutMethod::Paypal), "@odd@pay.example")[1],
            "Mira,paypal,'@odd@pay.example,10.00,0.00"
        );
    }

    #[test]
    fn only_pending_exports() {
        assert!(check_export_status(Some("pending")).is_ok());
        for bad in [None, Some("paid"), Some("")] {
            assert_eq!(check_export_status(bad).unwrap_err().to_string(), INVALID_EXPORT_STATUS);
        }
    }
}
