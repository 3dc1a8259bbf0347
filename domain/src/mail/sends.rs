//! Each e-mail the e-mail job sends goes out once (issue 37), although apalis runs a task at least
//! once: a worker killed, or cut off from the database, after the SMTP server accepted a mail but
//! before it marked the task done runs the task again.
//!
//! A mail's [`Key`] is its task (apalis' id, a ULID never reused), its recipient and its place among
//! that task's mails to that recipient. So a second run of one task finds the mails of the first,
//! while a second request (a new verification link, a second password reset, a contact message sent
//! twice) is another task and sends another mail.
//!
//! Before sending, the run [`claim`]s the key (a row in `email_sends`); once the server accepted the
//! mail it marks it sent ([`mark_sent`]). A run that finds the key marked sent skips the mail. A
//! claim holds for [`CLAIM_LEASE`]: a run that died between its claim and the server's answer does
//! not block the mail for good (a later run claims it again once the lease is over), and a send that
//! failed lets go at once ([`release`]) for the next try.
//!
//! What remains: the server accepted the mail and the mark failed (the database away for longer
//! than the job waits for it, or the worker killed right between the two). The next run sends the
//! mail again, with the same `Message-ID` ([`Key::message_id`]), so receivers that drop duplicates by
//! Message-ID show it once.

use std::{collections::HashMap, time::Duration};

use sha2::{Digest, Sha256};
use sqlx::PgExecutor;

/// Rows are kept this many days (the daily cleanup deletes older ones): longer than a task can be
/// run again, since finished tasks themselves are deleted after two weeks.
pub const KEEP_DAYS: i32 = 30;
/// How long the job keeps trying to mark a mail sent that the server accepted, while the database
/// does not answer (a primary restarting): each try it gives up on is a mail sent twice.
pub const MARK_SENT_PATIENCE: Duration = Duration::from_secs(30);
/// How long a claim holds: the whole send and the marking, with room to spare. A claim older than
/// this, not marked sent, belongs to a run that died; another run of the task may send the mail.
pub const CLAIM_LEASE: Duration =
    Duration::from_secs(super::SEND_TIMEOUT.as_secs() + MARK_SENT_PATIENCE.as_secs() + CLAIM_LEASE_MARGIN_SECS);
const CLAIM_LEASE_MARGIN_SECS: u64 = 10;

/// Which mail of which task to whom: what makes a mail the same mail on every run of its task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub task_id: String,
    /// SHA-256 of the lower-cased address: the table keeps no address.
    pub recipient_digest: Vec<u8>,
    /// 0 for the task's first mail to this recipient, 1 for its second, ...
    pub seq: i32,
}

impl Key {
    /// The keys of the mails that one run of task `task_id` sends, in the order of `recipients` (one
    /// per mail). Rendering a task gives its mails in the same order every run, so each mail gets the
    /// same key every run.
    pub fn of_task<'a>(task_id: &str, recipients: impl IntoIterator<Item = &'a str>) -> Vec<Key> {
        let mut seen: HashMap<Vec<u8>, i32> = HashMap::new();
        recipients
            .into_iter()
            .map(|to| {
                let recipient_digest = recipient_digest(to);
                let seq = seen.entry(recipient_digest.clone()).or_insert(0);
                let key = Key {
                    task_id: task_id.to_string(),
                    recipient_digest,
                    seq: *seq,
                };
                *seq += 1;
                key
            })
            .collect()
    }

    /// The local part of the mail's `Message-ID`, the same on every run of the task (and nothing
    /// anyone could read an address from): a mail sent twice after all is one message to receivers
    /// that drop duplicates by Message-ID.
    pub fn message_id(&self) -> String {
        let mut h = Sha256::new();
        h.update(self.task_id.as_bytes());
        h.update([0]);
        h.update(&self.recipient_digest);
        h.update(self.seq.to_be_bytes());
        h.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The digest a [`Key`] keeps of an address; addresses differing only in case are one recipient.
pub fn recipient_digest(address: &str) -> Vec<u8> {
    Sha256::digest(address.trim().to_lowercase().as_bytes()).to_vec()
}

/// What a run may do with a mail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Claim {
    /// This run holds the claim: send it, then [`mark_sent`] (or [`release`] if the send failed).
    Send,
    /// A run of this task sent it already.
    AlreadySent,
    /// Another run claimed it less than [`CLAIM_LEASE`] ago and may be sending it now: ask again
    /// after this long.
    Busy(Duration),
}

/// Claims the mail `key` of a job of kind `kind` for this run.
pub async fn claim(db: impl PgExecutor<'_>, key: &Key, kind: &str) -> sqlx::Result<Claim> {
    // The outer SELECT sees the row as it was before this statement: sent or claimed by another run.
    let row = sqlx::query!(
        r#"WITH claimed AS (
               INSERT INTO email_sends (task_id, recipient_digest, seq, kind, claimed_until)
               VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
               ON CONFLICT (task_id, recipient_digest, seq) DO UPDATE
                   SET claimed_until = EXCLUDED.claimed_until, claims = email_sends.claims + 1
                   WHERE email_sends.sent_at IS NULL AND email_sends.claimed_until <= now()
               RETURNING 1
           )
           SELECT EXISTS (SELECT 1 FROM claimed) AS "claimed!",
                  e.sent_at IS NOT NULL AS "sent?",
                  greatest(extract(epoch FROM e.claimed_until - now()), 0)::float8 AS "busy_for?"
           FROM (SELECT 1) AS one
           LEFT JOIN email_sends e ON e.task_id = $1 AND e.recipient_digest = $2 AND e.seq = $3"#,
        key.task_id,
        key.recipient_digest,
        key.seq,
        kind,
        CLAIM_LEASE.as_secs_f64(),
    )
    .fetch_one(db)
    .await?;
    Ok(match row {
        r if r.claimed => Claim::Send,
        r if r.sent == Some(true) => Claim::AlreadySent,
        // Claimed by a run that committed after this statement began: the whole lease is ahead.
        r => Claim::Busy(r.busy_for.map_or(CLAIM_LEASE, Duration::from_secs_f64)),
    })
}

/// Records that the server accepted the mail `key`.
pub async fn mark_sent(db: impl PgExecutor<'_>, key: &Key) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE email_sends SET sent_at = coalesce(sent_at, now()) \
         WHERE task_id = $1 AND recipient_digest = $2 AND seq = $3",
        key.task_id,
        key.recipient_digest,
        key.seq,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Lets go of the claim on `key` after its send failed, so the task's next try may send it at once.
pub async fn release(db: impl PgExecutor<'_>, key: &Key) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE email_sends SET claimed_until = now() \
         WHERE task_id = $1 AND recipient_digest = $2 AND seq = $3 AND sent_at IS NULL",
        key.task_id,
        key.recipient_digest,
        key.seq,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Deletes the rows of mails claimed more than `days` days ago; returns how many.
pub async fn prune(db: impl PgExecutor<'_>, days: i32) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM email_sends WHERE created_at < now() - make_interval(days => $1)",
        days
    )
    .execute(db)
    .await?
    .rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASK: &str = "01JD8X4P2M6Q7R8S9T0V1W2X3Y";

    #[test]
    fn each_recipient_of_a_task_has_a_key_and_a_second_mail_to_one_counts_on() {
        let keys = Key::of_task(TASK, ["seeker@example.com", "mentor@example.com", "Seeker@Example.com"]);
        assert_eq!(keys.len(), 3);
        assert!(keys.iter().all(|k| k.task_id == TASK));
        assert_eq!(keys[0].recipient_digest, recipient_digest("seeker@example.com"));
        assert_eq!(keys[1].recipient_digest, recipient_digest("mentor@example.com"));
        assert_ne!(keys[0].recipient_digest, keys[1].recipient_digest);
        // The same address in another case is the same recipient: its second mail of this task.
        assert_eq!(keys[2].recipient_digest, keys[0].recipient_digest);
        assert_eq!(keys.iter().map(|k| k.seq).collect::<Vec<_>>(), vec![0, 0, 1]);
    }

    #[test]
    fn a_second_run_of_a_task_has_the_same_keys_and_another_task_other_keys() {
        let to = ["seeker@example.com", "mentor@example.com"];
        assert_eq!(Key::of_task(TASK, to), Key::of_task(TASK, to));
        let other = Key::of_task("01JD8X4P2M6Q7R8S9T0V1W2X3Z", to);
        for (a, b) in Key::of_task(TASK, to).iter().zip(&other) {
            assert_ne!(a, b);
            assert_ne!(a.message_id(), b.message_id());
        }
    }

    #[test]
    fn the_message_id_is_the_same_every_run_and_differs_per_mail() {
        let keys = Key::of_task(TASK, ["a@example.com", "b@example.com", "a@example.com"]);
        let ids: Vec<String> = keys.iter().map(Key::message_id).collect();
        assert_eq!(
            ids,
            Key::of_task(TASK, ["a@example.com", "b@example.com", "a@example.com"])
                .iter()
                .map(Key::message_id)
                .collect::<Vec<_>>()
        );
        assert_eq!(ids.len(), 3);
        assert!(ids[0] != ids[1] && ids[0] != ids[2] && ids[1] != ids[2], "{ids:?}");
        for id in &ids {
            assert_eq!(id.len(), 32);
            assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
            assert!(!id.contains("example"), "{id}");
        }
    }

    #[test]
    fn the_digest_ignores_case_and_surrounding_space() {
        assert_eq!(
            recipient_digest(" Ann@Example.COM "),
            recipient_digest("ann@example.com")
        );
        assert_ne!(
            recipient_digest("ann@example.com"),
            recipient_digest("anne@example.com")
        );
    }

    async fn claims(pool: &sqlx::PgPool, key: &Key) -> i32 {
        sqlx::query_scalar("SELECT claims FROM email_sends WHERE task_id = $1 AND seq = $2")
            .bind(&key.task_id)
            .bind(key.seq)
            .fetch_one(pool)
            .await
            .unwrap()
    }

    #[sqlx::test(migrator = "crate::db::MIGRATOR")]
    async fn a_mail_is_claimed_once_sent_once_and_a_dead_or_failed_claim_can_be_taken_again(pool: sqlx::PgPool) {
        let key = &Key::of_task(TASK, ["ann@example.com"])[0];
        assert_eq!(claim(&pool, key, "reset_password").await.unwrap(), Claim::Send);
        // A run of the same task meanwhile: the first may be sending it now.
        match claim(&pool, key, "reset_password").await.unwrap() {
            Claim::Busy(wait) => assert!(
                wait > CLAIM_LEASE - Duration::from_secs(5) && wait <= CLAIM_LEASE,
                "{wait:?}"
            ),
            other => panic!("{other:?}"),
        }
        // The send failed and let go: the next try claims it at once.
        release(&pool, key).await.unwrap();
        assert_eq!(claim(&pool, key, "reset_password").await.unwrap(), Claim::Send);
        assert_eq!(claims(&pool, key).await, 2);
        // The run that claimed it died before sending: once the lease is over, another run claims it.
        sqlx::query("UPDATE email_sends SET claimed_until = now() - interval '1 second'")
            .execute(&pool)
            .await
            .unwrap();
        assert_eq!(claim(&pool, key, "reset_password").await.unwrap(), Claim::Send);
        assert_eq!(claims(&pool, key).await, 3);
        mark_sent(&pool, key).await.unwrap();
        // Sent: no run sends it again, whether its lease is over or it is let go.
        assert_eq!(claim(&pool, key, "reset_password").await.unwrap(), Claim::AlreadySent);
        release(&pool, key).await.unwrap();
        sqlx::query("UPDATE email_sends SET claimed_until = now() - interval '1 second'")
            .execute(&pool)
            .await
            .unwrap();
        assert_eq!(claim(&pool, key, "reset_password").await.unwrap(), Claim::AlreadySent);
        assert_eq!(claims(&pool, key).await, 3);
        // Another task's mail to the same address is another mail.
        let other = &Key::of_task("01JD8X4P2M6Q7R8S9T0V1W2X3Z", ["ann@example.com"])[0];
        assert_eq!(claim(&pool, other, "reset_password").await.unwrap(), Claim::Send);
    }

    #[sqlx::test(migrator = "crate::db::MIGRATOR")]
    async fn rows_older_than_the_retention_are_pruned(pool: sqlx::PgPool) {
        let keys = Key::of_task(TASK, ["old@example.com", "new@example.com"]);
        for key in &keys {
            assert_eq!(claim(&pool, key, "contact").await.unwrap(), Claim::Send);
            mark_sent(&pool, key).await.unwrap();
        }
        sqlx::query("UPDATE email_sends SET created_at = now() - make_interval(days => $1) - interval '1 minute' WHERE recipient_digest = $2")
            .bind(KEEP_DAYS)
            .bind(recipient_digest("old@example.com"))
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query("UPDATE email_sends SET created_at = now() - make_interval(days => $1) + interval '1 minute' WHERE recipient_digest = $2")
            .bind(KEEP_DAYS)
            .bind(recipient_digest("new@example.com"))
            .execute(&pool)
            .await
            .unwrap();
        assert_eq!(prune(&pool, KEEP_DAYS).await.unwrap(), 1);
        assert_eq!(claim(&pool, &keys[1], "contact").await.unwrap(), Claim::AlreadySent);
    }

    #[test]
    fn a_claim_outlasts_the_send_and_the_marking_and_rows_outlast_finished_tasks() {
        assert_eq!(CLAIM_LEASE, Duration::from_secs(60));
        assert!(CLAIM_LEASE > super::super::SEND_TIMEOUT + MARK_SENT_PATIENCE);
        assert_eq!(KEEP_DAYS, 30);
    }
}
