use sqlx::PgPool;

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_job_table_keeps_no_index_twice(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    domain::job_queue::storage::setup(&pool).await.unwrap();

    let repeated: Vec<String> = sqlx::query_scalar(
        "SELECT string_agg(indexrelid::regclass::text, ' = ' ORDER BY indexrelid::regclass::text) \
         FROM pg_index WHERE indrelid = 'apalis.jobs'::regclass \
         GROUP BY indkey::text, coalesce(pg_get_expr(indpred, indrelid), '') HAVING count(*) > 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(repeated.is_empty(), "indexes on the same columns: {repeated:?}");

    let kept: Vec<String> = sqlx::query_scalar(
        "SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'apalis.jobs'::regclass ORDER BY 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(
        kept.contains(&"apalis.jobs_pkey".to_string()) && kept.contains(&"apalis.idx_apalis_jobs_lock_by".to_string()),
        "{kept:?}"
    );
}

/// A task in `status` after two failed tries, as a worker holds it.
async fn held_task(pool: &PgPool, id: &str, status: &str) {
    sqlx::query(
        "INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, run_at, last_result) \
         VALUES ($1, 'emails', convert_to('{}', 'UTF8'), $2, 2, 5, now(), '{\"Err\": \"boom\"}')",
    )
    .bind(id)
    .bind(status)
    .execute(pool)
    .await
    .unwrap();
}

/// apalis' own statements (queries/worker/reenqueue_abandoned.sql, queries/backend/reenqueue_orphaned.sql)
/// without their worker joins.
async fn requeue(pool: &PgPool, id: &str, result: &str) -> (i32, String) {
    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Pending', done_at = NULL, lock_by = NULL, lock_at = NULL, \
         attempts = attempts + 1, last_result = $2::jsonb WHERE id = $1",
    )
    .bind(id)
    .bind(result)
    .execute(pool)
    .await
    .unwrap();
    sqlx::query_as("SELECT attempts, last_result::text FROM apalis.jobs WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_task_handed_back_by_a_stopping_worker_keeps_its_tries(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let handed_back = domain::job_queue::storage::HANDED_BACK_RESULT;
    for (id, status) in [
        ("01JQUEUED0000000000000000A", "Queued"),
        ("01JRUNNING000000000000000A", "Running"),
    ] {
        held_task(&pool, id, status).await;
        assert_eq!(
            requeue(&pool, id, handed_back).await,
            (2, r#"{"Err": "boom"}"#.to_string()),
            "{status}"
        );
    }
    // A task re-queued because its worker fell silent may have run: that is a try.
    let id = "01JSILENT0000000000000000A";
    held_task(&pool, id, "Running").await;
    let silent = r#"{"Err": "Re-enqueued due to worker heartbeat timeout."}"#;
    assert_eq!(requeue(&pool, id, silent).await, (3, silent.to_string()));
}

/// An insert announces its tasks due now once per queue, not once per task, and tasks queued for
/// later not at all; starting twice leaves one announcing trigger.
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn an_insert_announces_each_queue_once(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let triggers: Vec<String> = sqlx::query_scalar(
        "SELECT tgname::text FROM pg_trigger WHERE tgrelid = 'apalis.jobs'::regclass AND NOT tgisinternal \
         AND tgname LIKE 'notify%' ORDER BY 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(triggers, ["notify_workers_per_statement"]);

    let mut listener = sqlx::postgres::PgListener::connect_with(&pool).await.unwrap();
    listener.listen(jobs::runner::wakeups::NOTIFY_CHANNEL).await.unwrap();
    let mut tx = pool.begin().await.unwrap();
    domain::job_queue::push_all(&mut tx, "queue_a", &[1, 2, 3], 1)
        .await
        .unwrap();
    domain::job_queue::push_all(&mut tx, "queue_b", &[4], 1).await.unwrap();
    let later = domain::job_queue::PushOptions {
        run_at: Some(chrono::Utc::now() + chrono::Duration::hours(1)),
        ..Default::default()
    };
    domain::job_queue::push(&mut tx, "queue_c", &5, later).await.unwrap();
    tx.commit().await.unwrap();
    // Notifications arrive in commit order: everything before the marker came from the inserts.
    sqlx::query("SELECT pg_notify($1, 'marker')")
        .bind(jobs::runner::wakeups::NOTIFY_CHANNEL)
        .execute(&pool)
        .await
        .unwrap();
    let mut queues = Vec::new();
    loop {
        let n = listener.recv().await.unwrap();
        if n.payload() == "marker" {
            break;
        }
        let payload: serde_json::Value = serde_json::from_str(n.payload()).unwrap();
        assert!(payload["id"].is_string() && payload["run_at"].is_string(), "{payload}");
        queues.push(payload["job_type"].as_str().unwrap().to_string());
    }
    queues.sort();
    assert_eq!(queues, ["queue_a", "queue_b"]);
}
