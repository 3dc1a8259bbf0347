//! Listings answered from memory (`catalogue_cache::listed`) are byte for byte the pages the SQL
//! gives (`search::listing`), for many random filters, orders and pages, before and after changes
//! that move mentors in and out of filters and orders.

use std::collections::HashSet;

use api::{
    catalogue_cache::{CachedJson, listed::Snapshot},
    views::catalogue::MentorsPage,
};
use domain::catalogue::{listed, search};
use uuid::Uuid;

/// A small deterministic generator: the same listings on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn random_listing(rng: &mut Lcg) -> search::Listing {
    const SERVICES: [&str; 8] = [
        "",
        "all",
        "astrology",
        "tarot",
        "energy_healing",
        "mystical_practices",
        "relationship_guidance",
        "meditation",
    ];
    const SORTS: [search::Sort; 4] = [
        search::Sort::Relevance,
        search::Sort::Rating,
        search::Sort::Price,
        search::Sort::Sessions,
    ];
    const RATINGS: [&str; 8] = ["3", "3.5", "4.25", "4.255", "4.9", "+4.1", "0", "5"];
    let some = |rng: &mut Lcg, p: u64| rng.below(100) < p;
    let q = search::Query {
        service: some(rng, 60).then(|| SERVICES[rng.below(8) as usize].to_string()),
        search: None,
        min_price: some(rng, 40).then(|| format!("{}", 15 + rng.below(80))),
        max_price: some(rng, 40).then(|| format!("{}.{:02}", 40 + rng.below(100), rng.below(100))),
        min_rating: some(rng, 30).then(|| RATINGS[rng.below(8) as usize].to_string()),
        sort: SORTS[rng.below(4) as usize],
        page: {
            let pages = if some(rng, 50) { 3 } else { 40 };
            Some(1 + rng.below(pages) as i64)
        },
        page_size: some(rng, 30).then(|| 1 + rng.below(50) as i64),
    };
    search::Listing::new(q).unwrap()
}

async fn sql_page(pool: &sqlx::PgPool, listing: &search::Listing) -> bytes::Bytes {
    let found = search::listing(pool, listing).await.unwrap();
    CachedJson::new(&MentorsPage {
        mentors: found.mentors.into_iter().map(Into::into).collect(),
        total: found.total,
        page: found.page,
        page_size: found.page_size,
    })
    .bytes()
}

async fn compare(pool: &sqlx::PgPool, snapshot: &Snapshot, rng: &mut Lcg, listings: usize) {
    for _ in 0..listings {
        let listing = random_listing(rng);
        let (memory, _) = snapshot.page(&listing).expect("answered from memory");
        let sql = sql_page(pool, &listing).await;
        assert_eq!(
            String::from_utf8_lossy(&memory),
            String::from_utf8_lossy(&sql),
            "{listing:?}"
        );
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn listings_from_memory_are_the_pages_the_database_gives(pool: sqlx::PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let uploads = std::env::temp_dir().join(format!("listed-test-{}", Uuid::new_v4()));
    tools::seed::run(&pool, &uploads, 600).await.unwrap();
    // Ties on every key but the id, a pending mentor, a deactivated user, a mentor without an
    // active service, a free service.
    sqlx::query(
        "UPDATE mentors SET rating = 4.50, review_count = 3, total_sessions = 7, created_at = '2026-01-01T00:00:00Z' \
         WHERE id IN (SELECT id FROM mentors ORDER BY id LIMIT 40)",
    )
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "UPDATE mentors SET approval_status = 'pending' WHERE id IN (SELECT id FROM mentors ORDER BY id DESC LIMIT 5)",
    )
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query("UPDATE users SET is_active = false WHERE id IN (SELECT user_id FROM mentors ORDER BY id DESC OFFSET 5 LIMIT 5)")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE services SET is_active = false WHERE mentor_id IN (SELECT id FROM mentors ORDER BY id DESC OFFSET 10 LIMIT 5)")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE services SET price_cents = 0 WHERE id IN (SELECT id FROM services ORDER BY id LIMIT 5)")
        .execute(&pool)
        .await
        .unwrap();

    let snapshot = Snapshot::read_all(0, listed::listed(&pool, None).await.unwrap()).unwrap();
    let mut rng = Lcg(23);
    compare(&pool, &snapshot, &mut rng, 400).await;

    // Changes that move mentors across filters and orders, applied to the snapshot as the
    // refresher does: only the touched mentors are read again.
    let touched: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM mentors ORDER BY md5(id::text) LIMIT 30")
        .fetch_all(&pool)
        .await
        .unwrap();
    let (a, b, c, d, e) = (
        &touched[..6],
        &touched[6..12],
        &touched[12..18],
        &touched[18..24],
        &touched[24..],
    );
    for (sql, ids) in [
        (
            "UPDATE services SET price_cents = price_cents + 4321 WHERE mentor_id = ANY($1)",
            a,
        ),
        (
            "UPDATE mentors SET rating = 5.00, review_count = review_count + 1 WHERE id = ANY($1)",
            b,
        ),
        (
            "UPDATE services SET service_type = 'meditation' WHERE mentor_id = ANY($1)",
            c,
        ),
        ("UPDATE mentors SET is_active = NOT is_active WHERE id = ANY($1)", d),
        (
            "UPDATE users SET is_active = NOT is_active WHERE id IN (SELECT user_id FROM mentors WHERE id = ANY($1))",
            e,
        ),
    ] {
        sqlx::query(sql).bind(ids).execute(&pool).await.unwrap();
    }
    let touched: HashSet<Uuid> = touched.into_iter().collect();
    let ids: Vec<Uuid> = touched.iter().copied().collect();
    let changed = snapshot
        .with_changes(1, &touched, listed::listed(&pool, Some(&ids)).await.unwrap())
        .unwrap();
    compare(&pool, &changed, &mut rng, 400).await;
}
