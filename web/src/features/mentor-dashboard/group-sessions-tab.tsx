import { CalendarDays, Clock, Plus, Users } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { GroupSessionView } from '@/api/model';
import { StateCard } from '@/components/state-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
import type { Mentor } from '@/lib/catalogue';
import {
  cardDate,
  cardTime,
  EMPTY_GROUP_SESSION_FORM,
  GROUP_SESSION_SIZE,
  GROUP_SESSION_TEXT,
  MENTOR_ACTION_LABELS,
  mentorActions,
  validateGroupSession,
  type GroupSessionForm,
  type GroupSessionFormErrors,
  type MentorAction,
} from '@/lib/group-sessions';
import { useCreateGroupSession, useMentorGroupSessions, useUpdateGroupSession } from '@/lib/group-sessions-api';
import { formatUsd, isFree } from '@/lib/money';
import { hardNavigate } from '@/lib/navigation';
import { useNow } from '@/lib/use-now';

/** The zone the browser reads a date and time in (the form's value is local time). */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const STATUS_LABELS: Record<string, string> = {
  scheduled: 'Scheduled',
  active: 'Live',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** The mentor dashboard's Group Sessions tab: the mentor's sessions and Create Group Session. */
export function GroupSessionsTab({ mentor }: { mentor: Mentor }) {
  const sessions = useMentorGroupSessions();
  const [creating, setCreating] = useState(false);
  const groupServices = (mentor.services ?? []).filter((s) => s.isGroupSession && s.isActive);

  return (
    <section aria-labelledby="group-sessions-heading" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="group-sessions-heading" className="font-display text-2xl font-semibold text-slate-900">
            Group Sessions
          </h2>
          <p className="text-sm text-slate-600">
            Schedule sessions of your group services; seekers join them from the{' '}
            <Link to="/group-sessions" className="font-medium text-indigo-700 hover:text-indigo-900">
              Group Sessions
            </Link>{' '}
            page.
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Create Group Session
        </Button>
      </div>
      {sessions.isLoading ? (
        <Spinner label="Loading group sessions" />
      ) : sessions.isError ? (
        <Alert variant="error">{errorMessage(sessions.error, GROUP_SESSION_TEXT.fetchFailed)}</Alert>
      ) : !sessions.data?.length ? (
        <StateCard icon={Users} title={GROUP_SESSION_TEXT.mentorEmpty}>
          Create a group session from one of your group services and seekers can join it.
        </StateCard>
      ) : (
        <ul aria-label="Your group sessions" className="grid gap-4 md:grid-cols-2">
          {sessions.data.map((s) => (
            <li key={s.id}>
              <MentorSessionCard session={s} />
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={creating}
        onOpenChange={setCreating}
        title="Create Group Session"
        description="Seekers can join until it starts."
      >
        {creating && <CreateGroupSessionForm services={groupServices} onDone={() => setCreating(false)} />}
      </Dialog>
    </section>
  );
}

function MentorSessionCard({ session }: { session: GroupSessionView }) {
  const now = useNow();
  const update = useUpdateGroupSession();
  const actions = mentorActions(session, now);

  const run = (action: MentorAction) => {
    if (action === 'join-active') {
      hardNavigate(`/group-video-call/${session.id}`);
      return;
    }
    if (
      action === 'cancel' &&
      !window.confirm('Cancel this group session? Every paid participant is refunded in full.')
    )
      return;
    if (action === 'end' && !window.confirm('End this session for everyone? Every participant leaves the call.'))
      return;
    const status = action === 'start' ? 'active' : action === 'end' ? 'completed' : 'cancelled';
    update.mutate(
      { id: session.id, status },
      {
        onSuccess: () => {
          if (action === 'start') hardNavigate(`/group-video-call/${session.id}`);
          else toast.success(action === 'end' ? 'Group Session Ended' : 'Group session cancelled');
        },
        onError: (error) => toast.error('Error', { description: errorMessage(error, GROUP_SESSION_TEXT.updateFailed) }),
      },
    );
  };

  return (
    <Card className="flex h-full flex-col p-5" aria-labelledby={`mentor-group-session-${session.id}`}>
      <div className="flex items-start justify-between gap-3">
        <h3 id={`mentor-group-session-${session.id}`} className="text-lg font-semibold text-slate-900">
          {session.title}
        </h3>
        <span className="shrink-0 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
          {STATUS_LABELS[session.status] ?? session.status}
        </span>
      </div>
      <p className="text-sm text-slate-500">{session.service.title}</p>
      {session.description && <p className="mt-2 line-clamp-2 text-sm text-slate-600">{session.description}</p>}
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm text-slate-700">
        <div className="flex items-center gap-2">
          <CalendarDays aria-hidden="true" className="h-4 w-4 text-slate-400" />
          <dt className="sr-only">Date</dt>
          <dd>{cardDate(session.scheduledAt)}</dd>
        </div>
        <div className="flex items-center gap-2">
          <Clock aria-hidden="true" className="h-4 w-4 text-slate-400" />
          <dt className="sr-only">Time</dt>
          <dd>
            {cardTime(session.scheduledAt)} · {session.service.duration} min
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <Users aria-hidden="true" className="h-4 w-4 text-slate-400" />
          <dt className="sr-only">Participants</dt>
          <dd>
            {session.currentParticipants}/{session.maxParticipants} participants
          </dd>
        </div>
        <div>
          <dt className="sr-only">Price</dt>
          <dd className="font-semibold">{isFree(session.service.price) ? 'Free' : formatUsd(session.service.price)}</dd>
        </div>
      </dl>
      {actions.length > 0 && (
        <div className="mt-auto flex flex-wrap gap-2 pt-4">
          {actions.map((a) => (
            <Button
              key={a}
              size="sm"
              variant={a === 'cancel' || a === 'end' ? 'outline' : 'primary'}
              disabled={update.isPending}
              onClick={() => run(a)}
            >
              {MENTOR_ACTION_LABELS[a]}
            </Button>
          ))}
        </div>
      )}
    </Card>
  );
}

function CreateGroupSessionForm({ services, onDone }: { services: Mentor['services']; onDone: () => void }) {
  const create = useCreateGroupSession();
  // A mentor with one group service has nothing to choose: it is selected.
  const only = services?.length === 1 ? services[0].id : '';
  const [form, setForm] = useState<GroupSessionForm>({ ...EMPTY_GROUP_SESSION_FORM, serviceId: only });
  const [errors, setErrors] = useState<GroupSessionFormErrors>({});
  const change = (patch: Partial<GroupSessionForm>) => setForm((f) => ({ ...f, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateGroupSession(form, new Date());
    setErrors(found);
    if (Object.keys(found).length) return;
    create.mutate(
      {
        serviceId: form.serviceId,
        title: form.title.trim(),
        description: form.description.trim(),
        scheduledAt: new Date(form.scheduledAt).toISOString(),
        maxParticipants: Number(form.maxParticipants),
      },
      {
        onSuccess: (s) => {
          toast.success('Group session created', {
            description: `${s.title}: ${cardDate(s.scheduledAt)} at ${cardTime(s.scheduledAt)}`,
          });
          onDone();
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5" aria-label="Create Group Session">
      {create.isError && <Alert variant="error">{errorMessage(create.error, GROUP_SESSION_TEXT.createFailed)}</Alert>}
      {(services ?? []).length === 0 && (
        <Alert variant="info">
          You have no active group service yet: create one in the Services tab (type Group) first.
        </Alert>
      )}
      <Field label="Service" error={errors.serviceId}>
        {(control) => (
          <Select
            {...control}
            required
            value={form.serviceId}
            disabled={create.isPending}
            onChange={(e) => change({ serviceId: e.target.value })}
          >
            <option value="" disabled>
              Select a group service
            </option>
            {(services ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.title} ({s.duration} min)
              </option>
            ))}
          </Select>
        )}
      </Field>
      <FormField
        label="Title"
        name="title"
        value={form.title}
        error={errors.title}
        disabled={create.isPending}
        onChange={(e) => change({ title: e.target.value })}
        required
      />
      <Field label="Description">
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            value={form.description}
            disabled={create.isPending}
            onChange={(e) => change({ description: e.target.value })}
          />
        )}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          label="Date and Time"
          name="scheduledAt"
          type="datetime-local"
          value={form.scheduledAt}
          error={errors.scheduledAt}
          disabled={create.isPending}
          onChange={(e) => change({ scheduledAt: e.target.value })}
          hint={`In your time zone (${browserTimeZone()})`}
          required
        />
        <FormField
          label="Max Participants"
          name="maxParticipants"
          type="number"
          min={GROUP_SESSION_SIZE.min}
          max={GROUP_SESSION_SIZE.max}
          step={1}
          value={form.maxParticipants}
          error={errors.maxParticipants}
          disabled={create.isPending}
          onChange={(e) => change({ maxParticipants: e.target.value })}
        />
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
        <Button variant="outline" onClick={onDone} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create Session'}
        </Button>
      </div>
    </form>
  );
}
