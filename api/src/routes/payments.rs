//! Paying a held reservation by card. The charge never runs inside a database transaction: the
//! attempt is recorded and committed first (with its reconciliation job), the gateway is called,
//! then the answer is settled (see `domain::payments::checkout`).

use chrono::Utc;
use poem::web::Data;
use poem_openapi::{Object, OpenApi, payload::Json};

use super::{Tag, views::booking::BookingView, views::parse_id};
use crate::{
    auth::SessionAuth,
    error::{ApiResult, ErrorCode},
    state::AppState,
};
use domain::{
    booking::{bookings::Booking, reservations},
    payments::{
        PaymentStatus,
        card::{self, Card},
        checkout::{self, Settled, Start},
        gateway::ChargeRequest,
    },
};
use jobs::payment_reconciliation;
use uuid::Uuid;

pub struct PaymentsApi;

#[derive(Object, Default)]
#[oai(rename_all = "camelCase")]
pub struct BillingInfo {
    #[oai(default)]
    pub first_name: String,
    #[oai(default)]
    pub last_name: String,
    #[oai(default)]
    pub address: String,
    #[oai(default)]
    pub city: String,
    #[oai(default)]
    pub state: String,
    #[oai(default)]
    pub zip: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct PaymentRequest {
    pub reservation_id: Option<String>,
    #[oai(default)]
    pub card_number: String,
    /// MMYY
    #[oai(default)]
    pub expiration_date: String,
    #[oai(default)]
    pub card_code: String,
    pub billing_info: Option<BillingInfo>,
}

#[derive(Object)]
pub struct PaymentResult {
    pub success: bool,
    pub message: String,
    /// Why the payment did not go through
    #[oai(nullable)]
    pub error: Option<String>,
    /// With `success: false`: `payment_declined` (not charged; the hold stays until it expires) or
    /// `payment_pending` (the outcome is not known yet; never charged twice)
    #[oai(nullable)]
    pub code: Option<ErrorCode>,
    #[oai(nullable)]
    pub booking: Option<BookingView>,
}

const NOT_PROCESSED: &str = "Payment could not be processed";

fn paid(booking: Booking) -> PaymentResult {
    PaymentResult {
        success: true,
        message: checkout::PAID.into(),
        error: None,
        code: None,
        booking: Some(booking.into()),
    }
}

/// Not paid: `code` says whether it never will be (`PaymentDeclined`) or may still be (`PaymentPending`).
fn not_paid(code: ErrorCode, reason: &str) -> PaymentResult {
    PaymentResult {
        success: false,
        message: NOT_PROCESSED.into(),
        error: Some(reason.into()),
        code: Some(code),
        booking: None,
    }
}

/// How many times a request that found another payment in flight starts its own after that
/// one was refused (a double click with a declined card, say).
const MAX_STARTS: usize = 2;
/// How long a request that found another payment in flight waits for its outcome.
const WAIT_FOR_OTHER_PAYMENT: std::time::Duration = std::time::Duration::from_secs(15);

async fn pay(state: &AppState, user_id: Uuid, reservation_id: Uuid, card: &Card) -> ApiResult<PaymentResult> {
    let gateway = state.gateway.as_ref();
    for _ in 0..MAX_STARTS {
        let now = Utc::now();
        let mut tx = state.pool.begin().await?;
        let started = checkout::start(&mut tx, gateway.name(), user_id, reservation_id, card.last4(), now).await?;
        if let Start::Charge(attempt) = &started {
            // Not before the gateway's answer deadline: then a charge it does not know was never made.
            let after = state
                .config
                .payment_reconcile_after
                .max(chrono::Duration::from_std(gateway.answer_deadline()).unwrap_or_default());
            payment_reconciliation::schedule(&mut tx, attempt.payment_id, now + after).await?;
        }
        tx.commit().await?;
        let attempt = match started {
            Start::AlreadyPaid(booking) => return Ok(paid(*booking)),
            Start::InProgress => {
                // Another request is charging this reservation: answer with its outcome.
                let deadline = WAIT_FOR_OTHER_PAYMENT.min(gateway.answer_deadline());
                match checkout::wait_for_settlement(&state.pool, reservation_id, deadline).await? {
                    Some(PaymentStatus::Approved) => return Ok(paid(confirmed(state, reservation_id).await?)),
                    Some(_) => continue,
                    None => return Ok(not_paid(ErrorCode::PaymentPending, checkout::IN_PROGRESS)),
                }
            }
            Start::Charge(attempt) => attempt,
        };
        let request = ChargeRequest {
            reference: &attempt.reference,
            amount_cents: attempt.amount_cents,
            card,
            description: &attempt.description,
        };
        let outcome = match gateway.charge(request).await {
            Ok(outcome) => outcome,
            Err(err) => {
                tracing::warn!(payment = %attempt.payment_id, error = %format!("{err:#}"), "no answer from the gateway; reconciliation will settle the payment");
                return Ok(not_paid(ErrorCode::PaymentPending, checkout::UNCONFIRMED));
            }
        };
        return Ok(
            match payment_reconciliation::settle(&state.pool, attempt.payment_id, &outcome).await? {
                Settled::Confirmed(booking) => paid(*booking),
                Settled::AlreadySettled => match checkout::latest_attempt(&state.pool, reservation_id).await? {
                    Some((_, PaymentStatus::Approved)) => paid(confirmed(state, reservation_id).await?),
                    _ => not_paid(ErrorCode::PaymentPending, checkout::UNCONFIRMED),
                },
                Settled::Refused { reason } => not_paid(ErrorCode::PaymentDeclined, &reason),
                Settled::Reversed { .. } => not_paid(ErrorCode::PaymentDeclined, checkout::REVERSED),
            },
        );
    }
    Ok(not_paid(ErrorCode::PaymentPending, checkout::IN_PROGRESS))
}

async fn confirmed(state: &AppState, booking_id: Uuid) -> ApiResult<Booking> {
    let booking = domain::booking::bookings::find(&state.pool, booking_id).await?;
    booking.ok_or_else(|| crate::error::ApiError::not_found(reservations::NOT_FOUND))
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Booking")]
impl PaymentsApi {
    /// Pays a held reservation by card through the payment gateway; a repeated payment charges once.
    #[oai(path = "/process-payment-v2", method = "post", operation_id = "processPayment")]
    async fn pay(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<PaymentRequest>,
    ) -> ApiResult<Json<PaymentResult>> {
        let body = body.0;
        let reservation_id = parse_id(body.reservation_id.as_deref().unwrap_or(""), reservations::NOT_FOUND)?;
        let billing = body.billing_info.unwrap_or_default();
        let card = card::validate(
            card::CardInput {
                number: &body.card_number,
                expiration: &body.expiration_date,
                code: &body.card_code,
                billing: card::Billing {
                    first_name: billing.first_name,
                    last_name: billing.last_name,
                    address: billing.address,
                    city: billing.city,
                    state: billing.state,
                    zip: billing.zip,
                },
            },
            Utc::now().date_naive(),
        )?;
        Ok(Json(pay(&state, auth.0.user.id, reservation_id, &card).await?))
    }
}
