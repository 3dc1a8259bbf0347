export const STEPS = ['Profile', 'Services', 'Availability', 'Complete'] as const;

/** 'Step N of 4' and the percent complete (25, 50, 75, 100). */
export function progressPercent(step: number): number {
  return Math.round((step / STEPS.length) * 100);
}

export const PROFILE_FAILED = 'Failed to create mentor profile';
export const SERVICE_FAILED = 'Failed to create service';
export const PROFILE_UPDATE_FAILED = 'Failed to update mentor profile';
export const AVAILABILITY_FAILED = 'Failed to save availability';
export const NO_SCHEDULE = 'Add at least one time range: pick a preset or add your own';
