import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Megaphone } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { createAnnouncement } from '@/api/endpoints/admin/admin';
import { Audience, type AnnouncementRequest } from '@/api/model';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';
import { adminKeys, adminQueries } from './api';
import { formatDateTime } from '@/lib/format';

export const MAX_TITLE = 100;
export const MAX_MESSAGE = 1000;
/** While an announcement is being delivered its count is read again this often. */
export const DELIVERY_POLL_MS = 2_000;
export const ANNOUNCEMENT_QUEUED = 'Announcement queued';

const AUDIENCE_LABELS: Record<Audience, string> = {
  all: 'Everyone',
  seekers: 'Seekers',
  mentors: 'Mentors',
};
const AUDIENCES = Object.values(Audience).map((value) => ({ value, label: AUDIENCE_LABELS[value] }));

/** Send a system announcement to every active user of an audience; see each one's delivery. */
export function AnnouncementsTab() {
  const queryClient = useQueryClient();
  const ids = { audience: useId(), title: useId(), message: useId() };
  const [form, setForm] = useState<AnnouncementRequest>({ audience: 'all', title: '', message: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const list = useQuery({
    ...adminQueries.announcements(),
    refetchInterval: (q) => (q.state.data?.some((a) => !a.completedAt) ? DELIVERY_POLL_MS : false),
  });
  const send = useMutation({
    mutationFn: (body: AnnouncementRequest) => createAnnouncement(body),
    onSuccess: () => {
      toast.success(ANNOUNCEMENT_QUEUED, { description: 'Every user of the audience gets it in a moment.' });
      setForm({ audience: form.audience, title: '', message: '' });
    },
    onError: (error) => setProblem(errorMessage(error, 'Failed to send the announcement')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.announcements() }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const title = (form.title ?? '').trim();
    const message = (form.message ?? '').trim();
    if (!title || title.length > MAX_TITLE) return setProblem('Title must be 1 to 100 characters');
    if (!message || message.length > MAX_MESSAGE) return setProblem('Message must be 1 to 1000 characters');
    setProblem(null);
    send.mutate({ audience: form.audience, title, message });
  };
  const announcements = list.data ?? [];
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card className="p-5">
        <h2 className="font-semibold text-slate-900">New announcement</h2>
        <form noValidate onSubmit={submit} className="mt-4 space-y-4">
          <div className="space-y-1">
            <label htmlFor={ids.audience} className="text-sm font-medium text-slate-700">
              Audience
            </label>
            <select
              id={ids.audience}
              className="w-full rounded-md border border-slate-300 bg-white px-3 py-2"
              value={form.audience}
              onChange={(e) => setForm({ ...form, audience: e.target.value as Audience })}
            >
              {AUDIENCES.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <label htmlFor={ids.title} className="text-sm font-medium text-slate-700">
              Title
            </label>
            <input
              id={ids.title}
              className="w-full rounded-md border border-slate-300 px-3 py-2"
              maxLength={MAX_TITLE}
              value={form.title}
              onChange={(e) => setForm({ ...form, title: e.target.value })}
            />
          </div>
          <div className="space-y-1">
            <label htmlFor={ids.message} className="text-sm font-medium text-slate-700">
              Message
            </label>
            <textarea
              id={ids.message}
              className="min-h-28 w-full rounded-md border border-slate-300 px-3 py-2"
              maxLength={MAX_MESSAGE}
              value={form.message}
              onChange={(e) => setForm({ ...form, message: e.target.value })}
            />
          </div>
          {problem && (
            <p role="alert" className="text-sm text-rose-600">
              {problem}
            </p>
          )}
          <Button type="submit" disabled={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send announcement'}
          </Button>
        </form>
      </Card>
      <div className="space-y-3">
        {list.isLoading ? (
          <Spinner />
        ) : announcements.length === 0 ? (
          <StateCard as="h2" icon={Megaphone} title="No announcements yet" />
        ) : (
          <ul className="space-y-3">
            {announcements.map((a) => (
              <li key={a.id}>
                <Card className="p-4" role="article" aria-label={`Announcement ${a.title}`}>
                  <p className="text-xs font-medium uppercase tracking-wide text-indigo-700">
                    {AUDIENCES.find((x) => x.value === a.audience)?.label ?? a.audience} · {formatDateTime(a.createdAt)}
                  </p>
                  <h3 className="mt-1 font-semibold text-slate-900">{a.title}</h3>
                  <p className="mt-1 whitespace-pre-wrap text-sm text-slate-700">{a.message}</p>
                  <p className="mt-2 text-sm text-slate-600">
                    Delivered to {a.deliveredCount.toLocaleString('en-US')} users
                    {a.completedAt ? '' : ' so far…'}
                  </p>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
