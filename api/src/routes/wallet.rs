//! The prepaid balance (issue 36, §1): the owner's ledger, top-ups by card (one domain operation,
//! `domain::wallet::top_up`, with the guarantees of booking payments) and admins' refunds to the cards.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, param::Query, payload::Json};
use uuid::Uuid;

use super::{Tag, amount::Amount, payments::BillingInfo};
use crate::views::parse_id;
use crate::{
    auth::SessionAuth,
    error::{ApiResult, ErrorCode},
    state::AppState,
};
use domain::{
    money,
    payments::{RefundStatus, card},
    wallet::{
        self, EntryKind,
        refunds::{self as wallet_refunds},
        top_up::{self, TopUp},
    },
};

pub struct WalletApi;

/// One ledger entry: money in positive, out negative.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct WalletEntryView {
    pub id: Uuid,
    pub kind: EntryKind,
    /// Signed, e.g. "50.00" or "-1.99"
    pub amount: String,
    pub created_at: DateTime<Utc>,
    /// What it is about: the top-up's, the refund's or the reading's id, or an adjustment's note
    #[oai(nullable)]
    pub reference: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct WalletView {
    /// The sum of every entry, e.g. "48.01"
    pub balance: String,
    /// Newest first
    pub entries: Vec<WalletEntryView>,
    /// Entries in all
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct TopUpRequest {
    /// 10.00 to 500.00
    pub amount: Option<Amount>,
    #[oai(default)]
    pub card_number: String,
    /// MMYY
    #[oai(default)]
    pub expiration_date: String,
    #[oai(default)]
    pub card_code: String,
    pub billing_info: Option<BillingInfo>,
    /// The client's key for this top-up (1 to 100 characters): the same key twice charges once.
    /// Without one, every request is a new top-up.
    pub client_request_id: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct TopUpResult {
    pub success: bool,
    pub message: String,
    /// Why the payment did not go through
    #[oai(nullable)]
    pub error: Option<String>,
    /// With `success: false`: `payment_declined` (not charged) or `payment_pending` (not known yet;
    /// never charged twice)
    #[oai(nullable)]
    pub code: Option<ErrorCode>,
    /// The balance now
    pub balance: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct WalletRefundRequest {
    /// More than 0.00, at most the balance
    pub amount: Option<Amount>,
    /// 1 to 1,000 characters
    pub reason: Option<String>,
}

/// One part of a wallet refund: what goes back to one top-up's card.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct WalletRefundView {
    pub id: Uuid,
    pub top_up_id: Uuid,
    pub amount: String,
    pub card_last4: String,
    pub status: RefundStatus,
    pub created_at: DateTime<Utc>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct WalletRefundIssuedView {
    pub message: String,
    pub amount: String,
    /// The balance after the refund
    pub balance: String,
    /// Newest top-ups' cards first
    pub refunds: Vec<WalletRefundView>,
}

#[derive(ApiResponse)]
pub enum WalletRefundCreated {
    #[oai(status = 201)]
    Created(Json<WalletRefundIssuedView>),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Wallet")]
impl WalletApi {
    /// The signed-in user's balance and its entries, newest first.
    #[oai(path = "/wallet", method = "get", operation_id = "getWallet")]
    async fn wallet(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        /// From 1
        page: Query<Option<i64>>,
        /// 20 by default, at most 100
        #[oai(name = "pageSize")]
        page_size: Query<Option<i64>>,
    ) -> ApiResult<Json<WalletView>> {
        let mut conn = state.pool.acquire().await?;
        let s = wallet::statement(&mut conn, auth.0.user.id, page.0, page_size.0).await?;
        Ok(Json(WalletView {
            balance: money::format(s.balance_cents),
            entries: s
                .entries
                .into_iter()
                .map(|e| WalletEntryView {
                    id: e.id,
                    kind: e.kind,
                    amount: money::format(e.amount_cents),
                    created_at: e.created_at,
                    reference: e.reference,
                })
                .collect(),
            total: s.total,
            page: s.page,
            page_size: s.page_size,
        }))
    }

    /// Adds 10.00 to 500.00 to the balance by card (at most 1,000.00 held), through the gateway path
    /// of bookings: a lost answer is reconciled, the same `clientRequestId` twice charges once.
    #[oai(path = "/wallet/top-up", method = "post", operation_id = "topUpWallet")]
    async fn top_up(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<TopUpRequest>,
    ) -> ApiResult<Json<TopUpResult>> {
        let body = body.0;
        let user_id = auth.0.user.id;
        let amount_cents = top_up::parse_amount(Amount::text(&body.amount).as_deref())?;
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
        let request_id = body.client_request_id.unwrap_or_else(|| Uuid::new_v4().to_string());
        let outcome = top_up::top_up(
            &state.pool,
            state.gateway.as_ref(),
            state.config.payment_reconcile_after,
            user_id,
            request_id.trim(),
            amount_cents,
            &card,
        )
        .await?;
        let balance = |cents| money::format(cents);
        Ok(Json(match outcome {
            TopUp::Done { balance_cents } => TopUpResult {
                success: true,
                message: top_up::TOPPED_UP.into(),
                error: None,
                code: None,
                balance: balance(balance_cents),
            },
            TopUp::Declined(reason) => TopUpResult {
                success: false,
                message: top_up::NOT_PROCESSED.into(),
                error: Some(reason),
                code: Some(ErrorCode::PaymentDeclined),
                balance: balance(wallet::balance(&state.pool, user_id).await?),
            },
            TopUp::Pending(reason) => TopUpResult {
                success: false,
                message: top_up::NOT_PROCESSED.into(),
                error: Some(reason.into()),
                code: Some(ErrorCode::PaymentPending),
                balance: balance(wallet::balance(&state.pool, user_id).await?),
            },
        }))
    }

    /// Gives part or all of a user's balance back to the cards it came from, newest top-ups first.
    /// Audited (`wallet.refund`).
    #[oai(
        path = "/admin/wallets/:userId/refund",
        method = "post",
        operation_id = "refundWallet",
        tag = "Tag::Admin"
    )]
    async fn refund(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        #[oai(name = "userId")] user_id: Path<String>,
        body: Json<WalletRefundRequest>,
    ) -> ApiResult<WalletRefundCreated> {
        let admin = auth.admin()?;
        let user_id = parse_id(&user_id, wallet_refunds::USER_NOT_FOUND)?;
        let b = body.0;
        let done = wallet_refunds::refund(
            &state.pool,
            admin.user.id,
            user_id,
            Amount::text(&b.amount).as_deref(),
            b.reason.as_deref(),
            Utc::now(),
        )
        .await?;
        Ok(WalletRefundCreated::Created(Json(WalletRefundIssuedView {
            message: "Refund issued".into(),
            amount: money::format(done.amount_cents),
            balance: money::format(done.balance_cents),
            refunds: done
                .parts
                .into_iter()
                .map(|p| WalletRefundView {
                    id: p.id,
                    top_up_id: p.top_up_id,
                    amount: money::format(p.amount_cents),
                    card_last4: p.card_last4,
                    status: p.status,
                    created_at: p.created_at,
                })
                .collect(),
        })))
    }
}
