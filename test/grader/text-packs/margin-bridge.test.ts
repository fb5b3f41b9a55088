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
