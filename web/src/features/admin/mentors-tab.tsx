import { useState } from 'react';
import type { AdminMentorView, ApprovalStatus } from '@/api/model';
import { Select } from '@/components/ui/select';
import { Table, Td } from '@/components/ui/table';
import { formatUsd } from '@/lib/money';
import { ADMIN_TEXT as TEXT } from './admin-text';
import { ActiveBadge, Loading, useFailureToast } from './admin-ui';
import { useAdminMentors } from './api';
import { APPROVAL_STATUSES, ApprovalBadge, VettingActions } from './mentor-vetting';

/** Every mentor with figures and approval status; pending ones are approved or rejected here. */
export function MentorsTab() {
  const [approval, setApproval] = useState<ApprovalStatus | ''>('');
  const mentors = useAdminMentors(true, approval ? { approvalStatus: approval } : {});
  useFailureToast(mentors.isError, mentors.error, TEXT.mentorsFailed);
  return (
    <section aria-label="Mentors" className="space-y-4">
      <label className="block w-56 text-sm font-medium text-slate-700">
        Approval
        <Select className="mt-1" value={approval} onChange={(e) => setApproval(e.target.value as ApprovalStatus | '')}>
          <option value="">All mentors</option>
          {APPROVAL_STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
      </label>
      <MentorsTable mentors={mentors} filtered={approval !== ''} />
    </section>
  );
}

/** Every mentor with figures and approval status; pending ones are approved or rejected here. */
export function MentorsTable({
  mentors,
  filtered,
}: {
  mentors: ReturnType<typeof useAdminMentors>;
  filtered: boolean;
}) {
  if (mentors.isLoading) return <Loading label="Loading mentors" />;
  if (mentors.isError)
    return (
      <p role="alert" className="text-sm text-rose-700">
        {TEXT.mentorsFailed}
      </p>
    );
  if (!mentors.data?.length)
    return (
      <p role="status" className="text-sm text-slate-600">
        {filtered ? 'No mentors match this filter.' : 'No mentors yet.'}
      </p>
    );
  return (
    <Table
      label="Mentors"
      columns={[
        'Mentor',
        'Approval',
        'Rating',
        'Sessions',
        'Bookings',
        'Revenue',
        'Services',
        'No-shows',
        'Status',
        'Action',
      ]}
    >
      {mentors.data.map((m: AdminMentorView) => (
        <tr key={m.id} aria-label={m.displayName}>
          <Td>
            <p className="font-medium text-slate-900">{m.displayName}</p>
            <p className="text-xs text-slate-500">
              {m.user.firstName} {m.user.lastName} · {m.user.email}
            </p>
          </Td>
          <Td>
            <ApprovalBadge status={m.approvalStatus} />
            {m.approvalStatus === 'rejected' && m.rejectionReason && (
              <p className="mt-1 max-w-xs text-xs text-slate-500">{m.rejectionReason}</p>
            )}
          </Td>
          <Td>{Number(m.rating).toFixed(2)}</Td>
          <Td>{m.totalSessions}</Td>
          <Td>{m.stats.totalBookings}</Td>
          <Td>{formatUsd(m.stats.totalRevenue)}</Td>
          <Td>{m.servicesCount}</Td>
          <Td>{m.noShowCount}</Td>
          <Td>
            <ActiveBadge active={m.isActive} />
          </Td>
          <Td>
            <VettingActions mentor={m} />
          </Td>
        </tr>
      ))}
    </Table>
  );
}
