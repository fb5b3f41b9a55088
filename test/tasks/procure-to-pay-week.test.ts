import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'yaml';
import { renderInvoiceDocument } from '../../src/domain/comms/documents';
import { runAttempt } from '../../src/runner/attempt';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';
import { parseInvoiceText } from '../../tasks/procure-to-pay-week/invoice-text';
import { HANDBOOK, weekPolicy } from '../../tasks/procure-to-pay-week/judgement';
import { orderQty } from '../../tasks/procure-to-pay-week/week';

const pack = loadPack('procure-to-pay-week');
const code = loadPackCode(pack);
const root = mkdtempSync(join(tmpdir(), 'bb-erp-b1-'));
let scenario: Scenario;

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: join(root, 'scenario') });
}, 300_000);

const CASES = [
  'over-ship-within', 'over-ship-beyond', 'short-ship', 'short-shelf-life', 'full-shelf-life', 'approved-substitute', 'unapproved-substitute', 'price-over-po',
  'consolidate-first', 'consolidate-second', 'ship-to-reno', 'below-moq', 'off-multiple', 'quality-hold', 'duplicate-invoice', 'handoff', 'master-data',
];

describe('the generator plants every case', () => {
  it('given seed 0, when the scenario is generated, then truth.json lists each planted case and exercises every clause of the handbook', () => {
    const truth = JSON.parse(readFileSync(join(scenario.dir, 'truth.json'), 'utf8')) as { planted: { id: string; clauses: string[] }[] };
    expect(truth.planted.map((p) => p.id).sort()).toEqual([...CASES].sort());
    const clauses = (parse(readFileSync(join(pack.dir, 'policies.yaml'), 'utf8')) as { clauses: { id: string }[] }).clauses.map((c) => c.id);
    const exercised = new Set(truth.planted.flatMap((p) => p.clauses.map((c) => c.split('/')[0])));
    expect(clauses.filter((c) => !exercised.has(c))).toEqual([]);
  });

  it('given the reference, when the oracle ordered, then the held vendor got no order and the Reno requisition has its own purchase order', () => {
    const truth = JSON.parse(readFileSync(join(scenario.dir, 'truth.json'), 'utf8')) as { planted: { id: string; vendor?: string; item?: string }[] };
    const held = truth.planted.find((p) => p.id === 'quality-hold')!;
    const used = readFileSync(join(scenario.dir, 'reference', 'vendors_used.csv'), 'utf8');
    expect(used).not.toContain(held.vendor!);
    const reno = truth.planted.find((p) => p.id === 'ship-to-reno')!;
    const lines = readFileSync(join(scenario.dir, 'reference', 'po_lines.csv'), 'utf8').split('\n').filter((l) => l.includes(`,${reno.item},`));
    expect(lines.map((l) => l.split(',')[2]).sort()).toEqual(['DAY', 'RNO']);
  });
});

describe('the handbook\'s judgement', () => {
  it('given a quantity below the MOQ, when it is ordered, then it is raised to the MOQ and then to a whole multiple', () => {
    expect(orderQty(40, 100, 100)).toBe(100);
    expect(orderQty(130, 100, 50)).toBe(150);
    expect(orderQty(150, 100, 50)).toBe(150);
    expect(orderQty(40, 100, 50, { moq: false, multiple: true })).toBe(50);
    expect(orderQty(130, 100, 50, { moq: true, multiple: false })).toBe(130);
  });

  it('given a rendered vendor invoice, when its text is read back, then every billed figure is as printed', () => {
    const text = renderInvoiceDocument({
      vendor: { name: 'Summit Gasket Co.', address: ['1 Main St'], email: 'ar@summit.example' }, invoice_number: 'INV-1001', invoice_date: '2026-10-08',
      bill_to: { name: 'Northgate', address: [] }, customer_po: 'PO-000123', terms: 'NET30',
      lines: [
        { po_line: 1, item: 'GSK-075', description: 'Bonnet gasket, PTFE, 75 size', quantity: 1300, unit: 'ea', unit_price_cents: 53, amount_cents: 68900 },
        { po_line: 2, item: 'SEAL-218', description: 'O-ring, nitrile, AS568-218', quantity: 500, unit: 'ea', unit_price_cents: 109, amount_cents: 54500 },
      ],
      tax_cents: 0, freight_cents: 1250, total_cents: 124650, remit_to: null, new_bank_notice: null,
    });
    expect(parseInvoiceText(text)).toEqual({
      number: 'INV-1001', date: '2026-10-08', po: 'PO-000123', tax: '0.00', freight: '12.50', total: '1246.50',
      lines: [
        { po_line: 1, item: 'GSK-075', description: 'Bonnet gasket, PTFE, 75 size', qty: 1300, unit: 'ea', unit_price: '0.53', amount: '689.00' },
        { po_line: 2, item: 'SEAL-218', description: 'O-ring, nitrile, AS568-218', qty: 500, unit: 'ea', unit_price: '1.09', amount: '545.00' },
      ],
    });
  });
});

describe('one whole week', () => {
  it('given the scenario, when a control receives the short-dated lot, then the receipts, the invoice held for it and the note naming it fail, and nothing else', async () => {
    const out = await runAttempt({ pack, code, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: 0, agent: { kind: 'negative', name: 'receive_short_dated_lot' }, attemptDir: join(root, 'neg'), label: 'neg', rep: 1 });
    const result = out.result!;
    expect(result.turns.map((t) => t.exit_code)).toEqual([0, 0, 0]);
    expect(result.verdict).toBe('fail');
    expect(result.checks.filter((c) => !c.passed).map((c) => c.id).sort()).toEqual(['handoff-note', 'invoices', 'receipts']);
  }, 300_000);

  it('given a clerk who receives each delivery as shipped, reverses that receipt and receives the delivery again as the handbook has it, then every check passes', async () => {
    const corrected = { ...code, negatives: { ...code.negatives, correct_by_reversal: weekPolicy({ ...HANDBOOK, correctByReversal: true }) } };
    const out = await runAttempt({ pack, code: corrected, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: 0, agent: { kind: 'negative', name: 'correct_by_reversal' }, attemptDir: join(root, 'reversal'), label: 'reversal', rep: 1 });
    const result = out.result!;
    expect(result.turns.map((t) => t.exit_code)).toEqual([0, 0, 0]);
    expect(result.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual([]);
    expect(result.verdict).toBe('pass');
    const db = new Database(join(root, 'reversal', 'final.db'), { readonly: true });
    const receipts = db.prepare(`SELECT status, COUNT(*) AS n FROM receipts WHERE created_by = 'jordan.ellis' GROUP BY status ORDER BY status`).all() as { status: string; n: number }[];
    const deliveries = db.prepare(`SELECT COUNT(*) AS n FROM deliveries d JOIN receipts r ON r.id = d.receipt WHERE r.status = 'posted' AND r.created_by = 'jordan.ellis'`).get() as { n: number };
    db.close();
    expect(receipts.map((r) => r.status)).toEqual(['posted', 'reversed']);
    expect(receipts[0]!.n).toBe(receipts[1]!.n);
    expect(deliveries.n).toBe(receipts[0]!.n);
  }, 300_000);
});
