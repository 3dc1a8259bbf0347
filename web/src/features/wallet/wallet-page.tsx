import { CircleAlert, Wallet as WalletIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-fetch';
import { formatDate } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useTopUp, useWallet } from './api';

export const WALLET_EMPTY = 'No entries yet';
/** The top-up limits (docs/instant-readings.md). */
export const MIN_TOP_UP = 10;
export const MAX_TOP_UP = 500;

const KIND_LABELS: Record<string, string> = {
  top_up: 'Top-up',
  session_charge: 'Reading minute',
  refund: 'Refund to card',
  adjustment: 'Adjustment',
};

type TopUpForm = {
  amount: string;
  cardNumber: string;
  expiry: string;
  cardCode: string;
  firstName: string;
  lastName: string;
  zip: string;
};
const EMPTY_FORM: TopUpForm = {
  amount: '20.00',
  cardNumber: '',
  expiry: '',
  cardCode: '',
  firstName: '',
  lastName: '',
  zip: '',
};

/** /wallet: the prepaid balance, its entries (newest first) and a top-up by card. */
export function WalletPage() {
  useDocumentTitle('Wallet');
  const wallet = useWallet();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900">Wallet</h1>
      <p className="mt-2 text-sm text-slate-600">Readings now are paid by the minute from this balance.</p>
      <Card className="mt-6 p-6">
        <p className="text-sm text-slate-600">Balance</p>
        <p className="text-3xl font-semibold text-slate-900" aria-label="Balance">
          {wallet.data ? formatUsd(wallet.data.balance) : '…'}
        </p>
      </Card>
      <TopUpCard />
      <h2 className="mt-10 text-xl font-semibold text-slate-900">Entries</h2>
      <div className="mt-4 space-y-3">
        {wallet.isLoading ? (
          <Skeleton className="h-16" />
        ) : wallet.isError ? (
          <StateCard as="h3" tone="error" icon={CircleAlert} title="Unable to load your wallet">
            {errorMessage(wallet.error, 'Please try again in a moment.')}
          </StateCard>
        ) : !wallet.data?.entries.length ? (
          <StateCard as="h3" icon={WalletIcon} title={WALLET_EMPTY}>
            Top up to start a reading.
          </StateCard>
        ) : (
          <ul className="space-y-2" aria-label="Wallet entries">
            {wallet.data.entries.map((e) => (
              <li key={e.id}>
                <Card className="flex items-center justify-between p-4">
                  <div>
                    <p className="font-medium text-slate-900">{KIND_LABELS[e.kind] ?? e.kind}</p>
                    <p className="text-sm text-slate-600">{formatDate(e.createdAt)}</p>
                  </div>
                  <span
                    className={
                      e.amount.startsWith('-') ? 'font-semibold text-slate-900' : 'font-semibold text-emerald-700'
                    }
                  >
                    {e.amount.startsWith('-') ? `-${formatUsd(e.amount.slice(1))}` : `+${formatUsd(e.amount)}`}
                  </span>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** The top-up form: one clientRequestId per attempt, so a double submit charges once. */
export function TopUpCard() {
  const topUp = useTopUp();
  const [form, setForm] = useState<TopUpForm>(EMPTY_FORM);
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const [result, setResult] = useState<string | null>(null);
  const set = (field: keyof TopUpForm) => (value: string) => {
    setForm({ ...form, [field]: value });
    setRequestId(crypto.randomUUID());
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    topUp.mutate(
      {
        amount: form.amount,
        cardNumber: form.cardNumber.replace(/\s/g, ''),
        expirationDate: form.expiry.replace(/\D/g, ''),
        cardCode: form.cardCode,
        billingInfo: { firstName: form.firstName, lastName: form.lastName, zip: form.zip },
        clientRequestId: requestId,
      },
      {
        onSuccess: (r) =>
          setResult(r.success ? `Topped up: your balance is ${formatUsd(r.balance)}.` : (r.error ?? r.message)),
        onError: (error) => setResult(errorMessage(error, 'The top-up did not go through.')),
      },
    );
  };
  return (
    <Card className="mt-6 p-6">
      <form onSubmit={submit} aria-label="Top up" className="space-y-4">
        <h2 className="text-lg font-semibold text-slate-900">Top up</h2>
        <FormField
          label="Amount"
          name="amount"
          inputMode="decimal"
          hint={`${formatUsd(MIN_TOP_UP)} to ${formatUsd(MAX_TOP_UP)}; a balance holds at most $1,000.00`}
          value={form.amount}
          onChange={(e) => set('amount')(e.target.value)}
        />
        <FormField
          label="Card Number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          value={form.cardNumber}
          onChange={(e) => set('cardNumber')(e.target.value)}
        />
        <div className="grid grid-cols-2 gap-4">
          <FormField
            label="Expiry Date"
            name="expirationDate"
            placeholder="MM/YY"
            value={form.expiry}
            onChange={(e) => set('expiry')(e.target.value)}
          />
          <FormField
            label="Security Code"
            name="cardCode"
            inputMode="numeric"
            value={form.cardCode}
            onChange={(e) => set('cardCode')(e.target.value)}
          />
        </div>
        <div className="grid grid-cols-3 gap-4">
          <FormField
            label="First Name"
            name="firstName"
            value={form.firstName}
            onChange={(e) => set('firstName')(e.target.value)}
          />
          <FormField
            label="Last Name"
            name="lastName"
            value={form.lastName}
            onChange={(e) => set('lastName')(e.target.value)}
          />
          <FormField label="ZIP Code" name="zip" value={form.zip} onChange={(e) => set('zip')(e.target.value)} />
        </div>
        <Button type="submit" disabled={topUp.isPending}>
          {topUp.isPending ? 'Processing…' : `Add ${formatUsd(form.amount)}`}
        </Button>
        {result && (
          <p role="status" className="text-sm text-slate-700">
            {result}
          </p>
        )}
      </form>
    </Card>
  );
}

export default WalletPage;
