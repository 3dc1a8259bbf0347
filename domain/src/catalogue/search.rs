//! Browsing and search over active mentors: PostgreSQL full-text search with typo tolerance
//! (pg_trgm word similarity), filters, sorting and pagination.

use sqlx::{PgPool, Postgres, QueryBuilder};

use super::{
    mentors::{self, Mentor, MentorWithServices},
    vocabulary,
};
use crate::{Error, Result, money, text};

pub const DEFAULT_PAGE_SIZE: i64 = 12;
pub const MAX_PAGE_SIZE: i64 = 50;
pub const MAX_SEARCH_CHARS: usize = 200;
/// Pages beyond this are refused before any arithmetic (10,000 pages of 50 is far past the catalogue).
pub const MAX_PAGE: i64 = 10_000;
pub const PAGE_TOO_LARGE: &str = "Page must be at most 10000";
/// How close (pg_trgm similarity) a word of the catalogue must be to a query word to count as
/// the same word misspelled, on either side.
pub const TYPO_SIMILARITY: &str = "0.3";
/// Query words shorter than this are matched exactly: short words have too few trigrams.
pub const MIN_TYPO_WORD_CHARS: i32 = 4;
/// At most this many spellings are tried for each query word.
pub const MAX_SPELLINGS_PER_WORD: i32 = 6;
/// The weights of the search vector for `ts_rank_cd`, in its order {D, C, B, A}: the name (D)
/// counts as much as the specialties (A), then service titles (B), then the bio (C).
pub const RANK_WEIGHTS: &str = "{1.0, 0.2, 0.4, 1.0}";
/// The parts of the search vector other than the name: specialties, service titles, bio.
const NOT_THE_NAME: &str = "ABC";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sort {
    /// Best match first when searching; otherwise the same as `Rating`.
    #[default]
    Relevance,
    Rating,
    /// Cheapest "From" price (the cheapest active service) first.
    Price,
    /// Most sessions first.
    Sessions,
}

impl Sort {
    pub fn parse(raw: &str) -> Result<Self> {
        match raw {
            "" | "relevance" => Ok(Sort::Relevance),
            "rating" => Ok(Sort::Rating),
            "price" => Ok(Sort::Price),
            "sessions" => Ok(Sort::Sessions),
            _ => Err(Error::validation(
                "Sort must be one of relevance, rating, price, sessions",
            )),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Query {
    pub service: Option<String>,
    pub search: Option<String>,
    pub min_price: Option<String>,
    pub max_price: Option<String>,
    pub min_rating: Option<String>,
    pub sort: Sort,
    pub page: Option<i64>,
    pub page_size: Option<i64>,
}

pub struct Page {
    pub mentors: Vec<MentorWithServices>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// The page (from 1; lower values mean 1) and page size (clamped to 1..=50), range-checked so
/// the offset cannot overflow.
pub fn paging(page: Option<i64>, page_size: Option<i64>) -> Result<(i64, i64)> {
    let page = page.unwrap_or(1).max(1);
    if page > MAX_PAGE {
        return Err(Error::validation(PAGE_TOO_LARGE));
    }
    Ok((page, page_size.unwrap_or(DEFAULT_PAGE_SIZE).clamp(1, MAX_PAGE_SIZE)))
}

/// A listing request, checked and normalised: two requests that must show the same page are equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Listing {
    search: Option<String>,
    service: Option<String>,
    min_price: Option<i64>,
    max_price: Option<i64>,
    min_rating: Option<String>,
    sort: Sort,
    page: i64,
    page_size: i64,
}

impl Listing {
    /// Whether the listing searches words: only then can a change of a mentor's search text
    /// (name, specialties, service titles, bio) alter which mentors it lists or their order.
    pub fn is_search(&self) -> bool {
        self.search.is_some()
    }

    pub fn service(&self) -> Option<&str> {
        self.service.as_deref()
    }

    pub fn min_price(&self) -> Option<i64> {
        self.min_price
    }

    pub fn max_price(&self) -> Option<i64> {
        self.max_price
    }

    /// As sent (trimmed), compared as a numeric.
    pub fn min_rating(&self) -> Option<&str> {
        self.min_rating.as_deref()
    }

    pub fn sort(&self) -> Sort {
        self.sort
    }

    pub fn page(&self) -> i64 {
        self.page
    }

    pub fn page_size(&self) -> i64 {
        self.page_size
    }

    pub fn new(q: Query) -> Result<Self> {
        let (page, page_size) = paging(q.page, q.page_size)?;
        if let Some(s) = q.search.as_deref() {
            text::single_line(s, "Search")?;
        }
        let service = q
            .service
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "all");
        if let Some(s) = service
            && !vocabulary::is_service_type(s)
        {
            return Err(Error::validation("Unknown service type"));
        }
        let search = q
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.chars().take(MAX_SEARCH_CHARS).collect());
        let min_price = q
            .min_price
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(|p| money::parse(p, "minPrice must be a valid amount"))
            .transpose()?;
        let max_price = q
            .max_price
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(|p| money::parse(p, "maxPrice must be a valid amount"))
            .transpose()?;
        let min_rating = match q.min_rating.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            Some(r) => Some(
                r.parse::<f64>()
                    .ok()
                    .filter(|v| (0.0..=5.0).contains(v))
                    .map(|_| r.to_string())
                    .ok_or_else(|| Error::validation("minRating must be a number from 0 to 5"))?,
            ),
            None => None,
        };
        Ok(Self {
            search,
            service: service.map(str::to_string),
            min_price,
            max_price,
            min_rating,
            sort: q.sort,
            page,
            page_size,
        })
    }
}

pub async fn mentors(db: &PgPool, q: Query) -> Result<Page> {
    listing(db, &Listing::new(q)?).await
}

pub async fn listing(db: &PgPool, l: &Listing) -> Result<Page> {
    let (page, page_size, search) = (l.page, l.page_size, l.search.as_deref());
    let filters = Filters {
        search,
        service: l.service.as_deref(),
        min_price: l.min_price,
        max_price: l.max_price,
        min_rating: l.min_rating.as_deref(),
    };
    // One statement finds the matches once, keeps the listed ones, then counts them and takes the page.
    // Run-time SQL: its columns, conditions and order follow the listing's search, filters and sort.
    let mut query = QueryBuilder::new("WITH matches AS MATERIALIZED (");
    let select = if search.is_some() {
        format!(
            "m.id, ts_rank_cd('{RANK_WEIGHTS}', m.search_vector, q.ts) AS rank, m.search_vector @@ q.strict AS strict, \
             m.rating, m.review_count, m.total_sessions, m.from_price_cents, m.created_at"
        )
    } else {
        "m.id, 0::real AS rank, true AS strict, m.rating, m.review_count, m.total_sessions, m.from_price_cents, m.created_at"
            .to_string()
    };
    filters.push(&mut query, &select);
    // A mentor found only through a misspelling of their name ('tarot' ~ 'Tariq') is left out
    // when other mentors match the search itself (in any part) or a misspelling of it in what
    // they offer; with no such mentor, the name's near misses are the best there is.
    query.push(
        "), listed AS (SELECT * FROM matches WHERE strict OR NOT EXISTS (SELECT 1 FROM matches WHERE strict)) \
         SELECT (SELECT count(*) FROM listed), ARRAY(SELECT id FROM listed ORDER BY ",
    );
    query.push(match (l.sort, search.is_some()) {
        (Sort::Relevance, true) => "rank DESC, rating DESC, review_count DESC, total_sessions DESC",
        (Sort::Relevance | Sort::Rating, _) => "rating DESC, review_count DESC, total_sessions DESC",
        (Sort::Price, _) => "from_price_cents ASC, rating DESC, review_count DESC, total_sessions DESC",
        (Sort::Sessions, _) => "total_sessions DESC, rating DESC, review_count DESC",
    });
    query
        .push(", created_at, id LIMIT ")
        .push_bind(page_size)
        .push(" OFFSET ")
        .push_bind(crate::paging::offset(page, page_size))
        .push(")");

    // The typo threshold (`%`) is TYPO_SIMILARITY on every connection of the pool (`db::connect`
    // sets it when connecting; it is also PostgreSQL's default), so no transaction sets it here.
    let (total, ids): (i64, Vec<uuid::Uuid>) = query.build_query_as().fetch_one(db).await?;
    if ids.is_empty() {
        return Ok(Page {
            mentors: Vec::new(),
            total,
            page,
            page_size,
        });
    }

    let found: Vec<Mentor> = super::mentors::query_mentors!("WHERE m.id = ANY($1)", &ids)
        .fetch_all(db)
        .await?;
    let ordered = ids
        .iter()
        .filter_map(|id| found.iter().find(|m| m.id == *id).cloned())
        .collect();
    Ok(Page {
        mentors: mentors::with_services(db, ordered, false).await?,
        total,
        page,
        page_size,
    })
}

/// The WHERE of a mentor listing; written once for the count and once for the page.
struct Filters<'a> {
    search: Option<&'a str>,
    service: Option<&'a str>,
    min_price: Option<i64>,
    max_price: Option<i64>,
    min_rating: Option<&'a str>,
}

impl Filters<'_> {
    /// `WITH q AS (<the tsquery>) SELECT <select> FROM mentors m, q WHERE <filters>`
    fn push(&self, b: &mut QueryBuilder<Postgres>, select: &str) {
        match self.search {
            // Each query word becomes (the word OR catalogue words spelled like it); all words must match.
            Some(search) => {
                b.push("WITH query_words AS (SELECT DISTINCT lower(w) AS w FROM regexp_split_to_table(");
                b.push_bind(search.to_string());
                b.push(
                    ", '[^[:alnum:]]+') AS w WHERE w <> ''), \
                     spellings AS (SELECT qw.w, tsquery_or_agg(plainto_tsquery('english', c.word)) AS ts, \
                       tsquery_or_agg(CASE WHEN c.exact THEN plainto_tsquery('english', c.word) \
                         ELSE to_tsquery('english', quote_literal(c.word) || ':",
                );
                b.push(NOT_THE_NAME);
                b.push(
                    "') END) AS strict FROM query_words qw \
                       CROSS JOIN LATERAL (SELECT qw.w AS word, true AS exact UNION (SELECT word, false FROM search_words \
                         WHERE char_length(qw.w) >= ",
                );
                b.push_bind(MIN_TYPO_WORD_CHARS);
                b.push(" AND word % qw.w ORDER BY similarity(word, qw.w) DESC LIMIT ");
                b.push_bind(MAX_SPELLINGS_PER_WORD);
                b.push(
                    ")) c GROUP BY qw.w), q AS (SELECT coalesce((SELECT tsquery_and_agg(ts) FROM spellings), ''::tsquery) AS ts, \
                     coalesce((SELECT tsquery_and_agg(strict) FROM spellings), ''::tsquery) AS strict) ",
                );
            }
            None => {
                b.push("WITH q AS (SELECT NULL::tsquery AS ts, NULL::tsquery AS strict) ");
            }
        }
        // A mentor without an active service has nothing to book and is not listed.
        // Nor is one whose user an admin deactivated, nor one no admin approved (yet); the
        // predicate is the listing index's (migrations `listing_index`, `mentor_vetting`).
        b.push("SELECT ")
            .push(select)
            .push(" FROM mentors m, q WHERE m.is_active AND m.approval_status = 'approved' AND m.from_price_cents IS NOT NULL");
        b.push(" AND EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND mu.is_active)");
        if self.search.is_some() {
            b.push(" AND m.search_vector @@ q.ts");
        }
        if let Some(s) = self.service {
            b.push(
                " AND EXISTS (SELECT 1 FROM services s WHERE s.mentor_id = m.id AND s.is_active AND s.service_type = ",
            );
            b.push_bind(s.to_string());
            b.push(")");
        }
        if let Some(p) = self.min_price {
            b.push(" AND m.from_price_cents >= ").push_bind(p);
        }
        if let Some(p) = self.max_price {
            b.push(" AND m.from_price_cents <= ").push_bind(p);
        }
        if let Some(r) = self.min_rating {
            b.push(" AND m.rating >= ").push_bind(r.to_string()).push("::numeric");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_range_checked_before_the_offset_is_computed() {
        assert_eq!(paging(None, None).unwrap(), (1, 12));
        assert_eq!(paging(Some(0), Some(0)).unwrap(), (1, 1));
        assert_eq!(paging(Some(i64::MIN), Some(i64::MIN)).unwrap(), (1, 1));
        assert_eq!(paging(Some(1), Some(50)).unwrap(), (1, 50));
        assert_eq!(paging(Some(1), Some(51)).unwrap(), (1, 50), "at most 50 a page");
        assert_eq!(paging(Some(10_000), Some(i64::MAX)).unwrap(), (10_000, 50));
        assert_eq!(paging(Some(10_001), None).unwrap_err().to_string(), PAGE_TOO_LARGE);
        assert_eq!(paging(Some(i64::MAX), None).unwrap_err().to_string(), PAGE_TOO_LARGE);
    }
}
