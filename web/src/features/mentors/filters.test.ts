import { describe, expect, it } from 'vitest';
import { pageCount, readFilters, resultCountText, toMentorSearch, withFilters } from './filters';

const params = (text: string) => new URLSearchParams(text);

describe('/mentors query string', () => {
  it('reads the filters, ignoring what is not valid', () => {
    expect(
      readFilters(params('service=tarot&search=%20luna%20&minPrice=10&maxPrice=90&minRating=4&sort=price&page=2')),
    ).toEqual({
      service: 'tarot',
      search: 'luna',
      minPrice: 10,
      maxPrice: 90,
      minRating: 4,
      sort: 'price',
      page: 2,
    });
    expect(readFilters(params('service=palmistry&minPrice=-1&minRating=9&sort=cheapest&page=0'))).toEqual({
      service: undefined,
      search: '',
      minPrice: undefined,
      maxPrice: undefined,
      minRating: undefined,
      sort: undefined,
      page: 1,
    });
  });

  it("reads the client dashboard's ?type= as the service", () => {
    expect(readFilters(params('type=astrology')).service).toBe('astrology');
    expect(withFilters(params('type=astrology'), { service: 'tarot' }).toString()).toBe('service=tarot');
  });

  it('writes changes, back to page 1 unless the page changes', () => {
    expect(withFilters(params('service=tarot&page=3'), { search: 'moon' }).toString()).toBe(
      'service=tarot&search=moon',
    );
    expect(withFilters(params('service=tarot'), { page: 2 }).toString()).toBe('service=tarot&page=2');
    expect(withFilters(params('service=tarot&search=x'), { service: undefined, search: '' }).toString()).toBe('');
  });

  it('turns the filters into api parameters', () => {
    expect(toMentorSearch(readFilters(params('')))).toEqual({ page: 1, pageSize: 12 });
    expect(toMentorSearch(readFilters(params('service=meditation&search=calm&minRating=4.5&page=3')))).toEqual({
      service: 'meditation',
      search: 'calm',
      minRating: 4.5,
      page: 3,
      pageSize: 12,
    });
    // A reversed range is swapped; relevance without a search term is the api's default instead.
    expect(toMentorSearch(readFilters(params('minPrice=80&maxPrice=20&sort=relevance')))).toEqual({
      minPrice: 20,
      maxPrice: 80,
      page: 1,
      pageSize: 12,
    });
  });

  it('counts pages and results', () => {
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(12, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
    expect(resultCountText(1)).toBe('1 mentor found');
    expect(resultCountText(26)).toBe('26 mentors found');
  });
});
