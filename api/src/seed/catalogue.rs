//! Demo mentors that look like a real catalogue: names, bios, services, prices, zones.

pub struct DemoMentor {
    pub first: &'static str,
    pub last: &'static str,
    pub display: &'static str,
    pub kind: &'static str,
    pub specialties: &'static [&'static str],
    pub tz: &'static str,
    pub base: i64,
    pub years: u32,
}

macro_rules! m {
    ($f:expr, $l:expr, $d:expr, $k:expr, [$($s:expr),+], $tz:expr, $base:expr, $y:expr) => {
        DemoMentor { first: $f, last: $l, display: $d, kind: $k, specialties: &[$($s),+], tz: $tz, base: $base, years: $y }
    };
}

pub const MENTORS: &[DemoMentor] = &[
    m!(
        "Luna",
        "Starling",
        "Luna Starling",
        "astrology",
        ["Astrology", "Numerology"],
        "America/New_York",
        6500,
        12
    ),
    m!(
        "Orion",
        "Vale",
        "Orion Vale",
        "astrology",
        ["Astrology", "Life Coaching"],
        "Europe/London",
        8000,
        15
    ),
    m!(
        "Celeste",
        "Moreau",
        "Celeste Moreau",
        "astrology",
        ["Astrology", "Dream Interpretation"],
        "Europe/Paris",
        7200,
        9
    ),
    m!(
        "Priya",
        "Raman",
        "Priya Raman",
        "astrology",
        ["Astrology", "Spiritual Counseling"],
        "Asia/Kolkata",
        4500,
        11
    ),
    m!(
        "Marisol",
        "Vega",
        "Marisol Vega",
        "tarot",
        ["Tarot Reading", "Mystical Arts"],
        "America/Los_Angeles",
        5500,
        8
    ),
    m!(
        "Ezra",
        "Blackwood",
        "Ezra Blackwood",
        "tarot",
        ["Tarot Reading", "Palm Reading"],
        "Europe/London",
        6000,
        14
    ),
    m!(
        "Juniper",
        "Hale",
        "Juniper Hale",
        "tarot",
        ["Tarot Reading", "Relationship Guidance"],
        "America/Chicago",
        4800,
        6
    ),
    m!(
        "Sasha",
        "Ivanova",
        "Sasha Ivanova",
        "tarot",
        ["Tarot Reading", "Numerology"],
        "Europe/Berlin",
        5000,
        10
    ),
    m!(
        "Kai",
        "Nakamura",
        "Kai Nakamura",
        "energy_healing",
        ["Reiki Master", "Energy Healing"],
        "Asia/Tokyo",
        9000,
        13
    ),
    m!(
        "Amara",
        "Okafor",
        "Amara Okafor",
        "energy_healing",
        ["Chakra Balancing", "Energy Healing"],
        "Africa/Lagos",
        5200,
        7
    ),
    m!(
        "Willow",
        "Greene",
        "Willow Greene",
        "energy_healing",
        ["Crystal Healing", "Chakra Balancing"],
        "America/Denver",
        6800,
        9
    ),
    m!(
        "Rafael",
        "Santos",
        "Rafael Santos",
        "energy_healing",
        ["Reiki Master", "Meditation Guide"],
        "America/Sao_Paulo",
        4000,
        5
    ),
    m!(
        "Isolde",
        "Fairweather",
        "Isolde Fairweather",
        "mystical_practices",
        ["Mystical Arts", "Dream Interpretation"],
        "Europe/Dublin",
        7500,
        18
    ),
    m!(
        "Tariq",
        "Haddad",
        "Tariq Haddad",
        "mystical_practices",
        ["Numerology", "Mystical Arts"],
        "Asia/Dubai",
        6200,
        10
    ),
    m!(
        "Esme",
        "Lindqvist",
        "Esme Lindqvist",
        "mystical_practices",
        ["Palm Reading", "Mystical Arts"],
        "Europe/Stockholm",
        5800,
        7
    ),
    m!(
        "Bodhi",
        "Rivers",
        "Bodhi Rivers",
        "mystical_practices",
        ["Dream Interpretation", "Spiritual Counseling"],
        "Australia/Sydney",
        6600,
        12
    ),
    m!(
        "Noor",
        "Rahman",
        "Noor Rahman",
        "relationship_guidance",
        ["Relationship Guidance", "Spiritual Counseling"],
        "Europe/London",
        7000,
        11
    ),
    m!(
        "Gabriel",
        "Ashford",
        "Gabriel Ashford",
        "relationship_guidance",
        ["Relationship Guidance", "Life Coaching"],
        "America/New_York",
        8500,
        16
    ),
    m!(
        "Lila",
        "Chen",
        "Lila Chen",
        "relationship_guidance",
        ["Relationship Guidance", "Tarot Reading"],
        "America/Los_Angeles",
        6000,
        8
    ),
    m!(
        "Mateo",
        "Alvarez",
        "Mateo Alvarez",
        "relationship_guidance",
        ["Life Coaching", "Relationship Guidance"],
        "America/Mexico_City",
        4200,
        6
    ),
    m!(
        "Sage",
        "Whitfield",
        "Sage Whitfield",
        "meditation",
        ["Meditation Guide", "Chakra Balancing"],
        "America/Denver",
        3500,
        20
    ),
    m!(
        "Anika",
        "Sharma",
        "Anika Sharma",
        "meditation",
        ["Meditation Guide", "Spiritual Counseling"],
        "Asia/Kolkata",
        3000,
        9
    ),
    m!(
        "Rowan",
        "Ellis",
        "Rowan Ellis",
        "meditation",
        ["Meditation Guide", "Life Coaching"],
        "Europe/Amsterdam",
        4500,
        7
    ),
    m!(
        "Hana",
        "Sato",
        "Hana Sato",
        "meditation",
        ["Meditation Guide", "Energy Healing"],
        "Asia/Tokyo",
        5000,
        10
    ),
    m!(
        "Felix",
        "Marlowe",
        "Felix Marlowe",
        "tarot",
        ["Tarot Reading", "Astrology"],
        "America/Toronto",
        5600,
        9
    ),
    m!(
        "Aurora",
        "Quinn",
        "Aurora Quinn",
        "astrology",
        ["Astrology", "Crystal Healing"],
        "Pacific/Auckland",
        7000,
        13
    ),
];

/// Per service type: what the services are called and what they are about.
pub fn service_ideas(kind: &str) -> [(&'static str, &'static str, i32); 3] {
    match kind {
        "astrology" => [
            (
                "Birth Chart Reading",
                "A complete reading of your natal chart: sun, moon and rising, the houses and the aspects that shape your path.",
                60,
            ),
            (
                "Year Ahead Transits",
                "What the coming twelve months hold: the transits and progressions that open doors and the ones that ask for patience.",
                45,
            ),
            (
                "Relationship Synastry",
                "Two charts side by side: where you flow together, where you clash, and how to grow as a pair.",
                90,
            ),
        ],
        "tarot" => [
            (
                "Celtic Cross Reading",
                "The classic ten-card spread for a question that matters: past influences, hidden factors and the likely outcome.",
                45,
            ),
            (
                "Quick Clarity Reading",
                "A focused three-card reading for one clear question when you need direction today.",
                30,
            ),
            (
                "Tarot Circle",
                "A small group reading where each participant draws for the circle and we interpret the cards together.",
                90,
            ),
        ],
        "energy_healing" => [
            (
                "Distance Reiki Session",
                "A calm, guided Reiki session over video to release tension and restore the flow of energy through the body.",
                60,
            ),
            (
                "Chakra Alignment",
                "An assessment of your seven chakras with breath and visualisation work to bring them back into balance.",
                60,
            ),
            (
                "Group Healing Meditation",
                "A shared healing meditation where the group's intention amplifies the work for everyone present.",
                75,
            ),
        ],
        "mystical_practices" => [
            (
                "Numerology Blueprint",
                "Your life path, expression and soul urge numbers explained, with what they mean for the choices ahead.",
                60,
            ),
            (
                "Dream Interpretation",
                "Bring a recurring or vivid dream; together we read its symbols and what your subconscious is telling you.",
                45,
            ),
            (
                "Palm Reading by Video",
                "A reading of the major and minor lines of your hands, shown to the camera, and what they reveal.",
                30,
            ),
        ],
        "relationship_guidance" => [
            (
                "Heart Clarity Session",
                "Space to talk through a relationship question with intuitive guidance and practical next steps.",
                60,
            ),
            (
                "Couples Harmony Reading",
                "For two people: a guided conversation and reading on communication, needs and shared direction.",
                90,
            ),
            (
                "Healing After Heartbreak",
                "A gentle session to process a breakup, release what was and open to what comes next.",
                45,
            ),
        ],
        _ => [
            (
                "Guided Meditation",
                "A one to one guided meditation adapted to your experience, with a practice to take into your week.",
                30,
            ),
            (
                "Mindfulness Foundations",
                "Learn the basics of breath, body scan and open awareness to build a daily practice that lasts.",
                60,
            ),
            (
                "Sunday Group Meditation",
                "A weekly group sitting: a short teaching, a guided meditation and a quiet circle to share.",
                60,
            ),
        ],
    }
}

pub fn bio(m: &DemoMentor) -> String {
    let focus = match m.kind {
        "astrology" => {
            "read the sky as a map of your potential, helping you understand your strengths, your timing and the seasons of your life"
        }
        "tarot" => {
            "use the tarot as a mirror for the questions you carry, offering honest and compassionate readings that point to clear next steps"
        }
        "energy_healing" => {
            "work with the body's energy to release stress and old patterns, creating space for rest, balance and renewal"
        }
        "mystical_practices" => {
            "bring together numerology, dreams and the old mystical arts to uncover the patterns that quietly guide your life"
        }
        "relationship_guidance" => {
            "help you make sense of love, family and friendship, so you can communicate openly and choose relationships that nourish you"
        }
        _ => {
            "teach meditation that fits real life, so that calm and focus become a daily habit rather than a rare retreat"
        }
    };
    format!(
        "For {} years I have been a practitioner of {}. I {}. Every session is confidential, unhurried and grounded in respect for your own choices.",
        m.years,
        m.specialties.join(" and ").to_lowercase(),
        focus
    )
}

pub const REVIEW_COMMENTS: &[(i16, &str)] = &[
    (
        5,
        "Incredibly insightful. I left the session with a clear plan and a lighter heart.",
    ),
    (5, "Warm, precise and honest. Exactly what I needed this month."),
    (
        4,
        "Very helpful reading; a few points took time to sink in but they were spot on.",
    ),
    (5, "I have booked three sessions now and each one has been worth it."),
    (
        4,
        "Kind and professional. The session ran a little short but was still valuable.",
    ),
    (5, "Felt understood from the first minute. Highly recommended."),
    (3, "Interesting perspective, though I hoped for more practical advice."),
    (5, "Calm, grounded and generous with their time."),
];

pub const SEEKERS: &[(&str, &str, &str)] = &[
    ("seeker@mystic-mentors.test", "Sage", "Seeker"),
    ("maya.seeker@mystic-mentors.test", "Maya", "Holloway"),
    ("liam.seeker@mystic-mentors.test", "Liam", "Oduya"),
    ("zoe.seeker@mystic-mentors.test", "Zoe", "Martens"),
    ("omar.seeker@mystic-mentors.test", "Omar", "Farouk"),
    ("ines.seeker@mystic-mentors.test", "Ines", "Duarte"),
];
