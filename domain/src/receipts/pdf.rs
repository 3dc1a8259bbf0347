//! A receipt as a one-page A4 PDF, written with krilla (fonts embedded and subset) in DejaVu Sans, an
//! open font bundled with the code (`domain/assets/fonts/`, its licence beside it).

use krilla::{
    Document,
    color::rgb,
    geom::{PathBuilder, Point},
    metadata::Metadata,
    num::NormalizedF32,
    page::PageSettings,
    paint::{Fill, Stroke},
    text::{Font, TextDirection},
};

use super::{Receipt, ReceiptKind};
use crate::{
    config::Platform,
    money,
    time_format::{self, Format},
};

static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// A4 in points.
const WIDTH: f32 = 595.0;
const HEIGHT: f32 = 842.0;
const MARGIN: f32 = 56.0;

/// The file name a receipt downloads as.
pub fn file_name(r: &Receipt) -> String {
    format!("receipt-{}.pdf", r.number)
}

/// The lines of the receipt, in order (also what a test reads back).
pub fn lines(r: &Receipt, platform: &Platform) -> Vec<(Style, String)> {
    let title = match r.kind {
        ReceiptKind::Payment => "Receipt",
        ReceiptKind::Refund => "Refund receipt",
    };
    let mut out = vec![(Style::Heading, platform.name.clone())];
    for line in platform
        .address
        .split([';', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        out.push((Style::Small, line.to_string()));
    }
    out.push((Style::Gap, String::new()));
    out.push((Style::Title, format!("{title} {}", r.number)));
    out.push((
        Style::Body,
        format!("Issued {}", time_format::utc(r.issued_at, Format::DateTime)),
    ));
    out.push((Style::Gap, String::new()));
    out.push((Style::Label, "Billed to".into()));
    out.push((Style::Body, r.payer_name.clone()));
    out.push((Style::Body, r.payer_email.clone()));
    out.push((Style::Gap, String::new()));
    out.push((Style::Label, "Session".into()));
    out.push((Style::Body, r.description.clone()));
    if let Some(at) = r.session_at {
        out.push((Style::Body, time_format::utc(at, Format::DateTime)));
    }
    out.push((Style::Gap, String::new()));
    out.push((Style::Rule, String::new()));
    let (label, amount) = match r.kind {
        ReceiptKind::Payment => ("Amount paid", money::format(r.amount_cents)),
        ReceiptKind::Refund => ("Amount refunded", money::format(r.amount_cents)),
    };
    out.push((Style::Total, format!("{label}: ${amount} USD")));
    if let Some(last4) = &r.card_last4 {
        let how = match r.kind {
            ReceiptKind::Payment => "Paid with the card ending in",
            ReceiptKind::Refund => "Returned to the card ending in",
        };
        out.push((Style::Body, format!("{how} {last4}")));
    }
    out.push((Style::Gap, String::new()));
    out.push((
        Style::Small,
        format!(
            "Thank you for using {}. Keep this receipt for your records.",
            platform.name
        ),
    ));
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Heading,
    Title,
    Label,
    Body,
    Total,
    Small,
    Gap,
    Rule,
}

/// The PDF's bytes.
pub fn render(r: &Receipt, platform: &Platform) -> anyhow::Result<Vec<u8>> {
    let regular = Font::new(REGULAR.into(), 0).ok_or_else(|| anyhow::anyhow!("the bundled font does not load"))?;
    let bold = Font::new(BOLD.into(), 0).ok_or_else(|| anyhow::anyhow!("the bundled bold font does not load"))?;
    let mut document = Document::new();
    document.set_metadata(
        Metadata::new()
            .title(format!("{} receipt {}", platform.name, r.number))
            .creator(platform.name.clone()),
    );
    let settings = PageSettings::from_wh(WIDTH, HEIGHT).ok_or_else(|| anyhow::anyhow!("page size"))?;
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    let ink = |grey: u8| Fill {
        paint: rgb::Color::new(grey, grey, grey).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    };
    let mut y = MARGIN;
    for (style, text) in lines(r, platform) {
        let (font, size, grey, advance) = match style {
            Style::Heading => (bold.clone(), 20.0, 20, 28.0),
            Style::Title => (bold.clone(), 16.0, 20, 24.0),
            Style::Label => (bold.clone(), 11.0, 90, 16.0),
            Style::Body => (regular.clone(), 11.0, 20, 16.0),
            Style::Total => (bold.clone(), 14.0, 20, 22.0),
            Style::Small => (regular.clone(), 9.0, 90, 13.0),
            Style::Gap => {
                y += 10.0;
                continue;
            }
            Style::Rule => {
                let mut pb = PathBuilder::new();
                pb.move_to(MARGIN, y);
                pb.line_to(WIDTH - MARGIN, y);
                if let Some(path) = pb.finish() {
                    surface.set_fill(None);
                    surface.set_stroke(Some(Stroke {
                        paint: rgb::Color::new(160, 160, 160).into(),
                        width: 0.8,
                        ..Default::default()
                    }));
                    surface.draw_path(&path);
                    surface.set_stroke(None);
                }
                y += 14.0;
                continue;
            }
        };
        y += advance;
        surface.set_fill(Some(ink(grey)));
        surface.draw_text(Point::from_xy(MARGIN, y), font, size, &text, false, TextDirection::Auto);
    }
    surface.finish();
    page.finish();
    document
        .finish()
        .map_err(|e| anyhow::anyhow!("the receipt's PDF could not be written: {e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::DateTime;
    use uuid::Uuid;

    fn receipt(kind: ReceiptKind) -> Receipt {
        Receipt {
            id: Uuid::nil(),
            number: "MM-2026-000042".into(),
            kind,
            user_id: Uuid::nil(),
            payment_id: Some(Uuid::nil()),
            refund_id: None,
            booking_id: Some(Uuid::nil()),
            amount_cents: 4_500,
            card_last4: Some("1111".into()),
            payer_name: "Ann Lee".into(),
            payer_email: "ann@example.com".into(),
            description: "\"Tarot reading\" with Luna (60 minutes)".into(),
            session_at: DateTime::from_timestamp(1_800_000_000, 0),
            issued_at: DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
        }
    }

    #[test]
    fn a_receipt_names_the_platform_payer_session_amount_and_card() {
        let platform = Platform {
            name: "Mystic Mentors".into(),
            address: "1 Main St; Springfield".into(),
        };
        let text: Vec<String> = lines(&receipt(ReceiptKind::Payment), &platform)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        for wanted in [
            "Mystic Mentors",
            "1 Main St",
            "Springfield",
            "Receipt MM-2026-000042",
            "Ann Lee",
            "Amount paid: $45.00 USD",
            "Paid with the card ending in 1111",
        ] {
            assert!(text.iter().any(|t| t == wanted), "{wanted} in {text:?}");
        }
        let pdf = render(&receipt(ReceiptKind::Refund), &platform).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(pdf.len() > 1000);
    }
}
