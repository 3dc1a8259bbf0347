//! WebDAV's XML (RFC 4918 multistatus, CalDAV's properties) read with a namespace-aware parser
//! into a small tree, and the request bodies CalDAV needs.

use quick_xml::{
    NsReader,
    events::Event,
    name::{Namespace, ResolveResult},
};

pub const DAV: &str = "DAV:";
pub const CALDAV: &str = "urn:ietf:params:xml:ns:caldav";

/// One element: its namespace, local name, children and text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Element {
    pub ns: String,
    pub name: String,
    pub children: Vec<Element>,
    pub text: String,
    /// Attributes by local name.
    pub attrs: Vec<(String, String)>,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn is(&self, ns: &str, name: &str) -> bool {
        self.ns == ns && self.name == name
    }

    /// The first child named so.
    pub fn child(&self, ns: &str, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.is(ns, name))
    }

    pub fn children_named<'a>(&'a self, ns: &'a str, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.is(ns, name))
    }

    /// Every descendant (depth first) named so.
    pub fn descendants<'a>(&'a self, ns: &str, name: &str, out: &mut Vec<&'a Element>) {
        for c in &self.children {
            if c.is(ns, name) {
                out.push(c);
            }
            c.descendants(ns, name, out);
        }
    }

    /// The text of the first `<D:href>` below this element.
    pub fn href(&self) -> Option<&str> {
        let mut found = Vec::new();
        self.descendants(DAV, "href", &mut found);
        found.first().map(|h| h.text.trim()).filter(|t| !t.is_empty())
    }
}

/// Parses a document into its root element.
pub fn parse(xml: &str) -> Result<Element, String> {
    let mut reader = NsReader::from_str(xml);
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        let (ns, event) = reader.read_resolved_event().map_err(|e| e.to_string())?;
        let ns = match ns {
            ResolveResult::Bound(Namespace(n)) => String::from_utf8_lossy(n).into_owned(),
            _ => String::new(),
        };
        match event {
            Event::Start(e) => stack.push(Element {
                ns,
                name: String::from_utf8_lossy(e.local_name().as_ref()).into_owned(),
                attrs: attributes(&e),
                ..Element::default()
            }),
            Event::Empty(e) => {
                let el = Element {
                    ns,
                    name: String::from_utf8_lossy(e.local_name().as_ref()).into_owned(),
                    attrs: attributes(&e),
                    ..Element::default()
                };
                stack.last_mut().expect("a root").children.push(el);
            }
            Event::End(_) => {
                let el = stack.pop().expect("balanced");
                let Some(parent) = stack.last_mut() else {
                    return Err("unbalanced XML".into());
                };
                parent.children.push(el);
            }
            Event::Text(t) => {
                let text = t.unescape().map_err(|e| e.to_string())?;
                stack.last_mut().expect("a root").text.push_str(&text);
            }
            Event::CData(c) => {
                stack
                    .last_mut()
                    .expect("a root")
                    .text
                    .push_str(&String::from_utf8_lossy(&c.into_inner()));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut doc = stack.pop().ok_or("no document")?;
    if !stack.is_empty() {
        return Err("unbalanced XML".into());
    }
    doc.children
        .pop()
        .filter(|_| doc.children.is_empty())
        .ok_or_else(|| "not one root element".into())
}

fn attributes(e: &quick_xml::events::BytesStart<'_>) -> Vec<(String, String)> {
    e.attributes()
        .flatten()
        .map(|a| {
            (
                String::from_utf8_lossy(a.key.local_name().as_ref()).into_owned(),
                a.unescape_value()
                    .map(|v| v.into_owned())
                    .unwrap_or_else(|_| String::from_utf8_lossy(&a.value).into_owned()),
            )
        })
        .collect()
}

/// One `<D:response>` of a multistatus: its href and the properties it found (status 200).
#[derive(Clone, Debug, Default)]
pub struct Response {
    pub href: String,
    pub props: Vec<Element>,
}

impl Response {
    pub fn prop(&self, ns: &str, name: &str) -> Option<&Element> {
        self.props.iter().find(|p| p.is(ns, name))
    }
}

/// The responses of a `<D:multistatus>`, with the properties of its 2xx propstats only.
pub fn multistatus(xml: &str) -> Result<Vec<Response>, String> {
    let root = parse(xml)?;
    if !root.is(DAV, "multistatus") {
        return Err(format!("expected a DAV multistatus, got <{}>", root.name));
    }
    Ok(root
        .children_named(DAV, "response")
        .map(|r| Response {
            href: r
                .child(DAV, "href")
                .map(|h| h.text.trim().to_string())
                .unwrap_or_default(),
            props: r
                .children_named(DAV, "propstat")
                .filter(|ps| {
                    ps.child(DAV, "status")
                        .is_none_or(|s| s.text.split_whitespace().nth(1).is_some_and(|c| c.starts_with('2')))
                })
                .filter_map(|ps| ps.child(DAV, "prop"))
                .flat_map(|p| p.children.iter().cloned())
                .collect(),
        })
        .collect())
}

pub const PRINCIPAL_QUERY: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><d:current-user-principal/><c:calendar-home-set/><d:resourcetype/></d:prop>
</d:propfind>"#;

pub const CALENDARS_QUERY: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><d:displayname/><d:resourcetype/><c:supported-calendar-component-set/><d:current-user-privilege-set/></d:prop>
</d:propfind>"#;

/// A calendar-query REPORT for the VEVENTs overlapping `[start, end)` (UTC, `YYYYMMDDTHHMMSSZ`).
pub fn events_query(start: &str, end: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><d:getetag/><c:calendar-data/></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
    <c:time-range start="{start}" end="{end}"/>
  </c:comp-filter></c:comp-filter></c:filter>
</c:calendar-query>"#
    )
}

/// Whether a `<D:resourcetype>` says calendar.
pub fn is_calendar(resourcetype: Option<&Element>) -> bool {
    resourcetype.is_some_and(|t| t.child(CALDAV, "calendar").is_some())
}

/// Whether a collection takes events: no `supported-calendar-component-set` (all kinds) or one
/// that names VEVENT.
pub fn takes_events(set: Option<&Element>) -> bool {
    let Some(set) = set else { return true };
    let mut comps: Vec<&Element> = set.children_named(CALDAV, "comp").collect();
    comps.retain(|c| c.attr("name").is_some());
    comps.is_empty()
        || comps
            .iter()
            .any(|c| c.attr("name").is_some_and(|n| n.eq_ignore_ascii_case("VEVENT")))
}

/// Whether the user may write into the collection: a `current-user-privilege-set` naming
/// write, write-content, bind or all (none reported: assumed writable).
pub fn writable(privileges: Option<&Element>) -> bool {
    let Some(set) = privileges else { return true };
    let mut found = Vec::new();
    set.descendants(DAV, "privilege", &mut found);
    found.iter().any(|p| {
        p.children
            .iter()
            .any(|c| c.ns == DAV && matches!(c.name.as_str(), "write" | "write-content" | "bind" | "all"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRINCIPAL: &str = r#"<?xml version="1.0"?>
<multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <response><href>/</href>
    <propstat><prop><current-user-principal><href>/user/</href></current-user-principal></prop>
      <status>HTTP/1.1 200 OK</status></propstat>
    <propstat><prop><C:calendar-home-set/></prop><status>HTTP/1.1 404 Not Found</status></propstat>
  </response>
</multistatus>"#;

    #[test]
    fn a_multistatus_keeps_found_properties_only() {
        let rs = multistatus(PRINCIPAL).unwrap();
        assert_eq!(rs.len(), 1);
        assert_eq!(rs[0].href, "/");
        assert_eq!(
            rs[0].prop(DAV, "current-user-principal").and_then(Element::href),
            Some("/user/")
        );
        assert!(rs[0].prop(CALDAV, "calendar-home-set").is_none());
        assert!(multistatus("<html><body>hi</body></html>").is_err());
        assert!(multistatus("not xml <").is_err());
    }

    #[test]
    fn calendars_are_told_by_resourcetype_and_privileges() {
        let xml = r#"<d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">
  <d:response><d:href>/user/work/</d:href><d:propstat><d:prop>
    <d:displayname>Work &amp; life</d:displayname>
    <d:resourcetype><d:collection/><cal:calendar/></d:resourcetype>
    <d:current-user-privilege-set><d:privilege><d:read/></d:privilege></d:current-user-privilege-set>
  </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
  <d:response><d:href>/user/</d:href><d:propstat><d:prop>
    <d:resourcetype><d:collection/></d:resourcetype>
    <d:current-user-privilege-set><d:privilege><d:all/></d:privilege></d:current-user-privilege-set>
  </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
</d:multistatus>"#;
        let rs = multistatus(xml).unwrap();
        assert_eq!(rs[0].prop(DAV, "displayname").unwrap().text, "Work & life");
        assert!(is_calendar(rs[0].prop(DAV, "resourcetype")));
        assert!(!writable(rs[0].prop(DAV, "current-user-privilege-set")));
        assert!(!is_calendar(rs[1].prop(DAV, "resourcetype")));
        assert!(writable(rs[1].prop(DAV, "current-user-privilege-set")));
        assert!(writable(None));
        let set = |comps: &str| parse(&format!(r#"<s xmlns="urn:ietf:params:xml:ns:caldav">{comps}</s>"#)).unwrap();
        assert!(takes_events(Some(&set(r#"<comp name="VEVENT"/><comp name="VTODO"/>"#))));
        assert!(!takes_events(Some(&set(r#"<comp name="VTODO"/>"#))));
        assert!(takes_events(None));
    }
}
