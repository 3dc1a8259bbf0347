//! Fixed lists of the spec: service types and specialty choices.

closed_set! {
    /// The six service types, in the order the service grid shows them.
    pub enum ServiceType ("service type") {
        Astrology = "astrology",
        Tarot = "tarot",
        EnergyHealing = "energy_healing",
        MysticalPractices = "mystical_practices",
        RelationshipGuidance = "relationship_guidance",
        Meditation = "meditation",
    }
}

/// The 14 specialties a mentor chooses from.
pub const SPECIALTIES: [&str; 14] = [
    "Astrology",
    "Tarot Reading",
    "Energy Healing",
    "Reiki Master",
    "Meditation Guide",
    "Chakra Balancing",
    "Crystal Healing",
    "Numerology",
    "Palm Reading",
    "Spiritual Counseling",
    "Dream Interpretation",
    "Mystical Arts",
    "Life Coaching",
    "Relationship Guidance",
];

pub fn is_service_type(value: &str) -> bool {
    value.parse::<ServiceType>().is_ok()
}

pub fn label(service_type: &str) -> String {
    service_type
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_types_and_fourteen_specialties() {
        assert!(is_service_type("energy_healing"));
        assert!(!is_service_type("Energy Healing"));
        assert_eq!(ServiceType::ALL.len(), 6);
        assert_eq!(label("relationship_guidance"), "Relationship Guidance");
    }
}
