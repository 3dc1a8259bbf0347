use sqlx::PgPool;

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_job_table_keeps_no_index_twice(pool: PgPool) {
    jobs::runtime::setup_storage(&pool).await.unwrap();
    jobs::runtime::setup_storage(&pool).await.unwrap();

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
