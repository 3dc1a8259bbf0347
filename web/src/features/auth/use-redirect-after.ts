import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/** Navigates to `to` once `delayMs` has passed while `active` is true. */
export function useRedirectAfter(active: boolean, to: string, delayMs: number): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!active) return undefined;
    const timer = window.setTimeout(() => navigate(to, { replace: true }), delayMs);
    return () => window.clearTimeout(timer);
  }, [active, to, delayMs, navigate]);
}
