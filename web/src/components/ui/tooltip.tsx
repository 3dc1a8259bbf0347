import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { createContext, useContext, type ReactElement, type ReactNode } from 'react';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '@/config/constants';

/** Whether a {@link TooltipProvider} is above: the app has one, so all tooltips share its skip window. */
const Provided = createContext(false);

/**
 * The spec's tooltip timing for every tooltip below it: one shows 700 ms after the pointer rests on
 * its control (or at once on keyboard focus), and moving to another within 300 ms of leaving shows
 * that one without the delay.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <Provided.Provider value={true}>
      <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
        {children}
      </TooltipPrimitive.Provider>
    </Provided.Provider>
  );
}

type TooltipProps = {
  /** What the tooltip says; nothing (null) shows the child alone. */
  content: ReactNode;
  /** One focusable element. A disabled button gets no pointer events: pass `wrapDisabled`. */
  children: ReactElement;
  /** Wraps the child in a focusable span, so a disabled control still explains itself. */
  wrapDisabled?: boolean;
  side?: 'top' | 'bottom' | 'left' | 'right';
};

/** A short text beside a control, shown on hover and focus with the spec's timing. */
export function Tooltip({ content, children, wrapDisabled = false, side = 'top' }: TooltipProps) {
  const provided = useContext(Provided);
  if (content === null || content === undefined || content === false) return children;
  const tip = (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>
        {wrapDisabled ? (
          // Focusable itself: the only way to reach a disabled control's reason by keyboard.
          <span
            tabIndex={0}
            className="inline-flex rounded-lg focus-visible:outline-2 focus-visible:outline-indigo-500"
          >
            {children}
          </span>
        ) : (
          children
        )}
      </TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          side={side}
          sideOffset={6}
          className="z-50 max-w-xs rounded-md bg-slate-900 px-2.5 py-1.5 text-xs text-white shadow-md animate-fade-in"
        >
          {content}
          <TooltipPrimitive.Arrow className="fill-slate-900" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
  return provided ? tip : <TooltipProvider>{tip}</TooltipProvider>;
}
