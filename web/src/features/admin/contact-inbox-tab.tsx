import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { markContactMessageAnswered } from '@/api/endpoints/admin/admin';
import type { ContactMessageView, ListContactMessagesParams } from '@/api/model';
import { StatusFilteredList } from '@/components/status-filtered-list';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-fetch';
import { adminKeys, adminQueries } from './api';
import { formatDateTime } from '@/lib/format';

export const INBOX_EMPTY = 'No messages here';
export const MARKED_ANSWERED = 'Marked as answered';

type Status = NonNullable<ListContactMessagesParams['status']>;

/** GET /api/admin/contact-messages?status= (newest first). */
function useContactMessages(status: Status) {
  return useQuery(adminQueries.contactMessages({ status }));
}

/** POST /api/admin/contact-messages/{id}/answered; both lists are read again. */
function useMarkAnswered() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => markContactMessageAnswered(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.contactMessages() }),
  });
}

const sentAt = (iso: string) => formatDateTime(iso);

/** The contact form's messages (reports of issues among them): open ones wait for an admin's answer. */
export function ContactInboxTab() {
  const [status, setStatus] = useState<Status>('open');
  return (
    <StatusFilteredList
      status={status}
      statuses={[
        { value: 'open', label: 'Open' },
        { value: 'answered', label: 'Answered' },
      ]}
      onStatusChange={setStatus}
      query={useContactMessages(status)}
      icon={Inbox}
      errorTitle="Unable to load messages"
      emptyTitle={INBOX_EMPTY}
      renderItem={(m) => <MessageCard message={m} />}
    />
  );
}

function MessageCard({ message: m }: { message: ContactMessageView }) {
  const mark = useMarkAnswered();
  const answer = () =>
    mark.mutate(m.id, {
      onSuccess: () => toast.success(MARKED_ANSWERED),
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'Please try again.') }),
    });
  return (
    <Card className="p-5" aria-label={`Message from ${m.name}`} role="article">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-indigo-700">{m.categoryLabel}</p>
          <h3 className="mt-1 font-semibold text-slate-900">{m.subject || '(no subject)'}</h3>
          <p className="text-sm text-slate-600">
            {m.name} · <a href={`mailto:${m.email}`}>{m.email}</a> · {sentAt(m.createdAt)}
          </p>
        </div>
        {m.status === 'open' && (
          <Button size="sm" variant="outline" onClick={answer} disabled={mark.isPending}>
            Mark as answered
          </Button>
        )}
      </div>
      <p className="mt-3 whitespace-pre-wrap text-sm text-slate-800">{m.message}</p>
    </Card>
  );
}
