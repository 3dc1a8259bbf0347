//! Download my data (issue 35): a user asks for a copy of what the service holds about them; a job
//! builds a zip of JSON files (the API's own camelCase field names) and their uploaded files into
//! `EXPORT_DIR`, which only they can download, for [`DOWNLOADABLE_FOR`].

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use crate::{Error, Result, job_queue, notifications, uploads};

/// One export per this long (a failed one does not count).
pub const EXPORT_EVERY: Duration = Duration::hours(24);
/// A built archive can be downloaded this long; the cleanup then deletes it.
pub const DOWNLOADABLE_FOR: Duration = Duration::days(7);
pub const TOO_SOON: &str = "You can ask for a copy of your data once every 24 hours.";
pub const NOT_FOUND: &str = "Export not found";
pub const EXPIRED: &str = "This download has expired. Please ask for a new copy of your data.";
pub const NOT_READY: &str = "This export is not ready yet.";
/// The notification (and e-mail) when the archive is ready.
pub const READY_TITLE: &str = "Your data is ready to download";
pub const READY_MESSAGE: &str = "The copy of your data you asked for is ready. It can be downloaded for 7 days.";
/// Where the user finds their exports (the Privacy and security section of the profile).
pub const EXPORTS_PAGE: &str = "/profile#privacy-and-security";

closed_set! {
    /// Where an export stands; `expired` is also what a ready one past `expiresAt` reads.
    #[cfg_attr(feature = "openapi", oai(rename = "DataExportStatus"))]
    pub enum ExportStatus ("data export status") {
        Pending = "pending",
        Ready = "ready",
        Expired = "expired",
        Failed = "failed",
    }
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct DataExport {
    pub id: Uuid,
    pub user_id: Uuid,
    pub status: ExportStatus,
    pub created_at: DateTime<Utc>,
    pub expires_at: Option<DateTime<Utc>>,
    pub file_name: Option<String>,
}

/// Asks for a new export in the caller's transaction (its build is queued in it too). A second
/// request within [`EXPORT_EVERY`] of one that did not fail is refused (429).
pub async fn request(tx: &mut PgConnection, user_id: Uuid, now: DateTime<Utc>) -> Result<DataExport> {
    // One request at a time per user, so two at once cannot both pass the check.
    sqlx::query!("SELECT id FROM users WHERE id = $1 FOR UPDATE", user_id)
        .fetch_one(&mut *tx)
        .await?;
    let recent = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM data_exports WHERE user_id = $1 AND status <> $2
                          AND created_at > $3::timestamptz - $4::interval) AS "recent!""#,
        user_id,
        ExportStatus::Failed as ExportStatus,
        now,
        EXPORT_EVERY as Duration,
    )
    .fetch_one(&mut *tx)
    .await?;
    if recent {
        return Err(Error::TooManyRequests(TOO_SOON.into()));
    }
    let export = sqlx::query_as!(
        DataExport,
        r#"INSERT INTO data_exports (user_id, created_at) VALUES ($1, $2)
           RETURNING id, user_id, status AS "status: ExportStatus", created_at, expires_at, file_name"#,
        user_id,
        now,
    )
    .fetch_one(&mut *tx)
    .await?;
    job_queue::account::enqueue_export(tx, export.id).await?;
    Ok(export)
}

/// The user's exports, newest first; a ready one past its expiry reads expired.
pub async fn list(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Vec<DataExport>> {
    Ok(sqlx::query_as!(
        DataExport,
        r#"SELECT id, user_id,
                  (CASE WHEN status = 'ready' AND expires_at <= now() THEN 'expired' ELSE status END) AS "status!: ExportStatus",
                  created_at, expires_at, file_name
           FROM data_exports WHERE user_id = $1 ORDER BY created_at DESC, id DESC"#,
        user_id,
    )
    .fetch_all(db)
    .await?)
}

/// The archive's path for its owner to download: not found for anyone else, gone once expired,
/// a conflict while it is being built or when it failed.
pub async fn download_path(
    db: impl PgExecutor<'_>,
    export_dir: &Path,
    user_id: Uuid,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<PathBuf> {
    let export = sqlx::query_as!(
        DataExport,
        r#"SELECT id, user_id, status AS "status: ExportStatus", created_at, expires_at, file_name
           FROM data_exports WHERE id = $1 AND user_id = $2"#,
        id,
        user_id,
    )
    .fetch_optional(db)
    .await?
    .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    match (export.status, export.expires_at, export.file_name) {
        (ExportStatus::Expired, ..) => Err(Error::Gone(EXPIRED.into())),
        (ExportStatus::Ready, Some(expires), _) if expires <= now => Err(Error::Gone(EXPIRED.into())),
        (ExportStatus::Ready, Some(_), Some(name)) => Ok(export_dir.join(name)),
        _ => Err(Error::conflict(NOT_READY)),
    }
}

/// The file an export's archive is written to inside `EXPORT_DIR`.
pub fn file_name(id: Uuid) -> String {
    format!("{}.zip", id.simple())
}

/// What a finished build made.
pub struct Built {
    pub user_id: Uuid,
    pub size_bytes: u64,
    pub entries: usize,
}

/// Builds the archive of a pending export and marks it ready, in the caller's transaction, which
/// also notifies the user and queues their e-mail. `None` when the export is not pending (built
/// already, or gone with its user): running twice is harmless.
pub async fn build(
    tx: &mut PgConnection,
    export_dir: &Path,
    upload_dir: &Path,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<Option<Built>> {
    let Some(user_id) = sqlx::query_scalar!(
        "SELECT user_id FROM data_exports WHERE id = $1 AND status = $2 FOR UPDATE",
        id,
        ExportStatus::Pending as ExportStatus,
    )
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    let files = collect(tx, user_id).await?;
    let uploads = own_uploads(tx, user_id, upload_dir).await?;
    let name = file_name(id);
    let target = export_dir.join(&name);
    let dir = export_dir.to_path_buf();
    let (size_bytes, entries) = tokio::task::spawn_blocking(move || write_zip(&dir, &target, &files, &uploads))
        .await
        .map_err(|e| anyhow::anyhow!("writing the archive panicked: {e}"))??;
    sqlx::query!(
        "UPDATE data_exports SET status = $2, file_name = $3, size_bytes = $4, ready_at = $5,
         expires_at = $5::timestamptz + $6::interval WHERE id = $1",
        id,
        ExportStatus::Ready as ExportStatus,
        name,
        size_bytes as i64,
        now,
        DOWNLOADABLE_FOR as Duration,
    )
    .execute(&mut *tx)
    .await?;
    notifications::notify(
        tx,
        user_id,
        notifications::Kind::DataExportReady,
        READY_TITLE,
        READY_MESSAGE,
        Some(EXPORTS_PAGE),
    )
    .await?;
    job_queue::email::enqueue(tx, &job_queue::email::EmailJob::DataExportReady { export_id: id }).await?;
    Ok(Some(Built {
        user_id,
        size_bytes,
        entries,
    }))
}

/// Marks a pending export failed (its build gave up); the user may ask again at once.
pub async fn mark_failed(db: impl PgExecutor<'_>, id: Uuid) -> Result<()> {
    sqlx::query!(
        "UPDATE data_exports SET status = $2 WHERE id = $1 AND status = $3",
        id,
        ExportStatus::Failed as ExportStatus,
        ExportStatus::Pending as ExportStatus,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The owner and e-mail address of an export, for its ready mail.
pub async fn owner_for_mail(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<(String, String, DateTime<Utc>)>> {
    Ok(sqlx::query!(
        r#"SELECT u.email, u.first_name, e.expires_at AS "expires_at!"
           FROM data_exports e JOIN users u ON u.id = e.user_id
           WHERE e.id = $1 AND e.status = 'ready' AND u.is_active AND u.deleted_at IS NULL"#,
        id,
    )
    .fetch_optional(db)
    .await?
    .map(|r| (r.email, r.first_name, r.expires_at)))
}

/// Deletes the archives past their [`DOWNLOADABLE_FOR`] and marks them expired; returns how many.
/// A file already gone is fine.
pub async fn expire(pool: &PgPool, export_dir: &Path) -> Result<u64> {
    let due = sqlx::query!(
        r#"SELECT id, file_name AS "file_name!" FROM data_exports
           WHERE status = $1 AND expires_at <= now() AND file_name IS NOT NULL"#,
        ExportStatus::Ready as ExportStatus,
    )
    .fetch_all(pool)
    .await?;
    let mut n = 0;
    for row in due {
        remove_file(export_dir, &row.file_name).await?;
        n += sqlx::query!(
            "UPDATE data_exports SET status = $2, file_name = NULL WHERE id = $1 AND status = $3",
            row.id,
            ExportStatus::Expired as ExportStatus,
            ExportStatus::Ready as ExportStatus,
        )
        .execute(pool)
        .await?
        .rows_affected();
    }
    Ok(n)
}

/// Deletes one archive inside `export_dir` (only a plain name of ours; a file already gone is fine).
pub async fn remove_file(export_dir: &Path, name: &str) -> Result<()> {
    let ours = name.len() == 36 && name.ends_with(".zip") && name[..32].bytes().all(|b| b.is_ascii_hexdigit());
    if !ours {
        return Ok(());
    }
    match tokio::fs::remove_file(export_dir.join(name)).await {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(anyhow::anyhow!("deleting export {name}: {e}").into()),
    }
}

/// What each file of the archive holds, as `README.txt` says.
pub const README: &str = "\
Your data from Mystic Mentors
=============================

This archive holds what the service keeps about you, as of the moment it was made. The JSON files
use the same field names as the service's API (camelCase; times in ISO 8601, UTC; amounts in US
dollars as decimal strings, such as 75.00).

profile.json        Your account: name, e-mail address, bio, time zone, role, when you joined.
bookings.json       Every booking you made as a seeker (and, for mentors, every booking with you):
                    time, service, status, price, notes, cancellation.
payments.json       Your payments, the refunds paid back on them, and your receipts.
messages.json       Every conversation you are in, with both sides' messages.
reviews.json        The reviews you wrote and, for mentors, the reviews you received (with replies).
notifications.json  The notifications the service showed you.
favorites.json      The mentors you saved as favourites.
preferences.json    Your e-mail and push notification preferences.
uploads/            The files you uploaded (profile pictures).

For mentors:
mentor.json         Your mentor profile: display name, bio, specialties, prices, rules, approval.
services.json       The services you offer or offered.
availability.json   Your weekly hours and date overrides.
earnings.json       Your completed paid sessions: what was paid, refunded, and which payout holds it.
payouts.json        Your payouts and the payout details they were sent to.
";

/// The JSON files of a user's archive, by name.
async fn collect(tx: &mut PgConnection, user_id: Uuid) -> Result<Vec<(&'static str, Value)>> {
    let mut files = Vec::new();
    let profile = sqlx::query_scalar!(
        r#"SELECT row_to_json(p) AS "json!" FROM (
             SELECT u.id, u.email, u.first_name AS "firstName", u.last_name AS "lastName", u.bio,
                    u.profile_image_url AS "profileImageUrl", u.time_zone AS "timeZone", a.role,
                    u.is_admin AS "isAdmin", u.is_active AS "isActive", u.email_verified AS "emailVerified",
                    u.created_at AS "createdAt", u.last_sign_in_at AS "lastSignInAt",
                    u.deletion_scheduled_at AS "deletionScheduledAt",
                    EXISTS (SELECT 1 FROM two_factor t WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL) AS "twoFactorEnabled"
             FROM users u JOIN user_accounts a ON a.id = u.id WHERE u.id = $1) p"#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("profile.json", profile));
    let bookings = sqlx::query_scalar!(
        r#"SELECT coalesce(json_agg(b ORDER BY b."scheduledAt", b.id), '[]'::json) AS "json!" FROM (
             SELECT b.id, CASE WHEN b.user_id = $1 THEN 'seeker' ELSE 'mentor' END AS "as",
                    b.mentor_id AS "mentorId", m.display_name AS "mentorName",
                    b.user_id AS "userId", concat_ws(' ', u.first_name, u.last_name) AS "userName",
                    b.service_id AS "serviceId", s.title AS "serviceTitle", b.group_session_id AS "groupSessionId",
                    b.status, b.scheduled_at AS "scheduledAt", b.ends_at AS "endsAt",
                    to_char(b.total_cents / 100.0, 'FM999999990.00') AS "totalAmount",
                    b.notes, b.created_at AS "createdAt", b.confirmed_at AS "confirmedAt",
                    b.completed_at AS "completedAt", b.cancelled_at AS "cancelledAt",
                    b.cancellation_reason AS "cancellationReason"
             FROM bookings b JOIN mentors m ON m.id = b.mentor_id JOIN users u ON u.id = b.user_id
             LEFT JOIN services s ON s.id = b.service_id
             WHERE (b.user_id = $1 OR m.user_id = $1) AND b.status NOT IN ('reserved', 'expired')) b"#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("bookings.json", bookings));
    let payments = sqlx::query_scalar!(
        r#"SELECT json_build_object(
             'payments', (SELECT coalesce(json_agg(p ORDER BY p."createdAt", p.id), '[]'::json) FROM (
                SELECT id, booking_id AS "bookingId", to_char(amount_cents / 100.0, 'FM999999990.00') AS "amount",
                       card_last4 AS "cardLast4",
                       status, message, reference, created_at AS "createdAt", settled_at AS "settledAt"
                FROM payments WHERE user_id = $1) p),
             'refunds', (SELECT coalesce(json_agg(r ORDER BY r."createdAt", r.id), '[]'::json) FROM (
                SELECT r.id, r.booking_id AS "bookingId", r.payment_id AS "paymentId", r.percentage,
                       to_char(r.amount_cents / 100.0, 'FM999999990.00') AS "amount", r.status, r.reason, r.note,
                       r.created_at AS "createdAt", r.completed_at AS "completedAt"
                FROM refunds r JOIN bookings b ON b.id = r.booking_id WHERE b.user_id = $1) r),
             'receipts', (SELECT coalesce(json_agg(r ORDER BY r."issuedAt", r.id), '[]'::json) FROM (
                SELECT id, number, kind, booking_id AS "bookingId", payment_id AS "paymentId",
                       refund_id AS "refundId", to_char(amount_cents / 100.0, 'FM999999990.00') AS "amount",
                       card_last4 AS "cardLast4",
                       payer_name AS "payerName", payer_email AS "payerEmail", description,
                       session_at AS "sessionAt", issued_at AS "issuedAt"
                FROM receipts WHERE user_id = $1) r)
           ) AS "json!""#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("payments.json", payments));
    let messages = sqlx::query_scalar!(
        r#"SELECT coalesce(json_agg(c ORDER BY c."createdAt", c.id), '[]'::json) AS "json!" FROM (
             SELECT c.id, c.mentor_id AS "mentorId", m.display_name AS "mentorName",
                    c.user_id AS "userId", concat_ws(' ', u.first_name, u.last_name) AS "userName",
                    c.booking_id AS "bookingId", c.created_at AS "createdAt",
                    (SELECT coalesce(json_agg(x ORDER BY x."createdAt", x.id), '[]'::json) FROM (
                       SELECT msg.id, msg.sender_id AS "senderId",
                              concat_ws(' ', su.first_name, su.last_name) AS "senderName",
                              msg.content, msg.message_type AS "messageType", msg.is_read AS "isRead",
                              msg.read_at AS "readAt", msg.created_at AS "createdAt"
                       FROM messages msg JOIN users su ON su.id = msg.sender_id
                       WHERE msg.conversation_id = c.id) x) AS messages
             FROM conversations c JOIN mentors m ON m.id = c.mentor_id JOIN users u ON u.id = c.user_id
             WHERE c.user_id = $1 OR m.user_id = $1) c"#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("messages.json", messages));
    let reviews = sqlx::query_scalar!(
        r#"SELECT json_build_object(
             'written', (SELECT coalesce(json_agg(r ORDER BY r."createdAt", r.id), '[]'::json) FROM (
                SELECT r.id, r.mentor_id AS "mentorId", m.display_name AS "mentorName", r.booking_id AS "bookingId",
                       r.rating, r.comment, r.created_at AS "createdAt", rr.message AS reply
                FROM reviews r JOIN mentors m ON m.id = r.mentor_id
                LEFT JOIN review_replies rr ON rr.review_id = r.id WHERE r.user_id = $1) r),
             'received', (SELECT coalesce(json_agg(r ORDER BY r."createdAt", r.id), '[]'::json) FROM (
                SELECT r.id, r.user_id AS "userId", concat_ws(' ', u.first_name, u.last_name) AS "userName",
                       r.booking_id AS "bookingId", r.rating, r.comment, r.created_at AS "createdAt",
                       rr.message AS reply
                FROM reviews r JOIN mentors m ON m.id = r.mentor_id JOIN users u ON u.id = r.user_id
                LEFT JOIN review_replies rr ON rr.review_id = r.id WHERE m.user_id = $1) r)
           ) AS "json!""#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("reviews.json", reviews));
    let notifications = sqlx::query_scalar!(
        r#"SELECT coalesce(json_agg(n ORDER BY n."createdAt", n.id), '[]'::json) AS "json!" FROM (
             SELECT id, type, title, message, action_url AS "actionUrl", is_read AS "isRead",
                    created_at AS "createdAt", read_at AS "readAt"
             FROM notifications WHERE user_id = $1) n"#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("notifications.json", notifications));
    let favorites = sqlx::query_scalar!(
        r#"SELECT coalesce(json_agg(f ORDER BY f."createdAt", f."mentorId"), '[]'::json) AS "json!" FROM (
             SELECT f.mentor_id AS "mentorId", m.display_name AS "mentorName", f.created_at AS "createdAt"
             FROM favorites f JOIN mentors m ON m.id = f.mentor_id WHERE f.user_id = $1) f"#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("favorites.json", favorites));
    let preferences = sqlx::query_scalar!(
        r#"SELECT json_build_object(
             'email', (SELECT row_to_json(e) FROM (
                SELECT booking_confirmations AS "bookingConfirmations", booking_reminders AS "bookingReminders",
                       marketing_emails AS "marketingEmails", review_requests AS "reviewRequests",
                       updated_at AS "updatedAt"
                FROM email_preferences WHERE user_id = $1) e),
             'push', (SELECT row_to_json(p) FROM (
                SELECT calls, messages, bookings, reminders, group_sessions AS "groupSessions", updated_at AS "updatedAt"
                FROM push_preferences WHERE user_id = $1) p),
             'pushSubscriptions', (SELECT count(*) FROM push_subscriptions WHERE user_id = $1)
           ) AS "json!""#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("preferences.json", preferences));
    let Some(mentor_id) = sqlx::query_scalar!("SELECT id FROM mentors WHERE user_id = $1", user_id)
        .fetch_optional(&mut *tx)
        .await?
    else {
        return Ok(files);
    };
    let mentor = sqlx::query_scalar!(
        r#"SELECT row_to_json(m) AS "json!" FROM (
             SELECT id, display_name AS "displayName", bio, specialties, to_char(base_price_cents / 100.0,
                    'FM999999990.00') AS "basePrice",
                    profile_image_url AS "profileImageUrl", time_zone AS "timeZone", rating, review_count AS "reviewCount",
                    total_sessions AS "totalSessions", is_active AS "isActive", approval_status AS "approvalStatus",
                    rejection_reason AS "rejectionReason", minimum_notice_minutes AS "minimumNoticeMinutes",
                    buffer_before_minutes AS "bufferBeforeMinutes", buffer_after_minutes AS "bufferAfterMinutes",
                    max_bookings_per_day AS "maxBookingsPerDay", created_at AS "createdAt", updated_at AS "updatedAt"
             FROM mentors WHERE id = $1) m"#,
        mentor_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("mentor.json", mentor));
    let services = sqlx::query_scalar!(
        r#"SELECT coalesce(json_agg(s ORDER BY s."createdAt", s.id), '[]'::json) AS "json!" FROM (
             SELECT id, title, description, service_type AS "serviceType", to_char(price_cents / 100.0,
                    'FM999999990.00') AS "price",
                    duration_minutes AS "durationMinutes", is_active AS "isActive",
                    is_group_session AS "isGroupSession", max_participants AS "maxParticipants",
                    created_at AS "createdAt", updated_at AS "updatedAt"
             FROM services WHERE mentor_id = $1) s"#,
        mentor_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("services.json", services));
    let availability = sqlx::query_scalar!(
        r#"SELECT json_build_object(
             'weekly', (SELECT coalesce(json_agg(w ORDER BY w."dayOfWeek", w."startMinute"), '[]'::json) FROM (
                SELECT id, day_of_week AS "dayOfWeek", start_minute AS "startMinute", end_minute AS "endMinute",
                       is_active AS "isActive"
                FROM availability_slots WHERE mentor_id = $1) w),
             'overrides', (SELECT coalesce(json_agg(o ORDER BY o.date, o.id), '[]'::json) FROM (
                SELECT id, date, is_day_off AS "isDayOff", start_minute AS "startMinute", end_minute AS "endMinute"
                FROM availability_overrides WHERE mentor_id = $1) o)
           ) AS "json!""#,
        mentor_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("availability.json", availability));
    let earnings = sqlx::query_scalar!(
        r#"SELECT coalesce(json_agg(e ORDER BY e."scheduledAt", e."bookingId"), '[]'::json) AS "json!" FROM (
             SELECT b.id AS "bookingId", b.scheduled_at AS "scheduledAt", b.status, to_char(p.amount_cents / 100.0,
                    'FM999999990.00') AS "amountPaid",
                    to_char(coalesce((SELECT sum(r.amount_cents) FROM refunds r
                                     WHERE r.booking_id = b.id AND r.status = 'succeeded'), 0) / 100.0, 'FM999999990.00')
                      AS "amountRefunded",
                    pb.payout_id AS "payoutId", to_char(pb.amount_cents / 100.0,
                    'FM999999990.00') AS "payoutAmount", to_char(pb.fee_cents / 100.0,
                    'FM999999990.00') AS "platformFee"
             FROM bookings b JOIN payments p ON p.booking_id = b.id AND p.status = 'approved'
             LEFT JOIN payout_bookings pb ON pb.booking_id = b.id
             WHERE b.mentor_id = $1) e"#,
        mentor_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("earnings.json", earnings));
    let payouts = sqlx::query_scalar!(
        r#"SELECT json_build_object(
             'payouts', (SELECT coalesce(json_agg(p ORDER BY p."createdAt", p.id), '[]'::json) FROM (
                SELECT id, status, booking_count AS "bookingCount", to_char(pending_amount_cents / 100.0,
                       'FM999999990.00') AS "pendingAmount",
                       to_char(platform_fee_cents / 100.0, 'FM999999990.00') AS "platformFee",
                       to_char(adjustment_cents / 100.0, 'FM999999990.00') AS "adjustmentTotal",
                       to_char(mentor_net_cents / 100.0, 'FM999999990.00') AS "mentorNet",
                       destination_method AS "destinationMethod",
                       destination, paid_at AS "paidAt", created_at AS "createdAt"
                FROM payouts WHERE mentor_id = $1) p),
             'payoutDetails', (SELECT row_to_json(d) FROM (
                SELECT method, paypal_email AS "paypalEmail", venmo_username AS "venmoUsername",
                       zelle_email AS "zelleEmail", to_char(minimum_payout_cents / 100.0,
                       'FM999999990.00') AS "minimumPayout", notes,
                       updated_at AS "updatedAt"
                FROM payout_preferences WHERE mentor_id = $1) d)
           ) AS "json!""#,
        mentor_id
    )
    .fetch_one(&mut *tx)
    .await?;
    files.push(("payouts.json", payouts));
    Ok(files)
}

/// The user's uploaded files that still exist: (name inside the archive's `uploads/`, path on disk).
async fn own_uploads(tx: &mut PgConnection, user_id: Uuid, upload_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let urls = sqlx::query_scalar!(
        "SELECT path FROM uploads WHERE owner = $1 ORDER BY created_at, path",
        user_id
    )
    .fetch_all(&mut *tx)
    .await?;
    Ok(urls
        .iter()
        .filter_map(|url| uploads::own_upload_name(url))
        .map(|name| (name.to_string(), upload_dir.join(name)))
        .filter(|(_, path)| path.is_file())
        .collect())
}

/// Writes the archive next to its final name, then renames it into place (a reader never sees half
/// an archive). Returns its size and its number of entries.
fn write_zip(
    dir: &Path,
    target: &Path,
    files: &[(&'static str, Value)],
    uploads: &[(String, PathBuf)],
) -> anyhow::Result<(u64, usize)> {
    std::fs::create_dir_all(dir)?;
    let partial = target.with_extension("zip.part");
    let file = std::fs::File::create(&partial)?;
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(file));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("README.txt", options)?;
    zip.write_all(README.as_bytes())?;
    for (name, value) in files {
        zip.start_file(*name, options)?;
        serde_json::to_writer_pretty(&mut zip, value)?;
    }
    for (name, path) in uploads {
        zip.start_file(format!("uploads/{name}"), options)?;
        std::io::copy(&mut std::fs::File::open(path)?, &mut zip)?;
    }
    zip.finish()?.flush()?;
    std::fs::rename(&partial, target)?;
    let size = std::fs::metadata(target)?.len();
    Ok((size, 1 + files.len() + uploads.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_export_a_day_downloadable_for_a_week() {
        assert_eq!(EXPORT_EVERY, Duration::hours(24));
        assert_eq!(DOWNLOADABLE_FOR, Duration::days(7));
    }

    #[test]
    fn the_readme_describes_every_file() {
        for name in [
            "profile.json",
            "bookings.json",
            "payments.json",
            "messages.json",
            "reviews.json",
            "notifications.json",
            "favorites.json",
            "preferences.json",
            "uploads/",
            "mentor.json",
            "services.json",
            "availability.json",
            "earnings.json",
            "payouts.json",
        ] {
            assert!(README.contains(name), "{name}");
        }
    }

    #[test]
    fn archive_names_are_ours_only() {
        let id = Uuid::new_v4();
        assert_eq!(file_name(id).len(), 36);
        assert!(file_name(id).ends_with(".zip"));
    }
}
