//! Payouts: a mentor's payout preferences and earnings, and the admins' payout pages (pending,
//! history, mark-paid, CSV export, running the batch now). See docs/payouts.md.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::Query,
    payload::{Json, PlainText},
};
use uuid::Uuid;

use super::{Tag, amount::Amount};
use crate::views::MessageResponse;
use crate::{
    auth::SessionAuth,
    error::{ApiError, ApiResult},
    state::AppState,
};
use domain::{
    catalogue::mentors,
    choice::Choice,
    money,
    payouts::{
        PaidMethod, PayoutMethod, PayoutStatus,
        adjustments::{self, Adjustment, AdjustmentReason},
        admin::{self, MarkPaid},
        batch::Totals,
        earnings,
        preferences::{self, Preferences},
    },
};

pub(super) const BATCH_QUEUED: &str = "Payout batch queued";
pub(super) const INVALID_IDS: &str = "mentorId and bookingIds must be valid ids";

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PayoutPreferencesView {
    pub mentor_id: String,
    /// null until the mentor saves preferences
    #[oai(nullable)]
    pub method: Option<PayoutMethod>,
    #[oai(nullable)]
    pub paypal_email: Option<String>,
    #[oai(nullable)]
    pub venmo_username: Option<String>,
    #[oai(nullable)]
    pub zelle_email: Option<String>,
    /// The smallest payout the mentor wants, e.g. "50.00"
    pub minimum_payout: String,
    #[oai(nullable)]
    pub notes: Option<String>,
}

impl From<Preferences> for PayoutPreferencesView {
    fn from(p: Preferences) -> Self {
        Self {
            mentor_id: p.mentor_id.to_string(),
            method: p.method,
            paypal_email: p.paypal_email,
            venmo_username: p.venmo_username,
            zelle_email: p.zelle_email,
            minimum_payout: money::format(p.minimum_payout_cents),
            notes: p.notes,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PayoutPreferencesRequest {
    /// Ignored: preferences are always the signed-in mentor's
    pub mentor_id: Option<String>,
    /// paypal, venmo or zelle
    pub method: Option<Choice<PayoutMethod>>,
    pub paypal_email: Option<String>,
    pub venmo_username: Option<String>,
    pub zelle_email: Option<String>,
    /// Default "50.00"
    pub minimum_payout: Option<Amount>,
    pub notes: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PayoutTotalsView {
    pub booking_count: i64,
    /// What the seekers paid, less refunds
    pub pending_amount: String,
    /// 15% of each booking, half a cent rounded up, summed
    pub platform_fee: String,
    /// pendingAmount - platformFee
    pub mentor_net: String,
}

impl From<Totals> for PayoutTotalsView {
    fn from(t: Totals) -> Self {
        Self {
            booking_count: t.booking_count,
            pending_amount: money::format(t.pending_amount_cents),
            platform_fee: money::format(t.platform_fee_cents),
            mentor_net: money::format(t.mentor_net_cents),
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct EarningsHistoryItem {
    pub id: String,
    pub mentor_amount: String,
    pub paid_at: DateTime<Utc>,
    #[oai(nullable)]
    pub method: Option<PaidMethod>,
}

/// A refund of a paid-out booking taken off a payout (negative), or what a payout could not absorb
/// carried to the next one (a pair: positive on the payout, negative waiting).
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PayoutAdjustmentView {
    pub id: String,
    #[oai(nullable)]
    pub booking_id: Option<String>,
    /// The reading whose complaint's refund it takes off (issue 36)
    #[oai(nullable)]
    pub instant_session_id: Option<String>,
    /// Two decimals, negative when it takes money off
    pub amount: String,
    pub reason: AdjustmentReason,
    /// The payout that applied it; null while it waits for the next one
    #[oai(nullable)]
    pub payout_id: Option<String>,
    pub created_at: DateTime<Utc>,
}

impl From<Adjustment> for PayoutAdjustmentView {
    fn from(a: Adjustment) -> Self {
        Self {
            id: a.id.to_string(),
            booking_id: a.booking_id.map(|b| b.to_string()),
            instant_session_id: a.instant_session_id.map(|s| s.to_string()),
            amount: money::format(a.amount_cents),
            reason: a.reason,
            payout_id: a.payout_id.map(|p| p.to_string()),
            created_at: a.created_at,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct EarningsView {
    /// Payouts made by the batch and not yet sent
    pub pending: PayoutTotalsView,
    /// Completed paid bookings that no payout holds yet: what the next batch takes
    pub next_payout: PayoutTotalsView,
    pub minimum_payout: String,
    /// Sent payouts, newest first
    pub history: Vec<EarningsHistoryItem>,
    /// Refunds of paid-out sessions taken off payouts, and carry-overs, newest first
    pub adjustments: Vec<PayoutAdjustmentView>,
    /// What waits to come off the next payout (zero or negative)
    pub waiting_adjustments: String,
    /// Instant readings that charged something (issue 36), newest first, each with its payout
    pub readings: Vec<ReadingEarningView>,
}

/// One instant reading's earnings.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ReadingEarningView {
    pub id: Uuid,
    #[oai(nullable)]
    pub ended_at: Option<DateTime<Utc>>,
    /// What the seeker was charged
    pub amount: String,
    /// The platform's fee on it
    pub platform_fee: String,
    /// amount - platformFee
    pub mentor_net: String,
    /// The payout that holds it; null until the next batch
    #[oai(nullable)]
    pub payout_id: Option<Uuid>,
    #[oai(nullable)]
    pub payout_status: Option<PayoutStatus>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PayoutUserView {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PendingPayoutMentorView {
    pub display_name: String,
    pub user: PayoutUserView,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PayoutMethodView {
    pub method: PayoutMethod,
    #[oai(nullable)]
    pub paypal_email: Option<String>,
    #[oai(nullable)]
    pub venmo_username: Option<String>,
    #[oai(nullable)]
    pub zelle_email: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct HeldPayoutView {
    pub mentor_id: String,
    pub mentor: PayoutHistoryMentorView,
    /// When the mentor's payout method or address last changed
    pub destination_changed_at: DateTime<Utc>,
    /// From then on a batch pays them to the new destination
    pub held_until: DateTime<Utc>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PendingPayoutView {
    pub id: String,
    pub mentor_id: String,
    pub mentor: PendingPayoutMentorView,
    pub booking_ids: Vec<String>,
    /// The instant readings this payout pays (issue 36), oldest first
    pub reading_ids: Vec<String>,
    pub booking_count: i64,
    pub pending_amount: String,
    pub platform_fee: String,
    /// pendingAmount - platformFee + adjustmentTotal, never below zero
    pub mentor_net: String,
    /// Refunds of paid-out sessions this payout takes off (and carry-overs), oldest first
    pub adjustments: Vec<PayoutAdjustmentView>,
    /// Their sum (zero or negative)
    pub adjustment_total: String,
    /// The destination this payout was made for (later changes to the mentor's preferences do not
    /// move it); null when the mentor had none (their first preferences fill it in)
    #[oai(nullable)]
    pub payout_preferences: Option<PayoutMethodView>,
    pub created_at: DateTime<Utc>,
}

impl From<admin::PendingPayout> for PendingPayoutView {
    fn from(p: admin::PendingPayout) -> Self {
        Self {
            id: p.id.to_string(),
            mentor_id: p.mentor_id.to_string(),
            mentor: PendingPayoutMentorView {
                display_name: p.display_name,
                user: PayoutUserView {
                    first_name: p.first_name,
                    last_name: p.last_name,
                    email: p.email,
                },
            },
            booking_ids: p.booking_ids.iter().map(Uuid::to_string).collect(),
            reading_ids: p.reading_ids.iter().map(Uuid::to_string).collect(),
            booking_count: p.booking_count.into(),
            pending_amount: money::format(p.pending_amount_cents),
            platform_fee: money::format(p.platform_fee_cents),
            mentor_net: money::format(p.mentor_net_cents),
            adjustments: Vec::new(),
            adjustment_total: money::format(p.adjustment_cents),
            payout_preferences: p.method.map(|method| PayoutMethodView {
                method,
                paypal_email: p.paypal_email,
                venmo_username: p.venmo_username,
                zelle_email: p.zelle_email,
            }),
            created_at: p.created_at,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PayoutHistoryMentorView {
    pub display_name: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PayoutHistoryItem {
    pub id: String,
    pub mentor: PayoutHistoryMentorView,
    #[oai(nullable)]
    pub method: Option<PaidMethod>,
    #[oai(nullable)]
    pub recipient_info: Option<String>,
    pub mentor_amount: String,
    #[oai(nullable)]
    pub paid_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct MarkPaidRequest {
    #[oai(default)]
    pub mentor_id: String,
    #[oai(default)]
    pub booking_ids: Vec<String>,
    /// The payout's instant readings (issue 36): with `bookingIds`, exactly what it holds
    #[oai(default)]
    pub reading_ids: Vec<String>,
    /// paypal, venmo, zelle or manual (the default)
    pub method: Option<Choice<PaidMethod>>,
    /// Default 'Manual payout'
    pub recipient_info: Option<String>,
    pub notes: Option<String>,
}

#[derive(ApiResponse)]
pub enum QueuedResponse {
    /// The batch is queued; the worker runs it
    #[oai(status = 202)]
    Accepted(Json<MessageResponse>),
}

#[derive(ApiResponse)]
pub enum CsvResponse {
    /// mentor,method,recipient,amount
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Ok(PlainText<String>, #[oai(header = "Content-Disposition")] String),
}

pub struct MentorPayoutsApi;

#[OpenApi(prefix_path = "/api", tag = "Tag::Payouts")]
impl MentorPayoutsApi {
    /// The signed-in mentor's payout preferences (no method and the default minimum until saved).
    #[oai(
        path = "/mentor/payout-preferences",
        method = "get",
        operation_id = "getPayoutPreferences"
    )]
    async fn get_preferences(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
    ) -> ApiResult<Json<PayoutPreferencesView>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        Ok(Json(preferences::get(&state.pool, mentor.id).await?.into()))
    }

    /// Saves the payout preferences; only the chosen method's field is kept.
    #[oai(
        path = "/mentor/payout-preferences",
        method = "post",
        operation_id = "savePayoutPreferences"
    )]
    async fn save_preferences(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<PayoutPreferencesRequest>,
    ) -> ApiResult<Json<PayoutPreferencesView>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let b = body.0;
        let input = preferences::Input {
            method: b.method,
            paypal_email: b.paypal_email,
            venmo_username: b.venmo_username,
            zelle_email: b.zelle_email,
            minimum_payout: Amount::text(&b.minimum_payout),
            notes: b.notes,
        };
        Ok(Json(preferences::save(&state.pool, mentor.id, &input).await?.into()))
    }

    /// Pending payouts, what accrues for the next batch, the minimum and the payouts sent.
    #[oai(path = "/mentor/earnings", method = "get", operation_id = "getMentorEarnings")]
    async fn earnings(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<EarningsView>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let e = earnings::of_mentor(&state.pool, mentor.id).await?;
        Ok(Json(EarningsView {
            pending: e.pending.into(),
            next_payout: e.next_payout.into(),
            minimum_payout: money::format(e.minimum_payout_cents),
            history: e
                .history
                .into_iter()
                .map(|h| EarningsHistoryItem {
                    id: h.id.to_string(),
                    mentor_amount: money::format(h.mentor_net_cents),
                    paid_at: h.paid_at,
                    method: h.method,
                })
                .collect(),
            adjustments: e.adjustments.into_iter().map(Into::into).collect(),
            waiting_adjustments: money::format(e.waiting_adjustment_cents),
            readings: e
                .readings
                .into_iter()
                .map(|r| ReadingEarningView {
                    id: r.id,
                    ended_at: r.ended_at,
                    amount: money::format(r.amount_cents),
                    platform_fee: money::format(r.fee_cents),
                    mentor_net: money::format(r.amount_cents - r.fee_cents),
                    payout_id: r.payout_id,
                    payout_status: r.payout_status,
                })
                .collect(),
        }))
    }
}

pub struct AdminPayoutsApi;

#[OpenApi(prefix_path = "/api", tag = "Tag::Payouts")]
impl AdminPayoutsApi {
    /// Pending payouts, newest first, with each mentor's current payout preferences.
    #[oai(path = "/admin/payouts/pending", method = "get", operation_id = "listPendingPayouts")]
    async fn pending(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<PendingPayoutView>>> {
        auth.admin()?;
        let pending = admin::pending(&state.pool).await?;
        let ids: Vec<Uuid> = pending.iter().map(|p| p.id).collect();
        let mut conn = state.pool.acquire().await?;
        let mut applied = adjustments::of_payouts(&mut conn, &ids).await?;
        Ok(Json(
            pending
                .into_iter()
                .map(|p| {
                    let id = p.id;
                    let mut view = PendingPayoutView::from(p);
                    view.adjustments = applied
                        .extract_if(.., |a| a.payout_id == Some(id))
                        .map(Into::into)
                        .collect();
                    view
                })
                .collect(),
        ))
    }

    /// Mentors whose payout the next batch holds back because their payout destination changed less
    /// than 72 hours ago, soonest released first.
    #[oai(path = "/admin/payouts/held", method = "get", operation_id = "listHeldPayouts")]
    async fn held(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<HeldPayoutView>>> {
        auth.admin()?;
        Ok(Json(
            admin::held(&state.pool)
                .await?
                .into_iter()
                .map(|h| HeldPayoutView {
                    mentor_id: h.mentor_id.to_string(),
                    mentor: PayoutHistoryMentorView {
                        display_name: h.display_name,
                    },
                    destination_changed_at: h.destination_changed_at,
                    held_until: h.held_until,
                })
                .collect(),
        ))
    }

    /// Sent payouts, newest first.
    #[oai(path = "/admin/payouts/history", method = "get", operation_id = "listPayoutHistory")]
    async fn history(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<PayoutHistoryItem>>> {
        auth.admin()?;
        Ok(Json(
            admin::history(&state.pool)
                .await?
                .into_iter()
                .map(|p| PayoutHistoryItem {
                    id: p.id.to_string(),
                    mentor: PayoutHistoryMentorView {
                        display_name: p.display_name,
                    },
                    method: p.method,
                    recipient_info: p.recipient_info,
                    mentor_amount: money::format(p.mentor_net_cents),
                    paid_at: p.paid_at,
                    created_at: p.created_at,
                })
                .collect(),
        ))
    }

    /// Marks the pending payout holding exactly these bookings as paid (one transaction, audited).
    #[oai(path = "/admin/payouts/mark-paid", method = "post", operation_id = "markPayoutPaid")]
    async fn mark_paid(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<MarkPaidRequest>,
    ) -> ApiResult<Json<MessageResponse>> {
        let admin_user = auth.admin()?;
        let b = body.0;
        let bad = || ApiError::bad_request(INVALID_IDS);
        let mentor_id: Uuid = b.mentor_id.trim().parse().map_err(|_| bad())?;
        let booking_ids = b
            .booking_ids
            .iter()
            .map(|id| id.trim().parse::<Uuid>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| bad())?;
        let reading_ids = b
            .reading_ids
            .iter()
            .map(|id| id.trim().parse::<Uuid>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| bad())?;
        let req = MarkPaid {
            mentor_id,
            booking_ids,
            reading_ids,
            method: b.method,
            recipient_info: b.recipient_info,
            notes: b.notes,
        };
        admin::mark_paid(&state.pool, admin_user.user.id, &req, Utc::now()).await?;
        Ok(Json(MessageResponse::new(admin::MARKED_PAID)))
    }

    /// Queues the payout batch now (the weekly job); a booking is never taken twice.
    #[oai(path = "/admin/payouts/run", method = "post", operation_id = "runPayoutBatch")]
    async fn run(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<QueuedResponse> {
        auth.admin()?;
        let mut conn = state.pool.acquire().await?;
        domain::payouts::jobs::queue_now(&mut conn, Utc::now()).await?;
        Ok(QueuedResponse::Accepted(Json(MessageResponse::new(BATCH_QUEUED))))
    }

    /// The pending payouts as CSV (mentor,method,recipient,amount) for a bulk-payment tool.
    #[oai(path = "/admin/payouts/export", method = "get", operation_id = "exportPayouts")]
    async fn export(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        status: Query<Option<String>>,
    ) -> ApiResult<CsvResponse> {
        auth.admin()?;
        admin::check_export_status(status.0.as_deref())?;
        let csv = admin::csv(&admin::pending(&state.pool).await?);
        let name = format!(
            "attachment; filename=\"pending-payouts-{}.csv\"",
            Utc::now().format("%Y-%m-%d")
        );
        Ok(CsvResponse::Ok(PlainText(csv), name))
    }
}
