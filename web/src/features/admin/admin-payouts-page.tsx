import { CircleAlert, Copy, Download, History, Play, ShieldAlert, TriangleAlert, Wallet } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { Card } from '@/components/ui/card';
import { Table, Td } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FullPageSpinner, Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
import { useRoles } from '@/lib/auth';
import { formatUsd } from '@/lib/money';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { HeldPayouts } from './held-payouts';
import {
  EXPORT_CSV_URL,
  payoutSummary,
  recipientOf,
  useMarkPaid,
  usePayoutHistory,
  usePendingPayouts,
  useRunBatch,
  type PayoutHistoryItem,
  type PendingPayout,
} from './payouts-api';
import { formatDate } from '@/lib/format';

export const ACCESS_DENIED_TITLE = 'Access Denied';
export const ACCESS_DENIED_TEXT = "You don't have permission to access admin payouts.";
export const CONFIRM_TEXT = 'Please confirm that you have sent the payment to this mentor.';
export const PROCESS_FAILED = 'Failed to process payout';
export const NO_PREFERENCES_WARNING = 'This mentor has not set payout preferences yet.';
/** Why 'Mark as Paid' is disabled when the mentor chose a method without an account to pay into. */
export const NO_DESTINATION_WARNING =
  'This mentor has no payout destination (no PayPal, Venmo or Zelle account): ask them to add one before paying.';

/** 'Across 1 mentor', 'Across 2 mentors'. */
export function acrossMentorsText(count: number): string {
  return `Across ${count} ${count === 1 ? 'mentor' : 'mentors'}`;
}

const METHOD_LABELS: Record<string, string> = { paypal: 'PayPal', venmo: 'Venmo', zelle: 'Zelle', manual: 'Manual' };
const methodLabel = (m: string | null | undefined) => (m ? (METHOD_LABELS[m] ?? m) : '—');
const dateText = (iso: string) => formatDate(iso);

export function AdminPayoutsPage() {
  useDocumentTitle('Admin Payouts');
  const { user, isAdmin } = useRoles();
  if (!user) return <FullPageSpinner />;
  if (!isAdmin) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <StateCard as="h1" tone="error" icon={ShieldAlert} title={ACCESS_DENIED_TITLE}>
          {ACCESS_DENIED_TEXT}
        </StateCard>
      </div>
    );
  }
  return <Payouts />;
}

function Payouts() {
  const [tab, setTab] = useState('pending');
  const run = useRunBatch();
  const pending = usePendingPayouts(true, run.pollUntil);
  const history = usePayoutHistory(true);
  const [paying, setPaying] = useState<PendingPayout | null>(null);
  const list = pending.data ?? [];
  const summary = payoutSummary(list);

  const runNow = () =>
    run.mutate(undefined, {
      onSuccess: (r) =>
        toast.success(r.message, { description: 'New payouts appear here once the worker has built them.' }),
      onError: (error) =>
        toast.error('Error', { description: errorMessage(error, 'Failed to queue the payout batch') }),
    });

  return (
    <div className="bg-slate-50/60">
      <section className="border-b border-slate-200/70 bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-10 sm:flex-row sm:items-end sm:justify-between sm:px-6 lg:px-8">
          <div>
            <p className="text-sm font-medium text-indigo-700">Admin</p>
            <h1 className="mt-1 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
              Mentor Payouts
            </h1>
            <p className="mt-2 text-slate-600">Weekly payouts: send each mentor their earnings, then mark them paid.</p>
          </div>
          <div className="flex flex-wrap gap-3">
            <Button asChild variant="outline">
              <a href={EXPORT_CSV_URL} download>
                <Download aria-hidden="true" className="h-4 w-4" />
                Export CSV
              </a>
            </Button>
            <Button onClick={runNow} disabled={run.isPending}>
              <Play aria-hidden="true" className="h-4 w-4" />
              {run.isPending ? 'Queueing...' : 'Run payout batch now'}
            </Button>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <dl className="grid gap-4 sm:grid-cols-3">
          <SummaryCard
            label="Total Pending"
            value={formatUsd(summary.totalPending)}
            note={acrossMentorsText(summary.mentors)}
          />
          <SummaryCard label="Mentors with Earnings" value={String(summary.mentors)} note="Ready for payout" />
          <SummaryCard label="Total Bookings" value={String(summary.bookings)} note="Unpaid bookings" />
        </dl>

        <HeldPayouts />

        <Tabs value={tab} onValueChange={setTab} className="mt-8">
          <TabsList aria-label="Payouts">
            <TabsTrigger value="pending">Pending Payouts ({list.length})</TabsTrigger>
            <TabsTrigger value="history">Payout History</TabsTrigger>
          </TabsList>
          <TabsContent value="pending">
            {pending.isLoading ? (
              <Spinner />
            ) : pending.isError ? (
              <StateCard as="h2" tone="error" icon={CircleAlert} title="Unable to load pending payouts">
                {errorMessage(pending.error, 'Please try again in a moment.')}
              </StateCard>
            ) : list.length === 0 ? (
              <StateCard as="h2" icon={Wallet} title="No pending payouts at this time" />
            ) : (
              <ul className="grid gap-5 lg:grid-cols-2">
                {list.map((p) => (
                  <li key={p.id}>
                    <PendingCard payout={p} onMarkPaid={() => setPaying(p)} />
                  </li>
                ))}
              </ul>
            )}
          </TabsContent>
          <TabsContent value="history">
            <HistoryList items={history.data} loading={history.isLoading} failed={history.isError} />
          </TabsContent>
        </Tabs>
      </div>
      <ConfirmDialog payout={paying} onClose={() => setPaying(null)} />
    </div>
  );
}

function SummaryCard({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <Card className="p-5">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-2">
        <span className="font-display text-2xl font-semibold text-slate-900">{value}</span>
        <span className="mt-0.5 block text-xs text-slate-500">{note}</span>
      </dd>
    </Card>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Without clipboard permission: the old way, through a selected text field.
      const field = document.createElement('textarea');
      field.value = text;
      document.body.appendChild(field);
      field.select();
      document.execCommand('copy');
      field.remove();
    }
    setCopied(true);
    window.setTimeout(() => setCopied(false), 2_000);
  };
  return (
    <Button variant="outline" size="sm" onClick={() => void copy()} aria-label={copied ? 'Copied!' : `Copy ${text}`}>
      <Copy aria-hidden="true" className="h-4 w-4" />
      {copied ? 'Copied!' : 'Copy'}
    </Button>
  );
}

function PendingCard({ payout: p, onMarkPaid }: { payout: PendingPayout; onMarkPaid: () => void }) {
  const recipient = recipientOf(p);
  const prefs = p.payoutPreferences;
  const reasonId = `payout-${p.id}-no-destination`;
  return (
    <Card className="flex h-full flex-col p-6" aria-label={`Payout for ${p.mentor.displayName}`} role="article">
      <h3 className="text-lg font-semibold text-slate-900">{p.mentor.displayName}</h3>
      <p className="text-sm text-slate-600">
        {p.mentor.user.firstName} {p.mentor.user.lastName} · {p.mentor.user.email}
      </p>
      <dl className="mt-4 space-y-2 text-sm">
        <Row label="Bookings" value={String(p.bookingCount)} />
        <Row label="Total amount" value={formatUsd(p.pendingAmount)} />
        <Row label="Platform fee (15%)" value={`−${formatUsd(p.platformFee)}`} tone="text-rose-700" />
        <div className="flex items-center justify-between gap-3 border-t border-slate-100 pt-2">
          <dt className="font-semibold text-slate-900">Mentor receives</dt>
          <dd className="font-display text-lg font-semibold text-emerald-700">{formatUsd(p.mentorNet)}</dd>
        </div>
      </dl>
      {prefs && recipient ? (
        <div className="mt-4 flex items-center justify-between gap-3 rounded-lg bg-slate-50 p-3 text-sm">
          <div>
            <p className="font-medium text-slate-900">{methodLabel(prefs.method)}</p>
            <p className="break-all text-slate-600" data-testid="recipient">
              {recipient}
            </p>
          </div>
          <CopyButton text={recipient} />
        </div>
      ) : (
        <p
          role="status"
          id={reasonId}
          className="mt-4 flex items-center gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-800"
        >
          <TriangleAlert aria-hidden="true" className="h-4 w-4 shrink-0" />
          {prefs ? NO_DESTINATION_WARNING : NO_PREFERENCES_WARNING}
        </p>
      )}
      <div className="mt-auto flex justify-end pt-4">
        {/* Nothing to pay into: the button stays, disabled, and says why. */}
        <Tooltip content={recipient ? null : prefs ? NO_DESTINATION_WARNING : NO_PREFERENCES_WARNING} wrapDisabled>
          <Button onClick={onMarkPaid} disabled={!recipient} aria-describedby={recipient ? undefined : reasonId}>
            Mark as Paid
          </Button>
        </Tooltip>
      </div>
    </Card>
  );
}

function Row({ label, value, tone = 'text-slate-900' }: { label: string; value: string; tone?: string }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-slate-600">{label}</dt>
      <dd className={cn('font-medium', tone)}>{value}</dd>
    </div>
  );
}

function ConfirmDialog({ payout, onClose }: { payout: PendingPayout | null; onClose: () => void }) {
  const [notes, setNotes] = useState('');
  const markPaid = useMarkPaid();
  const close = () => {
    setNotes('');
    onClose();
  };
  const confirm = () => {
    if (!payout) return;
    const recipient = recipientOf(payout);
    markPaid.mutate(
      {
        mentorId: payout.mentorId,
        bookingIds: payout.bookingIds,
        method: payout.payoutPreferences?.method,
        recipientInfo: recipient,
        ...(notes.trim() ? { notes: notes.trim() } : {}),
      },
      {
        onSuccess: (r) => {
          toast.success('Payout processed', { description: r.message });
          close();
        },
        onError: (error) => toast.error('Error', { description: errorMessage(error, PROCESS_FAILED) }),
      },
    );
  };
  return (
    <Dialog
      open={payout !== null}
      onOpenChange={(open) => !open && close()}
      title="Confirm Payout"
      description={CONFIRM_TEXT}
    >
      {payout && (
        <div className="space-y-4">
          <dl className="space-y-2 rounded-lg bg-slate-50 p-4 text-sm">
            <Row label="Mentor" value={payout.mentor.displayName} />
            <Row label="Amount" value={formatUsd(payout.mentorNet)} />
            <Row label="Method" value={methodLabel(payout.payoutPreferences?.method)} />
            <Row label="Recipient" value={recipientOf(payout) ?? '—'} />
          </dl>
          <Field label="Notes (optional)">
            {(control) => (
              <Textarea
                {...control}
                rows={3}
                placeholder="Transaction ID or confirmation number"
                value={notes}
                onChange={(e) => setNotes(e.target.value)}
                disabled={markPaid.isPending}
              />
            )}
          </Field>
          <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
            <Button variant="outline" onClick={close} disabled={markPaid.isPending}>
              Cancel
            </Button>
            <Button onClick={confirm} disabled={markPaid.isPending}>
              {markPaid.isPending ? 'Processing...' : 'Confirm Payment Sent'}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function HistoryList({
  items,
  loading,
  failed,
}: {
  items: PayoutHistoryItem[] | undefined;
  loading: boolean;
  failed: boolean;
}) {
  if (loading) return <Spinner />;
  if (failed || !items) {
    return (
      <StateCard as="h2" tone="error" icon={CircleAlert} title="Unable to load the payout history">
        Please try again in a moment.
      </StateCard>
    );
  }
  if (items.length === 0) return <StateCard as="h2" icon={History} title="No payout history yet" />;
  return (
    <Table
      label="Payout history"
      columns={['Mentor', 'Method', 'Recipient', { label: 'Amount', className: 'text-right' }, 'Paid']}
    >
      {items.map((h) => (
        <tr key={h.id}>
          <Td className="font-medium text-slate-900">{h.mentor.displayName}</Td>
          <Td>{methodLabel(h.method)}</Td>
          <Td className="break-all">{h.recipientInfo ?? '—'}</Td>
          <Td className="text-right font-medium">{formatUsd(h.mentorAmount)}</Td>
          <Td>{dateText(h.paidAt ?? h.createdAt)}</Td>
        </tr>
      ))}
    </Table>
  );
}

export default AdminPayoutsPage;
