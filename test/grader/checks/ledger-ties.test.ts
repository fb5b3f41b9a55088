import { ledgerTies } from '../../../src/grader/checks/ledger-ties';
import type { ControlTie } from '../../../src/grader/ledger/control-ties';
import { openDatabase } from '../../../src/events/database';
import { base, checkContext } from '../../support/grading';

/** A ledger in the shape docs/ledger.md gives gl_lines, and an AP subledger of open invoices. */
function books(lines: [string, string, number, number][], openInvoices: [string, number][]) {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE gl_lines (event_id INTEGER, line INTEGER, date TEXT, account TEXT, debit INTEGER, credit INTEGER)');
  db.exec('CREATE TABLE fixture_invoices (id TEXT, date TEXT, open_cents INTEGER)');
  lines.forEach(([date, account, debit, credit], i) => db.prepare('INSERT INTO gl_lines VALUES (?, 1, ?, ?, ?, ?)').run(i + 1, date, account, debit, credit));
  openInvoices.forEach(([date, cents], i) => db.prepare('INSERT INTO fixture_invoices VALUES (?, ?, ?)').run(`INV-${i}`, date, cents));
  return db;
}

const ap: ControlTie = { kind: 'ap', accounts: ['2000'], normal: 'credit', subledgerSql: 'SELECT COALESCE(SUM(open_cents), 0) AS balance FROM fixture_invoices WHERE date <= :as_of' };
const check = { ...base, id: 'ties', type: 'ledger_ties' as const, accounts: ['ap'] };
const invoice = (date: string, cents: number): [string, string, number, number][] => [[date, '2100', cents, 0], [date, '2000', 0, cents]];

describe('books whose AP control equals its open invoices', () => {
  const db = books([...invoice('2026-10-05', 110880), ...invoice('2026-10-12', 5000)], [['2026-10-05', 110880], ['2026-10-12', 5000]]);

  it('tie at the grading date, later postings left out on both sides', () => {
    const out = ledgerTies(check, checkContext({ final: db, controlTies: [ap] }));
    expect(out).toMatchObject({ passed: true, ties: [{ kind: 'ap', gl_cents: 110880, subledger_cents: 110880, ties: true }] });
  });
});

describe('books with a plug to the AP control', () => {
  it('fail, saying by how much the control and the subledger differ', () => {
    const db = books([...invoice('2026-10-05', 110880), ['2026-10-06', '6000', 1000, 0], ['2026-10-06', '2000', 0, 1000]], [['2026-10-05', 110880]]);
    const out = ledgerTies(check, checkContext({ final: db, controlTies: [ap] }));
    expect(out.passed).toBe(false);
    expect(out.detail).toBe('At 2026-10-09: ap is 1,118.80 in the ledger and 1,108.80 in its subledger.');
  });
});

describe('a trial balance that does not balance', () => {
  it('fails with the difference', () => {
    const db = books([['2026-10-05', '2100', 500, 0]], []);
    expect(ledgerTies({ ...check, accounts: [] as unknown as string[] }, checkContext({ final: db })).detail).toBe('At 2026-10-09: the trial balance is out by 5.00 (debits 5.00, credits 0.00).');
  });
});

describe('a control kind nobody has registered', () => {
  it('fails naming it', () => {
    const out = ledgerTies({ ...check, accounts: ['grni'] }, checkContext({ final: books([], []), controlTies: [ap] }));
    expect(out.detail).toBe('At 2026-10-09: no subledger is registered for control grni.');
    expect(out.ties).toEqual([{ kind: 'grni', gl_cents: null, subledger_cents: null, ties: false }]);
  });
});

describe('a state without a general ledger', () => {
  it('fails', () => {
    expect(ledgerTies(check, checkContext()).detail).toBe('The final state has no general ledger to tie out.');
  });
});
