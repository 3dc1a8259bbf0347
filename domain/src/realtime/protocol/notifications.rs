//! Live notifications.

opaque!(
    /// A notification, the object `GET /api/notifications` lists.
    NotificationView => "NotificationView"
);
