import { Radio } from 'lucide-react';

/** The mark of a session in progress (started, not ended). */
export const HAPPENING_NOW = 'Happening now';

/** 'Happening now' as a pill beside the booking's status. */
export function HappeningNow() {
  return (
    <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-rose-50 px-2.5 py-0.5 text-xs font-semibold text-rose-700 ring-1 ring-inset ring-rose-200">
      <Radio aria-hidden="true" className="h-3.5 w-3.5" />
      {HAPPENING_NOW}
    </span>
  );
}
