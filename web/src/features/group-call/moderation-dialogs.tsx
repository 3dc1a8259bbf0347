import { useState } from 'react';
import type { RemovalReason } from '@/api/model';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatUsd, isFree } from '@/lib/money';
import { cn } from '@/lib/utils';

/** The texts of the mentor's two confirmations in the call. */
export const MODERATION_TEXT = {
  removeTitle: (name: string) => `Remove ${name}?`,
  removeDescription: 'They leave the call at once and cannot join this session again. Why are you removing them?',
  reasonLegend: 'Reason for the removal',
  conduct: 'Conduct',
  conductHelp: 'They broke the community guidelines. No refund: the seat stays paid, and they can complain to us.',
  other: 'Another reason',
  otherHelp: (price: string | undefined) =>
    price && !isFree(price)
      ? `Their seat is cancelled and refunded in full (${formatUsd(price)}).`
      : 'Their seat is cancelled (it was free, so there is nothing to refund).',
  keep: 'Keep in Session',
  remove: 'Remove Participant',
  endTitle: 'End this session for everyone?',
  endDescription: 'Every participant leaves the call and the session is completed. This cannot be undone.',
  keepSession: 'Keep Session',
  end: 'End Session',
} as const;

type RemoveDialogProps = {
  /** Who is being removed; the dialog is closed without one. */
  name: string | null;
  /** The seat's price ("0.00" is free), to say what a refund gives back; unknown while it loads. */
  price: string | undefined;
  onConfirm: (reason: RemovalReason) => void;
  onClose: () => void;
};

/**
 * The mentor confirms a removal and says why: `conduct` keeps the seat paid, `other` cancels it and
 * refunds it in full. Nothing is chosen for them, so the money is never decided by accident.
 */
export function RemoveParticipantDialog({ name, price, onConfirm, onClose }: RemoveDialogProps) {
  const [reason, setReason] = useState<RemovalReason | null>(null);
  const close = () => {
    setReason(null);
    onClose();
  };
  const options: { value: RemovalReason; label: string; help: string }[] = [
    { value: 'conduct', label: MODERATION_TEXT.conduct, help: MODERATION_TEXT.conductHelp },
    { value: 'other', label: MODERATION_TEXT.other, help: MODERATION_TEXT.otherHelp(price) },
  ];
  return (
    <Dialog
      open={name !== null}
      onOpenChange={(open) => !open && close()}
      title={MODERATION_TEXT.removeTitle(name ?? '')}
      description={MODERATION_TEXT.removeDescription}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason) return;
          onConfirm(reason);
          close();
        }}
        className="space-y-5"
      >
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-900">{MODERATION_TEXT.reasonLegend}</legend>
          {options.map((o) => (
            <label
              key={o.value}
              className={cn(
                'flex cursor-pointer gap-3 rounded-lg border px-3 py-2.5 text-sm',
                reason === o.value ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 hover:border-indigo-300',
              )}
            >
              <input
                type="radio"
                name="removal-reason"
                value={o.value}
                checked={reason === o.value}
                onChange={() => setReason(o.value)}
                className="mt-0.5 h-4 w-4 accent-indigo-600"
                aria-describedby={`removal-reason-${o.value}`}
              />
              <span>
                <span className="font-medium text-slate-900">{o.label}</span>
                <span id={`removal-reason-${o.value}`} className="block text-slate-600">
                  {o.help}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
          <Button type="button" variant="outline" onClick={close}>
            {MODERATION_TEXT.keep}
          </Button>
          <Button type="submit" variant="destructive" disabled={!reason}>
            {MODERATION_TEXT.remove}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The mentor confirms ending the session for everyone. */
export function EndSessionDialog({
  open,
  onConfirm,
  onClose,
}: {
  open: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={MODERATION_TEXT.endTitle}
      description={MODERATION_TEXT.endDescription}
    >
      <div className="flex justify-end gap-3">
        <Button variant="outline" onClick={onClose}>
          {MODERATION_TEXT.keepSession}
        </Button>
        <Button
          variant="destructive"
          onClick={() => {
            onConfirm();
            onClose();
          }}
        >
          {MODERATION_TEXT.end}
        </Button>
      </div>
    </Dialog>
  );
}
