import { CreditCard, Lock } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { CARD_CODE_MAX_DIGITS, CARD_EXPIRY_LENGTH } from '@/features/booking/card';
import { formatUsd } from '@/lib/money';
import {
  expiryProblem,
  formatCardCode,
  formatCardNumber,
  formatExpiry,
  isCardFormValid,
  type CardForm as CardFormValues,
} from '../card';

type CardFormProps = {
  value: CardFormValues;
  onChange: (value: CardFormValues) => void;
  onSubmit: () => void;
  /** The amount the Pay button names. */
  amount: string;
  processing: boolean;
};

const optional = <span className="text-xs text-slate-500">Optional</span>;

/**
 * Card form: the card number is grouped by four as it is typed, the expiry becomes MM/YY,
 * the security code keeps 3-4 digits; the Pay button waits for a valid form and is off while paying.
 */
export function CardForm({ value, onChange, onSubmit, amount, processing }: CardFormProps) {
  const set = (field: keyof CardFormValues) => (text: string) => onChange({ ...value, [field]: text });
  const valid = isCardFormValid(value);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid && !processing) onSubmit();
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Card payment" className="space-y-6">
      <fieldset className="space-y-4" disabled={processing}>
        <legend className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <CreditCard aria-hidden="true" className="h-4 w-4 text-indigo-600" />
          Card details
        </legend>
        <FormField
          label="Card Number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="0000 0000 0000 0000"
          value={value.cardNumber}
          onChange={(e) => set('cardNumber')(formatCardNumber(e.target.value))}
          required
        />
        <div className="grid grid-cols-2 gap-4">
          <FormField
            label="Expiry Date"
            name="expirationDate"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            maxLength={CARD_EXPIRY_LENGTH}
            value={value.expirationDate}
            onChange={(e) => set('expirationDate')(formatExpiry(e.target.value))}
            error={expiryProblem(value.expirationDate) ?? undefined}
            required
          />
          <FormField
            label="Security Code"
            name="cardCode"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CVC"
            maxLength={CARD_CODE_MAX_DIGITS}
            value={value.cardCode}
            onChange={(e) => set('cardCode')(formatCardCode(e.target.value))}
            required
          />
        </div>
      </fieldset>

      <fieldset className="space-y-4" disabled={processing}>
        <legend className="text-sm font-semibold text-slate-900">Billing address</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="First Name"
            name="firstName"
            autoComplete="cc-given-name"
            value={value.firstName}
            onChange={(e) => set('firstName')(e.target.value)}
            required
          />
          <FormField
            label="Last Name"
            name="lastName"
            autoComplete="cc-family-name"
            value={value.lastName}
            onChange={(e) => set('lastName')(e.target.value)}
            required
          />
        </div>
        <FormField
          label="Address"
          name="address"
          autoComplete="address-line1"
          labelAside={optional}
          value={value.address}
          onChange={(e) => set('address')(e.target.value)}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField
            label="City"
            name="city"
            autoComplete="address-level2"
            labelAside={optional}
            value={value.city}
            onChange={(e) => set('city')(e.target.value)}
          />
          <FormField
            label="State"
            name="state"
            autoComplete="address-level1"
            labelAside={optional}
            value={value.state}
            onChange={(e) => set('state')(e.target.value)}
          />
          <FormField
            label="ZIP Code"
            name="zip"
            autoComplete="postal-code"
            value={value.zip}
            onChange={(e) => set('zip')(e.target.value)}
            required
          />
        </div>
      </fieldset>

      <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={!valid || processing}>
        <Lock aria-hidden="true" className="h-4 w-4" />
        {processing ? 'Processing...' : `Pay ${formatUsd(amount)}`}
      </Button>
    </form>
  );
}
