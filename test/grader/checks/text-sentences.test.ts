import { mentions, sentences } from '../../../src/grader/checks/text-sentences';

describe('the sentences of an answer', () => {
  it('joins a paragraph wrapped over lines into its sentences', () => {
    // given a paragraph wrapped mid-sentence
    const text = 'The Harbor rebate took\n4,560.00 off revenue. The write-off\nadded 1,200.00 to cost.';
    expect(sentences(text)).toEqual(['The Harbor rebate took 4,560.00 off revenue.', 'The write-off added 1,200.00 to cost.']);
  });

  it('starts a new sentence at each heading, list item, table row and blank line', () => {
    const text = '# Bridge\nMargin fell\n- rebate 4,560.00\n- write-off\n  1,200.00\n\n| driver | amount |\n| mix | 800.00 |\n1. price 300.00';
    expect(sentences(text)).toEqual(['# Bridge', 'Margin fell', '- rebate 4,560.00', '- write-off 1,200.00', '| driver | amount |', '| mix | 800.00 |', '1. price 300.00']);
  });

  it('does not end a sentence at a decimal point', () => {
    expect(sentences('It was 1,234.50 in total. Next.')).toEqual(['It was 1,234.50 in total.', 'Next.']);
  });
});

describe('a sentence naming a document', () => {
  it('names it whole, in any case, in code marks or brackets', () => {
    expect(mentions('see `cm-000123`.', 'CM-000123')).toBe(true);
    expect(mentions('(CM-000123)', 'CM-000123')).toBe(true);
  });

  it('does not name it inside a longer identifier', () => {
    expect(mentions('CM-0001234', 'CM-000123')).toBe(false);
    expect(mentions('XCM-000123', 'CM-000123')).toBe(false);
    expect(mentions('CM-000123-R', 'CM-000123')).toBe(false);
  });
});
