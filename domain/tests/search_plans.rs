//! How PostgreSQL runs a search's typo lookup: through the trigram index of the vocabulary, not
//! by making the trigrams of every word of it for every query word (migration
//! `trigram_similarity_cost`; the rate is in `scripts/bench`'s random-search row).

use sqlx::PgPool;

/// The plan of the lookup `search::Filters` makes for each query word, as JSON text.
async fn typo_lookup_plan(pool: &PgPool) -> String {
    let plan: serde_json::Value = sqlx::query_scalar(
        "EXPLAIN (FORMAT JSON) SELECT word FROM search_words WHERE word % $1 \
         ORDER BY similarity(word, $1) DESC LIMIT 6",
    )
    .bind("astrolgy")
    .fetch_one(pool)
    .await
    .unwrap();
    plan.to_string()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_typo_is_looked_up_in_the_trigram_index(pool: PgPool) {
    // A vocabulary the size of a small catalogue's, with statistics, as autovacuum leaves it.
    sqlx::query("INSERT INTO search_words (word) SELECT 'word' || n FROM generate_series(1, 300) n")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("ANALYZE search_words").execute(&pool).await.unwrap();

    let plan = typo_lookup_plan(&pool).await;
    assert!(plan.contains("search_words_trgm_idx"), "{plan}");
}
