import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '@/config/constants';
import { Tooltip, TooltipProvider } from './tooltip';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: false }));
afterEach(() => vi.useRealTimers());

function twoTips() {
  render(
    <TooltipProvider>
      <Tooltip content="First tip">
        <button type="button">One</button>
      </Tooltip>
      <Tooltip content="Second tip">
        <button type="button">Two</button>
      </Tooltip>
      <p>elsewhere</p>
    </TooltipProvider>,
  );
}

// Pointer events as a mouse makes them (fireEvent is synchronous: it works with fake timers).
const hover = (el: HTMLElement) => fireEvent.pointerMove(el, { pointerType: 'mouse' });
// Leaving a control and moving on, away from its tooltip (whose text the pointer may also rest on).
const leave = (el: HTMLElement) => {
  fireEvent.pointerLeave(el, { pointerType: 'mouse', clientX: 400, clientY: 400 });
  fireEvent.pointerMove(screen.getByText('elsewhere'), { pointerType: 'mouse', clientX: 1000, clientY: 1000 });
};
const button = (name: string) => screen.getByRole('button', { name });

const advance = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

describe('Tooltip timing (the spec: 700 ms delay, 300 ms skip window)', () => {
  it('uses the spec numbers', () => {
    expect(TOOLTIP_DELAY_MS).toBe(700);
    expect(TOOLTIP_SKIP_DELAY_MS).toBe(300);
  });

  it('shows 700 ms after the pointer rests on the control, not before', async () => {
    twoTips();
    hover(button('One'));
    advance(TOOLTIP_DELAY_MS - 50);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    advance(60);
    expect(screen.getByRole('tooltip')).toHaveTextContent('First tip');
  });

  it('moving to another control within 300 ms shows its tooltip at once; later, the delay again', async () => {
    twoTips();
    hover(button('One'));
    advance(TOOLTIP_DELAY_MS + 10);
    expect(screen.getByRole('tooltip')).toHaveTextContent('First tip');

    leave(button('One'));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    advance(TOOLTIP_SKIP_DELAY_MS - 50);
    hover(button('Two'));
    advance(0);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Second tip');

    leave(button('Two'));
    advance(TOOLTIP_SKIP_DELAY_MS + 50);
    hover(button('One'));
    advance(TOOLTIP_DELAY_MS - 50);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    advance(60);
    expect(screen.getByRole('tooltip')).toHaveTextContent('First tip');
  });

  it('explains a disabled control, reachable by keyboard', async () => {
    render(
      <Tooltip content="Add a payout destination first" wrapDisabled>
        <button type="button" disabled>
          Mark as Paid
        </button>
      </Tooltip>,
    );
    const wrapper = screen.getByRole('button', { name: 'Mark as Paid' }).parentElement as HTMLElement;
    expect(wrapper).toHaveAttribute('tabindex', '0');
    act(() => wrapper.focus());
    expect(screen.getByRole('tooltip')).toHaveTextContent('Add a payout destination first');
  });
});
