//! `PAYMENT_GATEWAY=authorizenet`: Authorize.net's JSON API (createTransactionRequest), for
//! charges (authCaptureTransaction) and refunds (refundTransaction).

use anyhow::Context;
use futures::{FutureExt, future::BoxFuture};
use serde_json::{Value, json};

use super::gateway::{ChargeOutcome, ChargeRequest, PaymentGateway, RefundOutcome, RefundRequest};
use crate::{config::AuthorizeNetSettings, money};

pub struct AuthorizeNet {
    settings: AuthorizeNetSettings,
    http: reqwest::Client,
}

/// Response codes of a transactionResponse.
const APPROVED: &str = "1";
const DECLINED: &str = "2";

impl AuthorizeNet {
    pub fn new(settings: AuthorizeNetSettings) -> anyhow::Result<Self> {
        // reqwest is built without a default crypto provider; the product uses ring throughout.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder().timeout(std::time::Duration::from_secs(30)).build()?;
        Ok(Self { settings, http })
    }

    fn auth(&self) -> Value {
        json!({ "name": self.settings.login_id, "transactionKey": self.settings.transaction_key })
    }

    async fn send(&self, body: Value) -> anyhow::Result<Value> {
        let response = self.http.post(&self.settings.endpoint).json(&body).send().await.context("the gateway did not answer")?;
        let text = response.text().await.context("reading the gateway's answer")?;
        // Authorize.net prefixes its JSON with a byte-order mark.
        serde_json::from_str(text.trim_start_matches('\u{feff}')).context("the gateway's answer is not JSON")
    }
}

/// The reason the gateway gives: the first transaction error, else the first message.
fn reason(response: &Value) -> String {
    let tr = &response["transactionResponse"];
    tr["errors"][0]["errorText"]
        .as_str()
        .or_else(|| tr["messages"][0]["description"].as_str())
        .or_else(|| response["messages"]["message"][0]["text"].as_str())
        .unwrap_or("The payment gateway did not accept the transaction.")
        .to_string()
}

pub fn charge_outcome(response: &Value) -> ChargeOutcome {
    let tr = &response["transactionResponse"];
    match tr["responseCode"].as_str() {
        Some(APPROVED) => match tr["transId"].as_str().filter(|id| !id.is_empty() && *id != "0") {
            Some(id) => ChargeOutcome::Approved { transaction_id: id.to_string() },
            None => ChargeOutcome::Error { reason: "The gateway approved without a transaction id.".into() },
        },
        Some(DECLINED) => ChargeOutcome::Declined { reason: reason(response) },
        _ => ChargeOutcome::Error { reason: reason(response) },
    }
}

pub fn refund_outcome(response: &Value) -> RefundOutcome {
    let tr = &response["transactionResponse"];
    match (tr["responseCode"].as_str(), tr["transId"].as_str()) {
        (Some(APPROVED), Some(id)) if !id.is_empty() => RefundOutcome::Refunded { transaction_id: id.to_string() },
        _ => RefundOutcome::Failed { reason: reason(response) },
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
                "refId": request.reference.simple().to_string()[..20].to_string(),
                "transactionRequest": {
                    "transactionType": "authCaptureTransaction",
                    "amount": money::format(request.amount_cents),
                    "payment": { "creditCard": {
                        "cardNumber": card.number(),
                        "expirationDate": format!("{}-{:02}", card.exp_year, card.exp_month),
                        "cardCode": card.code(),
                    }},
                    "order": { "invoiceNumber": request.reference.simple().to_string()[..20].to_string(), "description": request.description },
                    "billTo": { "firstName": b.first_name, "lastName": b.last_name, "address": b.address, "city": b.city, "state": b.state, "zip": b.zip },
                }
            }});
            match self.send(body).await {
                Ok(response) => Ok(charge_outcome(&response)),
                Err(err) => Ok(ChargeOutcome::Error { reason: format!("{err}") }),
            }
        }
        .boxed()
    }

    fn refund<'a>(&'a self, request: RefundRequest<'a>) -> BoxFuture<'a, anyhow::Result<RefundOutcome>> {
        async move {
            let body = json!({ "createTransactionRequest": {
                "merchantAuthentication": self.auth(),
                "refId": request.reference.simple().to_string()[..20].to_string(),
                "transactionRequest": {
                    "transactionType": "refundTransaction",
                    "amount": money::format(request.amount_cents),
                    "payment": { "creditCard": { "cardNumber": request.card_last4, "expirationDate": "XXXX" } },
                    "refTransId": request.transaction_id,
                }
            }});
            Ok(refund_outcome(&self.send(body).await?))
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_responses() {
        let approved = json!({"transactionResponse": {"responseCode": "1", "transId": "60012345", "accountNumber": "XXXX1111"}, "messages": {"resultCode": "Ok"}});
        assert_eq!(charge_outcome(&approved), ChargeOutcome::Approved { transaction_id: "60012345".into() });
        let declined = json!({"transactionResponse": {"responseCode": "2", "transId": "0", "errors": [{"errorCode": "2", "errorText": "This transaction has been declined."}]}, "messages": {"resultCode": "Error"}});
        assert_eq!(charge_outcome(&declined), ChargeOutcome::Declined { reason: "This transaction has been declined.".into() });
        let error = json!({"messages": {"resultCode": "Error", "message": [{"code": "E00007", "text": "User authentication failed due to invalid authentication values."}]}});
        assert_eq!(charge_outcome(&error), ChargeOutcome::Error { reason: "User authentication failed due to invalid authentication values.".into() });
        let refunded = json!({"transactionResponse": {"responseCode": "1", "transId": "60099999"}});
        assert_eq!(refund_outcome(&refunded), RefundOutcome::Refunded { transaction_id: "60099999".into() });
    }
}
