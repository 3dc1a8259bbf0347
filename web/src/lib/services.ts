/** 01 §3, 02 §3: the six service types and the labels people see. */
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
