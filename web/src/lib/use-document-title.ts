import { useEffect } from 'react';
import { APP_NAME } from '@/config/constants';

/** Sets the browser tab's title for the current page. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : `${APP_NAME} · Spiritual mentoring`;
  }, [title]);
}
