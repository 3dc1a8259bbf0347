//! The modules of every crate (`domain`, `api`, `jobs`, `worker`) depend on each other one way:
//! among the top-level modules, and among the children of every folder, no module reaches back to
//! one that reaches it. A circle makes two areas one in all but name.
//!
//! It reads each crate's `src/` as text: every `crate::…` and `super::…` path, in `use` trees and
//! inline, is an edge from the file's module to the longest module that path names. Edges to an
//! ancestor (a folder's `mod.rs`) are structure, not dependencies, and are left out.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

type Module = Vec<String>;
type Graph = BTreeMap<String, BTreeSet<String>>;

/// Folders (`crate` or `crate::path`) whose children still form a circle, with why. Empty is the
/// goal: the test fails once a listed circle is gone, so the line cannot outlive it.
const KNOWN_CIRCLES: &[(&str, &str)] = &[];

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/booking/open_slots.rs` is `booking::open_slots`; `mod.rs`, `lib.rs` and `main.rs` are
/// their folder.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut segments: Module = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if matches!(segments.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        segments.pop();
    }
    segments
}

/// The text without `//` comments (doc links name modules without depending on them).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths of a `use` tree: `a::{b, c::{d, e as f}}` is `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        return vec![path.to_owned()];
    };
    let Some(close) = tree.rfind('}').filter(|&c| c > open) else {
        // Not a use tree after all (the word in a string): nothing to read.
        return Vec::new();
    };
    let prefix = &tree[..open];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, open + 1);
    for (i, c) in tree.char_indices().take(close).skip(open + 1) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&tree[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tree[start..close]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(p).into_iter().map(move |e| format!("{prefix}{e}")))
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every `crate::…` / `super::…` path in `text`, with the byte offset where it appears.
fn paths_in(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // `use` trees, whose braces hide the later segments from the inline scan below.
    let mut rest = 0;
    while let Some(at) = text[rest..].find("use ") {
        let at = rest + at;
        rest = at + 4;
        if at > 0 && text[..at].ends_with(|c: char| is_ident(c) || c == ':') {
            continue;
        }
        let Some(end) = text[rest..].find(';') else { break };
        let tree: String = text[rest..rest + end].split_whitespace().collect::<Vec<_>>().join(" ");
        for path in expand(&tree) {
            found.push((at, path.replace(' ', "")));
        }
    }
    // Inline paths such as `crate::booking::bookings::find(..)`.
    for root in ["crate::", "super::"] {
        for (at, _) in text.match_indices(root) {
            if at > 0 && text[..at].ends_with(|c: char| is_ident(c) || c == ':') {
                continue;
            }
            let path: String = text[at..].chars().take_while(|&c| is_ident(c) || c == ':').collect();
            found.push((at, path.trim_end_matches(':').to_owned()));
        }
    }
    found
}

/// Module to the modules it names (its own ancestors left out).
fn dependencies(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    source_files(src, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for file in &files {
        let me = module_of(src, file);
        let text = without_comments(&std::fs::read_to_string(file).unwrap());
        // Inside the file's inline `mod tests`, `super` is the file's own module.
        let tests_at = text.find("mod tests {").unwrap_or(usize::MAX);
        for (at, path) in paths_in(&text) {
            let mut segments = path.split("::").filter(|s| !s.is_empty());
            let mut target: Module = match segments.next() {
                Some("crate") => Vec::new(),
                Some("super") => {
                    let mut base = me.clone();
                    if at < tests_at {
                        base.pop();
                    }
                    base
                }
                _ => continue,
            };
            let mut segments = segments.peekable();
            while segments.peek() == Some(&"super") {
                segments.next();
                target.pop();
            }
            target.extend(segments.map(str::to_owned));
            while !target.is_empty() && !modules.contains(&target) {
                target.pop();
            }
            if !me.starts_with(&target) {
                edges.entry(me.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

/// The graph among the children of `parent`: an edge from child `a` to child `b` when anything in
/// `a` names anything in `b`.
fn children_graph(edges: &BTreeMap<Module, BTreeSet<Module>>, parent: &[String]) -> Graph {
    let n = parent.len();
    let mut graph = Graph::new();
    for (from, tos) in edges {
        for to in tos {
            if from.len() > n && to.len() > n && from.starts_with(parent) && to.starts_with(parent) && from[n] != to[n]
            {
                graph.entry(from[n].clone()).or_default().insert(to[n].clone());
            }
        }
    }
    graph
}

/// One circle of `graph` (`a → b → … → a`), if it has any.
fn circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(node: &str, graph: &Graph, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut circle = path[start..].to_vec();
            circle.push(node.to_owned());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The `src/` of a crate of the workspace, next to `domain`.
fn src_of(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(krate).join("src")
}

/// Every circle in the crate at `src`, among its top-level modules and among the children of each
/// of its folders, as readable lines (empty when there is none).
fn circles_in(krate: &str, src: &Path) -> Vec<String> {
    let edges = dependencies(src);
    let folders: BTreeSet<Module> = edges
        .keys()
        .flat_map(|m| (0..m.len()).map(|n| m[..n].to_vec()))
        .chain([Vec::new()])
        .collect();
    let name = |folder: &Module| {
        if folder.is_empty() {
            krate.to_owned()
        } else {
            format!("{krate}::{}", folder.join("::"))
        }
    };
    let mut circles = Vec::new();
    for folder in &folders {
        let at = name(folder);
        let known = KNOWN_CIRCLES.iter().any(|(f, _)| *f == at);
        match circle(&children_graph(&edges, folder)) {
            Some(circle) if !known => circles.push(format!("in {at}: {}", circle.join(" → "))),
            None if known => circles.push(format!("{at} has no circle any more: remove it from KNOWN_CIRCLES")),
            _ => {}
        }
    }
    for (folder, _) in KNOWN_CIRCLES {
        let of_this_crate = folder.split("::").next() == Some(krate);
        if of_this_crate && !folders.iter().any(|f| name(f) == *folder) {
            circles.push(format!("{folder} is gone: remove it from KNOWN_CIRCLES"));
        }
    }
    circles
}

#[test]
fn no_module_of_domain_reaches_back_to_one_that_reaches_it() {
    let circles = circles_in("domain", &src());
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn no_module_of_api_reaches_back_to_one_that_reaches_it() {
    let circles = circles_in("api", &src_of("api"));
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

/// `jobs` has a listed circle in KNOWN_CIRCLES (TODO(h32homes)); every other folder is checked.
#[test]
fn no_module_of_jobs_reaches_back_to_one_that_reaches_it() {
    let circles = circles_in("jobs", &src_of("jobs"));
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn no_module_of_worker_reaches_back_to_one_that_reaches_it() {
    let circles = circles_in("worker", &src_of("worker"));
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

/// The folders of the api are read like those of `domain`: its real-time folder's modules and
/// the top-level modules are in the graph.
#[test]
fn the_api_folders_are_read() {
    let edges = dependencies(&src_of("api"));
    let named = |m: &str, dep: &str| {
        let module = |m: &str| m.split("::").map(str::to_owned).collect::<Module>();
        edges.get(&module(m)).is_some_and(|deps| deps.contains(&module(dep)))
    };
    // `use super::batch::{self, Batcher};`
    assert!(named("realtime::hub", "realtime::batch"));
    // `use super::{Hub, hub::PING_EVERY};`
    assert!(named("realtime::listener", "realtime::hub"));
    // `realtime::hub::{Entry, …}` inside `use crate::{…}`
    assert!(named("socket", "realtime::hub"));
}

/// The reading finds the dependencies that are there, so an empty result means something.
#[test]
fn the_reading_sees_use_trees_inline_paths_and_super() {
    let edges = dependencies(&src());
    let of = |m: &str| {
        edges
            .get(&m.split("::").map(str::to_owned).collect::<Module>())
            .cloned()
            .unwrap_or_default()
    };
    let named = |m: &str, dep: &str| of(m).contains(&dep.split("::").map(str::to_owned).collect::<Module>());
    // `use super::{BookingStatus, bookings, lifecycle};`
    assert!(named("booking::reviews", "booking::bookings"));
    assert!(named("booking::reviews", "booking::lifecycle"));
    // `use crate::{Error, Result, catalogue::mentors, text};`
    assert!(named("booking::reviews", "catalogue::mentors"));
    assert!(named("booking::reviews", "text"));
    // `crate::notifications::notify(` inline
    assert!(named("booking::reviews", "notifications"));
    // `use super::slot_arithmetic::…` in a file of a folder
    assert!(named("booking::weekly_windows", "booking::slot_arithmetic"));
    // a folder's own `mod.rs` is an ancestor, not a dependency
    assert!(!named("booking::reviews", "booking"));
}

#[test]
fn a_circle_is_found_however_long() {
    let graph = |pairs: &[(&str, &str)]| {
        let mut g = Graph::new();
        for (a, b) in pairs {
            g.entry((*a).to_owned()).or_default().insert((*b).to_owned());
        }
        g
    };
    assert_eq!(circle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    assert_eq!(
        circle(&graph(&[("a", "b"), ("b", "a")])),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    assert_eq!(
        circle(&graph(&[("x", "a"), ("a", "b"), ("b", "c"), ("c", "a")])),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

#[test]
fn use_trees_expand_to_every_path() {
    assert_eq!(
        expand("super::{BookingStatus, slot_arithmetic::{self, Window as W}, to_jiff}"),
        [
            "super::BookingStatus",
            "super::slot_arithmetic::self",
            "super::slot_arithmetic::Window",
            "super::to_jiff"
        ]
    );
    assert_eq!(expand("crate::notifications"), ["crate::notifications"]);
}
