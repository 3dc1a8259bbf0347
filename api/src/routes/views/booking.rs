//! Response shapes of bookings and reservations.

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use uuid::Uuid;

use domain::{booking::bookings::Booking, catalogue::vocabulary::ServiceType, money, payments::RefundStatus};

/// The booking status as the API names it (`BookingStatusView` in the OpenAPI document).
pub use domain::booking::BookingStatus as BookingStatusView;

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct BookingServiceView {
    pub id: Uuid,
    pub title: String,
    pub duration: i32,
    pub service_type: ServiceType,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct BookingUserView {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct BookingMentorView {
    pub id: Uuid,
    pub user_id: Uuid,
    pub display_name: String,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct BookingView {
    pub id: Uuid,
    pub status: BookingStatusView,
    pub scheduled_at: DateTime<Utc>,
    /// Minutes
    pub duration: i32,
    pub total_amount: String,
    #[oai(nullable)]
    pub notes: Option<String>,
    pub created_at: DateTime<Utc>,
    /// Whether the seeker has reviewed this session
    pub has_review: bool,
    /// The seeker's review of this session; null until they write one
    #[oai(nullable)]
    pub review: Option<BookingReviewView>,
    pub service: BookingServiceView,
    pub user: BookingUserView,
    pub mentor: BookingMentorView,
    /// What a cancellation refunds; null when there is none
    #[oai(nullable)]
    pub refund: Option<BookingRefundView>,
    /// The group session this booking is a seat of; null for a one-to-one booking
    #[oai(nullable)]
    pub group_session_id: Option<Uuid>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct BookingReviewView {
    /// 1 to 5
    pub rating: i32,
    #[oai(nullable)]
    pub comment: Option<String>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct BookingRefundView {
    /// 100, 50 or 0
    pub percentage: i32,
    pub amount: String,
    pub status: RefundStatus,
}

impl From<Booking> for BookingView {
    fn from(b: Booking) -> Self {
        Self {
            id: b.id,
            status: b.status,
            scheduled_at: b.scheduled_at,
            duration: b.duration_minutes,
            total_amount: money::format(b.total_cents),
            notes: b.notes,
            created_at: b.created_at,
            has_review: b.has_review,
            review: b.review_rating.map(|rating| BookingReviewView {
                rating: rating.into(),
                comment: b.review_comment.clone(),
            }),
            group_session_id: b.group_session_id,
            refund: match (b.refund_percentage, b.refund_cents, b.refund_status) {
                (Some(percentage), Some(cents), Some(status)) => Some(BookingRefundView {
                    percentage: percentage as i32,
                    amount: money::format(cents),
                    status,
                }),
                _ => None,
            },
            service: BookingServiceView {
                id: b.service_id,
                title: b.service_title,
                duration: b.duration_minutes,
                service_type: b.service_type,
            },
            user: BookingUserView {
                id: b.user_id,
                first_name: b.user_first_name,
                last_name: b.user_last_name,
            },
            mentor: BookingMentorView {
                id: b.mentor_id,
                user_id: b.mentor_user_id,
                display_name: b.mentor_display_name,
                profile_image_url: b.mentor_profile_image_url,
            },
        }
    }
}
