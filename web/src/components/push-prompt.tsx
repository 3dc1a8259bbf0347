import { BellRing, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-fetch';
import { PUSH_TEXT, pushOffered, shouldOfferPush, useTogglePush } from '@/lib/push';

/**
 * The one-time offer of push notifications after a first booking: shown once per browser while it
 * has not been asked, and permission is asked only when the user clicks 'Turn on notifications'.
 */
export function PushPrompt({ show }: { show: boolean }) {
  // Decided once, when the dashboard shows with its bookings.
  const [visible, setVisible] = useState(() => show && shouldOfferPush());
  const toggle = useTogglePush();

  useEffect(() => {
    if (visible) pushOffered();
  }, [visible]);

  if (!visible) return null;
  return (
    <Card className="flex flex-wrap items-center justify-between gap-4 border-indigo-200 bg-indigo-50/70 p-5">
      <p className="flex items-start gap-3 text-sm text-slate-800">
        <BellRing aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-indigo-600" />
        <span>
          <span className="block font-semibold">Never miss a session</span>
          Get reminders, messages and calls from your mentor on this device, even when the site is closed.
        </span>
      </p>
      <span className="flex gap-2">
        <Button
          disabled={toggle.isPending}
          onClick={() =>
            toggle.mutate(
              { on: true },
              {
                onSuccess: (state) => {
                  setVisible(false);
                  if (state === 'on') toast.success(PUSH_TEXT.turnedOn);
                },
                onError: (error) =>
                  toast.error(PUSH_TEXT.failed, { description: errorMessage(error, PUSH_TEXT.failed) }),
              },
            )
          }
        >
          {PUSH_TEXT.turnOn}
        </Button>
        <Button variant="ghost" onClick={() => setVisible(false)} aria-label="Not now">
          <X aria-hidden="true" className="h-4 w-4" />
          Not now
        </Button>
      </span>
    </Card>
  );
}
