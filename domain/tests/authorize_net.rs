//! The Authorize.net gateway against a local HTTP server that answers as the documented JSON
//! API does (with its byte-order mark), and records what it was sent.

use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use domain::{
    config::AuthorizeNetSettings,
    payments::{
        ChargeOutcome, PaymentGateway, RefundOutcome,
        authorize_net::{self, AuthorizeNet},
        card::{self, Billing, CardInput},
        gateway::{ChargeRequest, RefundRequest},
    },
};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpListener,
};

/// Answers each POST with the next canned body; returns the address and the received bodies.
async fn fake_gateway(answers: Vec<Value>) -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = format!("http://{}/xml/v1/request.api", listener.local_addr().unwrap());
    let received = Arc::new(Mutex::new(Vec::new()));
    let seen = received.clone();
    tokio::spawn(async move {
        for answer in answers {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            let body = loop {
                let n = socket.read(&mut chunk).await.unwrap();
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf).to_string();
                if let Some((head, body)) = text.split_once("\r\n\r\n") {
                    let len: usize = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse().unwrap())
                        })
                        .unwrap_or(0);
                    if body.len() >= len {
                        break body[..len].to_string();
                    }
                }
            };
            seen.lock().unwrap().push(serde_json::from_str(&body).unwrap());
            let payload = format!("\u{feff}{answer}");
            let response = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{payload}",
                payload.len()
            );
            socket.write_all(response.as_bytes()).await.unwrap();
        }
    });
    (addr, received)
}

fn test_card() -> card::Card {
    card::validate(
        CardInput {
            number: "4111111111111111",
            expiration: "1230",
            code: "123",
            billing: Billing {
                first_name: "Ann".into(),
                last_name: "Lee".into(),
                zip: "10001".into(),
                ..Default::default()
            },
        },
        NaiveDate::from_ymd_opt(2026, 11, 22).unwrap(),
    )
    .unwrap()
}

#[tokio::test]
async fn charges_and_refunds_speak_the_json_api() {
    let answers = vec![
        json!({"transactionResponse": {"responseCode": "1", "authCode": "ABC123", "transId": "60012345", "accountNumber": "XXXX1111", "messages": [{"code": "1", "description": "This transaction has been approved."}]}, "refId": "x", "messages": {"resultCode": "Ok", "message": [{"code": "I00001", "text": "Successful."}]}}),
        json!({"transactionResponse": {"responseCode": "2", "transId": "0", "errors": [{"errorCode": "2", "errorText": "This transaction has been declined."}]}, "messages": {"resultCode": "Error", "message": [{"code": "E00027", "text": "The transaction was unsuccessful."}]}}),
        json!({"messages": {"resultCode": "Error", "message": [{"code": "E00007", "text": "User authentication failed due to invalid authentication values."}]}}),
        json!({"transactionResponse": {"responseCode": "1", "transId": "60099999"}, "messages": {"resultCode": "Ok"}}),
    ];
    let (endpoint, received) = fake_gateway(answers).await;
    let gateway = AuthorizeNet::new(AuthorizeNetSettings {
        login_id: "login".into(),
        transaction_key: "key".into(),
        endpoint,
    })
    .unwrap();
    let card = test_card();
    let request = || ChargeRequest {
        reference: "0123456789abcdef0123",
        amount_cents: 4050,
        card: &card,
        description: "Reading",
    };

    assert_eq!(
        gateway.charge(request()).await.unwrap(),
        ChargeOutcome::Approved {
            transaction_id: "60012345".into()
        }
    );
    assert_eq!(
        gateway.charge(request()).await.unwrap(),
        ChargeOutcome::Declined {
            reason: "This transaction has been declined.".into()
        }
    );
    assert_eq!(
        gateway.charge(request()).await.unwrap(),
        ChargeOutcome::Error {
            reason: authorize_net::ERROR_TEXT.into()
        },
        "the gateway's own text is not shown"
    );
    let refund = gateway
        .refund(RefundRequest {
            reference: "fedcba9876543210fedc",
            transaction_id: "60012345",
            amount_cents: 2025,
            card_last4: "1111",
        })
        .await
        .unwrap();
    assert_eq!(
        refund,
        RefundOutcome::Refunded {
            transaction_id: "60099999".into()
        }
    );

    let sent = received.lock().unwrap().clone();
    let charge = &sent[0]["createTransactionRequest"];
    assert_eq!(
        charge["merchantAuthentication"],
        json!({"name": "login", "transactionKey": "key"})
    );
    assert_eq!(
        charge["transactionRequest"]["transactionType"],
        "authCaptureTransaction"
    );
    assert_eq!(charge["transactionRequest"]["amount"], "40.50");
    assert_eq!(
        charge["transactionRequest"]["payment"]["creditCard"]["expirationDate"],
        "2030-12"
    );
    assert_eq!(charge["transactionRequest"]["billTo"]["zip"], "10001");
    assert_eq!(
        charge["transactionRequest"]["order"]["invoiceNumber"], "0123456789abcdef0123",
        "our attempt's reference"
    );
    assert_eq!(
        charge["transactionRequest"]["transactionSettings"]["setting"][0],
        json!({"settingName": "duplicateWindow", "settingValue": "600"})
    );
    let refund = &sent[3]["createTransactionRequest"]["transactionRequest"];
    assert_eq!(refund["transactionType"], "refundTransaction");
    assert_eq!(refund["refTransId"], "60012345");
    assert_eq!(
        refund["payment"]["creditCard"]["cardNumber"], "1111",
        "refunds send only the last four digits"
    );
}

#[tokio::test]
async fn a_lost_answer_is_found_by_reference() {
    let answers = vec![
        json!({"transactions": [
            {"transId": "70000001", "invoiceNumber": "otherreference000000", "transactionStatus": "capturedPendingSettlement"},
            {"transId": "70000002", "invoiceNumber": "0123456789abcdef0123", "transactionStatus": "capturedPendingSettlement"}
        ], "totalNumInResultSet": 2, "messages": {"resultCode": "Ok"}}),
        json!({"transactions": [], "messages": {"resultCode": "Ok"}}),
    ];
    let (endpoint, received) = fake_gateway(answers).await;
    let gateway = AuthorizeNet::new(AuthorizeNetSettings {
        login_id: "login".into(),
        transaction_key: "key".into(),
        endpoint,
    })
    .unwrap();
    assert_eq!(
        gateway.find_charge("0123456789abcdef0123").await.unwrap(),
        Some(ChargeOutcome::Approved {
            transaction_id: "70000002".into()
        })
    );
    assert_eq!(gateway.find_charge("neverchargedxxxxxxxx").await.unwrap(), None);
    let sent = received.lock().unwrap().clone();
    assert_eq!(
        sent[0]["getUnsettledTransactionListRequest"]["sorting"]["orderDescending"],
        true
    );
}

#[tokio::test]
async fn an_unreachable_gateway_is_an_unknown_outcome_not_a_charge() {
    let gateway = AuthorizeNet::new(AuthorizeNetSettings {
        login_id: "l".into(),
        transaction_key: "k".into(),
        endpoint: "http://127.0.0.1:9/xml/v1/request.api".into(),
    })
    .unwrap();
    let card = test_card();
    let outcome = gateway
        .charge(ChargeRequest {
            reference: "0123456789abcdef0123",
            amount_cents: 100,
            card: &card,
            description: "x",
        })
        .await;
    assert!(
        outcome.is_err(),
        "an unanswered charge is left for reconciliation: {outcome:?}"
    );
}
