//! Where a page of a listing starts.

/// The number of rows before page `page` (from 1; lower values mean 1) of `page_size` rows.
/// Saturates instead of overflowing: a page far past the end is simply empty.
pub fn offset(page: i64, page_size: i64) -> i64 {
    (page.max(1) - 1).saturating_mul(page_size.max(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_start_where_the_previous_ones_end() {
        assert_eq!(offset(1, 20), 0);
        assert_eq!(offset(3, 20), 40);
        assert_eq!(offset(0, 20), 0);
        assert_eq!(offset(-5, 20), 0);
    }

    #[test]
    fn a_page_past_any_end_saturates_instead_of_overflowing() {
        assert_eq!(offset(i64::MAX, 50), i64::MAX);
        assert_eq!(offset(9_223_372_036_854_775_806, 576_460_752_303_423_488), i64::MAX);
    }
}
