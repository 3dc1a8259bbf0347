import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Scrolls to the top on a new page, or to the element named by the hash
 * (the header's 'Services' and 'About' point into the landing page).
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (hash) {
      // The target may be in a page chunk that is still loading: look again briefly.
      let tries = 0;
      const timer = window.setInterval(() => {
        const el = document.getElementById(decodeURIComponent(hash.slice(1)));
        if (el || ++tries > 20) {
          window.clearInterval(timer);
          el?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        }
      }, 50);
      return () => window.clearInterval(timer);
    }
    window.scrollTo(0, 0);
    return undefined;
  }, [pathname, hash]);
  return null;
}
