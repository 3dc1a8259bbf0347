//! The call evidence of a one-to-one session: every call between its two parties around it, whether or
//! not the call named the booking. A no-show shows when the seeker placed at least one call from 10
//! minutes before the start until the complaint, and the mentor placed none and answered none from 10
//! minutes before the start until 15 minutes after it.

use chrono::{DateTime, Duration, Utc};
use sqlx::{FromRow, PgConnection};
use uuid::Uuid;

use super::NO_SHOW_WAIT;
use crate::{Result, calls::CallStatus};

/// Calls count from this long before the start.
pub const BEFORE_START: Duration = Duration::minutes(10);

/// One call between the two parties.
#[derive(Clone, Debug, FromRow, PartialEq, Eq)]
pub struct EvidenceCall {
    pub id: Uuid,
    pub booking_id: Option<Uuid>,
    pub caller_id: Uuid,
    pub callee_id: Uuid,
    pub status: CallStatus,
    pub created_at: DateTime<Utc>,
    pub answered_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
}

/// Every call between `a` and `b`, either way, placed from `from` to `to`, oldest first.
pub async fn calls_between(
    conn: &mut PgConnection,
    a: Uuid,
    b: Uuid,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<EvidenceCall>> {
    Ok(sqlx::query_as!(
        EvidenceCall,
        r#"SELECT id, booking_id, caller_id, callee_id, status AS "status: CallStatus", created_at, answered_at, ended_at
           FROM calls
           WHERE ((caller_id = $1 AND callee_id = $2) OR (caller_id = $2 AND callee_id = $1))
             AND (created_at BETWEEN $3 AND $4 OR answered_at BETWEEN $3 AND $4)
           ORDER BY created_at, id"#,
        a,
        b,
        from,
        to,
    )
    .fetch_all(&mut *conn)
    .await?)
}

/// Whether `calls` show that the mentor did not turn up for a session starting at `start`, judged when
/// the complaint came in at `complained_at`.
pub fn is_no_show(
    calls: &[EvidenceCall],
    seeker: Uuid,
    mentor: Uuid,
    start: DateTime<Utc>,
    complained_at: DateTime<Utc>,
) -> bool {
    let from = start - BEFORE_START;
    let mentor_until = start + NO_SHOW_WAIT;
    let seeker_called = calls.iter().any(|c| {
        c.caller_id == seeker && c.callee_id == mentor && c.created_at >= from && c.created_at <= complained_at
    });
    let mentor_showed = calls.iter().any(|c| {
        let placed =
            c.caller_id == mentor && c.callee_id == seeker && c.created_at >= from && c.created_at <= mentor_until;
        let answered = c.callee_id == mentor
            && c.caller_id == seeker
            && c.answered_at.is_some_and(|at| at >= from && at <= mentor_until);
        placed || answered
    });
    seeker_called && !mentor_showed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(minutes: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::minutes(minutes)
    }

    fn call(from: Uuid, to: Uuid, at: i64, answered: Option<i64>) -> EvidenceCall {
        EvidenceCall {
            id: Uuid::new_v4(),
            booking_id: None,
            caller_id: from,
            callee_id: to,
            status: CallStatus::Missed,
            created_at: t(at),
            answered_at: answered.map(t),
            ended_at: None,
        }
    }

    #[test]
    fn the_seeker_called_and_the_mentor_never_did() {
        let (s, m) = (Uuid::new_v4(), Uuid::new_v4());
        let start = t(0);
        assert!(is_no_show(&[call(s, m, 2, None)], s, m, start, t(16)));
        assert!(
            is_no_show(&[call(s, m, -10, None)], s, m, start, t(16)),
            "10 minutes before counts"
        );
        assert!(
            !is_no_show(&[call(s, m, -11, None)], s, m, start, t(16)),
            "11 minutes before does not"
        );
        assert!(!is_no_show(&[], s, m, start, t(16)), "no call from the seeker");
        assert!(
            !is_no_show(&[call(s, m, 17, None)], s, m, start, t(16)),
            "after the complaint"
        );
    }

    #[test]
    fn any_call_or_answer_of_the_mentor_in_time_is_a_show() {
        let (s, m) = (Uuid::new_v4(), Uuid::new_v4());
        let start = t(0);
        assert!(!is_no_show(
            &[call(s, m, 2, None), call(m, s, 15, None)],
            s,
            m,
            start,
            t(20)
        ));
        assert!(
            is_no_show(&[call(s, m, 2, None), call(m, s, 16, None)], s, m, start, t(20)),
            "too late"
        );
        assert!(!is_no_show(&[call(s, m, 2, Some(3))], s, m, start, t(20)), "answered");
        assert!(
            is_no_show(&[call(s, m, 2, None), call(s, m, 14, Some(16))], s, m, start, t(20)),
            "answered late"
        );
        assert!(!is_no_show(
            &[call(s, m, 2, None), call(m, s, -10, None)],
            s,
            m,
            start,
            t(20)
        ));
    }
}
