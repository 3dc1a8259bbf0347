//! Chat messages stored in batches on a real PostgreSQL: each sender's party check is made per
//! message inside the one statement, a refused message fails alone, a used client id is answered
//! to its socket alone, and every event goes out only when the batch commits.

use domain::{
    messaging::messages::{self, Batched, Outgoing},
    realtime::{self, Envelope, Wire},
};
use sqlx::{PgPool, postgres::PgListener};
use uuid::Uuid;

async fn user(pool: &PgPool, name: &str) -> Uuid {
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) \
         VALUES ($1 || '@example.com', 'x', $1, 'Batch', true) RETURNING id",
    )
    .bind(name)
    .fetch_one(pool)
    .await
    .unwrap()
}

/// A mentor profile for `user`.
async fn mentor_of(pool: &PgPool, user: Uuid) -> Uuid {
    sqlx::query_scalar(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents) \
         VALUES ($1, 'Batch Mentor', repeat('A mentor of the batch test. ', 3), '{Astrology}', 1000) RETURNING id",
    )
    .bind(user)
    .fetch_one(pool)
    .await
    .unwrap()
}

async fn conversation(pool: &PgPool, mentor: Uuid, seeker: Uuid) -> Uuid {
    sqlx::query_scalar("INSERT INTO conversations (mentor_id, user_id) VALUES ($1, $2) RETURNING id")
        .bind(mentor)
        .bind(seeker)
        .fetch_one(pool)
        .await
        .unwrap()
}

/// `user`'s `socket` has `conversation` open (so no new_message notice is queued for them).
async fn viewing(pool: &PgPool, socket: Uuid, conversation: Uuid, user: Uuid) {
    sqlx::query("INSERT INTO conversation_viewers (socket_id, conversation_id, user_id) VALUES ($1, $2, $3)")
        .bind(socket)
        .bind(conversation)
        .bind(user)
        .execute(pool)
        .await
        .unwrap();
}

fn message(sender: Uuid, conversation: Uuid, content: &str, client_id: Option<&str>, socket: Uuid) -> Batched {
    let outgoing = Outgoing {
        content: content.into(),
        message_type: None,
        client_id: client_id.map(String::from),
    };
    Batched::new(sender, conversation, &outgoing, Some(socket)).unwrap()
}

/// The next notification's envelopes (a batch's, one event's or a stored one's).
async fn next(listener: &mut PgListener, pool: &PgPool) -> Vec<Envelope> {
    let n = listener.recv().await.unwrap();
    match serde_json::from_str::<Wire>(n.payload()).unwrap() {
        Wire::Event(e) => vec![e],
        Wire::Events { events } => events,
        Wire::Reference { reference } => vec![realtime::load_reference(pool, reference).await.unwrap().unwrap()],
        other => panic!("unexpected {other:?}"),
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_batch_checks_each_sender_and_refuses_only_the_outsider(pool: PgPool) {
    let (mentor_user, seeker, outsider) = (
        user(&pool, "mentor").await,
        user(&pool, "seeker").await,
        user(&pool, "outsider").await,
    );
    let mentor = mentor_of(&pool, mentor_user).await;
    let conversation = conversation(&pool, mentor, seeker).await;
    // Both have the thread open, so nobody gets a new_message notification (a job of the worker's).
    let (mentor_socket, seeker_socket, outsider_socket) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
    for (socket, who) in [(mentor_socket, mentor_user), (seeker_socket, seeker)] {
        viewing(&pool, socket, conversation, who).await;
    }
    let mut listener = PgListener::connect_with(&pool).await.unwrap();
    listener.listen(realtime::CHANNEL).await.unwrap();

    let long = "é".repeat(messages::MAX_CHARS); // too large for one notification: travels stored
    let batch = vec![
        message(seeker, conversation, "one", Some("s-1"), seeker_socket),
        message(outsider, conversation, "intruder", Some("o-1"), outsider_socket),
        message(mentor_user, conversation, "two", None, mentor_socket),
        message(seeker, conversation, "one again", Some("s-1"), seeker_socket),
        message(mentor_user, conversation, "three", None, mentor_socket),
        message(seeker, Uuid::new_v4(), "nowhere", Some("s-2"), seeker_socket),
        message(seeker, conversation, &long, Some("s-3"), seeker_socket),
    ];
    let mut tx = pool.begin().await.unwrap();
    let outcomes = messages::send_batch(&mut tx, &batch).await.unwrap();
    tx.commit().await.unwrap();

    let shown: Vec<String> = outcomes
        .iter()
        .map(|o| match o {
            Ok(()) => "ok".to_string(),
            Err(e) => e.to_string(),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "ok",
            "Conversation not found",
            "ok",
            "ok",
            "ok",
            "Conversation not found",
            "ok"
        ]
    );

    let stored: Vec<(String, Uuid)> = sqlx::query_as("SELECT content, sender_id FROM messages ORDER BY created_at, id")
        .fetch_all(&pool)
        .await
        .unwrap();
    let stored: Vec<&str> = stored.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        stored,
        ["one", "two", "three", long.as_str()],
        "in order, each once, no intruder"
    );
    let (last, newest): (Option<chrono::DateTime<chrono::Utc>>, chrono::DateTime<chrono::Utc>) =
        sqlx::query_as("SELECT c.last_message_at, (SELECT max(created_at) FROM messages) FROM conversations c")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(last, Some(newest));

    // Three messages in one notification, the long one stored, then the repeat to its socket only.
    let mut events = Vec::new();
    while events.len() < 5 {
        events.extend(next(&mut listener, &pool).await);
    }
    assert_eq!(events.len(), 5, "nothing more: {events:?}");
    let contents: Vec<&str> = events.iter().map(|e| e.data["content"].as_str().unwrap()).collect();
    assert_eq!(contents, ["one", "two", "three", long.as_str(), "one"]);
    for e in &events[..4] {
        assert_eq!(e.event, "messageReceived");
        assert_eq!(
            e.to,
            vec![seeker, mentor_user],
            "both parties, the sender's acknowledgement included"
        );
        assert_eq!(e.socket, None);
    }
    assert_eq!(events[0].data["clientId"], "s-1");
    assert_eq!(events[1].data["sender"]["firstName"], "mentor");
    assert_eq!(events[4].to, vec![seeker]);
    assert_eq!(
        events[4].socket,
        Some(seeker_socket),
        "a used client id: the sending socket alone"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn nothing_is_announced_when_the_batch_rolls_back(pool: PgPool) {
    let (mentor_user, seeker) = (user(&pool, "mentor").await, user(&pool, "seeker").await);
    let mentor = mentor_of(&pool, mentor_user).await;
    let conversation = conversation(&pool, mentor, seeker).await;
    viewing(&pool, Uuid::new_v4(), conversation, mentor_user).await;
    let mut listener = PgListener::connect_with(&pool).await.unwrap();
    listener.listen(realtime::CHANNEL).await.unwrap();

    let socket = Uuid::new_v4();
    let mut tx = pool.begin().await.unwrap();
    let outcomes = messages::send_batch(&mut tx, &[message(seeker, conversation, "lost", None, socket)])
        .await
        .unwrap();
    assert!(outcomes[0].is_ok());
    tx.rollback().await.unwrap();

    // A marker published after the rollback is the first thing the listener hears.
    let mut conn = pool.acquire().await.unwrap();
    let marker = Envelope::to_users(vec![seeker], domain::realtime::ServerEvent::Pong(Default::default()));
    realtime::publish(&mut conn, &marker).await.unwrap();
    assert_eq!(next(&mut listener, &pool).await, vec![marker]);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM messages")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(count, 0);
}

/// Whether another transaction could lock `conversation` at once.
async fn is_free(pool: &PgPool, conversation: Uuid) -> bool {
    let mut probe = pool.begin().await.unwrap();
    let free = sqlx::query("SELECT 1 FROM conversations WHERE id = $1 FOR NO KEY UPDATE NOWAIT")
        .bind(conversation)
        .execute(&mut *probe)
        .await
        .is_ok();
    probe.rollback().await.unwrap();
    free
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn batches_lock_their_conversations_in_one_order(pool: PgPool) {
    // Two batches on two api processes touching the same conversations deadlocked (a second's
    // wait, then one failed) when each locked them in its own order: now each locks them by id.
    let mentor_user = user(&pool, "mentor").await;
    let mentor = mentor_of(&pool, mentor_user).await;
    let mut conversations = Vec::new();
    for n in 0..5 {
        let seeker = user(&pool, &format!("seeker{n}")).await;
        let conversation = conversation(&pool, mentor, seeker).await;
        // The seeker reads along, so no notice is queued (the worker's job storage is not here).
        viewing(&pool, Uuid::new_v4(), conversation, seeker).await;
        conversations.push(conversation);
    }
    conversations.sort();

    for (k, &held) in conversations.iter().enumerate() {
        // As another batch would hold it (its inserts' foreign-key checks do not wait for this).
        let mut holder = pool.begin().await.unwrap();
        sqlx::query("SELECT 1 FROM conversations WHERE id = $1 FOR NO KEY UPDATE")
            .bind(held)
            .execute(&mut *holder)
            .await
            .unwrap();
        let batch: Vec<Batched> = conversations
            .iter()
            .rev()
            .map(|&c| message(mentor_user, c, "hello", None, Uuid::new_v4()))
            .collect();
        let sending = tokio::spawn({
            let pool = pool.clone();
            async move {
                let mut tx = pool.begin().await.unwrap();
                let outcomes = messages::send_batch(&mut tx, &batch).await.unwrap();
                tx.commit().await.unwrap();
                outcomes
            }
        });
        // Until the batch waits for the held row.
        loop {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
            )
            .fetch_one(&pool)
            .await
            .unwrap();
            if waiting > 0 {
                break;
            }
            tokio::task::yield_now().await;
        }
        let mut free = Vec::new();
        for &c in &conversations {
            if c != held {
                free.push(is_free(&pool, c).await);
            }
        }
        let expected: Vec<bool> = (0..conversations.len()).filter(|&j| j != k).map(|j| j > k).collect();
        assert_eq!(
            free, expected,
            "waiting for row {k}: it holds every earlier row and no later one"
        );
        holder.rollback().await.unwrap();
        let outcomes = sending.await.unwrap();
        assert!(outcomes.iter().all(Result::is_ok));
    }
}
