//! Response shapes of bookings and reservations.

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use uuid::Uuid;

use domain::{
    booking::bookings::{Booking, ComplaintEntry},
    catalogue::vocabulary::ServiceType,
    complaints::{Complaint, ComplaintReason, ComplaintStatus, Outcome},
    money,
    payments::{RefundReason, RefundStatus},
    statuses::{GroupStatus, RemovalReason},
};

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
    /// For a seat: its session's state, and whether the mentor removed the seeker (null for a one-to-one booking)
    #[oai(nullable)]
    pub group_session: Option<BookingGroupSessionView>,
    /// Every refund of the booking, oldest first (a cancellation's, a complaint's, an admin's...)
    pub refunds: Vec<RefundEntryView>,
    /// Refunded or being refunded so far, two decimals
    pub refunded_amount: String,
    /// The seeker's complaint about this session; null when there is none
    #[oai(nullable)]
    pub complaint: Option<ComplaintView>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct RefundEntryView {
    pub amount: String,
    pub reason: RefundReason,
    pub status: RefundStatus,
    pub created_at: DateTime<Utc>,
}

/// A complaint's decision.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ComplaintResolutionView {
    pub outcome: Outcome,
    /// What the decision refunded, two decimals ("0.00" without a refund)
    pub amount: String,
    pub note: String,
    pub decided_at: DateTime<Utc>,
    /// Settled by the call evidence, without an admin (a mentor's no-show)
    pub automatic: bool,
}

/// The mentor's answer to a complaint.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ComplaintResponseView {
    pub message: String,
    pub created_at: DateTime<Utc>,
}

/// A seeker's complaint about a session.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ComplaintView {
    pub id: Uuid,
    pub booking_id: Uuid,
    pub reason: ComplaintReason,
    #[oai(nullable)]
    pub details: Option<String>,
    /// open, resolved (with a refund) or rejected (no refund)
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    /// null while open
    #[oai(nullable)]
    pub resolution: Option<ComplaintResolutionView>,
    /// The mentor's answer; null until they give one
    #[oai(nullable)]
    pub response: Option<ComplaintResponseView>,
}

impl From<Complaint> for ComplaintView {
    fn from(c: Complaint) -> Self {
        Self {
            id: c.id,
            booking_id: c.booking_id,
            reason: c.reason,
            details: c.details,
            status: c.status,
            created_at: c.created_at,
            resolution: match (c.outcome, c.decided_at) {
                (Some(outcome), Some(decided_at)) => Some(ComplaintResolutionView {
                    outcome,
                    amount: money::format(c.outcome_cents.unwrap_or(0)),
                    note: c.note.unwrap_or_default(),
                    decided_at,
                    automatic: c.automatic,
                }),
                _ => None,
            },
            response: match (c.response_message, c.response_created_at) {
                (Some(message), Some(created_at)) => Some(ComplaintResponseView { message, created_at }),
                _ => None,
            },
        }
    }
}

impl ComplaintView {
    fn of_entry(booking_id: Uuid, c: ComplaintEntry) -> Self {
        Complaint {
            id: c.id,
            booking_id,
            user_id: Uuid::nil(),
            mentor_id: Uuid::nil(),
            reason: c.reason,
            details: c.details,
            status: c.status,
            created_at: c.created_at,
            outcome: c.outcome,
            outcome_cents: c.outcome_cents,
            note: c.note,
            decided_at: c.decided_at,
            automatic: c.automatic,
            response_message: c.response_message,
            response_created_at: c.response_created_at,
        }
        .into()
    }
}

/// What a seat's card shows of its group session, so a session that ended or a removed seat shows as such.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct BookingGroupSessionView {
    pub id: Uuid,
    pub status: GroupStatus,
    /// The mentor removed the seeker from the session's call
    pub is_user_removed: bool,
    /// Why (conduct: the seat stays paid; other: cancelled and refunded in full); null when not removed
    #[oai(nullable)]
    pub removal_reason: Option<RemovalReason>,
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
            refunds: b
                .refunds
                .0
                .iter()
                .map(|r| RefundEntryView {
                    amount: money::format(r.amount_cents),
                    reason: r.reason,
                    status: r.status,
                    created_at: r.created_at,
                })
                .collect(),
            refunded_amount: money::format(b.refunded_cents),
            complaint: b.complaint.map(|c| ComplaintView::of_entry(b.id, c.0)),
            group_session: match (b.group_session_id, b.group_session_status) {
                (Some(id), Some(status)) => Some(BookingGroupSessionView {
                    id,
                    status,
                    is_user_removed: b.removal_reason.is_some(),
                    removal_reason: b.removal_reason,
                }),
                _ => None,
            },
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
