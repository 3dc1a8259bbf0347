//! Conversations and messages over REST in-process on a real PostgreSQL.

mod support;

use poem::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, app, body};

struct Pair {
    mentor_id: String,
    mentor_user: String,
    mentor_sid: String,
    seeker_user: String,
    seeker_sid: String,
}

async fn pair(app: &TestApp) -> Pair {
    let (mentor_id, mentor_sid) = app.mentor("mentor@example.com", "Mira", "astrology").await;
    let mentor_user = body(app.get("/api/auth/user", Some(&mentor_sid)).await).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (seeker_user, seeker_sid) = app.signed_in("seeker@example.com").await;
    Pair {
        mentor_id,
        mentor_user,
        mentor_sid,
        seeker_user: seeker_user.to_string(),
        seeker_sid,
    }
}

async fn start(app: &TestApp, p: &Pair) -> String {
    let resp = app
        .post(
            "/api/conversations",
            json!({"mentorId": p.mentor_id}),
            Some(&p.seeker_sid),
        )
        .await;
    resp.assert_status(StatusCode::CREATED);
    body(resp).await["id"].as_str().unwrap().to_string()
}

async fn send(app: &TestApp, sid: &str, conversation: &str, content: &str) -> Value {
    let resp = app
        .post(
            &format!("/api/conversations/{conversation}/messages"),
            json!({"content": content}),
            Some(sid),
        )
        .await;
    resp.assert_status(StatusCode::CREATED);
    body(resp).await
}

async fn message_of(resp: poem::test::TestResponse) -> String {
    body(resp).await["message"].as_str().unwrap_or_default().to_string()
}

#[sqlx::test(migrations = "../migrations")]
async fn finding_a_conversation_twice_gives_the_same_one_from_either_side(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let p = pair(&app).await;
    let id = start(&app, &p).await;

    let again = app
        .post(
            "/api/conversations",
            json!({"mentorId": p.mentor_id}),
            Some(&p.seeker_sid),
        )
        .await;
    again.assert_status_is_ok();
    assert_eq!(body(again).await["id"], id.as_str());

    // The mentor names the seeker: the same conversation, the mentor as mentor.
    let theirs = app
        .post(
            "/api/conversations",
            json!({"userId": p.seeker_user}),
            Some(&p.mentor_sid),
        )
        .await;
    theirs.assert_status_is_ok();
    let theirs = body(theirs).await;
    assert_eq!(theirs["id"], id.as_str());
    assert_eq!(theirs["mentorId"], p.mentor_id.as_str());
    assert_eq!(theirs["userId"], p.seeker_user.as_str());
    assert_eq!(theirs["mentor"]["user"]["id"], p.mentor_user.as_str());
    assert_eq!(theirs["user"]["firstName"], "Ann");
    assert_eq!(theirs["lastMessage"], Value::Null);
    assert_eq!(theirs["bookingId"], Value::Null);

    // The seeker names the mentor's user: the same again.
    let by_user = app
        .post(
            "/api/conversations",
            json!({"userId": p.mentor_user}),
            Some(&p.seeker_sid),
        )
        .await;
    assert_eq!(body(by_user).await["id"], id.as_str());
}

#[sqlx::test(migrations = "../migrations")]
async fn who_can_start_what(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let p = pair(&app).await;
    let (other_user, other_sid) = app.signed_in("other@example.com").await;

    let resp = app
        .post("/api/conversations", json!({"userId": other_user}), Some(&p.seeker_sid))
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(
        message_of(resp).await,
        "Conversations are between a mentor and a client"
    );

    let resp = app
        .post(
            "/api/conversations",
            json!({"userId": p.seeker_user}),
            Some(&p.seeker_sid),
        )
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    let resp = app
        .post(
            "/api/conversations",
            json!({"mentorId": p.mentor_id}),
            Some(&p.mentor_sid),
        )
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);

    let unknown = uuid::Uuid::new_v4();
    app.post("/api/conversations", json!({"mentorId": unknown}), Some(&other_sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.post("/api/conversations", json!({"userId": unknown}), Some(&other_sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.post(
        "/api/conversations",
        json!({"mentorId": p.mentor_id, "bookingId": unknown}),
        Some(&other_sid),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    app.post("/api/conversations", json!({}), Some(&other_sid))
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    app.post("/api/conversations", json!({"mentorId": p.mentor_id}), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_third_party_finds_nothing(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let p = pair(&app).await;
    let id = start(&app, &p).await;
    send(&app, &p.seeker_sid, &id, "hello").await;
    let (_, third) = app.signed_in("third@example.com").await;

    for path in [
        format!("/api/conversations/{id}"),
        format!("/api/conversations/{id}/messages"),
    ] {
        let resp = app.get(&path, Some(&third)).await;
        resp.assert_status(StatusCode::NOT_FOUND);
        assert_eq!(message_of(resp).await, "Conversation not found");
    }
    app.post(
        &format!("/api/conversations/{id}/messages"),
        json!({"content": "hi"}),
        Some(&third),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    app.put(&format!("/api/conversations/{id}/read"), json!({}), Some(&third))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let list = body(app.get("/api/conversations", Some(&third)).await).await;
    assert_eq!(list, json!([]));
    app.get("/api/conversations/not-a-uuid", Some(&p.seeker_sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrations = "../migrations")]
async fn content_is_trimmed_and_1_to_5000_characters(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let p = pair(&app).await;
    let id = start(&app, &p).await;
    let path = format!("/api/conversations/{id}/messages");

    for empty in ["", "   \n\t "] {
        let resp = app.post(&path, json!({"content": empty}), Some(&p.seeker_sid)).await;
        resp.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(message_of(resp).await, "Message cannot be empty");
    }
    let resp = app
        .post(&path, json!({"content": "a".repeat(5001)}), Some(&p.seeker_sid))
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(message_of(resp).await, "Message must be at most 5000 characters");

    let longest = send(&app, &p.seeker_sid, &id, &format!("  {}  ", "b".repeat(5000))).await;
    assert_eq!(longest["content"].as_str().unwrap().len(), 5000);
    assert_eq!(longest["messageType"], "text");
    assert_eq!(longest["sender"]["id"], p.seeker_user.as_str());
    assert_eq!(longest["isRead"], false);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_repeated_client_id_returns_the_stored_message(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let p = pair(&app).await;
    let id = start(&app, &p).await;
    let path = format!("/api/conversations/{id}/messages");

    let first = app
        .post(
            &path,
            json!({"content": "once", "clientId": "c-1"}),
            Some(&p.seeker_sid),
        )
        .await;
    first.assert_status(StatusCode::CREATED);
    let first = body(first).await;
    assert_eq!(first["clientId"], "c-1");
    let again = app
        .post(
            &path,
            json!({"content": "once again?", "clientId": "c-1"}),
            Some(&p.seeker_sid),
        )
        .await;
    again.assert_status_is_ok();
    let again = body(again).await;
    assert_eq!(again["id"], first["id"]);
    assert_eq!(again["content"], "once");

    // Another sender may use the same client id.
    let theirs = app
        .post(
            &path,
            json!({"content": "mine", "clientId": "c-1"}),
            Some(&p.mentor_sid),
        )
        .await;
    theirs.assert_status(StatusCode::CREATED);

    let thread = body(app.get(&path, Some(&p.seeker_sid)).await).await;
    assert_eq!(thread.as_array().unwrap().len(), 2);
    app.deliver_notifications().await;
    let notes: i64 = sqlx::query_scalar("SELECT count(*) FROM notifications WHERE type = 'new_message'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(notes, 2, "one notification per stored message");
}

#[sqlx::test(migrations = "../migrations")]
async fn unread_counts_and_reading(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let p = pair(&app).await;
    let id = start(&app, &p).await;
    for text in ["one", "two", "three"] {
        send(&app, &p.seeker_sid, &id, text).await;
    }
    send(&app, &p.mentor_sid, &id, "reply").await;

    let count = |sid: String| {
        let app = &app;
        async move {
            body(app.get("/api/messages/unread-count", Some(&sid)).await).await["count"]
                .as_i64()
                .unwrap()
        }
    };
    assert_eq!(count(p.mentor_sid.clone()).await, 3);
    assert_eq!(count(p.seeker_sid.clone()).await, 1);

    let list = body(app.get("/api/conversations", Some(&p.mentor_sid)).await).await;
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["unreadCount"], 3);
    assert_eq!(list[0]["lastMessage"]["content"], "reply");
    assert_eq!(list[0]["lastMessage"]["senderId"], p.mentor_user.as_str());
    assert!(list[0]["lastMessageAt"].is_string());

    app.deliver_notifications().await;
    let notes = body(app.get("/api/notifications", Some(&p.mentor_sid)).await).await;
    assert_eq!(notes[0]["type"], "new_message");
    assert_eq!(notes[0]["title"], "New message");
    assert_eq!(notes[0]["message"], "Ann Lee: three");
    assert_eq!(notes[0]["actionUrl"], format!("/messages?conversation={id}"));

    let read = app
        .put(&format!("/api/conversations/{id}/read"), json!({}), Some(&p.mentor_sid))
        .await;
    read.assert_status_is_ok();
    assert_eq!(body(read).await["count"], 3);
    assert_eq!(count(p.mentor_sid.clone()).await, 0);
    assert_eq!(count(p.seeker_sid.clone()).await, 1);
    let thread = body(
        app.get(&format!("/api/conversations/{id}/messages"), Some(&p.seeker_sid))
            .await,
    )
    .await;
    let read_flags: Vec<bool> = thread
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["isRead"].as_bool().unwrap())
        .collect();
    assert_eq!(read_flags, [true, true, true, false]);
}

#[sqlx::test(migrations = "../migrations")]
async fn pages_count_from_the_newest_and_read_oldest_first(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let p = pair(&app).await;
    let id = start(&app, &p).await;
    for i in 1..=7 {
        send(&app, &p.seeker_sid, &id, &format!("m{i}")).await;
    }
    let page = |q: &'static str| {
        let (app, id, sid) = (&app, id.clone(), p.seeker_sid.clone());
        async move {
            let resp = app
                .get(&format!("/api/conversations/{id}/messages{q}"), Some(&sid))
                .await;
            resp.assert_status_is_ok();
            body(resp)
                .await
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["content"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(page("").await, ["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
    assert_eq!(page("?limit=3").await, ["m5", "m6", "m7"]);
    assert_eq!(page("?limit=3&offset=3").await, ["m2", "m3", "m4"]);
    assert_eq!(page("?limit=3&offset=6").await, ["m1"]);
    for bad in ["?limit=0", "?limit=101", "?offset=-1"] {
        app.get(&format!("/api/conversations/{id}/messages{bad}"), Some(&p.seeker_sid))
            .await
            .assert_status(StatusCode::BAD_REQUEST);
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn rtc_config_needs_a_session_and_signs_turn_credentials(pool: sqlx::PgPool) {
    let app = support::app_with(pool, |c| {
        c.rtc.turn = Some(domain::config::TurnSettings {
            urls: vec!["turn:127.0.0.1:3478".into()],
            secret: "k".into(),
            ttl: chrono::Duration::hours(1),
        });
    })
    .await;
    app.get("/api/rtc/config", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    let (user, sid) = app.signed_in("caller@example.com").await;
    let config = body(app.get("/api/rtc/config", Some(&sid)).await).await;
    assert_eq!(
        config["iceServers"][0],
        json!({"urls": ["stun:stun.l.google.com:19302"]})
    );
    let username = config["iceServers"][1]["username"].as_str().unwrap();
    assert!(username.ends_with(&format!(":{user}")), "{username}");
    assert_eq!(
        config["iceServers"][1]["credential"],
        domain::calls::ice_servers::turn_credential("k", username).as_str()
    );
}

/// A confirmed free booking of the pair, moved to start `starts_in` from now (60 minutes long).
async fn booking_of(app: &TestApp, p: &Pair, seeker_sid: &str, starts_in: chrono::Duration) -> String {
    let sid = &p.mentor_sid;
    app.put("/api/mentor/profile", json!({"timeZone": "UTC"}), Some(sid))
        .await
        .assert_status_is_ok();
    for day in 0..7 {
        app.post(
            "/api/mentor/availability",
            json!({"dayOfWeek": day, "startTime": "00:00", "endTime": "24:00"}),
            Some(sid),
        )
        .await;
    }
    let free = app.service(sid, "astrology", "0").await;
    use chrono::{DurationRound, Utc};
    let at = (Utc::now() + chrono::Duration::hours(30))
        .duration_trunc(chrono::Duration::hours(1))
        .unwrap()
        .to_rfc3339();
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": free, "mentorId": p.mentor_id, "scheduledAt": at, "totalAmount": "0.00"}),
            Some(seeker_sid),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let id = body(r).await["booking"]["id"].as_str().unwrap().to_string();
    sqlx::query("UPDATE bookings SET scheduled_at = now() + $2::interval, ends_at = now() + $2::interval + interval '60 minutes' WHERE id = $1::uuid")
        .bind(&id)
        .bind(starts_in)
        .execute(&app.pool)
        .await
        .unwrap();
    id
}

#[sqlx::test(migrations = "../migrations")]
async fn a_booking_names_the_roles_and_must_be_the_pairs_own(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let p = pair(&app).await;
    let booking = booking_of(&app, &p, &p.seeker_sid, chrono::Duration::hours(2)).await;

    // The mentor starts it from the booking: they are the mentor, the seeker the client.
    let resp = app
        .post(
            "/api/conversations",
            json!({"userId": p.seeker_user, "bookingId": booking}),
            Some(&p.mentor_sid),
        )
        .await;
    resp.assert_status(StatusCode::CREATED);
    let c = body(resp).await;
    assert_eq!(c["mentorId"], p.mentor_id.as_str());
    assert_eq!(c["userId"], p.seeker_user.as_str());
    assert_eq!(c["bookingId"], booking.as_str());

    // Someone else cannot hang their conversation on this booking.
    let (_, other_sid) = app.signed_in("other@example.com").await;
    let resp = app
        .post(
            "/api/conversations",
            json!({"mentorId": p.mentor_id, "bookingId": booking}),
            Some(&other_sid),
        )
        .await;
    resp.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(message_of(resp).await, "Booking not found");
}

#[sqlx::test(migrations = "../migrations")]
async fn call_rules(pool: sqlx::PgPool) {
    use domain::{Error, calls};
    let app = app(pool).await;
    let p = pair(&app).await;
    let conversation: uuid::Uuid = start(&app, &p).await.parse().unwrap();
    let (seeker, mentor): (uuid::Uuid, uuid::Uuid) = (p.seeker_user.parse().unwrap(), p.mentor_user.parse().unwrap());
    let (third, _) = app.signed_in("third@example.com").await;
    let (seeker_socket, mentor_socket) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    let now = chrono::Utc::now();
    let mut tx = app.pool.begin().await.unwrap();
    use domain::calls::sockets;
    sockets::opened(&mut *tx, seeker_socket, seeker).await.unwrap();
    sockets::opened(&mut *tx, mentor_socket, mentor).await.unwrap();

    assert!(matches!(
        calls::initiate(&mut tx, third, uuid::Uuid::new_v4(), conversation, None, now).await,
        Err(Error::NotFound(_))
    ));
    let call = calls::initiate(&mut tx, seeker, seeker_socket, conversation, None, now)
        .await
        .unwrap();
    assert_eq!(
        (call.status.as_str(), call.callee_id, call.callee_socket),
        ("ringing", mentor, None)
    );
    let busy = calls::initiate(&mut tx, mentor, mentor_socket, conversation, None, now)
        .await
        .unwrap_err();
    assert_eq!(busy.to_string(), calls::BUSY);

    // Only the callee answers; nobody else touches the call.
    assert!(matches!(
        calls::accept(&mut tx, seeker, seeker_socket, call.id).await,
        Err(Error::NotFound(_))
    ));
    assert!(matches!(
        calls::reject(&mut tx, third, call.id).await,
        Err(Error::NotFound(_))
    ));
    assert!(matches!(
        calls::end(&mut tx, third, call.id).await,
        Err(Error::NotFound(_))
    ));
    let signal = json!({"type": "offer"});
    assert_eq!(
        calls::relay(&mut tx, seeker, call.room_id, calls::Signal::Offer, signal.clone())
            .await
            .unwrap_err()
            .to_string(),
        calls::NOT_ANSWERED
    );
    let accepted = calls::accept(&mut tx, mentor, mentor_socket, call.id).await.unwrap();
    assert_eq!(accepted.callee_socket, Some(mentor_socket));
    assert!(
        !calls::time_out(&mut tx, call.id).await.unwrap(),
        "an answered call is not missed"
    );
    calls::relay(&mut tx, seeker, call.room_id, calls::Signal::Offer, signal.clone())
        .await
        .unwrap();
    assert!(matches!(
        calls::relay(&mut tx, third, call.room_id, calls::Signal::Offer, signal).await,
        Err(Error::NotFound(_))
    ));

    // The callee's socket drops: the answered call waits for them (the conversation stays busy);
    // they come back on a new socket and it goes on there; once their socket drops and the grace
    // is over without them, it ends.
    let status_of = |id: uuid::Uuid| sqlx::query_scalar::<_, String>("SELECT status FROM calls WHERE id = $1").bind(id);
    assert_eq!(
        calls::socket_closed(&mut tx, mentor_socket).await.unwrap(),
        vec![call.id]
    );
    assert_eq!(status_of(call.id).fetch_one(&mut *tx).await.unwrap(), "active");
    assert_eq!(
        calls::initiate(&mut tx, seeker, seeker_socket, conversation, None, now)
            .await
            .unwrap_err()
            .to_string(),
        calls::BUSY,
        "a call in its reconnect grace keeps the conversation busy"
    );
    assert!(matches!(
        calls::resume(&mut tx, third, uuid::Uuid::new_v4(), call.id).await,
        Err(Error::NotFound(_))
    ));
    let back = uuid::Uuid::new_v4();
    sockets::opened(&mut *tx, back, mentor).await.unwrap();
    let resumed = calls::resume(&mut tx, mentor, back, call.id).await.unwrap();
    assert!(matches!(resumed, calls::Resumed::Active(ref c) if c.callee_socket == Some(back)));
    assert!(
        !calls::drop_grace_over(&mut tx, call.id, mentor_socket).await.unwrap(),
        "a party who came back keeps the call"
    );
    calls::relay(
        &mut tx,
        seeker,
        call.room_id,
        calls::Signal::Offer,
        json!({"type": "offer"}),
    )
    .await
    .unwrap();
    assert_eq!(calls::socket_closed(&mut tx, back).await.unwrap(), vec![call.id]);
    assert_eq!(status_of(call.id).fetch_one(&mut *tx).await.unwrap(), "active");
    assert!(calls::drop_grace_over(&mut tx, call.id, back).await.unwrap());
    assert!(
        !calls::drop_grace_over(&mut tx, call.id, back).await.unwrap(),
        "ended once"
    );
    assert_eq!(status_of(call.id).fetch_one(&mut *tx).await.unwrap(), "ended");
    assert!(matches!(
        calls::resume(&mut tx, mentor, back, call.id).await.unwrap(),
        calls::Resumed::Ended(_)
    ));
    sockets::opened(&mut *tx, mentor_socket, mentor).await.unwrap();
    let next = calls::initiate(&mut tx, mentor, mentor_socket, conversation, None, now)
        .await
        .unwrap();
    assert!(calls::time_out(&mut tx, next.id).await.unwrap());
    assert!(!calls::time_out(&mut tx, next.id).await.unwrap(), "missed once");
    assert_eq!(
        calls::accept(&mut tx, seeker, seeker_socket, next.id)
            .await
            .unwrap_err()
            .to_string(),
        calls::NOT_RINGING
    );

    // An active call whose socket's process died (its row went stale) keeps nobody busy.
    let live = calls::initiate(&mut tx, seeker, seeker_socket, conversation, None, now)
        .await
        .unwrap();
    calls::accept(&mut tx, mentor, mentor_socket, live.id).await.unwrap();
    assert_eq!(
        calls::initiate(&mut tx, seeker, seeker_socket, conversation, None, now)
            .await
            .unwrap_err()
            .to_string(),
        calls::BUSY
    );
    sqlx::query("UPDATE realtime_sockets SET seen_at = now() - interval '91 seconds' WHERE socket_id = $1")
        .bind(mentor_socket)
        .execute(&mut *tx)
        .await
        .unwrap();
    let after = calls::initiate(&mut tx, seeker, seeker_socket, conversation, None, now)
        .await
        .unwrap();
    let statuses: Vec<String> = sqlx::query_scalar("SELECT status FROM calls WHERE id = ANY($1) ORDER BY created_at")
        .bind(vec![live.id, after.id])
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    assert_eq!(statuses, ["ended", "ringing"]);
    assert_eq!(calls::sweep_stale_sockets(&mut tx).await.unwrap(), 1);

    // The heartbeat keeps live sockets fresh.
    sockets::opened(&mut *tx, mentor_socket, mentor).await.unwrap();
    sqlx::query("UPDATE realtime_sockets SET seen_at = now() - interval '91 seconds'")
        .execute(&mut *tx)
        .await
        .unwrap();
    sockets::refresh(&mut tx, &[mentor_socket, seeker_socket])
        .await
        .unwrap();
    assert_eq!(calls::sweep_stale_sockets(&mut tx).await.unwrap(), 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_booking_call_only_inside_its_video_window(pool: sqlx::PgPool) {
    use domain::calls;
    let app = app(pool).await;
    let p = pair(&app).await;
    let booking: uuid::Uuid = booking_of(&app, &p, &p.seeker_sid, chrono::Duration::hours(2))
        .await
        .parse()
        .unwrap();
    let conversation: uuid::Uuid = start(&app, &p).await.parse().unwrap();
    let seeker: uuid::Uuid = p.seeker_user.parse().unwrap();
    let start_at: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("SELECT scheduled_at FROM bookings WHERE id = $1")
        .bind(booking)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let mut tx = app.pool.begin().await.unwrap();
    let socket = uuid::Uuid::new_v4();

    for too_soon_or_late in [
        start_at - chrono::Duration::minutes(16),
        start_at + chrono::Duration::minutes(61),
    ] {
        let err = calls::initiate(&mut tx, seeker, socket, conversation, Some(booking), too_soon_or_late)
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "Video sessions open 15 minutes before the start and close at the end of the session"
        );
    }
    let other = uuid::Uuid::new_v4();
    let err = calls::initiate(&mut tx, seeker, socket, conversation, Some(other), start_at)
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "Booking not found");
    let call = calls::initiate(
        &mut tx,
        seeker,
        socket,
        conversation,
        Some(booking),
        start_at - chrono::Duration::minutes(15),
    )
    .await
    .unwrap();
    assert_eq!(call.booking_id, Some(booking));
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_batch_queues_each_recipients_notice_once(pool: sqlx::PgPool) {
    use domain::messaging::messages::{self, Batched, Outgoing};
    let app = app(pool).await;
    let p = pair(&app).await;
    let id = start(&app, &p).await;
    let (conversation, seeker, mentor): (uuid::Uuid, uuid::Uuid, uuid::Uuid) = (
        id.parse().unwrap(),
        p.seeker_user.parse().unwrap(),
        p.mentor_user.parse().unwrap(),
    );
    let message = |sender, content: &str| {
        let outgoing = Outgoing {
            content: content.into(),
            message_type: None,
            client_id: None,
        };
        Batched::new(sender, conversation, &outgoing, Some(uuid::Uuid::new_v4())).unwrap()
    };

    // Neither has the thread open: each message queues its recipient's notice, all in one insert.
    let batch = [message(seeker, "one"), message(mentor, "two"), message(seeker, "three")];
    let mut tx = app.pool.begin().await.unwrap();
    let outcomes = messages::send_batch(&mut tx, &batch).await.unwrap();
    assert!(outcomes.iter().all(Result::is_ok));
    tx.commit().await.unwrap();

    let queued = app.queued(jobs::notification_fanout::QUEUE).await;
    assert_eq!(queued.len(), 3);
    assert_eq!(app.deliver_notifications().await, 3);
    let texts = |sid: String| {
        let app = &app;
        async move {
            let notes = body(app.get("/api/notifications", Some(&sid)).await).await;
            let mut texts: Vec<String> = notes
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["message"].as_str().unwrap().to_string())
                .collect();
            texts.sort();
            texts
        }
    };
    assert_eq!(texts(p.mentor_sid.clone()).await, ["Ann Lee: one", "Ann Lee: three"]);
    assert_eq!(texts(p.seeker_sid.clone()).await, ["Ann Lee: two"]);
}
