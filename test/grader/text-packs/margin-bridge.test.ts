import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCheck } from '../../../src/grader/checks';
import { loadPack } from '../../../src/task-pack/load';
import { answer, styledAnswer, type Line, type Slant, type Style, type Wording } from '../../../tasks/margin-bridge/answer';
import type { Bridge } from '../../../tasks/margin-bridge/bridge';
import { LAYOUTS, NUMBER_FORMATS } from '../../../tasks/shared/text-layouts';
import { checkContext, table } from '../../support/grading';

/** answer.md graded by margin-bridge's own text checks against a reference bridge, without running the scenario. */
const pack = loadPack('margin-bridge');
const textChecks = pack.spec.checks.filter((c) => 'file' in c && c.file === 'answer.md');

const books: Bridge = {
  before: 4_812_345, after: 4_598_211,
  price: { amount: -123_456, document: 'APINV-000412' },
  rebate: { amount: -50_020, document: 'JE-000087' },
  writeOff: { amount: -31_870, document: 'ADJ-000019' },
  mix: 4_567,
  receipts: ['RCPT-000301', 'RCPT-000305'],
};
const reference = table(['driver', 'amount', 'document'], [
  ['margin_august', '48123.45', ''], ['margin_september', '45982.11', ''], ['change', '-2141.34', ''],
  ['price', '-1234.56', 'APINV-000412'], ['rebate', '-500.20', 'JE-000087'], ['write_off', '-318.70', 'ADJ-000019'], ['mix', '45.67', 'sales-margin'],
]);

function failing(text: string): string[] {
  const ctx = checkContext({ referenceTables: new Map([['bridge', reference]]) });
  writeFileSync(join(ctx.workspace, 'answer.md'), text);
  return textChecks.map((c) => runCheck(c, ctx)).filter((r) => !r.passed).map((r) => `${r.id}: ${r.detail}`);
}
const ids = (fails: string[]) => fails.map((f) => f.slice(0, f.indexOf(':')));

const WORDINGS: Wording[] = ['handbook', 'plain', 'abbreviations'];
const styles: Style[] = LAYOUTS.flatMap((layout) => NUMBER_FORMATS.flatMap((format) => WORDINGS.map((wording) => ({ layout, format, wording }))));
const named = (s: Style) => `${s.layout}, ${s.wording} words, ${s.format} amounts`;

describe("margin-bridge's answer, read by the facts it states", () => {
  it('given the oracle\'s answer, then every text check passes', () => {
    expect(failing(answer(books, {}))).toEqual([]);
  });

  it.each(styles.map((s) => [named(s), s] as const))('given the same facts as %s, then every text check passes', (_, style) => {
    expect(failing(styledAnswer(books, style))).toEqual([]);
  });

  const negatives: [string, Slant, string[]][] = [
    ['no-write-off', { omitWriteOff: true }, ['driver-amounts', 'driver-write-off']],
    ['rebate-at-full-rate', { rebateAtFullRate: true }, ['driver-amounts', 'driver-rebate']],
    ['rebate-adds-to-margin', { rebateAsIncrease: true }, ['driver-amounts']],
    ['price-on-receipts', { priceOnReceipts: true }, ['driver-price']],
    ['rebate-on-write-off-entry', { rebateOnWriteOff: true }, ['driver-rebate']],
    ['mix-in-a-bare-list', { mixInBareList: true }, ['driver-amounts', 'driver-mix']],
  ];
  it.each(negatives)('given the negative %s, then it fails exactly the text checks task.yaml declares', (name, slant, expected) => {
    expect(ids(failing(answer(books, slant))).sort()).toEqual(expected);
    const declared = pack.spec.negative_controls[`neg:${name}`]!.fails.filter((f) => textChecks.some((c) => c.id === f));
    expect(declared.sort()).toEqual(expected);
  });
});

describe('margin-bridge answers with one fact broken, in every layout', () => {
  const mutants: [string, (b: Bridge) => Bridge, Line[], string[]][] = [
    ['the write-off left out', (b) => b, ['writeOff'], ['driver-amounts', 'driver-write-off']],
    ['the change left out', (b) => b, ['change'], ['margins']],
    ['the rebate said to add to margin', (b) => ({ ...b, rebate: { ...b.rebate, amount: -b.rebate.amount } }), [], ['driver-amounts']],
    ['the price and rebate documents swapped', (b) => ({ ...b, price: { ...b.price, document: b.rebate.document }, rebate: { ...b.rebate, document: b.price.document } }), [], ['driver-price', 'driver-rebate']],
    ['the price two cents off (tolerance one cent)', (b) => ({ ...b, price: { ...b.price, amount: b.price.amount - 2 } }), [], ['driver-amounts', 'driver-price']],
  ];
  const layouts = LAYOUTS.flatMap((layout) => (['dollars', 'accounting', 'words'] as const).map((format) => ({ layout, format, wording: 'plain' as const })));
  it.each(mutants.flatMap(([m, change, omit, expected]) => layouts.map((s) => [m, named(s), s, change, omit, expected] as const)))(
    'given %s, written as %s, then exactly the checks of that fact fail, saying what is missing',
    (_, __, style, change, omit, expected) => {
      const fails = failing(styledAnswer(change(books), style, omit));
      expect(ids(fails).sort()).toEqual(expected);
      for (const f of fails) expect(f).toMatch(/lacks|no unit/);
    },
  );
});

describe('margin-bridge answers written by hand, as an analyst might', () => {
  it.each([
    ['a summary line and a driver table', [
      'September gross margin was $45,982.11 against $48,123.45 in August, down $2,141.34.', '',
      '| Driver | Impact on margin | Document |', '|---|---:|---|',
      '| Supplier price increase | (1,234.56) | APINV-000412 |', '| Retroactive rebate tier | (500.20) | JE-000087 |',
      '| Stock write-down | (318.70) | ADJ-000019 |', '| Product mix | +45.67 | sales-margin by item |',
    ]],
    ['one sentence per driver, directions in words', [
      'Gross margin: August 48,123.45; September 45,982.11; the change is -2,141.34.', '',
      'The vendor price increase billed on APINV-000412 hit margin by 1,234.56. The customer rebate tier (JE-000087) cost us 500.20.',
      'Corroded stock was written off on ADJ-000019, reducing margin by 318.70. Sales mix was a tailwind of 45.67.',
    ]],
    ['a heading per driver with a bold label and the source on its own line', [
      '# Bridge', '', 'Gross margin, Aug. vs. Sept.: 48,123.45 → 45,982.11 (change: -2,141.34).', '',
      '## 1. Price increase (decrease to margin)', '', '**Amount:** 1,234.56  ', '**Source:** vendor invoice APINV-000412', '',
      '## 2. Customer rebate', '', '- Amount: USD (500.20)', '- Source: JE-000087', '',
      '## 3. Inventory write-off', '', 'Amount: -$318.70. Source: ADJ-000019.', '',
      '## 4. Mix of items sold', '', 'Amount: 45.67 (favourable).',
    ]],
  ])('given %s, then every text check passes', (_, lines) => {
    expect(failing(lines.join('\n'))).toEqual([]);
  });
});
