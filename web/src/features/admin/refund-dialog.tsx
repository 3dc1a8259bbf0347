import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { refundBooking } from '@/api/endpoints/admin/admin';
import type { AdminBookingView } from '@/api/model';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-fetch';
import { formatUsd } from '@/lib/money';
import { adminKeys } from './api';

/** An admin's goodwill refund of a paid booking: an amount (at most what is left) and a reason. */
export function RefundDialog({ booking, onClose }: { booking: AdminBookingView | null; onClose: () => void }) {
  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Refund booking"
      description={
        booking
          ? `${booking.service.title} for ${booking.user.firstName} ${booking.user.lastName}, paid ${formatUsd(booking.totalAmount)}.`
          : undefined
      }
    >
      {booking && <RefundForm key={booking.id} booking={booking} onDone={onClose} />}
    </Dialog>
  );
}

function RefundForm({ booking, onDone }: { booking: AdminBookingView; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const refund = useMutation({
    mutationFn: () => refundBooking(booking.id, { amount: amount.trim(), reason: reason.trim() }),
    onSuccess: (r) => {
      toast.success('Refund issued', { description: `${formatUsd(r.refund.amount)} goes back to the seeker's card.` });
      onDone();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.bookings() }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    refund.mutate();
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <label className="block text-sm text-slate-700">
        Amount ($)
        <input
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-1.5"
          inputMode="decimal"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </label>
      <label className="block text-sm text-slate-700">
        Reason
        <textarea
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-1.5"
          maxLength={1000}
          required
          rows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      {refund.isError && <Alert variant="error">{errorMessage(refund.error, 'Failed to refund')}</Alert>}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Close
        </Button>
        <Button type="submit" disabled={refund.isPending || !amount.trim() || !reason.trim()}>
          Refund
        </Button>
      </div>
    </form>
  );
}
