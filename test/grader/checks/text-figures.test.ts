import { figureMatches, figuresIn } from '../../../src/grader/checks/text-figures';

describe('reading the figures of an answer', () => {
  it('reads amounts however a person writes them', () => {
    // given amounts with separators, currency, accounting and minus-sign negatives
    const text = 'Revenue 1,234.50; $1,234.50; USD 1,234.50; 1234.5; (250.00); ($250.00); $(250.00); -$250; $-250; −250; 2%.';
    // then each is its value
    expect(figuresIn(text)).toEqual([1234.5, 1234.5, 1234.5, 1234.5, -250, -250, -250, -250, -250, -250, 2]);
  });

  it('reads the figures in bold and code marks and at the end of a sentence', () => {
    expect(figuresIn('The rebate was **$4,560.00**. The write-off was `1,200`.')).toEqual([4560, 1200]);
  });

  it('does not make one figure out of a list of small ones', () => {
    // given a comma-separated list, which is not thousands grouping
    expect(figuresIn('Seeds 3,4,5 and 1,23')).toEqual([3, 4, 5, 1, 23]);
  });

  it('takes no figure out of identifiers and dates', () => {
    // given document ids, ordinals and an ISO date
    const text = 'Credit memo CM-000123 on 2026-09-30 for INV7, the 3rd of its kind, Q3';
    // then none of their digits is a figure
    expect(figuresIn(text)).toEqual([]);
  });

  it('reads the second number of a range as positive', () => {
    expect(figuresIn('away 12-16 October')).toEqual([12, 16]);
  });

  it('reads an abbreviation only when the task says so', () => {
    // given 1.2k, $3.4m and 2bn
    const text = 'about $1.2k, then 3.4m and 2bn; 5 miles';
    // when abbreviations are not allowed (the default), they are not figures at all: not 1.2, not 1200
    expect(figuresIn(text)).toEqual([5]);
    // when they are, they are scaled
    expect(figuresIn(text, { abbreviations: true })).toEqual([1200, 3400000, 2e9, 5]);
  });

  it('matches within a tolerance, and by magnitude only when the sign is free', () => {
    const found = figuresIn('margin fell by (4,560.00)');
    expect(figureMatches(found, -4560, 0.005)).toBe(true);
    expect(figureMatches(found, 4560, 0.005)).toBe(false);
    expect(figureMatches(found, 4560, 0.005, true)).toBe(true);
    expect(figureMatches(found, -4561, 0.5)).toBe(false);
    expect(figureMatches(found, -4561, 1)).toBe(true);
  });
});
