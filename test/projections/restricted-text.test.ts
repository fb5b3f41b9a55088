import { asciiDigit, findNumbers, maskNumbersInText } from '../../src/projections/restricted-text';

const numbers = new Set(['041000124', '1234569170']);

describe('a restricted number in free text', () => {
  it('is found with where it starts and ends, however its groups are separated', () => {
    const text = 'Routing 0410-00124 / account 1234 569 170.';
    expect(findNumbers(text, numbers).map((s) => [s.value, text.slice(s.start, s.end)])).toEqual([['041000124', '0410-00124'], ['1234569170', '1234 569 170']]);
  });

  it('is masked to its last four digits, the text around it kept', () => {
    expect(maskNumbersInText('Routing 0410.00124, account １２３４５６９１７０!', numbers)).toBe('Routing •••••0124, account ••••••9170!');
  });

  it('is left alone when it is part of a longer number, or only its last four digits are written', () => {
    const text = 'Order 10410001249, account ending 9170';
    expect(maskNumbersInText(text, numbers)).toBe(text);
  });

  it('is not looked for when no numbers are on file', () => {
    expect(findNumbers('1234569170', new Set())).toEqual([]);
  });
});

describe('a decimal digit in any script', () => {
  it('reads as its ASCII digit', () => {
    expect(['7', '７', '٣', '۵', '९', '𝟠'].map(asciiDigit)).toEqual(['7', '7', '3', '5', '9', '8']);
    expect(['a', '-', '½'].map(asciiDigit)).toEqual([undefined, undefined, undefined]);
  });
});
