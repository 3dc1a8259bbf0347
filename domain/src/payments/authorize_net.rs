//! `PAYMENT_GATEWAY=authorizenet`: Authorize.net's JSON API (createTransactionRequest) for
//! charges (authCaptureTransaction) and refunds (refundTransaction), and
//! getUnsettledTransactionListRequest to find a transaction by our reference (its invoice
//! number) after an answer was lost. Transactions are found until they settle (nightly), which
//! is far longer than reconciliation waits.
//!
//! The gateway's own texts are logged; payers see [`payer_text`]'s words.

use std::time::Duration;

use anyhow::Context;
use futures::{FutureExt, future::BoxFuture};
use serde_json::{Value, json};

use super::gateway::{ChargeOutcome, ChargeRequest, PaymentGateway, RefundOutcome, RefundRequest};
use crate::{config::AuthorizeNetSettings, money};

pub struct AuthorizeNet {
    settings: AuthorizeNetSettings,
    http: reqwest::Client,
}

/// How long one call may take before its outcome counts as unknown.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Authorize.net refuses a second transaction with the same invoice number, amount and card
/// within this many seconds, so a charge resent by mistake is not made twice.
pub const DUPLICATE_WINDOW_SECONDS: u32 = 600;
/// Transactions per page of the unsettled list (Authorize.net's maximum).
const LIST_PAGE_SIZE: u32 = 1000;

/// Response codes of a transactionResponse.
const APPROVED: &str = "1";
const DECLINED: &str = "2";

pub const DECLINED_TEXT: &str = "This transaction has been declined.";
pub const ERROR_TEXT: &str = "An error occurred during processing. Please try again.";

impl AuthorizeNet {
    pub fn new(settings: AuthorizeNetSettings) -> anyhow::Result<Self> {
        // reqwest is built without a default crypto provider; the product uses ring throughout.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder().timeout(REQUEST_TIMEOUT).build()?;
        Ok(Self { settings, http })
    }

    fn auth(&self) -> Value {
        json!({ "name": self.settings.login_id, "transactionKey": self.settings.transaction_key })
    }

    async fn send(&self, body: Value) -> anyhow::Result<Value> {
        let response = self
            .http
            .post(&self.settings.endpoint)
            .json(&body)
            .send()
            .await
            .context("the gateway did not answer")?;
        let text = response.text().await.context("reading the gateway's answer")?;
        // Authorize.net prefixes its JSON with a byte-order mark.
        serde_json::from_str(text.trim_start_matches('\u{feff}')).context("the gateway's answer is not JSON")
    }

    /// The unsettled transaction whose invoice number is `reference`, newest first.
    async fn find(&self, reference: &str) -> anyhow::Result<Option<Value>> {
        for page in 1.. {
            let body = json!({ "getUnsettledTransactionListRequest": {
                "merchantAuthentication": self.auth(),
                "sorting": { "orderBy": "submitTimeUTC", "orderDescending": true },
                "paging": { "limit": LIST_PAGE_SIZE, "offset": page },
            }});
            let response = self.send(body).await?;
            if response["messages"]["resultCode"].as_str() != Some("Ok") {
                anyhow::bail!("the gateway refused the transaction list: {}", gateway_text(&response));
            }
            let list = response["transactions"].as_array().cloned().unwrap_or_default();
            if let Some(found) = list.iter().find(|t| t["invoiceNumber"].as_str() == Some(reference)) {
                return Ok(Some(found.clone()));
            }
            if list.len() < LIST_PAGE_SIZE as usize {
                break;
            }
        }
        Ok(None)
    }
}

/// The gateway's own words: the first transaction error, else the first message. Logged only.
fn gateway_text(response: &Value) -> String {
    let tr = &response["transactionResponse"];
    tr["errors"][0]["errorText"]
        .as_str()
        .or_else(|| tr["messages"][0]["description"].as_str())
        .or_else(|| response["messages"]["message"][0]["text"].as_str())
        .unwrap_or("no reason given")
        .to_string()
}

/// What a payer is told about a declined card, by Authorize.net's response reason code.
pub fn payer_text(error_code: Option<&str>) -> &'static str {
    match error_code {
        Some("8") => "The card has expired.",
        Some("6" | "37") => "The card number is invalid.",
        Some("27") => "The billing address does not match the card.",
        Some("44" | "45" | "65") => "The card security code is incorrect.",
        _ => DECLINED_TEXT,
    }
}

pub fn charge_outcome(response: &Value) -> ChargeOutcome {
    let tr = &response["transactionResponse"];
    let outcome = match tr["responseCode"].as_str() {
        Some(APPROVED) => match tr["transId"].as_str().filter(|id| !id.is_empty() && *id != "0") {
            Some(id) => {
                return ChargeOutcome::Approved {
                    transaction_id: id.to_string(),
                };
            }
            None => ChargeOutcome::Error {
                reason: ERROR_TEXT.into(),
            },
        },
        Some(DECLINED) => ChargeOutcome::Declined {
            reason: payer_text(tr["errors"][0]["errorCode"].as_str()).into(),
        },
        _ => ChargeOutcome::Error {
            reason: ERROR_TEXT.into(),
        },
    };
    tracing::warn!(gateway_says = %gateway_text(response), "Authorize.net did not approve a charge");
    outcome
}

pub fn refund_outcome(response: &Value) -> RefundOutcome {
    let tr = &response["transactionResponse"];
    match (tr["responseCode"].as_str(), tr["transId"].as_str()) {
        (Some(APPROVED), Some(id)) if !id.is_empty() => RefundOutcome::Refunded {
            transaction_id: id.to_string(),
        },
        _ => RefundOutcome::Failed {
            reason: gateway_text(response),
        },
    }
}

/// A listed transaction as a charge outcome (its `transactionStatus`).
pub fn listed_charge(transaction: &Value) -> ChargeOutcome {
    let id = transaction["transId"].as_str().unwrap_or_default().to_string();
    match transaction["transactionStatus"].as_str() {
        Some(
            "declined"
            | "FDSAuthorizedPendingReview"
            | "FDSPendingReview"
            | "voided"
            | "expired"
            | "generalError"
            | "communicationError",
        ) => ChargeOutcome::Declined {
            reason: DECLINED_TEXT.into(),
        },
        _ => ChargeOutcome::Approved { transaction_id: id },
    }
}

impl PaymentGateway for AuthorizeNet {
    fn name(&self) -> &'static str {
        "authorizenet"
    }

    fn charge<'a>(&'a self, request: ChargeRequest<'a>) -> BoxFuture<'a, anyhow::Result<ChargeOutcome>> {
        async move {
            let card = request.card;
            let b = &card.billing;
            let body = json!({ "createTransactionRequest": {
                "merchantAuthentication": self.auth(),
                "refId": request.reference,
                "transactionRequest": {
                    "transactionType": "authCaptureTransaction",
                    "amount": money::format(request.amount_cents),
                    "payment": { "creditCard": {
                        "cardNumber": card.number(),
                        "expirationDate": format!("{}-{:02}", card.exp_year, card.exp_month),
                        "cardCode": card.code(),
                    }},
                    "order": { "invoiceNumber": request.reference, "description": request.description },
                    "billTo": { "firstName": b.first_name, "lastName": b.last_name, "address": b.address, "city": b.city, "state": b.state, "zip": b.zip },
                    "transactionSettings": { "setting": [{ "settingName": "duplicateWindow", "settingValue": DUPLICATE_WINDOW_SECONDS.to_string() }] },
                }
            }});
            Ok(charge_outcome(&self.send(body).await?))
        }
        .boxed()
    }

    fn refund<'a>(&'a self, request: RefundRequest<'a>) -> BoxFuture<'a, anyhow::Result<RefundOutcome>> {
        async move {
            let body = json!({ "createTransactionRequest": {
                "merchantAuthentication": self.auth(),
                "refId": request.reference,
                "transactionRequest": {
                    "transactionType": "refundTransaction",
                    "amount": money::format(request.amount_cents),
                    "payment": { "creditCard": { "cardNumber": request.card_last4, "expirationDate": "XXXX" } },
                    "refTransId": request.transaction_id,
                    "order": { "invoiceNumber": request.reference },
                    "transactionSettings": { "setting": [{ "settingName": "duplicateWindow", "settingValue": DUPLICATE_WINDOW_SECONDS.to_string() }] },
                }
            }});
            Ok(refund_outcome(&self.send(body).await?))
        }
        .boxed()
    }

    fn find_charge<'a>(&'a self, reference: &'a str) -> BoxFuture<'a, anyhow::Result<Option<ChargeOutcome>>> {
        async move { Ok(self.find(reference).await?.as_ref().map(listed_charge)) }.boxed()
    }

    fn find_refund<'a>(&'a self, reference: &'a str) -> BoxFuture<'a, anyhow::Result<Option<String>>> {
        async move {
            Ok(self.find(reference).await?.and_then(|t| match listed_charge(&t) {
                ChargeOutcome::Approved { transaction_id } => Some(transaction_id),
                _ => None,
            }))
        }
        .boxed()
    }

    fn answer_deadline(&self) -> Duration {
        REQUEST_TIMEOUT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_responses() {
        let approved = json!({"transactionResponse": {"responseCode": "1", "transId": "60012345", "accountNumber": "XXXX1111"}, "messages": {"resultCode": "Ok"}});
        assert_eq!(
            charge_outcome(&approved),
            ChargeOutcome::Approved {
                transaction_id: "60012345".into()
            }
        );
        let declined = json!({"transactionResponse": {"responseCode": "2", "transId": "0", "errors": [{"errorCode": "2", "errorText": "This transaction has been declined."}]}, "messages": {"resultCode": "Error"}});
        assert_eq!(
            charge_outcome(&declined),
            ChargeOutcome::Declined {
                reason: DECLINED_TEXT.into()
            }
        );
        let refunded = json!({"transactionResponse": {"responseCode": "1", "transId": "60099999"}});
        assert_eq!(
            refund_outcome(&refunded),
            RefundOutcome::Refunded {
                transaction_id: "60099999".into()
            }
        );
    }

    #[test]
    fn payers_never_see_the_gateway_texts() {
        let error = json!({"messages": {"resultCode": "Error", "message": [{"code": "E00007", "text": "User authentication failed due to invalid authentication values."}]}});
        assert_eq!(
            charge_outcome(&error),
            ChargeOutcome::Error {
                reason: ERROR_TEXT.into()
            }
        );
        let cvv = json!({"transactionResponse": {"responseCode": "2", "errors": [{"errorCode": "45", "errorText": "AVS and CVV mismatch with merchant id 1234"}]}});
        assert_eq!(
            charge_outcome(&cvv),
            ChargeOutcome::Declined {
                reason: "The card security code is incorrect.".into()
            }
        );
    }

    #[test]
    fn listed_transactions() {
        let captured =
            json!({"transId": "600", "invoiceNumber": "abc", "transactionStatus": "capturedPendingSettlement"});
        assert_eq!(
            listed_charge(&captured),
            ChargeOutcome::Approved {
                transaction_id: "600".into()
            }
        );
        let declined = json!({"transId": "601", "invoiceNumber": "abc", "transactionStatus": "declined"});
        assert!(matches!(listed_charge(&declined), ChargeOutcome::Declined { .. }));
    }
}
