import { useEffect } from 'react';
import { setTimeZone } from '@/api/endpoints/profiles/profiles';
import { useUser } from './auth';
import { browserTimeZone } from './time-zones';

const REPORTED_KEY = 'reported-time-zone';

/**
 * Tells the api the browser's zone once per signed-in tab session (and again when it changes),
 * so e-mails and notifications state times on this person's clock. Failures are ignored: the
 * next page load tries again.
 */
export function useReportTimeZone() {
  const { user } = useUser();
  useEffect(() => {
    if (!user) return;
    const zone = browserTimeZone();
    const key = `${REPORTED_KEY}:${user.id}`;
    if (sessionStorage.getItem(key) === zone) return;
    setTimeZone({ timeZone: zone })
      .then(() => sessionStorage.setItem(key, zone))
      .catch(() => undefined);
  }, [user]);
}
