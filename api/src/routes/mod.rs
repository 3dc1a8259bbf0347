//! HTTP handlers grouped by area; each area is one poem-openapi `OpenApi` impl.

mod accounts;
mod admin;
mod amount;
mod availability;
mod availability_overrides;
mod booking;
mod contact;
mod conversations;
mod dashboard;
mod favorites;
mod group_calls;
mod health;
mod mentor_bookings;
mod mentors;
mod notifications;
mod passwords;
mod payments;
mod profiles;
mod rtc;
mod services;
pub mod views;

use poem_openapi::{OpenApiService, Tags};

#[derive(Tags)]
pub enum Tag {
    /// Liveness
    Health,
    /// Registration, sign-in, sessions and e-mail verification
    Accounts,
    /// Forgotten and changed passwords
    Passwords,
    /// Mentor profiles, browsing and search
    Mentors,
    /// Mentors' services and the service grid
    Services,
    /// Favourite mentors
    Favorites,
    /// User profiles and images
    Profiles,
    /// Contact form
    Support,
    /// Mentors' weekly availability
    Availability,
    /// Slots, reservations and payment
    Booking,
    /// In-app notifications
    Notifications,
    /// Client and mentor dashboards: bookings after they are made
    Dashboard,
    /// Conversations, messages and call set-up
    Messaging,
    /// The admin console: platform figures, users, mentors and bookings
    Admin,
}

/// Every area's API, listed once: the service's type and its value.
macro_rules! apis {
    ($($api:path),+ $(,)?) => {
        pub type Apis = ($($api,)+);
        fn all_apis() -> Apis {
            ($($api,)+)
        }
    };
}

/// poem-openapi takes at most 16 APIs in one tuple: weekly windows and date overrides enter as
/// one (a tuple type and a value of the same name, as the `apis!` list needs both).
mod availability_apis {
    use super::{availability::AvailabilityApi, availability_overrides::AvailabilityOverridesApi};

    pub type AvailabilityApis = (AvailabilityApi, AvailabilityOverridesApi);
    #[allow(non_upper_case_globals)]
    pub const AvailabilityApis: AvailabilityApis = (AvailabilityApi, AvailabilityOverridesApi);
}

/// After-booking views of both sides, as one entry.
mod dashboard_apis {
    use super::{dashboard::DashboardApi, mentor_bookings::MentorBookingsApi};

    pub type DashboardApis = (DashboardApi, MentorBookingsApi);
    #[allow(non_upper_case_globals)]
    pub const DashboardApis: DashboardApis = (DashboardApi, MentorBookingsApi);
}

/// Conversations, the one-to-one call set-up (ICE servers) and entering group calls, as one entry.
mod messaging_apis {
    use super::{conversations::ConversationsApi, rtc::RtcApi};

    use super::group_calls::GroupCallsApi;

    pub type MessagingApis = (ConversationsApi, RtcApi, GroupCallsApi);
    #[allow(non_upper_case_globals)]
    pub const MessagingApis: MessagingApis = (ConversationsApi, RtcApi, GroupCallsApi);
}

apis!(
    health::HealthApi,
    accounts::AccountsApi,
    passwords::PasswordsApi,
    mentors::MentorsApi,
    services::ServicesApi,
    favorites::FavoritesApi,
    profiles::ProfilesApi,
    contact::ContactApi,
    availability_apis::AvailabilityApis,
    booking::BookingApi,
    payments::PaymentsApi,
    notifications::NotificationsApi,
    dashboard_apis::DashboardApis,
    messaging_apis::MessagingApis,
    admin::AdminApi,
);

pub fn service() -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        all_apis(),
        "Mystic Mentors API",
        env!("CARGO_PKG_VERSION"),
    )
}
