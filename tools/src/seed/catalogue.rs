//! Demo mentors that look like a real catalogue: names, bios, services, prices, zones.

pub(super) struct DemoMentor {
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

pub(super) const MENTORS: &[DemoMentor] = &[
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
pub(super) fn service_ideas(kind: &str) -> [(&'static str, &'static str, i32); 3] {
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

pub(super) fn bio(m: &DemoMentor) -> String {
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
    let practices: Vec<&str> = m.specialties.iter().map(|s| practice(s)).collect();
    format!(
        "For {} years I have been a practitioner of {}. I {}. Every session is confidential, unhurried and grounded in respect for your own choices.",
        m.years,
        practices.join(" and "),
        focus
    )
}

/// A specialty as the practice it names, to read in a sentence ('a practitioner of meditation and
/// Reiki', never 'of meditation guide and reiki master'): the specialties are labels, some of them
/// titles of a person.
pub(super) fn practice(specialty: &str) -> &'static str {
    match specialty {
        "Astrology" => "astrology",
        "Tarot Reading" => "tarot reading",
        "Energy Healing" => "energy healing",
        "Meditation Guide" => "meditation",
        "Spiritual Counseling" => "spiritual counseling",
        "Numerology" => "numerology",
        "Crystal Healing" => "crystal healing",
        "Reiki Master" => "Reiki",
        "Chakra Balancing" => "chakra balancing",
        "Dream Interpretation" => "dream interpretation",
        "Palm Reading" => "palm reading",
        "Mystical Arts" => "the mystical arts",
        "Relationship Guidance" => "relationship guidance",
        "Life Coaching" => "life coaching",
        _ => "spiritual guidance",
    }
}

/// What seekers wrote about a session, by the mentor's kind of service: the first half of a review.
fn review_openings(kind: &str) -> &'static [&'static str] {
    match kind {
        "astrology" => &[
            "The birth chart reading explained why this year has felt so unsettled.",
            "We went through my Saturn return step by step, without any jargon.",
            "The transit forecast for the coming months gave me dates I could actually plan around.",
            "Seeing my chart laid out made sense of patterns I have repeated for years.",
            "The synastry reading for my partner and me was thoughtful and fair to both of us.",
            "I came with a question about a job move and left knowing which season suits it.",
        ],
        "tarot" => &[
            "The three-card spread about my career was uncannily on point.",
            "Every card was explained in plain words and tied back to my question.",
            "The Celtic cross reading gave me a new way to look at a family decision.",
            "The reading did not tell me what to do; it helped me hear what I already knew.",
            "I asked about a relationship and the cards opened a gentle, honest conversation.",
            "The year-ahead spread gave me a theme for each month that I keep coming back to.",
        ],
        "energy_healing" => &[
            "After the Reiki session I slept through the night for the first time in weeks.",
            "The chakra balancing left me calm in a way that lasted for days.",
            "I was sceptical about crystal work, but the session was deeply relaxing.",
            "The distance healing worked better over video than I expected.",
            "The body scan found tension I had stopped noticing, and we worked it loose.",
            "A gentle session that gave me room to rest after a hard month.",
        ],
        "mystical_practices" => &[
            "The numerology reading of my name and birth date was fascinating.",
            "We worked through a recurring dream and it finally stopped coming back.",
            "The palm reading was playful and surprisingly insightful.",
            "The reading wove numbers and dreams together into one clear story.",
            "I learned a small daily ritual that keeps me grounded.",
            "My life path number explained a restlessness I have always felt.",
        ],
        "relationship_guidance" => &[
            "We talked through a hard conversation with my mother and I finally had it.",
            "The session helped my partner and me listen instead of defending ourselves.",
            "I came in heartbroken and left with a plan to take care of myself.",
            "The advice on setting boundaries with a friend was practical and kind.",
            "Talking about dating again felt safe and without judgement.",
            "We looked at the patterns in my past relationships with real compassion.",
        ],
        _ => &[
            "The guided breathing practice is now part of every morning.",
            "I finally have a meditation routine that fits around my children.",
            "The body-scan meditation helped me through a stressful week at work.",
            "Learning to sit with my thoughts instead of fighting them was a revelation.",
            "The short practices for the office have made a real difference.",
            "The walking meditation was new to me and I loved it.",
        ],
    }
}

/// The second half of a review, with the rating it goes with.
const REVIEW_CLOSINGS: &[(i16, &str)] = &[
    (5, "I left with a clear plan and a lighter heart."),
    (5, "Warm, precise and honest: exactly what I needed this month."),
    (4, "A few points took time to sink in, but they were spot on."),
    (5, "I have booked three sessions now and each one was worth it."),
    (4, "The session ran a little short but was still valuable."),
    (5, "I felt understood from the first minute."),
    (3, "I had hoped for more practical advice to take home."),
    (5, "Calm, grounded and generous with their time."),
    (5, "I would recommend this to anyone standing at a crossroads."),
    (4, "The video dropped once, but we picked up right where we left off."),
    (5, "Kind, patient and never rushed."),
    (5, "I have already booked a follow-up."),
    (4, "Insightful, though I would have liked a written summary afterwards."),
    (5, "Worth every minute."),
];

/// The demo's `n`-th review (counted over every mentor, in seeding order) of a mentor of `kind`:
/// its rating and text. No two reviews of the demo read the same (the openings differ by kind and
/// every pair of opening and closing is used once for the first 84 reviews of each kind).
pub(super) fn review(kind: &str, n: usize) -> (i16, String) {
    let openings = review_openings(kind);
    let opening = openings[n % openings.len()];
    let (rating, closing) = REVIEW_CLOSINGS[(n / openings.len()) % REVIEW_CLOSINGS.len()];
    (rating, format!("{opening} {closing}"))
}

pub(super) const SEEKERS: &[(&str, &str, &str)] = &[
    ("seeker@mystic-mentors.test", "Sage", "Seeker"),
    ("maya.seeker@mystic-mentors.test", "Maya", "Holloway"),
    ("liam.seeker@mystic-mentors.test", "Liam", "Oduya"),
    ("zoe.seeker@mystic-mentors.test", "Zoe", "Martens"),
    ("omar.seeker@mystic-mentors.test", "Omar", "Farouk"),
    ("ines.seeker@mystic-mentors.test", "Ines", "Duarte"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bios_name_practices_not_titles() {
        for m in MENTORS {
            let text = bio(m);
            let practised = text
                .split("practitioner of ")
                .nth(1)
                .unwrap()
                .split(". I ")
                .next()
                .unwrap();
            for title in ["guide", "master", "spiritual guidance"] {
                assert!(!practised.to_lowercase().contains(title), "{}: {text}", m.display);
            }
            for s in m.specialties {
                assert_ne!(practice(s), "spiritual guidance", "{s} has no practice");
            }
        }
        let sage = MENTORS
            .iter()
            .find(|m| m.specialties.contains(&"Meditation Guide"))
            .unwrap();
        let text = bio(sage);
        assert!(
            text.contains("meditation") && !text.contains("meditation guide"),
            "{text}"
        );
    }

    #[test]
    fn no_two_demo_reviews_read_the_same() {
        let mut seen = std::collections::HashSet::new();
        for (n, m) in MENTORS.iter().enumerate() {
            for r in 0..super::super::reviews_of(n) {
                let (rating, text) = review(m.kind, super::super::review_number(n, r));
                assert!((1..=5).contains(&rating));
                assert!(seen.insert(text.clone()), "repeated: {text}");
            }
        }
        assert!(seen.len() > 60, "{} reviews", seen.len());
    }
}
