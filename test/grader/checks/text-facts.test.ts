import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCheck } from '../../../src/grader/checks';
import type { CheckOf } from '../../../src/task-pack/schema';
import { base, checkContext, table } from '../../support/grading';

const bridge = table(['driver', 'amount', 'document'], [['price', '-1234.56', 'AP-000123'], ['rebate', '-500.00', 'JE-000045']]);
const driver = (name: string) => ({
  name: `the ${name}`,
  concepts: [name],
  amounts: [{ value: { projection: 'bridge', column: 'amount', where: { driver: name } } }],
  documents: [{ projection: 'bridge', column: 'document', where: { driver: name } }],
});
const check: CheckOf<'text_facts'> = {
  ...base, id: 'drivers', type: 'text_facts', file: 'answer.md', tolerance: 0.01,
  vocabulary: { price: ['price increase', 'supplier cost increase'], rebate: ['customer rebate'] },
  facts: [driver('price'), driver('rebate')],
};

function grade(text: string, c: CheckOf<'text_facts'> = check, tables = new Map([['bridge', bridge]])) {
  const ctx = checkContext({ referenceTables: tables });
  writeFileSync(join(ctx.workspace, c.file), text);
  return runCheck(c, ctx);
}

describe('a fact stated in one unit', () => {
  it('passes in a sentence, whatever the order of its parts', () => {
    expect(grade('AP-000123 billed the price increase, which cost us $1,234.56. JE-000045 books the customer rebate: (500.00).').passed).toBe(true);
  });

  it('passes under a heading of its own, the amount and the source in separate sentences', () => {
    expect(grade('# Drivers\n\n## Supplier cost increase\n\nIt lowered margin by 1,234.56.\n\nSource: AP-000123.\n\n## Customer rebate\n\n- USD -500.00\n- JE-000045\n').passed).toBe(true);
  });

  it('fails when its parts are spread over units that do not belong together, naming the part the nearest unit lacks', () => {
    const out = grade('## Drivers\n\n- Price increase: (1,234.56).\n- Rebate: (500.00).\n\nSources: AP-000123 and JE-000045.');
    expect(out.passed).toBe(false);
    expect(out.detail).toContain('the price: no one unit states it; the nearest, "Price increase: (1,234.56).", lacks AP-000123');
  });

  it('fails when a heading over a list would join one driver\'s amount to another\'s document', () => {
    const out = grade('## Price increase and customer rebate\n\n- Price increase: (1,234.56), JE-000045\n- Customer rebate: (500.00), AP-000123\n');
    expect(out.passed).toBe(false);
    expect(out.detail).toMatch(/the price: no one unit states it.*lacks AP-000123.*the rebate: no one unit states it.*lacks JE-000045/);
  });

  it('fails a document named only inside a longer number, and a decrease not said to be one', () => {
    const out = grade('The price increase cost us 1,234.56 (AP-0001234). The customer rebate was 500.00, see JE-000045.');
    expect(out.detail).toContain('lacks AP-000123');
    expect(out.detail).toContain('lacks the amount -500.00 (it gives 500.00 without saying it is a decrease)');
  });

  it('fails when another unit states the same fact with another amount', () => {
    const out = grade('- Price increase: (1,234.56), AP-000123.\n- Customer rebate: (500.00), JE-000045.\n\n| Driver | Amount | Source |\n|---|---|---|\n| Customer rebate | (600.00) | JE-000045 |\n');
    expect(out.passed).toBe(false);
    expect(out.detail).toContain('the rebate: stated, but also contradicted by "Driver: Customer rebate; Amount: (600.00); Source: JE-000045"');
  });

  it('is missing when the file is not in the workspace', () => {
    const ctx = checkContext({ referenceTables: new Map([['bridge', bridge]]) });
    expect(runCheck(check, ctx).detail).toBe('The workspace has no file answer.md.');
  });
});

describe('facts for each reference row', () => {
  const invoices = table(['vendor', 'number', 'status', 'open_holds'], [
    ['Acme Supply Inc.', 'INV-7', 'on_hold', '["price_variance","tax"]'],
    ['Best Parts', 'BP-12', 'matched', '[]'],
  ]);
  const report: CheckOf<'text_facts'> = {
    ...base, id: 'report', type: 'text_facts', file: 'report.md',
    vocabulary: { price_variance: ['price above the PO'], tax: ['sales tax'] },
    facts: [{ name: '{number} of {vendor} on hold for {open_holds}', each: { projection: 'invoices', where: { status: 'on_hold' } }, documents: [{ column: 'number' }], names: [{ column: 'vendor' }], concepts: [{ column: 'open_holds' }] }],
  };
  const tables = new Map([['invoices', invoices]]);

  it("states each row's fact with every concept its column lists, the vendor's legal form optional", () => {
    expect(grade('Held for sales tax and a price above the PO: Acme Supply invoice INV-7.', report, tables).passed).toBe(true);
    expect(grade('| Invoice | Vendor | Reason |\n|---|---|---|\n| INV-7 | ACME SUPPLY INC. | price variance, tax |', report, tables).passed).toBe(true);
  });

  it('fails a row whose reason is missing, saying which', () => {
    const out = grade('INV-7 from Acme Supply Inc. is on hold for a price above the PO.', report, tables);
    expect(out.detail).toContain('INV-7 of Acme Supply Inc. on hold for price_variance and tax: no one unit states it; the nearest, "INV-7 from Acme Supply Inc. is on hold for a price above the PO.", lacks the tax');
  });
});
