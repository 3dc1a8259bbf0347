import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { endSession, revokeOtherSessions } from '@/api/endpoints/accounts/accounts';
import type { SessionView } from '@/api/model';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-fetch';
import { sessionKeys, sessionQueries } from './api';

// Where am I signed in: GET /api/user/sessions, DELETE /api/user/sessions/{id}, POST .../revoke-others.

/** 'Firefox on Linux' from a User-Agent; the header itself when nothing known is in it. */
export function browserName(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browsers: [string, string][] = [
    ['Edg/', 'Edge'],
    ['OPR/', 'Opera'],
    ['Firefox/', 'Firefox'],
    ['Chrome/', 'Chrome'],
    ['Safari/', 'Safari'],
  ];
  const systems: [string, string][] = [
    ['Android', 'Android'],
    ['iPhone', 'iPhone'],
    ['iPad', 'iPad'],
    ['Windows', 'Windows'],
    ['Mac OS X', 'macOS'],
    ['CrOS', 'ChromeOS'],
    ['Linux', 'Linux'],
  ];
  const browser = browsers.find(([mark]) => ua.includes(mark))?.[1];
  const system = systems.find(([mark]) => ua.includes(mark))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  return ua.trim() || 'Unknown browser';
}

const when = (iso: string) => new Date(iso).toLocaleString();

/** The account's sessions, each with 'Sign out' (but this one), and 'Sign out other devices'. */
export function SessionList() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionQueries.list());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: sessionKeys.all() });
  const end = useMutation({
    mutationFn: (id: string) => endSession(id),
    onSuccess: (r) => toast.success(r.message),
    onError: (e) => toast.error(errorMessage(e, 'Could not sign out that device')),
    onSettled: refresh,
  });
  const others = useMutation({
    mutationFn: () => revokeOtherSessions(),
    onSuccess: (r) => toast.success(r.message),
    onError: (e) => toast.error(errorMessage(e, 'Could not sign out the other devices')),
    onSettled: refresh,
  });

  if (sessions.isLoading) return <p className="text-sm text-slate-600">Loading your sessions…</p>;
  if (!sessions.data) return <p className="text-sm text-slate-600">Your sessions could not be loaded.</p>;
  const list: SessionView[] = sessions.data;
  return (
    <div className="space-y-3">
      <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Signed-in devices">
        {list.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
            <div className="text-sm">
              <p className="font-medium text-slate-900">
                {browserName(s.userAgent)}
                {s.current && <span className="ml-2 text-xs font-medium text-emerald-700">This device</span>}
              </p>
              <p className="text-slate-600">
                {s.address ?? 'Unknown address'} · signed in {when(s.createdAt)} · last active {when(s.lastSeenAt)}
              </p>
            </div>
            {!s.current && (
              <Button
                variant="outline"
                size="sm"
                disabled={end.isPending}
                onClick={() => end.mutate(s.id)}
                aria-label={`Sign out ${browserName(s.userAgent)} at ${s.address ?? 'unknown address'}`}
              >
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
      {list.some((s) => !s.current) && (
        <Button variant="outline" size="sm" disabled={others.isPending} onClick={() => others.mutate()}>
          Sign out other devices
        </Button>
      )}
    </div>
  );
}
