//! Response shapes of the catalogue: mentors, services, reviews, the service grid.

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use uuid::Uuid;

use domain::{
    booking::reviews::Review,
    catalogue::{
        instant::{self, InstantMode},
        mentors::{ApprovalStatus, Mentor, MentorWithServices},
        services::Service,
        stats::{Highlights, ServiceStat, Testimonial},
        vocabulary::ServiceType,
    },
    money,
    presence::Presence,
};

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct MentorUserView {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
}

/// A mentor as cards and pages show it.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct MentorCardView {
    pub id: Uuid,
    pub user_id: Uuid,
    pub display_name: String,
    pub bio: String,
    pub specialties: Vec<String>,
    /// Decimal string, e.g. "50.00"
    pub base_price: String,
    /// The cheapest active service ("0.00": a free one); null while the mentor offers none
    #[oai(nullable)]
    pub from_price: Option<String>,
    /// Minutes before a session below which it cannot be booked
    pub minimum_notice_minutes: i32,
    /// Minutes kept free before each session booked here (0 to 120)
    pub buffer_before_minutes: i32,
    /// Minutes kept free after each session booked here (0 to 120)
    pub buffer_after_minutes: i32,
    /// Sessions per day at most, in the mentor's local day; null: no limit
    #[oai(nullable)]
    pub max_bookings_per_day: Option<i32>,
    /// Average review, two decimals; "0.00" before the first review
    pub rating: String,
    pub review_count: i32,
    pub total_sessions: i32,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
    /// IANA time zone of the mentor's availability
    pub time_zone: String,
    pub is_active: bool,
    /// pending (awaiting an administrator's review), approved or rejected; only approved mentors
    /// are shown to others
    pub approval_status: ApprovalStatus,
    /// Why an administrator rejected the profile (only while rejected)
    #[oai(nullable)]
    pub rejection_reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub user: MentorUserView,
    /// What an instant reading costs a minute, e.g. "1.99"; null: no instant readings
    #[oai(nullable)]
    pub per_minute_rate: Option<String>,
    /// How readings happen: chat, video or both
    pub instant_modes: Vec<InstantMode>,
    /// available, busy (in a reading) or offline: read when the response is made, never cached
    pub presence: Presence,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct MentorView {
    #[oai(flatten)]
    pub card: MentorCardView,
    pub services: Vec<ServiceView>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ServiceView {
    pub id: Uuid,
    pub mentor_id: Uuid,
    pub title: String,
    pub description: String,
    pub service_type: ServiceType,
    /// Decimal string; "0.00" means free
    pub price: String,
    /// Minutes
    pub duration: i32,
    pub is_active: bool,
    pub is_group_session: bool,
    #[oai(nullable)]
    pub max_participants: Option<i32>,
    pub created_at: DateTime<Utc>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ServiceWithMentorView {
    #[oai(flatten)]
    pub service: ServiceView,
    pub mentor: MentorCardView,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ServiceStatView {
    pub service_type: ServiceType,
    pub mentor_count: i64,
    /// Lowest non-free price; "0.00" when there is none
    pub min_price: String,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ReviewerView {
    pub first_name: String,
    pub last_name: String,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ReviewView {
    pub id: Uuid,
    /// Whole stars, 1 to 5
    pub rating: i32,
    #[oai(nullable)]
    pub comment: Option<String>,
    pub created_at: DateTime<Utc>,
    pub user: ReviewerView,
    /// The mentor's reply; null until they write one
    #[oai(nullable)]
    pub reply: Option<ReviewReplyView>,
}

/// A mentor's public reply under a review.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ReviewReplyView {
    pub message: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct MentorsPage {
    pub mentors: Vec<MentorView>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

impl From<Mentor> for MentorCardView {
    fn from(m: Mentor) -> Self {
        Self {
            id: m.id,
            user_id: m.user_id,
            display_name: m.display_name,
            bio: m.bio,
            specialties: m.specialties,
            base_price: money::format(m.base_price_cents),
            from_price: m.from_price_cents.map(money::format),
            minimum_notice_minutes: m.minimum_notice_minutes,
            buffer_before_minutes: m.buffer_before_minutes,
            buffer_after_minutes: m.buffer_after_minutes,
            max_bookings_per_day: m.max_bookings_per_day,
            rating: m.rating,
            review_count: m.review_count,
            total_sessions: m.total_sessions,
            profile_image_url: m.profile_image_url,
            time_zone: m.time_zone,
            is_active: m.is_active,
            approval_status: m.approval_status,
            rejection_reason: m.rejection_reason,
            created_at: m.created_at,
            user: MentorUserView {
                id: m.user_id,
                first_name: m.user_first_name,
                last_name: m.user_last_name,
                profile_image_url: m.user_profile_image_url,
            },
            per_minute_rate: m.per_minute_rate_cents.map(money::format),
            instant_modes: instant::modes_of(&m.instant_modes),
            // The cached shape; responses write the presence of the moment (`routes::mentors`).
            presence: Presence::Offline,
        }
    }
}

impl From<MentorWithServices> for MentorView {
    fn from(m: MentorWithServices) -> Self {
        Self {
            card: m.mentor.into(),
            services: m.services.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<Service> for ServiceView {
    fn from(s: Service) -> Self {
        Self {
            id: s.id,
            mentor_id: s.mentor_id,
            title: s.title,
            description: s.description,
            service_type: s.service_type,
            price: money::format(s.price_cents),
            duration: s.duration_minutes,
            is_active: s.is_active,
            is_group_session: s.is_group_session,
            max_participants: s.max_participants,
            created_at: s.created_at,
        }
    }
}

impl From<ServiceStat> for ServiceStatView {
    fn from(s: ServiceStat) -> Self {
        Self {
            service_type: s.service_type,
            mentor_count: s.mentor_count,
            min_price: money::format(s.min_price_cents),
        }
    }
}

impl From<Review> for ReviewView {
    fn from(r: Review) -> Self {
        Self {
            id: r.id,
            rating: r.rating.into(),
            comment: r.comment,
            created_at: r.created_at,
            user: ReviewerView {
                first_name: r.user_first_name,
                last_name: r.user_last_name,
            },
            reply: match (r.reply_message, r.reply_created_at) {
                (Some(message), Some(created_at)) => Some(ReviewReplyView { message, created_at }),
                _ => None,
            },
        }
    }
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct TestimonialView {
    pub id: Uuid,
    /// Whole stars, 4 or 5
    pub rating: i32,
    pub comment: String,
    /// The reviewer's first name and the initial of their last name, e.g. "Sam K."
    pub reviewer_name: String,
    pub mentor_id: Uuid,
    pub mentor_name: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct HighlightsView {
    /// Active mentors with at least one service
    pub mentor_count: i64,
    /// Average hourly rate of paid one-to-one services, decimal string; null when there are none
    #[oai(nullable)]
    pub average_hourly_rate: Option<String>,
    /// Average of all reviews, two decimals; null before the first review
    #[oai(nullable)]
    pub average_rating: Option<String>,
    pub review_count: i64,
    pub completed_sessions: i64,
    pub testimonials: Vec<TestimonialView>,
}

impl From<Testimonial> for TestimonialView {
    fn from(t: Testimonial) -> Self {
        let initial = t
            .reviewer_last_name
            .chars()
            .next()
            .map(|c| format!(" {c}."))
            .unwrap_or_default();
        Self {
            id: t.id,
            rating: t.rating as i32,
            comment: t.comment,
            reviewer_name: format!("{}{initial}", t.reviewer_first_name),
            mentor_id: t.mentor_id,
            mentor_name: t.mentor_name,
            created_at: t.created_at,
        }
    }
}

impl From<Highlights> for HighlightsView {
    fn from(h: Highlights) -> Self {
        Self {
            mentor_count: h.mentor_count,
            average_hourly_rate: h.average_hourly_cents.map(money::format),
            average_rating: h.average_rating,
            review_count: h.review_count,
            completed_sessions: h.completed_sessions,
            testimonials: h.testimonials.into_iter().map(Into::into).collect(),
        }
    }
}
