import { describe, expect, it } from 'vitest';
import { neverFinishedSetup, unfinishedStep } from './mentor-setup';

const active = { isActive: true };
const paused = { isActive: false };

describe('resuming mentor setup', () => {
  it('no active service -> services; no availability -> availability; otherwise done', () => {
    expect(unfinishedStep({ services: [] }, [])).toBe('services');
    expect(unfinishedStep({ services: [paused] }, [{}])).toBe('services');
    expect(unfinishedStep({ services: [paused, active] }, [])).toBe('availability');
    expect(unfinishedStep({ services: [active] }, [{}])).toBeNull();
  });

  it('the dashboard sends back only a mentor with nothing but a profile', () => {
    expect(neverFinishedSetup({ services: [] }, [])).toBe(true);
    expect(neverFinishedSetup({ services: [] }, [{}])).toBe(false);
    expect(neverFinishedSetup({ services: [active] }, [])).toBe(false);
    expect(neverFinishedSetup({ services: [paused] }, [{}])).toBe(false);
  });
});
