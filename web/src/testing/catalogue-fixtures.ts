import type { Mentor, Review, Service, ServiceStat } from '@/lib/catalogue';

export const MENTOR_ID = '0b7c9b52-4a7e-4f3b-9d55-1e2f3a4b5c6d';
export const SERVICE_ID = '9f8e7d6c-5b4a-4321-8fed-cba987654321';

export function service(overrides: Partial<Service> = {}): Service {
  return {
    id: SERVICE_ID,
    mentorId: MENTOR_ID,
    title: 'Birth Chart Reading',
    description: 'A full reading of your natal chart and its themes.',
    serviceType: 'astrology',
    price: '75.00',
    duration: 60,
    isActive: true,
    isGroupSession: false,
    createdAt: '2026-01-05T10:00:00Z',
    ...overrides,
  };
}

export function mentor(overrides: Partial<Mentor> = {}): Mentor {
  return {
    id: MENTOR_ID,
    userId: '5f0c1c9e-8a3c-4c1e-9a1e-000000000001',
    displayName: 'Luna Starweaver',
    bio: 'I have read the stars for twenty years and love helping people see their path.',
    specialties: ['Astrology', 'Tarot Reading', 'Numerology'],
    basePrice: '50.00',
    fromPrice: '50.00',
    minimumNoticeMinutes: 120,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    maxBookingsPerDay: null,
    rating: '4.80',
    reviewCount: 12,
    totalSessions: 40,
    timeZone: 'Europe/London',
    isActive: true,
    approvalStatus: 'approved',
    rejectionReason: null,
    createdAt: '2026-01-01T10:00:00Z',
    user: { id: '5f0c1c9e-8a3c-4c1e-9a1e-000000000001', firstName: 'Luna', lastName: 'Moon' },
    perMinuteRate: null,
    instantModes: ['chat', 'video'],
    presence: 'offline',
    services: [service()],
    ...overrides,
  };
}

export function review(overrides: Partial<Review> = {}): Review {
  return {
    id: 'r1',
    rating: 5,
    comment: 'Wonderful insight.',
    createdAt: '2026-03-07T15:30:00Z',
    user: { firstName: 'Ada', lastName: 'Lovelace' },
    ...overrides,
  };
}

export const STATS: ServiceStat[] = [
  { serviceType: 'astrology', mentorCount: 3, minPrice: '25.00' },
  { serviceType: 'tarot', mentorCount: 1, minPrice: '40.00' },
  { serviceType: 'energy_healing', mentorCount: 0, minPrice: '0.00' },
  { serviceType: 'mystical_practices', mentorCount: 2, minPrice: '0.00' },
  { serviceType: 'relationship_guidance', mentorCount: 0, minPrice: '0.00' },
  { serviceType: 'meditation', mentorCount: 5, minPrice: '19.99' },
];
