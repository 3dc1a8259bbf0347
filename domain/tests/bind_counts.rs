//! The whole class of "one SQL text, different numbers of bound values": sqlx prepares a statement
//! once per connection, keyed by its text, with as many parameters as the first caller bound, so a
//! statement bound with more values than it names breaks every caller of the same text that binds
//! fewer (and the other way round). The `query!` macros count parameters at compile time; this test
//! reads every run-time `sqlx::query*("…")` of the workspace whose SQL is a string literal and checks
//! that its chain binds exactly as many values as the statement's highest `$n`.

use std::{fs, path::Path};

const CRATES: [&str; 4] = ["domain/src", "api/src", "worker/src", "jobs/src"];
const CALLS: [&str; 4] = [
    "sqlx::query(",
    "sqlx::query_as(",
    "sqlx::query_scalar(",
    "sqlx::query_as::<",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literal starting at `s` (after spaces), as written, and the rest after it.
fn literal(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    if let Some(raw) = s.strip_prefix('r') {
        let hashes = raw.chars().take_while(|c| *c == '#').count();
        let body = raw[hashes..].strip_prefix('"')?;
        let close = format!("\"{}", "#".repeat(hashes));
        let end = body.find(&close)?;
        return Some((body[..end].to_string(), &body[end + close.len()..]));
    }
    let body = s.strip_prefix('"')?;
    let mut text = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, e)) = chars.next() {
                    text.push(e);
                }
            }
            '"' => return Some((text, &body[i + 1..])),
            c => text.push(c),
        }
    }
    None
}

/// The highest `$n` a statement names.
fn parameters(sql: &str) -> usize {
    let bytes = sql.as_bytes();
    let mut max = 0;
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'$' {
            let digits: String = sql[i + 1..].chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse::<usize>() {
                max = max.max(n);
            }
        }
    }
    max
}

/// The `.bind(` calls of the chain that follows, up to where it runs or ends.
fn binds(chain: &str) -> usize {
    let ends = [".fetch", ".execute", ";", "QueryBuilder"];
    let end = ends.iter().filter_map(|e| chain.find(e)).min().unwrap_or(chain.len());
    chain[..end].matches(".bind(").count()
}

#[test]
fn every_literal_statement_binds_as_many_values_as_it_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    for dir in CRATES {
        let dir = root.join(dir);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
    }
    let (mut checked, mut wrong) = (0, Vec::new());
    for file in files {
        let source = fs::read_to_string(&file).unwrap();
        for call in CALLS {
            for (at, _) in source.match_indices(call) {
                let mut rest = &source[at + call.len()..];
                if call.ends_with('<') {
                    let Some(open) = rest.find(">(") else { continue };
                    rest = &rest[open + 2..];
                }
                let Some((sql, after)) = literal(rest) else { continue };
                let Some(close) = after.find(')') else { continue };
                if !after[..close].trim().trim_end_matches(',').trim().is_empty() {
                    continue;
                }
                checked += 1;
                let (named, bound) = (parameters(&sql), binds(&after[close + 1..]));
                if named != bound {
                    let line = source[..at].lines().count() + 1;
                    wrong.push(format!(
                        "{}:{line}: names ${named}, binds {bound}: {sql}",
                        file.display()
                    ));
                }
            }
        }
    }
    // Nearly every statement is a `query!` macro now (the compiler counts their parameters); the five of
    // the tests-only gateway's ledger are left run-time, enough to show the scan still finds them.
    assert!(checked >= 5, "the scan found only {checked} statements");
    assert!(
        wrong.is_empty(),
        "statements whose binds differ from their parameters:\n{}",
        wrong.join("\n")
    );
}
