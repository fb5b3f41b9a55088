import { amountAgrees, statedAmounts } from '../../../src/grader/checks/text-amounts';
import { conceptsIn } from '../../../src/grader/checks/text-vocabulary';

const vocabulary = { price: ['price increase', 'supplier cost increase'], rebate: ['rebate'] };
const said = (text: string, weak: -1 | 0 | 1 = 0) => statedAmounts(text, conceptsIn(text, vocabulary), weak).map((a) => [a.text, a.strong || a.weak]);

describe('the direction of a stated amount', () => {
  it('is a decrease when written with a minus sign or in parentheses, in any currency format', () => {
    expect(said('Rebate: -1,234.56; write-off ($50.00); price USD -7.00; mix −3.50')).toEqual([['-1,234.56', -1], ['($50.00)', -1], ['USD -7.00', -1], ['−3.50', -1]]);
  });

  it('is the word of direction beside the figure, not one that leads to a level', () => {
    expect(said('Gross margin fell from 12,345.67 in August to 11,000.00 in September, a decrease of 1,345.67.')).toEqual([['12,345.67', 0], ['11,000.00', 0], ['1,345.67', -1]]);
    expect(said('The rebate added 500.00 to margin, and the freight cost us $20.00.')).toEqual([['500.00', 1], ['$20.00', -1]]);
    expect(said('Margin was 11,000.00, down 1,345.67')).toEqual([['11,000.00', 0], ['1,345.67', -1]]);
  });

  it('is a word anywhere in a unit that gives one figure, and never a word inside a concept', () => {
    expect(said('The write-off of damaged stock reduced gross margin in September by 1,234.56.')).toEqual([['1,234.56', -1]]);
    expect(said('Supplier cost increase: 1,234.56.')).toEqual([['1,234.56', 0]]);
  });

  it("is the heading's when the figure's own text says none", () => {
    expect(said('Amount: 1,234.56', -1)).toEqual([['1,234.56', -1]]);
    expect(said('Amount: 1,234.56 higher', -1)).toEqual([['1,234.56', 1]]);
  });
});

describe('an expected amount', () => {
  const [unsigned] = statedAmounts('1,234.56', [], 0);
  const [negative] = statedAmounts('(1,234.56)', [], 0);
  it('agrees within the tolerance, a decrease only when said to be one, an increase unless said to be a decrease', () => {
    expect(amountAgrees(negative!, -1234.56, 0.005, true)).toBe(true);
    expect(amountAgrees(unsigned!, -1234.56, 0.005, true)).toBe(false);
    expect(amountAgrees(unsigned!, -1234.56, 0.005, false)).toBe(true);
    expect(amountAgrees(unsigned!, 1234.56, 0.005, true)).toBe(true);
    expect(amountAgrees(negative!, 1234.56, 0.005, true)).toBe(false);
    expect(amountAgrees(negative!, -1234.57, 0.005, true)).toBe(false);
    expect(amountAgrees(negative!, -1234.57, 0.01, true)).toBe(true);
  });
});
