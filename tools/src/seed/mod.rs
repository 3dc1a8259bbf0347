//! `tools seed [--mentors N]`: demo data for a developer machine, created idempotently.
//! Without `--mentors` it creates the documented demo accounts and a catalogue of demo mentors;
//! `--mentors N` also fills the database with N generated mentors for benchmarks.

mod avatars;
mod catalogue;
mod group_sessions;
mod history;
mod overrides;
mod payouts;
mod schedules;

use std::path::Path;

use domain::{accounts::passwords, catalogue::vocabulary::SPECIALTIES};
use sqlx::PgPool;
use uuid::Uuid;

use catalogue::{MENTORS, SEEKERS};

pub const ADMIN_EMAIL: &str = "admin@mystic-mentors.test";
pub const ADMIN_PASSWORD: &str = "admin-password";
pub const SEEKER_PASSWORD: &str = "seeker-password";
pub const MENTOR_PASSWORD: &str = "mentor-password";
/// The first demo mentors each have one confirmed session ahead with a demo seeker.
const UPCOMING_SESSIONS: usize = 8;

pub async fn run(pool: &PgPool, upload_dir: &Path, generated_mentors: usize) -> anyhow::Result<()> {
    let admin_hash = passwords::hash(ADMIN_PASSWORD).await?;
    let (admin_id, _) = ensure_user(pool, ADMIN_EMAIL, &admin_hash, "Ada", "Admin", true).await?;
    let seeker_hash = passwords::hash(SEEKER_PASSWORD).await?;
    let mut seekers = Vec::new();
    for (email, first, last) in SEEKERS {
        seekers.push(ensure_user(pool, email, &seeker_hash, first, last, false).await?.0);
    }
    let mentor_hash = passwords::hash(MENTOR_PASSWORD).await?;
    group_sessions::fix_old_titles(pool).await?;
    let mut created = 0;
    for (i, demo) in MENTORS.iter().enumerate() {
        if seed_mentor(pool, upload_dir, &mentor_hash, i, demo, &seekers).await? {
            created += 1;
        }
    }
    println!(
        "demo mentors: {created} created, {} already there",
        MENTORS.len() - created
    );
    payouts::ensure(pool, admin_id).await?;
    if generated_mentors > 0 {
        let n = generate_mentors(pool, generated_mentors).await?;
        println!("generated mentors: {n} created ({generated_mentors} wanted)");
    }
    println!(
        "sign in as {ADMIN_EMAIL} / {ADMIN_PASSWORD}, seeker@mystic-mentors.test / {SEEKER_PASSWORD}, luna@mystic-mentors.test / {MENTOR_PASSWORD}"
    );
    Ok(())
}

/// The user with this e-mail, created verified when missing; `true` when created now.
async fn ensure_user(
    pool: &PgPool,
    email: &str,
    hash: &str,
    first: &str,
    last: &str,
    is_admin: bool,
) -> anyhow::Result<(Uuid, bool)> {
    let created: Option<Uuid> = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, is_admin, email_verified) \
         VALUES ($1, $2, $3, $4, $5, true) ON CONFLICT ((lower(email))) DO NOTHING RETURNING id",
    )
    .bind(email)
    .bind(hash)
    .bind(first)
    .bind(last)
    .bind(is_admin)
    .fetch_optional(pool)
    .await?;
    match created {
        Some(id) => Ok((id, true)),
        None => Ok((
            sqlx::query_scalar("SELECT id FROM users WHERE lower(email) = lower($1)")
                .bind(email)
                .fetch_one(pool)
                .await?,
            false,
        )),
    }
}

async fn seed_mentor(
    pool: &PgPool,
    upload_dir: &Path,
    hash: &str,
    i: usize,
    demo: &catalogue::DemoMentor,
    seekers: &[Uuid],
) -> anyhow::Result<bool> {
    let slug = format!("{}.{}", demo.first, demo.last).to_lowercase();
    let email = if i == 0 {
        "luna@mystic-mentors.test".to_string()
    } else {
        format!("{slug}@mystic-mentors.test")
    };
    let (user_id, _) = ensure_user(pool, &email, hash, demo.first, demo.last, false).await?;
    let existing: Option<Uuid> = sqlx::query_scalar("SELECT id FROM mentors WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(pool)
        .await?;
    if let Some(mentor_id) = existing {
        history::ensure_schedule(pool, mentor_id, i).await?;
        overrides::ensure_overrides(
            pool,
            mentor_id,
            i,
            &jiff::tz::TimeZone::get(demo.tz)?,
            chrono::Utc::now(),
        )
        .await?;
        group_sessions::ensure_group_sessions(pool, mentor_id, i, chrono::Utc::now()).await?;
        return Ok(false);
    }
    let avatar = avatars::write(upload_dir, &slug, demo.first, demo.last, i)?;
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE users SET profile_image_url = $2 WHERE id = $1")
        .bind(user_id)
        .bind(&avatar)
        .execute(&mut *tx)
        .await?;
    let mentor_id: Uuid = sqlx::query_scalar(
        // Demo mentors are vetted already: listed and bookable.
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents, profile_image_url, time_zone, \
         approval_status, reviewed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'approved', now()) RETURNING id",
    )
    .bind(user_id)
    .bind(demo.display)
    .bind(catalogue::bio(demo))
    .bind(demo.specialties.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    .bind(demo.base)
    .bind(&avatar)
    .bind(demo.tz)
    .fetch_one(&mut *tx)
    .await?;
    let mut one_to_one = Vec::new();
    for (k, (title, description, duration)) in catalogue::service_ideas(demo.kind).iter().enumerate() {
        // The first service of every fourth mentor is a free introduction; each kind's third idea is a group.
        let free = k == 0 && i % 4 == 3;
        let group = k == 2;
        let price = if free {
            0
        } else {
            demo.base * (*duration as i64) / 60 / 100 * 100 + if group { -1500 } else { 0 }
        };
        let duration = if free { 30 } else { *duration };
        let price_cents = price.max(0);
        let id: Uuid = sqlx::query_scalar(
            "INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes, is_group_session, max_participants) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(mentor_id)
        .bind(if free { format!("Free Introduction: {title}") } else { title.to_string() })
        .bind(description)
        .bind(demo.kind)
        .bind(price_cents)
        .bind(duration)
        .bind(group)
        .bind(group.then_some(6 + (i % 3) as i32 * 2))
        .fetch_one(&mut *tx)
        .await?;
        if !group {
            one_to_one.push(history::Service {
                id,
                price_cents,
                duration_minutes: duration,
            });
        }
    }
    let written: Vec<(i16, String)> = (0..reviews_of(i))
        .map(|r| catalogue::review(demo.kind, review_number(i, r)))
        .collect();
    let reviews: Vec<(i16, &str, Uuid)> = written
        .iter()
        .enumerate()
        .map(|(r, (rating, comment))| (*rating, comment.as_str(), seekers[(i + r) % seekers.len()]))
        .collect();
    let tz = jiff::tz::TimeZone::get(demo.tz)?;
    let now = chrono::Utc::now();
    let paid = one_to_one
        .iter()
        .rev()
        .find(|s| s.price_cents > 0)
        .unwrap_or(&one_to_one[0]);
    history::past_sessions(&mut tx, mentor_id, i, &tz, paid, &reviews, now).await?;
    if i < UPCOMING_SESSIONS {
        history::upcoming_session(
            &mut tx,
            mentor_id,
            i,
            &tz,
            &one_to_one[0],
            seekers[i % seekers.len()],
            now,
        )
        .await?;
    }
    tx.commit().await?;
    history::ensure_schedule(pool, mentor_id, i).await?;
    overrides::ensure_overrides(pool, mentor_id, i, &tz, now).await?;
    group_sessions::ensure_group_sessions(pool, mentor_id, i, now).await?;
    Ok(true)
}

const FIRST: &[&str] = &[
    "Ada", "Bea", "Cyrus", "Dara", "Elio", "Faye", "Gwen", "Hugo", "Iris", "Jonah", "Kira", "Leo", "Mira", "Nico",
    "Opal", "Pax", "Quinn", "Rhea", "Silas", "Tess", "Uma", "Vera", "Wren", "Xavi", "Yara", "Zane", "Aria", "Blaise",
    "Cora", "Dante",
];
const LAST: &[&str] = &[
    "Ashby",
    "Bright",
    "Castell",
    "Dawn",
    "Everly",
    "Frost",
    "Grayson",
    "Holt",
    "Ingram",
    "Jade",
    "Knight",
    "Lark",
    "Moss",
    "North",
    "Oakes",
    "Pike",
    "Quill",
    "Reyes",
    "Stone",
    "Thorne",
    "Underwood",
    "Vance",
    "West",
    "Yates",
    "Zeller",
];

/// Bulk-inserts generated mentors (with one to three services each) until there are `wanted`.
async fn generate_mentors(pool: &PgPool, wanted: usize) -> anyhow::Result<usize> {
    let have: i64 = sqlx::query_scalar("SELECT count(*) FROM users WHERE email LIKE 'generated.%@mystic-mentors.test'")
        .fetch_one(pool)
        .await?;
    let hash = passwords::hash(&domain::tokens::generate()).await?;
    let mut made = 0;
    let kinds = domain::catalogue::vocabulary::ServiceType::ALL;
    for chunk_start in (have as usize..wanted).step_by(1000) {
        let chunk: Vec<usize> = (chunk_start..wanted.min(chunk_start + 1000)).collect();
        let mut tx = pool.begin().await?;
        let emails: Vec<String> = chunk
            .iter()
            .map(|i| format!("generated.{i}@mystic-mentors.test"))
            .collect();
        let firsts: Vec<&str> = chunk.iter().map(|i| FIRST[i % FIRST.len()]).collect();
        let lasts: Vec<&str> = chunk.iter().map(|i| LAST[(i / FIRST.len()) % LAST.len()]).collect();
        let user_ids: Vec<Uuid> = sqlx::query_scalar(
            "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) \
             SELECT e, $2, f, l, true FROM unnest($1::text[], $3::text[], $4::text[]) AS t(e, f, l) RETURNING id",
        )
        .bind(&emails)
        .bind(&hash)
        .bind(&firsts)
        .bind(&lasts)
        .fetch_all(&mut *tx)
        .await?;
        let mut names = Vec::new();
        let mut bios = Vec::new();
        let mut specialties = Vec::new();
        let mut prices = Vec::new();
        let mut ratings = Vec::new();
        for (k, i) in chunk.iter().enumerate() {
            let demo = &MENTORS[i % MENTORS.len()];
            let extra = SPECIALTIES[(i * 7) % SPECIALTIES.len()];
            names.push(format!("{} {}", firsts[k], lasts[k]));
            bios.push(catalogue::bio(demo));
            specialties.push(format!("{{\"{}\",\"{}\"}}", demo.specialties[0], extra));
            prices.push(2000 + ((i * 37) % 120) as i64 * 100);
            ratings.push(format!("{:.2}", 3.0 + ((i * 13) % 200) as f64 / 100.0));
        }
        let mentor_ids: Vec<Uuid> = sqlx::query_scalar(
            "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents, rating, review_count, total_sessions, \
             approval_status, reviewed_at) SELECT u, n, b, s::text[], p, r::numeric, 10, (p / 100)::int, 'approved', now() FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[]) \
             AS t(u, n, b, s, p, r) RETURNING id",
        )
        .bind(&user_ids)
        .bind(&names)
        .bind(&bios)
        .bind(&specialties)
        .bind(&prices)
        .bind(&ratings)
        .fetch_all(&mut *tx)
        .await?;
        let (mut s_mentor, mut s_title, mut s_desc, mut s_type, mut s_price, mut s_dur) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for (k, i) in chunk.iter().enumerate() {
            for j in 0..(1 + i % 3) {
                let kind = kinds[(i + j) % kinds.len()].as_str();
                let (title, desc, dur) = catalogue::service_ideas(kind)[j];
                s_mentor.push(mentor_ids[k]);
                s_title.push(title);
                s_desc.push(desc);
                s_type.push(kind);
                s_price.push(prices[k] + j as i64 * 500);
                s_dur.push(dur);
            }
        }
        sqlx::query(
            "INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes) \
             SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[])",
        )
        .bind(&s_mentor)
        .bind(&s_title)
        .bind(&s_desc)
        .bind(&s_type)
        .bind(&s_price)
        .bind(&s_dur)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        made += chunk.len();
    }
    Ok(made)
}

/// How many reviews the `i`-th demo mentor gets (2 to 4).
pub(crate) fn reviews_of(i: usize) -> usize {
    2 + i % 3
}

/// The demo-wide number of the `i`-th mentor's `r`-th review, so no two reviews share a text.
pub(crate) fn review_number(i: usize, r: usize) -> usize {
    (0..i).map(reviews_of).sum::<usize>() + r
}
