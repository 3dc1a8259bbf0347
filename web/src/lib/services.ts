/** The six service types and the labels people see. */
export const SERVICE_TYPES = [
  'astrology',
  'tarot',
  'energy_healing',
  'mystical_practices',
  'relationship_guidance',
  'meditation',
] as const;

export type ServiceType = (typeof SERVICE_TYPES)[number];

export const SERVICE_LABELS: Record<ServiceType, string> = {
  astrology: 'Astrology',
  tarot: 'Tarot',
  energy_healing: 'Energy Healing',
  mystical_practices: 'Mystical Practices',
  relationship_guidance: 'Relationship Guidance',
  meditation: 'Meditation',
};

export const SERVICE_DESCRIPTIONS: Record<ServiceType, string> = {
  astrology: 'Birth charts, transits and the timing of your path.',
  tarot: 'Readings that shed light on questions of love, work and purpose.',
  energy_healing: 'Reiki, chakra balancing and crystal work to restore balance.',
  mystical_practices: 'Numerology, dream work and the mystical arts.',
  relationship_guidance: 'Clarity and compassion for the bonds that matter.',
  meditation: 'Guided practice for calm, focus and inner stillness.',
};

export function isServiceType(value: unknown): value is ServiceType {
  return typeof value === 'string' && (SERVICE_TYPES as readonly string[]).includes(value);
}

/** A service type's label; an unknown type shows with its underscores as spaces. */
export function serviceLabel(type: string): string {
  return isServiceType(type) ? SERVICE_LABELS[type] : type.replace(/_/g, ' ');
}

/** The 14 specialties a mentor chooses from. */
export const SPECIALTIES = [
  'Astrology',
  'Tarot Reading',
  'Energy Healing',
  'Reiki Master',
  'Meditation Guide',
  'Chakra Balancing',
  'Crystal Healing',
  'Numerology',
  'Palm Reading',
  'Spiritual Counseling',
  'Dream Interpretation',
  'Mystical Arts',
  'Life Coaching',
  'Relationship Guidance',
] as const;
