import { expectedOf, negativeShortfall } from '../../src/runner/validate-unit';

const control = (fails: string[], refused: string[] = []) => ({ breaks: ['PAY-1.1/date'], fails, refused, regression: null });

describe('a negative control\'s attempt judged against its declaration', () => {
  it('given it failed exactly the checks it names, then it holds', () => {
    expect(negativeShortfall(control(['run-payment-date']), new Set(['run-payment-date']), [])).toBeNull();
  });

  it('given it escaped a named check or failed one more, then each is named', () => {
    expect(negativeShortfall(control(['a', 'b']), new Set(['b', 'c']), [])).toBe('passes a; also fails c');
  });

  it('given a hard control it must meet and the probe is missing, then the refusal is named', () => {
    expect(negativeShortfall(control([], ['forbidden']), new Set(), ['invoice_on_hold'])).toBe('never refused forbidden');
    expect(negativeShortfall(control([], ['forbidden']), new Set(), ['forbidden'])).toBeNull();
  });

  it('says what is expected in words', () => {
    expect(expectedOf(control(['a', 'b']))).toBe('fails exactly a, b');
    expect(expectedOf(control([], ['forbidden']))).toBe('fails no check; refused forbidden');
  });
});
