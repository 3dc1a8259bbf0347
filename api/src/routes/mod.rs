//! HTTP handlers grouped by area; each area is one poem-openapi `OpenApi` impl.

mod account_data;
mod accounts;
mod admin;
mod amount;
mod availability;
mod availability_overrides;
mod booking;
mod calendar_connection;
mod calendars;
mod cluster_state;
mod complaints;
mod contact;
mod conversations;
mod dashboard;
mod email_link;
mod favorites;
mod group_calls;
mod group_sessions;
mod health;
mod mentor_bookings;
mod mentors;
mod notifications;
mod passwords;
mod payments;
mod payouts;
mod presence;
mod profiles;
mod push;
mod readings;
mod reports;
mod rtc;
mod security;
mod services;
mod site_info;
mod unsubscribe;
mod wallet;

pub use mentors::public_mentor;

use poem_openapi::{OpenApiService, Tags};

#[derive(Tags)]
pub enum Tag {
    /// Liveness and the platform's public settings
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
    /// Contact form and reports of abuse
    Support,
    /// Mentors' weekly availability
    Availability,
    /// Calendar feeds and the mentors' own calendars
    Calendars,
    /// Slots, reservations and payment
    Booking,
    /// In-app notifications and Web Push
    Notifications,
    /// Client and mentor dashboards: bookings after they are made
    Dashboard,
    /// Conversations, messages and call set-up
    Messaging,
    /// The admin console: platform figures, users, mentors and bookings
    Admin,
    /// Mentors' payout preferences and earnings, and the admins' payouts
    Payouts,
    /// The prepaid balance (its ledger, top-ups and refunds) and instant readings paid from it
    Wallet,
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
    use super::{
        availability::AvailabilityApi, availability_overrides::AvailabilityOverridesApi,
        calendar_connection::CalendarConnectionApi, calendars::CalendarsApi,
    };

    pub(super) type AvailabilityApis = (
        AvailabilityApi,
        AvailabilityOverridesApi,
        CalendarsApi,
        CalendarConnectionApi,
    );
    #[allow(non_upper_case_globals)]
    pub(super) const AvailabilityApis: AvailabilityApis = (
        AvailabilityApi,
        AvailabilityOverridesApi,
        CalendarsApi,
        CalendarConnectionApi,
    );
}

/// Reservations and their payment, and the prepaid balance, as one entry.
mod booking_apis {
    use super::{booking::BookingApi, payments::PaymentsApi, readings::ReadingsApi, wallet::WalletApi};

    pub(super) type BookingApis = (BookingApi, PaymentsApi, WalletApi, ReadingsApi);
    #[allow(non_upper_case_globals)]
    pub(super) const BookingApis: BookingApis = (BookingApi, PaymentsApi, WalletApi, ReadingsApi);
}

/// After-booking views of both sides (with complaints, receipts and review replies), as one entry.
mod dashboard_apis {
    use super::{complaints::ComplaintsApi, dashboard::DashboardApi, mentor_bookings::MentorBookingsApi};

    pub(super) type DashboardApis = (DashboardApi, MentorBookingsApi, ComplaintsApi);
    #[allow(non_upper_case_globals)]
    pub(super) const DashboardApis: DashboardApis = (DashboardApi, MentorBookingsApi, ComplaintsApi);
}

/// Conversations and the one-to-one call set-up (ICE servers), as one entry.
mod messaging_apis {
    use super::{conversations::ConversationsApi, rtc::RtcApi};

    pub(super) type MessagingApis = (ConversationsApi, RtcApi);
    #[allow(non_upper_case_globals)]
    pub(super) const MessagingApis: MessagingApis = (ConversationsApi, RtcApi);
}

/// Group sessions and entering their calls, as one entry.
mod group_session_apis {
    use super::{group_calls::GroupCallsApi, group_sessions::GroupSessionsApi};

    pub(super) type GroupSessionApis = (GroupSessionsApi, GroupCallsApi);
    #[allow(non_upper_case_globals)]
    pub(super) const GroupSessionApis: GroupSessionApis = (GroupSessionsApi, GroupCallsApi);
}

/// In-app notifications and Web Push, as one entry.
mod notification_apis {
    use super::{notifications::NotificationsApi, push::PushApi};

    pub(super) type NotificationApis = (NotificationsApi, PushApi);
    #[allow(non_upper_case_globals)]
    pub(super) const NotificationApis: NotificationApis = (NotificationsApi, PushApi);
}

/// A mentor's payout preferences and earnings, and the admins' payouts, as one entry.
mod payouts_apis {
    use super::payouts::{AdminPayoutsApi, MentorPayoutsApi};

    pub(super) type PayoutsApis = (MentorPayoutsApi, AdminPayoutsApi);
    #[allow(non_upper_case_globals)]
    pub(super) const PayoutsApis: PayoutsApis = (MentorPayoutsApi, AdminPayoutsApi);
}

/// Mentor profiles and browsing, and mentors' presence, as one entry.
mod mentor_apis {
    use super::{mentors::MentorsApi, presence::PresenceApi};

    pub(super) type MentorApis = (MentorsApi, PresenceApi);
    #[allow(non_upper_case_globals)]
    pub(super) const MentorApis: MentorApis = (MentorsApi, PresenceApi);
}

/// Liveness and the platform's public settings, as one entry.
mod platform_apis {
    use super::{health::HealthApi, site_info::SiteInfoApi};

    pub(super) type PlatformApis = (HealthApi, SiteInfoApi);
    #[allow(non_upper_case_globals)]
    pub(super) const PlatformApis: PlatformApis = (HealthApi, SiteInfoApi);
}

/// The admin console's areas, as one entry.
mod admin_apis {
    use super::{
        admin::{
            AdminApi, announcements::AdminAnnouncementsApi, contact_messages::AdminContactApi, jobs::AdminJobsApi,
        },
        complaints::AdminComplaintsApi,
        reports::AdminReportsApi,
    };

    pub(super) type AdminApis = (
        AdminApi,
        AdminContactApi,
        AdminAnnouncementsApi,
        AdminReportsApi,
        AdminJobsApi,
        AdminComplaintsApi,
    );
    #[allow(non_upper_case_globals)]
    pub(super) const AdminApis: AdminApis = (
        AdminApi,
        AdminContactApi,
        AdminAnnouncementsApi,
        AdminReportsApi,
        AdminJobsApi,
        AdminComplaintsApi,
    );
}

/// Signing in and out, and the account's privacy and security, as one entry.
mod account_apis {
    use super::{account_data::AccountDataApi, accounts::AccountsApi, security::SecurityApi};

    pub(super) type AccountApis = (AccountsApi, SecurityApi, AccountDataApi);
    #[allow(non_upper_case_globals)]
    pub(super) const AccountApis: AccountApis = (AccountsApi, SecurityApi, AccountDataApi);
}

/// Links from e-mails that act without a session: password resets and one-click unsubscribes.
mod email_link_apis {
    use super::{passwords::PasswordsApi, unsubscribe::UnsubscribeApi};

    pub(super) type EmailLinkApis = (PasswordsApi, UnsubscribeApi);
    #[allow(non_upper_case_globals)]
    pub(super) const EmailLinkApis: EmailLinkApis = (PasswordsApi, UnsubscribeApi);
}

/// Reaching the platform: the contact form and reports of abuse, as one entry.
mod contact_apis {
    use super::{contact::ContactApi, reports::ReportsApi};

    pub(super) type ContactApis = (ContactApi, ReportsApi);
    #[allow(non_upper_case_globals)]
    pub(super) const ContactApis: ContactApis = (ContactApi, ReportsApi);
}

apis!(
    platform_apis::PlatformApis,
    account_apis::AccountApis,
    email_link_apis::EmailLinkApis,
    mentor_apis::MentorApis,
    services::ServicesApi,
    favorites::FavoritesApi,
    profiles::ProfilesApi,
    contact_apis::ContactApis,
    availability_apis::AvailabilityApis,
    booking_apis::BookingApis,
    notification_apis::NotificationApis,
    dashboard_apis::DashboardApis,
    messaging_apis::MessagingApis,
    admin_apis::AdminApis,
    payouts_apis::PayoutsApis,
    group_session_apis::GroupSessionApis,
);

pub fn service() -> OpenApiService<Apis, ()> {
    OpenApiService::new(all_apis(), "Mystic Mentors API", env!("CARGO_PKG_VERSION"))
}
