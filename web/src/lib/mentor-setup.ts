/**
 * Where a mentor who left the onboarding wizard part-way picks it up again, decided from their
 * data: no active service -> the services step; no weekly availability -> the availability step.
 */
type SetupData = { services: readonly { isActive: boolean }[] };

export type UnfinishedStep = 'services' | 'availability';

/** The step an unfinished mentor resumes at, or null once they are bookable. */
export function unfinishedStep(mentor: SetupData, availability: readonly unknown[]): UnfinishedStep | null {
  if (!mentor.services.some((s) => s.isActive)) return 'services';
  if (availability.length === 0) return 'availability';
  return null;
}

/**
 * Whether /mentor-dashboard sends the mentor back to the wizard: one who left right after the
 * profile (no service and no weekly window at all), whose dashboard would have nothing in it.
 * A mentor who paused or removed things later keeps the dashboard, where they can put them back.
 */
export function neverFinishedSetup(
  mentor: { services: readonly unknown[] },
  availability: readonly unknown[],
): boolean {
  return mentor.services.length === 0 && availability.length === 0;
}
