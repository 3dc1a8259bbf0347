/** IANA time zones for the mentor's profile (the api accepts any IANA name; UTC by default). */

export const FALLBACK_TIME_ZONE = 'UTC';

/** The browser's own zone (02: the wizard's default), or UTC when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || FALLBACK_TIME_ZONE;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
}

/** Every zone the browser knows, sorted, always with UTC and the given zones (the current choice). */
export function timeZoneOptions(...include: string[]): string[] {
  let zones: string[];
  try {
    const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
    zones = intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  const all = new Set([...zones, FALLBACK_TIME_ZONE, ...include.filter(Boolean)]);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** 'America/New_York' -> 'America / New York'. */
export function timeZoneLabel(zone: string): string {
  return zone.replace(/_/g, ' ').replace(/\//g, ' / ');
}
