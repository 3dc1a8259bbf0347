//! Mentor profiles: creating one makes a user a mentor; reading them for cards and pages.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use super::scheduling_rules;
use super::{
    services::{self, Service},
    vocabulary::SPECIALTIES,
};
use crate::{Error, Result, error::OnConstraint, money, text, time_zones, uploads};

pub const MIN_DISPLAY_NAME_CHARS: usize = 2;
pub const MAX_DISPLAY_NAME_CHARS: usize = 100;
pub const MIN_BIO_CHARS: usize = 50;
pub const MAX_BIO_CHARS: usize = 500;

closed_set! {
    /// A profile's approval status: only approved profiles are public; administrators move them
    /// between these in `vetting`.
    pub enum ApprovalStatus ("approval status") {
        Pending = "pending",
        Approved = "approved",
        Rejected = "rejected",
    }
}

pub const NOT_FOUND: &str = "Mentor not found";
pub const PROFILE_NOT_FOUND: &str = "Mentor profile not found";
pub const ALREADY_A_MENTOR: &str = "You already have a mentor profile";
pub const DISPLAY_NAME_TOO_SHORT: &str = "Display name must be at least 2 characters";
pub const BIO_TOO_SHORT: &str = "Bio must be at least 50 characters";
pub const BIO_TOO_LONG: &str = "Bio must be less than 500 characters";
pub const BASE_PRICE_REQUIRED: &str = "Base price is required";
pub const INVALID_BASE_PRICE: &str = "Base price must be a valid amount of at least 0";
pub const INVALID_IMAGE_URL: &str = "Please enter a valid image URL";
pub const NO_SPECIALTY: &str = "Please select at least one specialty";

/// A mentor with the public facts of its user.
#[derive(Clone, Debug, FromRow)]
pub struct Mentor {
    pub id: Uuid,
    pub user_id: Uuid,
    pub display_name: String,
    pub bio: String,
    pub specialties: Vec<String>,
    pub base_price_cents: i64,
    /// The cheapest active service; `None` while the mentor offers none (then not listed).
    pub from_price_cents: Option<i64>,
    pub minimum_notice_minutes: i32,
    /// Minutes kept free before and after each of this platform's sessions (0 to 120).
    pub buffer_before_minutes: i32,
    pub buffer_after_minutes: i32,
    /// Sessions per local day at most (a group session counts once); `None`: no cap.
    pub max_bookings_per_day: Option<i32>,
    pub profile_image_url: Option<String>,
    pub time_zone: String,
    /// Two decimals, "0.00" until the first review.
    pub rating: String,
    pub review_count: i32,
    pub total_sessions: i32,
    /// The profile is active and its user too (an admin can deactivate the user).
    pub is_active: bool,
    /// Decided by [`super::vetting`]: only approved profiles are public.
    pub approval_status: ApprovalStatus,
    /// Why an administrator turned the profile down (only while rejected).
    pub rejection_reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub user_first_name: String,
    pub user_last_name: String,
    pub user_profile_image_url: Option<String>,
    /// What an instant reading costs a minute; `None`: no instant readings.
    pub per_minute_rate_cents: Option<i64>,
    /// `chat`, `video` or both (`presence::InstantMode`).
    pub instant_modes: Vec<String>,
}

/// `sqlx::query_as!(Mentor, "SELECT <Mentor columns> FROM mentors m JOIN users u ... " + $rest, args)`.
/// A mentor whose user an admin deactivated is as hidden as an inactive profile.
macro_rules! query_mentors {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            crate::catalogue::mentors::Mentor,
            r#"SELECT m.id, m.user_id, m.display_name, m.bio, m.specialties, m.base_price_cents, m.from_price_cents,
                      m.minimum_notice_minutes, m.buffer_before_minutes, m.buffer_after_minutes, m.max_bookings_per_day,
                      m.profile_image_url, m.time_zone, m.rating::text AS "rating!", m.review_count, m.total_sessions,
                      (m.is_active AND u.is_active) AS "is_active!",
                      m.approval_status AS "approval_status: crate::catalogue::mentors::ApprovalStatus",
                      m.rejection_reason, m.created_at, u.first_name AS user_first_name, u.last_name AS user_last_name,
                      u.profile_image_url AS user_profile_image_url, m.per_minute_rate_cents, m.instant_modes
               FROM mentors m JOIN users u ON u.id = m.user_id "# + $rest
            $(, $arg)*
        )
    };
}
pub(crate) use query_mentors;

impl Mentor {
    /// Whether anyone but the mentor (and administrators) may see and book them: active, their
    /// user too, and approved by an administrator.
    pub fn is_public(&self) -> bool {
        self.is_active && self.approval_status == ApprovalStatus::Approved
    }
}

/// A mentor and the services to show with it.
#[derive(Clone, Debug)]
pub struct MentorWithServices {
    pub mentor: Mentor,
    pub services: Vec<Service>,
}

#[derive(Default)]
pub struct ProfileInput {
    pub display_name: Option<String>,
    pub bio: Option<String>,
    pub specialties: Option<Vec<String>>,
    pub base_price: Option<String>,
    pub profile_image_url: Option<String>,
    pub time_zone: Option<String>,
    pub minimum_notice_minutes: Option<i64>,
    pub buffer_before_minutes: Option<i64>,
    pub buffer_after_minutes: Option<i64>,
    /// 0 removes the cap.
    pub max_bookings_per_day: Option<i64>,
    /// "0.00" turns instant readings off; absent leaves the rate.
    pub per_minute_rate: Option<String>,
    pub instant_modes: Option<Vec<String>>,
}

pub fn display_name(raw: &str) -> Result<String> {
    text::single_line(raw, "Display name")?;
    let n = raw.trim();
    let len = n.chars().count();
    if len < MIN_DISPLAY_NAME_CHARS {
        return Err(Error::validation(DISPLAY_NAME_TOO_SHORT));
    }
    if len > MAX_DISPLAY_NAME_CHARS {
        return Err(Error::validation("Display name must be at most 100 characters"));
    }
    Ok(n.to_string())
}

pub fn bio(raw: &str) -> Result<String> {
    text::multi_line(raw, "Bio")?;
    let b = raw.trim();
    let len = b.chars().count();
    if len < MIN_BIO_CHARS {
        return Err(Error::validation(BIO_TOO_SHORT));
    }
    if len > MAX_BIO_CHARS {
        return Err(Error::validation(BIO_TOO_LONG));
    }
    Ok(b.to_string())
}

/// Trims, keeps the first of duplicates, and maps each to its canonical spelling among the 14.
pub fn specialties(raw: &[String]) -> Result<Vec<String>> {
    let mut chosen: Vec<String> = Vec::new();
    for s in raw {
        text::single_line(s, "Specialty")?;
    }
    for s in raw.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let canonical = SPECIALTIES
            .iter()
            .find(|known| known.eq_ignore_ascii_case(s))
            .ok_or_else(|| Error::validation(format!("Unknown specialty: {s}")))?;
        if !chosen.iter().any(|c| c == canonical) {
            chosen.push(canonical.to_string());
        }
    }
    if chosen.is_empty() {
        return Err(Error::validation(NO_SPECIALTY));
    }
    Ok(chosen)
}

pub fn base_price(raw: Option<&str>) -> Result<i64> {
    match raw.map(str::trim) {
        None | Some("") => Err(Error::validation(BASE_PRICE_REQUIRED)),
        Some(p) => money::parse(p, INVALID_BASE_PRICE),
    }
}

/// The longest image address kept.
pub const MAX_IMAGE_URL_LEN: usize = 2048;

/// An empty value clears the image; otherwise exactly the URL of one of our uploads
/// (`/uploads/<name>` as the upload handler returns it). An image URL is fetched by every
/// viewer's browser, so an address of another site would hand every viewer's address to that
/// host: none is accepted, nor any other path of our own site (`/uploads/%2e%2e/...`).
pub fn image_url(raw: &str) -> Result<Option<String>> {
    let u = raw.trim();
    if u.is_empty() {
        return Ok(None);
    }
    if u.len() <= MAX_IMAGE_URL_LEN && uploads::own_upload_name(u).is_some() {
        return Ok(Some(u.to_string()));
    }
    Err(Error::validation(INVALID_IMAGE_URL))
}

/// The image after a change: a value equal to the current one keeps it as it is (seeded
/// avatars live elsewhere under `/uploads/`), anything else passes [`image_url`].
pub fn changed_image_url(raw: Option<&str>, current: Option<String>) -> Result<Option<String>> {
    match raw {
        None => Ok(current),
        Some(u) if current.as_deref() == Some(u.trim()) => Ok(current),
        Some(u) => image_url(u),
    }
}

/// `image` as a change sets it: a new image must be an upload of `user_id` (one kept as it was
/// passes as before), so nobody shows another user's upload as their own.
pub async fn owned_image(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    image: Option<String>,
    current: Option<&str>,
) -> Result<Option<String>> {
    match image.as_deref() {
        Some(url) if Some(url) != current && !uploads::owned_by(db, url, user_id).await? => {
            Err(Error::validation(INVALID_IMAGE_URL))
        }
        _ => Ok(image),
    }
}

/// How long before a session it can be booked at the latest, unless the mentor says otherwise.
pub const DEFAULT_MINIMUM_NOTICE_MINUTES: i32 = 120;
/// A week.
pub const MAX_MINIMUM_NOTICE_MINUTES: i64 = 10_080;
pub const INVALID_MINIMUM_NOTICE: &str = "Minimum notice must be a whole number of minutes from 0 to 10080";

pub fn minimum_notice(minutes: i64) -> Result<i32> {
    if (0..=MAX_MINIMUM_NOTICE_MINUTES).contains(&minutes) {
        Ok(minutes as i32)
    } else {
        Err(Error::validation(INVALID_MINIMUM_NOTICE))
    }
}

/// Onboarding step 1: the user becomes a mentor.
pub async fn create(db: &PgPool, user_id: Uuid, input: ProfileInput) -> Result<Mentor> {
    let display_name = display_name(input.display_name.as_deref().unwrap_or(""))?;
    let bio = bio(input.bio.as_deref().unwrap_or(""))?;
    let specialties = specialties(input.specialties.as_deref().unwrap_or(&[]))?;
    let base_price_cents = base_price(input.base_price.as_deref())?;
    let image = input.profile_image_url.as_deref().map(image_url).transpose()?.flatten();
    let image = owned_image(db, user_id, image, None).await?;
    let time_zone = match input.time_zone.as_deref() {
        Some(tz) if !tz.trim().is_empty() => time_zones::validate(tz)?,
        _ => time_zones::DEFAULT_TIME_ZONE.to_string(),
    };
    let notice = input
        .minimum_notice_minutes
        .map(minimum_notice)
        .transpose()?
        .unwrap_or(DEFAULT_MINIMUM_NOTICE_MINUTES);
    let before = input
        .buffer_before_minutes
        .map(scheduling_rules::buffer)
        .transpose()?
        .unwrap_or(0);
    let after = input
        .buffer_after_minutes
        .map(scheduling_rules::buffer)
        .transpose()?
        .unwrap_or(0);
    let cap = input
        .max_bookings_per_day
        .map(scheduling_rules::daily_cap)
        .transpose()?
        .flatten();
    let id: Uuid = sqlx::query_scalar!(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents, profile_image_url, time_zone, minimum_notice_minutes, \
         buffer_before_minutes, buffer_after_minutes, max_bookings_per_day) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
        user_id,
        display_name,
        bio,
        &specialties,
        base_price_cents,
        image,
        time_zone,
        notice,
        before,
        after,
        cap,
    )
    .fetch_one(db)
    .await
    .on_constraint("mentors_user_id_key", || Error::conflict(ALREADY_A_MENTOR))?;
    find(db, id)
        .await?
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("mentor vanished after insert")))
}

/// Changes only the fields sent. The caller compares the image before and after to have a
/// replaced upload deleted.
pub async fn update(tx: &mut PgConnection, mentor_id: Uuid, input: ProfileInput) -> Result<Mentor> {
    let current = find(&mut *tx, mentor_id)
        .await?
        .ok_or_else(|| Error::not_found(PROFILE_NOT_FOUND))?;
    let display_name = input
        .display_name
        .as_deref()
        .map(display_name)
        .transpose()?
        .unwrap_or(current.display_name);
    let bio = input.bio.as_deref().map(bio).transpose()?.unwrap_or(current.bio);
    let specialties = input
        .specialties
        .as_deref()
        .map(specialties)
        .transpose()?
        .unwrap_or(current.specialties);
    let base_price_cents = match input.base_price.as_deref() {
        Some(p) => base_price(Some(p))?,
        None => current.base_price_cents,
    };
    let image = changed_image_url(input.profile_image_url.as_deref(), current.profile_image_url.clone())?;
    let image = owned_image(&mut *tx, current.user_id, image, current.profile_image_url.as_deref()).await?;
    let time_zone = input
        .time_zone
        .as_deref()
        .map(time_zones::validate)
        .transpose()?
        .unwrap_or(current.time_zone);
    let notice = input
        .minimum_notice_minutes
        .map(minimum_notice)
        .transpose()?
        .unwrap_or(current.minimum_notice_minutes);
    let before = input
        .buffer_before_minutes
        .map(scheduling_rules::buffer)
        .transpose()?
        .unwrap_or(current.buffer_before_minutes);
    let after = input
        .buffer_after_minutes
        .map(scheduling_rules::buffer)
        .transpose()?
        .unwrap_or(current.buffer_after_minutes);
    let cap = match input.max_bookings_per_day {
        Some(n) => scheduling_rules::daily_cap(n)?,
        None => current.max_bookings_per_day,
    };
    let rate = super::instant::parse_rate(input.per_minute_rate.as_deref())?.unwrap_or(current.per_minute_rate_cents);
    let modes = input
        .instant_modes
        .as_deref()
        .map(super::instant::parse_modes)
        .transpose()?
        .unwrap_or(current.instant_modes);
    sqlx::query!(
        "UPDATE mentors SET display_name = $2, bio = $3, specialties = $4, base_price_cents = $5, \
         profile_image_url = $6, time_zone = $7, minimum_notice_minutes = $8, buffer_before_minutes = $9, \
         buffer_after_minutes = $10, max_bookings_per_day = $11, per_minute_rate_cents = $12, instant_modes = $13, \
         updated_at = now() WHERE id = $1",
        mentor_id,
        display_name,
        bio,
        &specialties,
        base_price_cents,
        image,
        time_zone,
        notice,
        before,
        after,
        cap,
        rate,
        &modes,
    )
    .execute(&mut *tx)
    .await?;
    find(&mut *tx, mentor_id)
        .await?
        .ok_or_else(|| Error::not_found(PROFILE_NOT_FOUND))
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<Mentor>> {
    Ok(query_mentors!("WHERE m.id = $1", id).fetch_optional(db).await?)
}

pub async fn find_by_user(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Option<Mentor>> {
    Ok(query_mentors!("WHERE m.user_id = $1", user_id)
        .fetch_optional(db)
        .await?)
}

/// The signed-in user's own profile, or 404 when they are not a mentor.
pub async fn own(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Mentor> {
    find_by_user(db, user_id)
        .await?
        .ok_or_else(|| Error::not_found(PROFILE_NOT_FOUND))
}

/// An active, approved mentor as the public sees it (only active services).
pub async fn public(db: &PgPool, id: Uuid) -> Result<MentorWithServices> {
    let mentor = find(db, id)
        .await?
        .filter(Mentor::is_public)
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    Ok(with_services(db, vec![mentor], false).await?.remove(0))
}

/// Attaches services to mentors with one query, keeping the mentors' order.
pub async fn with_services(
    db: &PgPool,
    mentors: Vec<Mentor>,
    include_inactive: bool,
) -> Result<Vec<MentorWithServices>> {
    let ids: Vec<Uuid> = mentors.iter().map(|m| m.id).collect();
    let mut services = services::for_mentors(db, &ids, include_inactive).await?;
    Ok(mentors
        .into_iter()
        .map(|mentor| {
            let (mine, rest): (Vec<_>, Vec<_>) = services.drain(..).partition(|s| s.mentor_id == mentor.id);
            services = rest;
            MentorWithServices { mentor, services: mine }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg<T: std::fmt::Debug>(r: Result<T>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn onboarding_rules_at_their_edges() {
        assert_eq!(msg(display_name(" a ")), DISPLAY_NAME_TOO_SHORT);
        assert_eq!(display_name(" Al ").unwrap(), "Al");
        assert_eq!(msg(bio(&"b".repeat(49))), BIO_TOO_SHORT);
        assert!(bio(&"b".repeat(50)).is_ok());
        assert!(bio(&"b".repeat(500)).is_ok());
        assert_eq!(msg(bio(&"b".repeat(501))), BIO_TOO_LONG);
        assert_eq!(msg(base_price(None)), BASE_PRICE_REQUIRED);
        assert_eq!(msg(base_price(Some("abc"))), INVALID_BASE_PRICE);
        assert_eq!(base_price(Some("75.5")).unwrap(), 7550);
        assert_eq!(minimum_notice(0).unwrap(), 0);
        assert_eq!(minimum_notice(10_080).unwrap(), 10_080);
        assert_eq!(msg(minimum_notice(10_081)), INVALID_MINIMUM_NOTICE);
        assert_eq!(msg(minimum_notice(-1)), INVALID_MINIMUM_NOTICE);
    }

    #[test]
    fn specialties_are_trimmed_deduplicated_and_known() {
        let got = specialties(&[
            " Tarot Reading".into(),
            "tarot reading".into(),
            "Numerology ".into(),
            "".into(),
        ])
        .unwrap();
        assert_eq!(got, vec!["Tarot Reading", "Numerology"]);
        assert_eq!(msg(specialties(&[])), NO_SPECIALTY);
        assert_eq!(msg(specialties(&["  ".into()])), NO_SPECIALTY);
        assert!(specialties(&["Basket Weaving".into()]).is_err());
    }

    #[test]
    fn image_urls_are_our_own_uploads_or_canonical_https() {
        let ours = "/uploads/0123456789abcdef0123456789abcdef.png";
        assert_eq!(image_url("").unwrap(), None);
        assert_eq!(image_url(&format!(" {ours} ")).unwrap().as_deref(), Some(ours));
        for bad in [
            "https://cdn.example/a.png",
            "not a url",
            "javascript:alert(1)",
            "ftp://x/y.png",
            "/uploads/../etc/passwd",
            "/uploads/%2e%2e/api/logout",
            "/uploads/abc.png",
            "/api/logout",
            "http://cdn.example/a.png",
            "https://user:pw@cdn.example/a.png",
            "HTTPS://CDN.example/a.png",
            "https://cdn.example/../a.png",
            "//evil.example/a.png",
            "https://localhost/a.png",
        ] {
            assert_eq!(msg(image_url(bad)), INVALID_IMAGE_URL, "{bad}");
        }
    }

    #[test]
    fn an_unchanged_image_is_kept_as_it_is() {
        let seeded = Some("/uploads/avatars/luna-moon.svg".to_string());
        assert_eq!(changed_image_url(None, seeded.clone()).unwrap(), seeded);
        assert_eq!(
            changed_image_url(Some("/uploads/avatars/luna-moon.svg"), seeded.clone()).unwrap(),
            seeded
        );
        assert_eq!(changed_image_url(Some(""), seeded.clone()).unwrap(), None);
        assert_eq!(
            msg(changed_image_url(Some("/uploads/avatars/other.svg"), seeded)),
            INVALID_IMAGE_URL
        );
    }

    #[test]
    fn profile_texts_refuse_control_characters() {
        assert_eq!(
            msg(display_name("Ann\0Lee")),
            "Display name contains characters that are not allowed"
        );
        assert_eq!(
            msg(display_name("Ann\u{202E}Lee")),
            "Display name contains characters that are not allowed"
        );
        let bio_text = "b".repeat(60);
        assert!(bio(&format!("{bio_text}\n\tmore")).is_ok());
        assert_eq!(
            msg(bio(&format!("{bio_text}\r"))),
            "Bio contains characters that are not allowed"
        );
        assert_eq!(
            msg(specialties(&["Tarot\0".into()])),
            "Specialty contains characters that are not allowed"
        );
    }
}
