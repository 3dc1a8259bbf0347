import { CircleAlert, History, Wallet } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
import { formatUsd } from '@/lib/money';
import {
  useMentorEarnings,
  usePayoutPreferences,
  useSavePayoutPreferences,
  type PayoutPreferences,
} from './payouts-api';
import {
  DEFAULT_MINIMUM_PAYOUT,
  PAYOUT_METHODS,
  SAVE_FAILED,
  SAVED_DESCRIPTION,
  SAVED_TITLE,
  VALIDATION_ERROR,
  payoutRequest,
  validatePayoutForm,
  type PayoutForm,
  type PayoutMethod,
} from './payout-settings';
import { formatDate } from '@/lib/format';

const METHOD_LABELS: Record<string, string> = { paypal: 'PayPal', venmo: 'Venmo', zelle: 'Zelle', manual: 'Manual' };

/** The Payouts tab: what the mentor has earned and the payout settings form. */
export function PayoutsTab() {
  const preferences = usePayoutPreferences();
  return (
    <section aria-labelledby="payouts-heading" className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <Card className="p-6 sm:p-8">
        <h2 id="payouts-heading" className="font-display text-2xl font-semibold text-slate-900">
          Payout Settings
        </h2>
        <p className="text-sm text-slate-600">
          How and from which amount on we send your earnings. Payouts are made weekly.
        </p>
        {preferences.isLoading ? (
          <div className="mt-6 space-y-4">
            <Skeleton className="h-11 w-full" />
            <Skeleton className="h-11 w-full" />
            <Skeleton className="h-11 w-full" />
          </div>
        ) : preferences.isError ? (
          <StateCard
            as="h3"
            className="mt-6"
            tone="error"
            icon={CircleAlert}
            title="Unable to load your payout settings"
          >
            Please try again in a moment.
          </StateCard>
        ) : (
          <PayoutSettingsForm saved={preferences.data} />
        )}
      </Card>
      <EarningsSummary />
    </section>
  );
}

function initialForm(saved: PayoutPreferences | undefined): PayoutForm {
  return {
    method: (saved?.method as PayoutMethod | null | undefined) ?? '',
    paypalEmail: saved?.paypalEmail ?? '',
    venmoUsername: saved?.venmoUsername ?? '',
    zelleEmail: saved?.zelleEmail ?? '',
    minimumPayout: saved?.minimumPayout ?? DEFAULT_MINIMUM_PAYOUT,
    notes: saved?.notes ?? '',
  };
}

function PayoutSettingsForm({ saved }: { saved: PayoutPreferences | undefined }) {
  const [form, setForm] = useState<PayoutForm>(() => initialForm(saved));
  const save = useSavePayoutPreferences();
  const set = (patch: Partial<PayoutForm>) => setForm((f) => ({ ...f, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = validatePayoutForm(form);
    if (problem) {
      toast.error(VALIDATION_ERROR, { description: problem });
      return;
    }
    save.mutate(payoutRequest(form), {
      onSuccess: () => toast.success(SAVED_TITLE, { description: SAVED_DESCRIPTION }),
      onError: (error) => toast.error('Error', { description: errorMessage(error, SAVE_FAILED) }),
    });
  };

  return (
    <form noValidate onSubmit={submit} className="mt-6 space-y-5">
      <Field label="Payout Method">
        {(control) => (
          <Select
            {...control}
            value={form.method}
            onChange={(e) => set({ method: e.target.value as PayoutMethod | '' })}
            disabled={save.isPending}
          >
            <option value="">Select a payout method</option>
            {PAYOUT_METHODS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {form.method === 'paypal' && (
        <FormField
          label="PayPal Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={form.paypalEmail}
          onChange={(e) => set({ paypalEmail: e.target.value })}
          disabled={save.isPending}
        />
      )}
      {form.method === 'venmo' && (
        <FormField
          label="Venmo Username"
          placeholder="@username"
          hint="Include the @ at the start of your username."
          value={form.venmoUsername}
          onChange={(e) => set({ venmoUsername: e.target.value })}
          disabled={save.isPending}
        />
      )}
      {form.method === 'zelle' && (
        <FormField
          label="Zelle Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={form.zelleEmail}
          onChange={(e) => set({ zelleEmail: e.target.value })}
          disabled={save.isPending}
        />
      )}
      <FormField
        label="Minimum Payout (USD)"
        type="number"
        inputMode="decimal"
        min={0}
        step="0.01"
        hint="Earnings below this amount roll over to the next weekly payout."
        value={form.minimumPayout}
        onChange={(e) => set({ minimumPayout: e.target.value })}
        disabled={save.isPending}
      />
      <Field label="Notes (optional)">
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            placeholder="Anything the payout team should know"
            value={form.notes}
            onChange={(e) => set({ notes: e.target.value })}
            disabled={save.isPending}
          />
        )}
      </Field>
      <div className="flex justify-end border-t border-slate-100 pt-4">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Payout Settings'}
        </Button>
      </div>
    </form>
  );
}

/** What is waiting, what accrues for the next batch, and the payouts sent (GET /api/mentor/earnings). */
export function EarningsSummary() {
  const earnings = useMentorEarnings();
  const e = earnings.data;
  return (
    <Card role="region" aria-labelledby="payout-earnings-heading" className="h-fit p-6">
      <div className="flex items-center justify-between gap-2">
        <h2 id="payout-earnings-heading" className="text-lg font-semibold text-slate-900">
          Your Earnings
        </h2>
        <Wallet aria-hidden="true" className="h-5 w-5 text-emerald-600" />
      </div>
      {earnings.isLoading ? (
        <div className="mt-4 space-y-2">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-full" />
        </div>
      ) : !e ? (
        <p className="mt-4 text-sm text-slate-500">Earnings are unavailable right now.</p>
      ) : (
        <>
          <dl className="mt-4 space-y-3 text-sm">
            <div>
              <dt className="text-slate-600">Pending payout</dt>
              <dd className="font-display text-2xl font-semibold text-emerald-700" data-testid="pending-payout">
                {formatUsd(e.pending.mentorNet)}
              </dd>
              <dd className="text-xs text-slate-500">
                {e.pending.bookingCount} {e.pending.bookingCount === 1 ? 'session' : 'sessions'}:{' '}
                {formatUsd(e.pending.pendingAmount)} less the platform fee of {formatUsd(e.pending.platformFee)}
              </dd>
            </div>
            <div className="border-t border-slate-100 pt-3">
              <dt className="text-slate-600">Accruing for the next payout</dt>
              <dd className="font-semibold text-slate-900" data-testid="next-payout">
                {formatUsd(e.nextPayout.mentorNet)}
              </dd>
              <dd className="text-xs text-slate-500">
                {e.nextPayout.bookingCount} completed {e.nextPayout.bookingCount === 1 ? 'session' : 'sessions'}; paid
                once it reaches {formatUsd(e.minimumPayout)}
              </dd>
            </div>
          </dl>
          <h3 className="mt-5 flex items-center gap-2 text-sm font-semibold text-slate-900">
            <History aria-hidden="true" className="h-4 w-4 text-indigo-500" />
            Payout History
          </h3>
          {e.history.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">No payouts yet</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100 text-sm">
              {e.history.map((h) => (
                <li key={h.id} className="flex items-center justify-between gap-3 py-2">
                  <span className="text-slate-600">
                    {formatDate(h.paidAt)}
                    {h.method ? ` · ${METHOD_LABELS[h.method] ?? h.method}` : ''}
                  </span>
                  <span className="font-medium text-slate-900">{formatUsd(h.mentorAmount)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}
