import { describe, expect, it } from 'vitest';
import {
  changedServiceFields,
  durationOrDefault,
  EMPTY_SERVICE,
  normalizeSpecialties,
  serviceBody,
  serviceToForm,
  validateProfile,
  validateService,
  type ProfileForm,
  type ServiceForm,
} from './mentor-forms';

const bio = 'I have read the stars for twenty years and love helping people see their path.';
const profile: ProfileForm = {
  displayName: 'Luna Starweaver',
  bio,
  specialties: ['Astrology'],
  basePrice: '50',
  profileImageUrl: '',
};

describe('onboarding profile validation', () => {
  it('accepts a complete profile', () => {
    expect(validateProfile(profile)).toEqual({});
    expect(validateProfile({ ...profile, profileImageUrl: `/uploads/${'a1'.repeat(16)}.png` })).toEqual({});
    for (const refused of [
      'https://example.com/me.png',
      '/uploads/../api/logout',
      `/uploads/${'a1'.repeat(16)}.svg`,
      'http://example.com/me.png',
      'https://user:pw@example.com/me.png',
      'HTTPS://EXAMPLE.com/me.png',
    ]) {
      expect(validateProfile({ ...profile, profileImageUrl: refused }).profileImageUrl).toBe(
        'Please enter a valid image URL',
      );
    }
  });

  it("uses the spec's exact messages", () => {
    expect(
      validateProfile({
        displayName: ' L ',
        bio: 'Too short',
        specialties: [],
        basePrice: '',
        profileImageUrl: 'not a url',
      }),
    ).toEqual({
      displayName: 'Display name must be at least 2 characters',
      bio: 'Bio must be at least 50 characters',
      specialties: 'Please select at least one specialty',
      basePrice: 'Base price is required',
      profileImageUrl: 'Please enter a valid image URL',
    });
    expect(validateProfile({ ...profile, bio: 'x'.repeat(501) }).bio).toBe('Bio must be less than 500 characters');
    expect(validateProfile({ ...profile, bio: 'x'.repeat(500) }).bio).toBeUndefined();
    expect(validateProfile({ ...profile, bio: 'x'.repeat(50) }).bio).toBeUndefined();
    expect(validateProfile({ ...profile, basePrice: '-3' }).basePrice).toBe(
      'Price must be a valid amount of at least 0',
    );
    expect(validateProfile({ ...profile, profileImageUrl: 'javascript:alert(1)' }).profileImageUrl).toBe(
      'Please enter a valid image URL',
    );
  });

  it('trims specialties and ignores duplicates and blanks', () => {
    expect(normalizeSpecialties([' Tarot Reading ', 'Astrology', 'tarot reading', '', 'Astrology'])).toEqual([
      'Tarot Reading',
      'Astrology',
    ]);
    expect(validateProfile({ ...profile, specialties: ['  '] }).specialties).toBe(
      'Please select at least one specialty',
    );
  });
});

const service: ServiceForm = {
  ...EMPTY_SERVICE,
  title: 'Birth Chart Reading',
  description: 'A full reading of your natal chart and its themes.',
  serviceType: 'astrology',
  price: '75',
};

describe('service validation', () => {
  it('accepts a complete service, duration 60 by default', () => {
    expect(EMPTY_SERVICE.duration).toBe('60');
    expect(validateService(service)).toEqual({});
    expect(validateService(service, { requireDuration: true })).toEqual({});
  });

  it("uses the spec's exact messages", () => {
    expect(
      validateService({ ...EMPTY_SERVICE, title: 'ab', description: 'short', duration: '' }, { requireDuration: true }),
    ).toEqual({
      title: 'Service title must be at least 3 characters',
      description: 'Description must be at least 20 characters',
      serviceType: 'Please choose a service type',
      price: 'Price is required',
      duration: 'Duration is required',
    });
    expect(validateService({ ...service, duration: '500' }).duration).toBe(
      'Duration must be between 15 and 480 minutes',
    );
    expect(validateService({ ...service, isGroupSession: true, maxParticipants: '1' }).maxParticipants).toBe(
      'Group sessions take 2 to 20 participants',
    );
    expect(validateService({ ...service, isGroupSession: true, maxParticipants: '21' }).maxParticipants).toBeDefined();
    expect(validateService({ ...service, isGroupSession: true, maxParticipants: '20' })).toEqual({});
  });

  it('on the dashboard an empty or unreadable duration becomes 60', () => {
    expect(durationOrDefault('')).toBe(60);
    expect(durationOrDefault('abc')).toBe(60);
    expect(durationOrDefault('45')).toBe(45);
    expect(validateService({ ...service, duration: '' })).toEqual({});
    expect(serviceBody({ ...service, duration: '' }).duration).toBe(60);
  });

  it("the 'free' checkbox sends '0.00' and needs no typed price", () => {
    expect(validateService({ ...service, price: '', free: true })).toEqual({});
    expect(serviceBody({ ...service, price: '', free: true }).price).toBe('0.00');
  });

  it('builds the request body; a size only for group services', () => {
    expect(serviceBody(service)).toEqual({
      title: 'Birth Chart Reading',
      description: 'A full reading of your natal chart and its themes.',
      serviceType: 'astrology',
      price: '75.00',
      duration: 60,
      isGroupSession: false,
    });
    expect(serviceBody({ ...service, isGroupSession: true, maxParticipants: '8' }).maxParticipants).toBe(8);
  });
});

describe('Edit Service sends only what changed', () => {
  const saved = {
    title: 'Birth Chart Reading',
    description: 'A full reading of your natal chart and its themes.',
    serviceType: 'astrology',
    price: '75.00',
    duration: 60,
    isGroupSession: false,
  };
  const before = { ...serviceBody(serviceToForm(saved)), isActive: true };

  it('reads a saved service back into the form', () => {
    expect(serviceToForm({ ...saved, price: '0.00' })).toMatchObject({ free: true, price: '0.00' });
    expect(serviceToForm(saved)).toMatchObject({ price: '75.00', duration: '60', maxParticipants: '4', free: false });
  });

  it('finds no change when nothing changed (also 75 vs 75.00)', () => {
    expect(changedServiceFields(before, { ...before })).toEqual({});
    expect(changedServiceFields(before, { ...before, price: '75' })).toEqual({});
  });

  it('lists just the changed fields, isActive included', () => {
    expect(changedServiceFields(before, { ...before, title: 'New title', isActive: false })).toEqual({
      title: 'New title',
      isActive: false,
    });
    expect(changedServiceFields(before, { ...before, price: '80.00', duration: 90 })).toEqual({
      price: '80.00',
      duration: 90,
    });
    expect(changedServiceFields(before, { ...before, isGroupSession: true, maxParticipants: 6 })).toEqual({
      isGroupSession: true,
      maxParticipants: 6,
    });
  });
});
