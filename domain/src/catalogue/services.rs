//! A mentor's services: what can be booked, at what price and length.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor, PgPool};
use uuid::Uuid;

use super::vocabulary::ServiceType;
use crate::{Error, Result, choice::Choice, money, text};

pub const MIN_TITLE_CHARS: usize = 3;
pub const MAX_TITLE_CHARS: usize = 120;
pub const MIN_DESCRIPTION_CHARS: usize = 20;
pub const MAX_DESCRIPTION_CHARS: usize = 2000;
/// Used when a service is created without a (valid) duration.
pub const DEFAULT_DURATION_MINUTES: i32 = 60;
pub const MIN_DURATION_MINUTES: i32 = 15;
pub const MAX_DURATION_MINUTES: i32 = 480;
/// Group size of group services.
pub const MIN_GROUP_PARTICIPANTS: i32 = 2;
pub const MAX_GROUP_PARTICIPANTS: i32 = 20;

pub const NOT_FOUND: &str = "Service not found";
pub const TITLE_TOO_SHORT: &str = "Service title must be at least 3 characters";
pub const DESCRIPTION_TOO_SHORT: &str = "Description must be at least 20 characters";
pub const INVALID_TYPE: &str = "Please choose a service type";
pub const PRICE_REQUIRED: &str = "Price is required";
pub const INVALID_PRICE: &str = "Price must be a valid amount of at least 0";
pub const INVALID_DURATION: &str = "Duration must be between 15 and 480 minutes";
pub const INVALID_GROUP_SIZE: &str = "Group sessions take 2 to 20 participants";
pub const NOT_YOUR_SERVICE: &str = "You can only change your own services";

#[derive(Clone, Debug, FromRow)]
pub struct Service {
    pub id: Uuid,
    pub mentor_id: Uuid,
    pub title: String,
    pub description: String,
    pub service_type: ServiceType,
    pub price_cents: i64,
    pub duration_minutes: i32,
    pub is_active: bool,
    pub is_group_session: bool,
    pub max_participants: Option<i32>,
    pub created_at: DateTime<Utc>,
}

/// `sqlx::query_as!(Service, …)` whose statement names a service's columns between `$head` and `$tail`.
macro_rules! service_query {
    ($head:literal, $tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Service,
            $head
                + r#"id, mentor_id, title, description, service_type AS "service_type: ServiceType", price_cents,
                     duration_minutes, is_active, is_group_session, max_participants, created_at"#
                + $tail
            $(, $arg)*
        )
    };
}

/// Input of a new service; `None` means the field was not sent.
#[derive(Default)]
pub struct NewService {
    pub title: String,
    pub description: String,
    pub service_type: Option<Choice<ServiceType>>,
    pub price: Option<String>,
    pub duration: Option<i64>,
    pub is_group_session: bool,
    pub max_participants: Option<i64>,
}

/// Only the fields sent are changed.
#[derive(Default)]
pub struct ServiceChanges {
    pub title: Option<String>,
    pub description: Option<String>,
    pub service_type: Option<Choice<ServiceType>>,
    pub price: Option<String>,
    pub duration: Option<i64>,
    pub is_active: Option<bool>,
    pub is_group_session: Option<bool>,
    pub max_participants: Option<i64>,
}

pub fn title(raw: &str) -> Result<String> {
    text::single_line(raw, "Title")?;
    let t = raw.trim();
    let n = t.chars().count();
    if n < MIN_TITLE_CHARS {
        return Err(Error::validation(TITLE_TOO_SHORT));
    }
    if n > MAX_TITLE_CHARS {
        return Err(Error::validation("Service title must be at most 120 characters"));
    }
    Ok(t.to_string())
}

pub fn description(raw: &str) -> Result<String> {
    text::multi_line(raw, "Description")?;
    let d = raw.trim();
    let n = d.chars().count();
    if n < MIN_DESCRIPTION_CHARS {
        return Err(Error::validation(DESCRIPTION_TOO_SHORT));
    }
    if n > MAX_DESCRIPTION_CHARS {
        return Err(Error::validation("Description must be at most 2000 characters"));
    }
    Ok(d.to_string())
}

pub fn service_type(sent: &Choice<ServiceType>) -> Result<ServiceType> {
    sent.value(INVALID_TYPE)
}

pub fn price(raw: Option<&str>) -> Result<i64> {
    match raw.map(str::trim) {
        None | Some("") => Err(Error::validation(PRICE_REQUIRED)),
        Some(p) => money::parse(p, INVALID_PRICE),
    }
}

pub fn duration(raw: i64) -> Result<i32> {
    if (MIN_DURATION_MINUTES as i64..=MAX_DURATION_MINUTES as i64).contains(&raw) {
        Ok(raw as i32)
    } else {
        Err(Error::validation(INVALID_DURATION))
    }
}

/// The participant limit a service stores: a group service needs 2 to 20, others none.
pub fn group_size(is_group: bool, raw: Option<i64>) -> Result<Option<i32>> {
    if !is_group {
        return Ok(None);
    }
    match raw {
        Some(n) if (MIN_GROUP_PARTICIPANTS as i64..=MAX_GROUP_PARTICIPANTS as i64).contains(&n) => Ok(Some(n as i32)),
        _ => Err(Error::validation(INVALID_GROUP_SIZE)),
    }
}

pub async fn create(db: &PgPool, mentor_id: Uuid, input: NewService) -> Result<Service> {
    let title = title(&input.title)?;
    let description = description(&input.description)?;
    let service_type = Choice::required(input.service_type.as_ref(), INVALID_TYPE)?;
    let price_cents = price(input.price.as_deref())?;
    let duration = duration(input.duration.unwrap_or(DEFAULT_DURATION_MINUTES as i64))?;
    let max_participants = group_size(input.is_group_session, input.max_participants)?;
    let service = service_query!(
        "INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes, \
         is_group_session, max_participants) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ",
        "",
        mentor_id,
        title,
        description,
        service_type as ServiceType,
        price_cents,
        duration,
        input.is_group_session,
        max_participants,
    )
    .fetch_one(db)
    .await?;
    Ok(service)
}

/// Applies the changes of the service's owner; anyone else gets 403.
pub async fn update(db: &PgPool, owner_mentor_id: Uuid, id: Uuid, changes: ServiceChanges) -> Result<Service> {
    let current = find(db, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    if current.mentor_id != owner_mentor_id {
        return Err(Error::forbidden(NOT_YOUR_SERVICE));
    }
    let title = changes
        .title
        .as_deref()
        .map(title)
        .transpose()?
        .unwrap_or(current.title);
    let description = changes
        .description
        .as_deref()
        .map(description)
        .transpose()?
        .unwrap_or(current.description);
    let service_type = changes
        .service_type
        .as_ref()
        .map(service_type)
        .transpose()?
        .unwrap_or(current.service_type);
    let price_cents = match changes.price.as_deref() {
        Some(p) => price(Some(p))?,
        None => current.price_cents,
    };
    let duration = changes
        .duration
        .map(duration)
        .transpose()?
        .unwrap_or(current.duration_minutes);
    let is_group = changes.is_group_session.unwrap_or(current.is_group_session);
    let max_participants = group_size(
        is_group,
        changes.max_participants.or(current.max_participants.map(i64::from)),
    )?;
    let service = service_query!(
        "UPDATE services SET title = $2, description = $3, service_type = $4, price_cents = $5, duration_minutes = $6, \
         is_active = $7, is_group_session = $8, max_participants = $9, updated_at = now() WHERE id = $1 RETURNING ",
        "",
        id,
        title,
        description,
        service_type as ServiceType,
        price_cents,
        duration,
        changes.is_active.unwrap_or(current.is_active),
        is_group,
        max_participants,
    )
    .fetch_one(db)
    .await?;
    Ok(service)
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<Service>> {
    let s = service_query!("SELECT ", " FROM services WHERE id = $1", id,)
        .fetch_optional(db)
        .await?;
    Ok(s)
}

/// Services of many mentors at once, oldest first; inactive ones only when asked.
pub async fn for_mentors(db: impl PgExecutor<'_>, mentor_ids: &[Uuid], include_inactive: bool) -> Result<Vec<Service>> {
    let s = service_query!(
        "SELECT ",
        " FROM services WHERE mentor_id = ANY($1) AND (is_active OR $2) ORDER BY created_at, id",
        mentor_ids,
        include_inactive,
    )
    .fetch_all(db)
    .await?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg<T: std::fmt::Debug>(r: Result<T>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn field_rules_at_their_edges() {
        assert_eq!(msg(title("ab")), TITLE_TOO_SHORT);
        assert!(title("abc").is_ok());
        assert_eq!(msg(description(&"x".repeat(19))), DESCRIPTION_TOO_SHORT);
        assert!(description(&"x".repeat(20)).is_ok());
        assert_eq!(msg(service_type(&"palmistry".parse().unwrap())), INVALID_TYPE);
        assert_eq!(service_type(&" tarot ".parse().unwrap()).unwrap(), ServiceType::Tarot);
        assert_eq!(msg(price(None)), PRICE_REQUIRED);
        assert_eq!(msg(price(Some(" "))), PRICE_REQUIRED);
        assert_eq!(msg(price(Some("-5"))), INVALID_PRICE);
        assert_eq!(price(Some("0")).unwrap(), 0);
        assert_eq!(msg(duration(14)), INVALID_DURATION);
        assert_eq!(duration(15).unwrap(), 15);
        assert_eq!(duration(480).unwrap(), 480);
        assert_eq!(msg(duration(481)), INVALID_DURATION);
    }

    #[test]
    fn titles_and_descriptions_refuse_control_characters() {
        // A CR in a title would reach calendar invitations.
        assert_eq!(
            msg(title("Tarot\rATTENDEE:x")),
            "Title contains characters that are not allowed"
        );
        assert_eq!(msg(title("Tarot\n")), "Title contains characters that are not allowed");
        assert_eq!(
            msg(title("Tarot \u{202E}gnidaer")),
            "Title contains characters that are not allowed"
        );
        assert!(description("Twenty characters or more,\n\twith a second line.").is_ok());
        assert_eq!(
            msg(description(&format!("{}\0", "x".repeat(20)))),
            "Description contains characters that are not allowed"
        );
    }

    #[test]
    fn group_sizes_are_two_to_twenty() {
        assert_eq!(group_size(false, Some(50)).unwrap(), None);
        assert_eq!(msg(group_size(true, Some(1))), INVALID_GROUP_SIZE);
        assert_eq!(group_size(true, Some(2)).unwrap(), Some(2));
        assert_eq!(group_size(true, Some(20)).unwrap(), Some(20));
        assert_eq!(msg(group_size(true, Some(21))), INVALID_GROUP_SIZE);
        assert_eq!(msg(group_size(true, None)), INVALID_GROUP_SIZE);
    }
}
