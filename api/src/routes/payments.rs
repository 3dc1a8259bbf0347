//! Paying a held reservation by card: the card is checked here, and paying is one domain operation
//! (`domain::payments::pay`: start, charge, settle, wait for a concurrent attempt) whose outcome
//! this turns into the response.

use chrono::Utc;
use poem::web::Data;
use poem_openapi::{Object, OpenApi, payload::Json};

use super::Tag;
use crate::views::{booking::BookingView, parse_id};
use crate::{
    auth::SessionAuth,
    error::{ApiResult, ErrorCode},
    state::AppState,
};
use domain::{
    booking::{bookings::Booking, reservations},
    payments::{
        card, checkout,
        pay::{self, Payment},
    },
};

pub struct PaymentsApi;

#[derive(Object, Default)]
#[oai(rename_all = "camelCase")]
pub(super) struct BillingInfo {
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
pub(super) struct PaymentRequest {
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
pub(super) struct PaymentResult {
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
        let payment = pay::pay(
            &state.pool,
            state.gateway.as_ref(),
            state.config.payment_reconcile_after,
            auth.0.user.id,
            reservation_id,
            &card,
        )
        .await?;
        Ok(Json(match payment {
            Payment::Paid(booking) => paid(*booking),
            Payment::Declined(reason) => not_paid(ErrorCode::PaymentDeclined, &reason),
            Payment::Pending(reason) => not_paid(ErrorCode::PaymentPending, reason),
        }))
    }
}
