//! Generated avatars: initials on a soft gradient, written as SVG files under `UPLOAD_DIR`.

use std::path::Path;

const PALETTES: [(&str, &str); 6] = [
    ("#7c3aed", "#c084fc"),
    ("#4338ca", "#818cf8"),
    ("#0f766e", "#5eead4"),
    ("#be185d", "#f9a8d4"),
    ("#b45309", "#fcd34d"),
    ("#1d4ed8", "#93c5fd"),
];

/// Writes the avatar and returns its public URL.
pub(super) fn write(upload_dir: &Path, slug: &str, first: &str, last: &str, index: usize) -> anyhow::Result<String> {
    let (from, to) = PALETTES[index % PALETTES.len()];
    let initials: String = [first, last].iter().filter_map(|s| s.chars().next()).collect();
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"256\" height=\"256\" viewBox=\"0 0 256 256\">\
         <defs><linearGradient id=\"g\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\"><stop offset=\"0\" stop-color=\"{from}\"/>\
         <stop offset=\"1\" stop-color=\"{to}\"/></linearGradient></defs><rect width=\"256\" height=\"256\" fill=\"url(#g)\"/>\
         <text x=\"50%\" y=\"54%\" dominant-baseline=\"middle\" text-anchor=\"middle\" font-family=\"Georgia, serif\" \
         font-size=\"104\" fill=\"#fff\">{initials}</text></svg>"
    );
    let dir = upload_dir.join("avatars");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join(format!("{slug}.svg")), svg)?;
    Ok(format!("/uploads/avatars/{slug}.svg"))
}
