import { useState } from 'react';
import { toast } from 'sonner';
import type { Role, UserView } from '@/api/model';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { Select } from '@/components/ui/select';
import { Table, Td } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-fetch';
import { formatDate } from '@/lib/format';
import { ADMIN_TEXT as TEXT } from './admin-text';
import { ActiveBadge, Loading, useFailureToast } from './admin-ui';
import { useAdminUsers, useSetUserStatus } from './api';

const ROLE_LABELS: Record<Role, string> = { user: 'Member', mentor: 'Mentor', admin: 'Administrator' };
const ROLE_FILTERS: Record<Role, string> = { user: 'Members', mentor: 'Mentors', admin: 'Administrators' };
const isRole = (v: string): v is Role => v in ROLE_FILTERS;

/** Users by role and status; an admin activates or deactivates them (never themself). */
export function UsersTab({ me }: { me: UserView }) {
  const [role, setRole] = useState<Role | ''>('');
  const [active, setActive] = useState('');
  const users = useAdminUsers({ ...(role ? { role } : {}), ...(active ? { isActive: active } : {}) }, true);
  useFailureToast(users.isError, users.error, TEXT.usersFailed);
  const setStatus = useSetUserStatus();

  const toggle = (u: UserView) =>
    setStatus.mutate(
      { id: u.id, isActive: !u.isActive },
      {
        onSuccess: (updated) =>
          toast.success(updated.isActive ? TEXT.activated : TEXT.deactivated, {
            description: `${updated.firstName} ${updated.lastName} (${updated.email})`,
          }),
        onError: (error) => toast.error(TEXT.statusFailed, { description: errorMessage(error, 'Please try again.') }),
      },
    );
  const busyId = setStatus.isPending ? setStatus.variables?.id : undefined;

  return (
    <section aria-label="Users" className="space-y-4">
      <div className="flex flex-wrap gap-4">
        <label className="w-48 text-sm font-medium text-slate-700">
          Role
          <Select className="mt-1" value={role} onChange={(e) => setRole(isRole(e.target.value) ? e.target.value : '')}>
            <option value="">All roles</option>
            {Object.entries(ROLE_FILTERS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </label>
        <label className="w-48 text-sm font-medium text-slate-700">
          Status
          <Select className="mt-1" value={active} onChange={(e) => setActive(e.target.value)}>
            <option value="">All</option>
            <option value="true">Active</option>
            <option value="false">Inactive</option>
          </Select>
        </label>
      </div>
      {users.isLoading ? (
        <Loading label="Loading users" />
      ) : users.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {TEXT.usersFailed}
        </p>
      ) : !users.data?.length ? (
        <p role="status" className="text-sm text-slate-600">
          No users match these filters.
        </p>
      ) : (
        <Table label="Users" columns={['Name', 'Email', 'Role', 'Status', 'Joined', 'Action']}>
          {users.data.map((u) => {
            const self = u.id === me.id;
            return (
              <tr key={u.id} aria-label={`${u.firstName} ${u.lastName}`}>
                <Td className="font-medium text-slate-900">
                  {u.firstName} {u.lastName}
                  {self && <span className="ml-1 text-xs text-slate-500">(you)</span>}
                </Td>
                <Td>{u.email}</Td>
                <Td>{ROLE_LABELS[u.role] ?? u.role}</Td>
                <Td>
                  <ActiveBadge active={u.isActive} />
                  {u.deletionScheduledAt && (
                    <span className="ml-1 block text-xs text-rose-700">
                      Deletion scheduled for {formatDate(u.deletionScheduledAt)}
                    </span>
                  )}
                </Td>
                <Td>{formatDate(u.createdAt)}</Td>
                <Td>
                  {u.isActive ? (
                    <Tooltip content={self ? TEXT.cannotDeactivateSelf : null} wrapDisabled={self}>
                      <Button
                        size="sm"
                        variant="outline"
                        className="border-rose-200 text-rose-700 hover:border-rose-300 hover:bg-rose-50"
                        disabled={self || busyId === u.id}
                        aria-label={`Deactivate ${u.email}`}
                        onClick={() => toggle(u)}
                      >
                        Deactivate
                      </Button>
                    </Tooltip>
                  ) : (
                    <Button
                      size="sm"
                      disabled={busyId === u.id}
                      aria-label={`Activate ${u.email}`}
                      onClick={() => toggle(u)}
                    >
                      Activate
                    </Button>
                  )}
                </Td>
              </tr>
            );
          })}
        </Table>
      )}
    </section>
  );
}
