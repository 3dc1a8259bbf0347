//! E-mail jobs through a real apalis worker on a real PostgreSQL, and lettre talking SMTP to
//! a server started by the test.

mod support;

use domain::accounts::{email_links, registration};
use jobs::email::{self, EmailJob};
use sqlx::PgPool;
use support::{context, eventually, job_state, smtp::SmtpServer, start_workers};

async fn new_user(pool: &PgPool, email: &str) -> uuid::Uuid {
    domain::job_queue::storage::setup(pool).await.unwrap();
    let mut tx = pool.begin().await.unwrap();
    let id = registration::register(
        &mut tx,
        registration::NewAccount {
            email,
            password: "password1",
            first_name: "Ann",
            last_name: "Lee",
        },
    )
    .await
    .unwrap()
    .user_id();
    email::enqueue(
        &mut tx,
        &EmailJob::VerifyEmail {
            user_id: id,
            next: None,
        },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    id
}

fn link_token(message: &str) -> String {
    let start = message.find("verify-email?token=").expect("a verification link") + "verify-email?token=".len();
    message[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn verification_mail_goes_out_over_smtp_with_a_working_link(pool: PgPool) {
    let smtp = SmtpServer::start(false).await;
    new_user(&pool, "ann@example.com").await;
    let ctx = context(
        &pool,
        &[
            ("MAIL_TRANSPORT", "smtp".into()),
            ("SMTP_URL", smtp.url()),
            ("APP_BASE_URL", "https://mentors.example".into()),
            ("PAYMENT_GATEWAY", "test".into()),
        ],
    );
    let workers = start_workers(ctx);

    let message = eventually(10, || async { smtp.messages().into_iter().next() }).await;
    let (status, attempts) = eventually(5, || async {
        job_state(&pool, email::QUEUE).await.filter(|(s, _)| s == "Done")
    })
    .await;
    workers.abort();
    assert_eq!((status.as_str(), attempts), ("Done", 1));
    assert_eq!(message.to, vec!["<ann@example.com>"]);
    assert!(message.data.contains("Subject: Verify your email address"));
    assert!(message.data.contains("multipart/alternative"));
    assert!(message.data.contains("Content-Type: text/plain"));
    assert!(message.data.contains("Content-Type: text/html"));
    assert!(message.data.contains("https://mentors.example/verify-email?token="));
    // A transactional mail: no preference governs it, so no unsubscribe footer.
    assert!(!message.data.contains("List-Unsubscribe"));
    assert!(!message.data.contains("Email preferences:"));

    email_links::verify_email(&pool, &link_token(&message.data))
        .await
        .expect("the mailed link verifies");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_send_that_keeps_failing_retries_then_stays_visible_as_failed(pool: PgPool) {
    let smtp = SmtpServer::start(true).await;
    new_user(&pool, "ann@example.com").await;
    let ctx = context(&pool, &[("MAIL_TRANSPORT", "smtp".into()), ("SMTP_URL", smtp.url())]);
    let workers = start_workers(ctx);

    let (status, attempts) = eventually(20, || async {
        job_state(&pool, email::QUEUE)
            .await
            .filter(|(s, a)| s == "Failed" && *a as usize >= email::MAX_ATTEMPTS)
    })
    .await;
    workers.abort();
    assert_eq!(status, "Failed");
    assert_eq!(attempts as usize, email::MAX_ATTEMPTS, "no attempts beyond the maximum");
    assert!(smtp.messages().is_empty());
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn file_transport_writes_one_eml_per_message(pool: PgPool) {
    let dir = std::env::temp_dir().join(format!("mail-{}", uuid::Uuid::new_v4()));
    new_user(&pool, "ann@example.com").await;
    let ctx = context(&pool, &[("MAIL_DIR", dir.display().to_string())]);
    let workers = start_workers(ctx);
    let path = eventually(10, || async {
        std::fs::read_dir(&dir)
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "eml"))
    })
    .await;
    workers.abort();
    let raw = std::fs::read_to_string(path).unwrap();
    assert!(raw.contains("To: ann@example.com"));
    assert!(
        raw.contains("http://localhost:8080/verify-email?token="),
        "links stay whole in the raw file"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn an_already_verified_user_gets_no_second_verification_mail(pool: PgPool) {
    let smtp = SmtpServer::start(false).await;
    let id = new_user(&pool, "ann@example.com").await;
    sqlx::query("UPDATE users SET email_verified = true WHERE id = $1")
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    let ctx = context(&pool, &[("MAIL_TRANSPORT", "smtp".into()), ("SMTP_URL", smtp.url())]);
    let workers = start_workers(ctx);
    eventually(10, || async {
        job_state(&pool, email::QUEUE).await.filter(|(s, _)| s == "Done")
    })
    .await;
    workers.abort();
    assert!(smtp.messages().is_empty());
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn contact_messages_reach_the_support_address_with_a_reply_to(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let smtp = SmtpServer::start(false).await;
    let mut tx = pool.begin().await.unwrap();
    let id = domain::contact::store(
        &mut tx,
        domain::contact::NewMessage {
            name: "Ann",
            email: "ann@example.com",
            subject: "Refund",
            category: Some(&"billing".parse().unwrap()),
            message: "Where is it?",
            user_id: None,
        },
    )
    .await
    .unwrap();
    email::enqueue(&mut tx, &EmailJob::Contact { message_id: id })
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let ctx = context(
        &pool,
        &[
            ("MAIL_TRANSPORT", "smtp".into()),
            ("SMTP_URL", smtp.url()),
            ("SUPPORT_EMAIL", "help@mentors.example".into()),
        ],
    );
    let workers = start_workers(ctx);
    let message = eventually(10, || async { smtp.messages().into_iter().next() }).await;
    workers.abort();
    assert_eq!(message.to, vec!["<help@mentors.example>"]);
    assert!(message.data.contains("Subject: [Contact] Billing & Payments: Refund"));
    assert!(message.data.contains("Reply-To: ann@example.com"));
    assert!(message.data.contains("Where is it?"));
}

/// A mentor (user + profile) and a paid payout of 85.00 net for 2 sessions; returns the payout id.
async fn mentor_with_paid_payout(pool: &PgPool, email: &str, confirmations: bool) -> uuid::Uuid {
    let user: uuid::Uuid = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) VALUES ($1, 'x', 'Mia', 'Moon', true) RETURNING id",
    )
    .bind(email)
    .fetch_one(pool)
    .await
    .unwrap();
    sqlx::query("INSERT INTO email_preferences (user_id, booking_confirmations) VALUES ($1, $2)")
        .bind(user)
        .bind(confirmations)
        .execute(pool)
        .await
        .unwrap();
    let mentor: uuid::Uuid = sqlx::query_scalar(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents) \
         VALUES ($1, 'Mia Moon', repeat('A mentor of the payout mail test. ', 3), '{Astrology}', 5000) RETURNING id",
    )
    .bind(user)
    .fetch_one(pool)
    .await
    .unwrap();
    sqlx::query_scalar(
        "INSERT INTO payouts (mentor_id, status, booking_count, pending_amount_cents, platform_fee_cents, mentor_net_cents, method, paid_at) \
         VALUES ($1, 'paid', 2, 10000, 1500, 8500, 'venmo', now()) RETURNING id",
    )
    .bind(mentor)
    .fetch_one(pool)
    .await
    .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn payout_mails_reach_the_mentor_unless_they_turned_confirmations_off(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let smtp = SmtpServer::start(false).await;
    let wants = mentor_with_paid_payout(&pool, "mia@example.com", true).await;
    let declines = mentor_with_paid_payout(&pool, "quiet@example.com", false).await;
    let mut tx = pool.begin().await.unwrap();
    for payout_id in [wants, declines] {
        email::enqueue(&mut tx, &EmailJob::PayoutCreated { payout_id })
            .await
            .unwrap();
        email::enqueue(&mut tx, &EmailJob::PayoutPaid { payout_id })
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let ctx = context(&pool, &[("MAIL_TRANSPORT", "smtp".into()), ("SMTP_URL", smtp.url())]);
    let workers = start_workers(ctx);
    eventually(15, || async {
        let done: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE job_type = $1 AND status = 'Done'")
            .bind(email::QUEUE)
            .fetch_one(&pool)
            .await
            .unwrap();
        (done == 4).then_some(())
    })
    .await;
    workers.abort();
    let messages = smtp.messages();
    assert_eq!(messages.len(), 2, "only the mentor who wants them");
    assert!(messages.iter().all(|m| m.to == vec!["<mia@example.com>"]));
    assert!(
        messages
            .iter()
            .any(|m| m.data.contains("Subject: Your payout of $85.00 is being prepared"))
    );
    assert!(
        messages
            .iter()
            .any(|m| m.data.contains("Subject: Your payout of $85.00 was sent"))
    );
}

/// The first line of `data` that starts with `prefix`, without the prefix.
fn line_after<'a>(data: &'a str, prefix: &str) -> Option<&'a str> {
    data.lines().find_map(|l| l.strip_prefix(prefix)).map(str::trim)
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_preference_governed_mail_shows_its_unsubscribe_and_preferences_links_in_the_body(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let smtp = SmtpServer::start(false).await;
    let payout_id = mentor_with_paid_payout(&pool, "mia@example.com", true).await;
    let mut tx = pool.begin().await.unwrap();
    email::enqueue(&mut tx, &EmailJob::PayoutPaid { payout_id })
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let ctx = context(
        &pool,
        &[
            ("MAIL_TRANSPORT", "smtp".into()),
            ("SMTP_URL", smtp.url()),
            ("APP_BASE_URL", "https://mentors.example".into()),
            ("PAYMENT_GATEWAY", "test".into()),
        ],
    );
    let workers = start_workers(ctx);
    let message = eventually(15, || async { smtp.messages().into_iter().next() }).await;
    workers.abort();
    let data = message.data.replace("\r\n", "\n");
    let header = line_after(&data, "List-Unsubscribe: ").expect("the one-click header");
    let header = header.trim_start_matches('<').trim_end_matches('>');
    assert!(
        header.starts_with("https://mentors.example/api/email/unsubscribe?token="),
        "{header}"
    );
    // The plain-text part: why, the same one-click address, and the preferences.
    assert!(
        data.contains("You receive this e-mail because \"Booking confirmations\" is on"),
        "{data}"
    );
    assert_eq!(line_after(&data, "Unsubscribe: "), Some(header));
    assert_eq!(
        line_after(&data, "Email preferences: "),
        Some("https://mentors.example/dashboard?tab=email-preferences")
    );
    // The HTML part: the same links as links.
    assert!(
        data.contains(&format!("<a href=\"{}\"", header.replace('&', "&amp;"))),
        "{data}"
    );
    assert!(data.contains(">Unsubscribe</a>"));
    assert!(data.contains("<a href=\"https://mentors.example/dashboard?tab=email-preferences\""));
}

/// A task run again (its row set back to Pending after it was done, as apalis re-queues a task
/// whose worker died before marking it done) sends none of its mails twice (issue 37).
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_task_run_again_sends_no_mail_twice(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let smtp = SmtpServer::start(false).await;
    let payout_id = mentor_with_paid_payout(&pool, "mia@example.com", true).await;
    let mut tx = pool.begin().await.unwrap();
    email::enqueue(&mut tx, &EmailJob::PayoutPaid { payout_id })
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let ctx = context(&pool, &[("MAIL_TRANSPORT", "smtp".into()), ("SMTP_URL", smtp.url())]);
    let workers = start_workers(ctx);
    let done = || async {
        sqlx::query_scalar::<_, bool>(
            "SELECT status = 'Done' AND done_at IS NOT NULL FROM apalis.jobs WHERE job_type = $1",
        )
        .bind(email::QUEUE)
        .fetch_one(&pool)
        .await
        .unwrap()
        .then_some(())
    };
    eventually(15, done).await;
    assert_eq!(smtp.messages().len(), 1);
    let sent_before: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("SELECT sent_at FROM email_sends")
        .fetch_one(&pool)
        .await
        .unwrap();

    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL, done_at = NULL, \
         run_at = now() - interval '1 second' WHERE job_type = $1",
    )
    .bind(email::QUEUE)
    .execute(&pool)
    .await
    .unwrap();
    eventually(15, done).await;
    workers.abort();
    assert_eq!(smtp.messages().len(), 1, "the second run sent nothing");
    let (sent_at, claims): (chrono::DateTime<chrono::Utc>, i32) =
        sqlx::query_as("SELECT sent_at, claims FROM email_sends")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((sent_at, claims), (sent_before, 1));
}
