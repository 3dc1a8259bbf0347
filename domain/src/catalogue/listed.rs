//! Every listed mentor with the services the public sees, read in one go (or only some of them),
//! so a listing without a search can be answered from memory (api/src/catalogue_cache/listed.rs).
//! Listed means what the listing's SQL says (`search::listing`): an active, approved profile of an
//! active user with at least one active service.

use std::collections::HashMap;

use sqlx::PgPool;
use uuid::Uuid;

use super::{
    mentors::{Mentor, MentorWithServices},
    services::{self, Service},
};
use crate::Result;

/// The listed mentors among `only` (all of them when `None`), each with its active services in
/// the order the public pages show them.
pub async fn listed(db: &PgPool, only: Option<&[Uuid]>) -> Result<Vec<MentorWithServices>> {
    let mentors: Vec<Mentor> = super::mentors::query_mentors!(
        "WHERE m.is_active AND u.is_active AND m.approval_status = 'approved' AND m.from_price_cents IS NOT NULL \
         AND ($1::uuid[] IS NULL OR m.id = ANY($1))",
        only,
    )
    .fetch_all(db)
    .await?;
    let ids: Vec<Uuid> = mentors.iter().map(|m| m.id).collect();
    let mut by_mentor: HashMap<Uuid, Vec<Service>> = HashMap::new();
    for s in services::for_mentors(db, &ids, false).await? {
        by_mentor.entry(s.mentor_id).or_default().push(s);
    }
    Ok(mentors
        .into_iter()
        .map(|mentor| MentorWithServices {
            services: by_mentor.remove(&mentor.id).unwrap_or_default(),
            mentor,
        })
        .collect())
}
