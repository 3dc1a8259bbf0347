//! `PAYMENT_GATEWAY=test`: a stand-in gateway with documented test cards.
//!
//! Like a real gateway it remembers every transaction by our reference, in its own ledger
//! (schema `test_gateway`, made on first use and shared by every process on the database), so
//! the reconciliation job can ask it about a charge another process sent. Test-only faults
//! ([`TestGatewaySettings`]) make it slow or lose its answers.

use std::time::Duration;

use futures::{FutureExt, future::BoxFuture};
use sqlx::PgPool;
use tokio::sync::OnceCell;

use super::gateway::{ChargeOutcome, ChargeRequest, PaymentGateway, RefundOutcome, RefundRequest};
use crate::config::{GatewayFault, TestGatewaySettings};

/// Approves.
pub const CARD_APPROVED: &str = "4111111111111111";
/// Declined by the bank.
pub const CARD_DECLINED: &str = "4000000000000002";
/// Declined for insufficient funds.
pub const CARD_INSUFFICIENT_FUNDS: &str = "4000000000009995";
/// The gateway fails with an error.
pub const CARD_GATEWAY_ERROR: &str = "4000000000000119";

pub const DECLINED_REASON: &str = "This transaction has been declined.";
pub const INSUFFICIENT_FUNDS_REASON: &str = "Insufficient funds.";
pub const GATEWAY_ERROR_REASON: &str = "An error occurred during processing. Please try again.";

pub struct TestGateway {
    pool: PgPool,
    settings: TestGatewaySettings,
    ledger_ready: OnceCell<()>,
}

impl TestGateway {
    pub fn new(pool: PgPool, settings: TestGatewaySettings) -> Self {
        Self {
            pool,
            settings,
            ledger_ready: OnceCell::new(),
        }
    }

    async fn ledger(&self) -> anyhow::Result<&PgPool> {
        self.ledger_ready
            .get_or_try_init(|| async {
                let mut tx = self.pool.begin().await?;
                // Two processes starting at once must not both create the schema.
                // Run-time SQL: the tests-only gateway's ledger (`test_gateway`) is made here, not by migrations.
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext('test_gateway ledger'))")
                    .execute(&mut *tx)
                    .await?;
                // Run-time SQL: the tests-only gateway's ledger (`test_gateway`) is made here, not by migrations.
                sqlx::query("CREATE SCHEMA IF NOT EXISTS test_gateway")
                    .execute(&mut *tx)
                    .await?;
                // Run-time SQL: the tests-only gateway's ledger (`test_gateway`) is made here, not by migrations.
                sqlx::query(
                    "CREATE TABLE IF NOT EXISTS test_gateway.transactions (\
                     reference text PRIMARY KEY, kind text NOT NULL, transaction_id text, declined_reason text, \
                     amount_cents bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())",
                )
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                anyhow::Ok(())
            })
            .await?;
        Ok(&self.pool)
    }

    /// Records a transaction once per reference (like a gateway's duplicate window) and returns
    /// what was recorded first.
    async fn record(
        &self,
        reference: &str,
        kind: &str,
        outcome: &ChargeOutcome,
        amount_cents: i64,
    ) -> anyhow::Result<ChargeOutcome> {
        let (transaction_id, declined) = match outcome {
            ChargeOutcome::Approved { transaction_id } => (Some(transaction_id.as_str()), None),
            ChargeOutcome::Declined { reason } => (None, Some(reason.as_str())),
            ChargeOutcome::Error { .. } => return Ok(outcome.clone()),
        };
        let pool = self.ledger().await?;
        // Run-time SQL: the tests-only gateway's ledger (`test_gateway`) is made here, not by migrations.
        sqlx::query(
            "INSERT INTO test_gateway.transactions (reference, kind, transaction_id, declined_reason, amount_cents) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (reference) DO NOTHING",
        )
        .bind(reference)
        .bind(kind)
        .bind(transaction_id)
        .bind(declined)
        .bind(amount_cents)
        .execute(pool)
        .await?;
        Ok(self.find(reference, kind).await?.unwrap_or_else(|| outcome.clone()))
    }

    async fn find(&self, reference: &str, kind: &str) -> anyhow::Result<Option<ChargeOutcome>> {
        let pool = self.ledger().await?;
        // Run-time SQL: the tests-only gateway's ledger (`test_gateway`) is made here, not by migrations.
        let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT transaction_id, declined_reason FROM test_gateway.transactions WHERE reference = $1 AND kind = $2",
        )
        .bind(reference)
        .bind(kind)
        .fetch_optional(pool)
        .await?;
        Ok(row.map(|(id, reason)| match id {
            Some(transaction_id) => ChargeOutcome::Approved { transaction_id },
            None => ChargeOutcome::Declined {
                reason: reason.unwrap_or_else(|| DECLINED_REASON.into()),
            },
        }))
    }
}

/// What the test gateway decides for a card number.
pub fn decide(card_number: &str) -> ChargeOutcome {
    match card_number {
        CARD_DECLINED => ChargeOutcome::Declined {
            reason: DECLINED_REASON.into(),
        },
        CARD_INSUFFICIENT_FUNDS => ChargeOutcome::Declined {
            reason: INSUFFICIENT_FUNDS_REASON.into(),
        },
        CARD_GATEWAY_ERROR => ChargeOutcome::Error {
            reason: GATEWAY_ERROR_REASON.into(),
        },
        _ => ChargeOutcome::Approved {
            transaction_id: format!("test-{}", uuid::Uuid::new_v4().simple()),
        },
    }
}

async fn answer<T>(delay_ms: u64, fault: Option<GatewayFault>, made: T) -> anyhow::Result<T> {
    tokio::time::sleep(Duration::from_millis(delay_ms)).await;
    match fault {
        Some(GatewayFault::LostAnswer) => anyhow::bail!("test gateway: the answer was lost (PAYMENT_TEST_*_FAULT)"),
        _ => Ok(made),
    }
}

impl PaymentGateway for TestGateway {
    fn name(&self) -> &'static str {
        "test"
    }

    fn charge<'a>(&'a self, request: ChargeRequest<'a>) -> BoxFuture<'a, anyhow::Result<ChargeOutcome>> {
        async move {
            if self.settings.charge_fault == Some(GatewayFault::Unreachable) {
                anyhow::bail!("test gateway: unreachable (PAYMENT_TEST_CHARGE_FAULT=error)");
            }
            let outcome = self
                .record(
                    request.reference,
                    "charge",
                    &decide(request.card.number()),
                    request.amount_cents,
                )
                .await?;
            answer(self.settings.charge_delay_ms, self.settings.charge_fault, outcome).await
        }
        .boxed()
    }

    fn refund<'a>(&'a self, request: RefundRequest<'a>) -> BoxFuture<'a, anyhow::Result<RefundOutcome>> {
        async move {
            if self.settings.refund_fault == Some(GatewayFault::Unreachable) {
                anyhow::bail!("test gateway: unreachable (PAYMENT_TEST_REFUND_FAULT=error)");
            }
            let made = ChargeOutcome::Approved {
                transaction_id: format!("test-refund-{}", uuid::Uuid::new_v4().simple()),
            };
            let outcome = match self
                .record(request.reference, "refund", &made, request.amount_cents)
                .await?
            {
                ChargeOutcome::Approved { transaction_id } => RefundOutcome::Refunded { transaction_id },
                ChargeOutcome::Declined { reason } | ChargeOutcome::Error { reason } => {
                    RefundOutcome::Failed { reason }
                }
            };
            answer(self.settings.refund_delay_ms, self.settings.refund_fault, outcome).await
        }
        .boxed()
    }

    fn find_charge<'a>(&'a self, reference: &'a str) -> BoxFuture<'a, anyhow::Result<Option<ChargeOutcome>>> {
        self.find(reference, "charge").boxed()
    }

    fn find_refund<'a>(&'a self, reference: &'a str) -> BoxFuture<'a, anyhow::Result<Option<String>>> {
        async move {
            Ok(match self.find(reference, "refund").await? {
                Some(ChargeOutcome::Approved { transaction_id }) => Some(transaction_id),
                _ => None,
            })
        }
        .boxed()
    }

    fn answer_deadline(&self) -> Duration {
        Duration::from_millis(self.settings.charge_delay_ms) + Duration::from_secs(5)
    }
}
