import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { advanceTo } from '../support/books-fixture';
import { seedCloseBooks } from '../support/close-fixture';
import { appendGiven, openTestErp, type GivenEvent } from '../support/erp';

const line = (account: string, debit: number, credit: number) => ({ account, debit, credit, department: null, party_type: null, party_id: null, memo: '' });
const gl = (account: string, debit: number, credit: number) => ({ account, debit, credit, party_type: null, party_id: null, document_id: 'JE-000001' });

const drafted: GivenEvent = {
  type: 'JournalEntryDrafted', allocated: { JE: 1 },
  data: { id: 'JE-000001', date: '2026-10-31', memo: 'Accrual', lines: [line('6500', 5000, 0), line('2300', 0, 5000)], attachments: [], reverse_on: '2026-11-01', recurring: null },
};
const posted: GivenEvent = {
  type: 'JournalEntryPosted',
  data: {
    id: 'JE-000001',
    journal: { date: '2026-10-31', memo: 'JE-000001: Accrual', lines: [gl('6500', 5000, 0), gl('2300', 0, 5000)] },
    reversal_journal: { date: '2026-11-01', memo: 'Reversal of JE-000001: Accrual', lines: [gl('6500', 0, 5000), gl('2300', 5000, 0)] },
  },
};

function given() {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-close-proj-')), 'close.db');
  const { erp, api } = openTestErp(file);
  seedCloseBooks(api);
  advanceTo(api, '2026-11-02');
  return { erp, api, file };
}

describe('a reversing entry posted, as events', () => {
  it('folds both journals into gl_lines, numbered on, each dated in its own month, and marks the entry reversed', () => {
    const { erp, api } = given();
    const [, post] = appendGiven(erp, [drafted, posted]);
    expect(erp.db.prepare(`SELECT line_no, date, period, account, debit, credit FROM gl_lines WHERE event_id = ? ORDER BY line_no`).all(post!.seq)).toEqual([
      { line_no: 1, date: '2026-10-31', period: '2026-10', account: '6500', debit: 5000, credit: 0 },
      { line_no: 2, date: '2026-10-31', period: '2026-10', account: '2300', debit: 0, credit: 5000 },
      { line_no: 3, date: '2026-11-01', period: '2026-11', account: '6500', debit: 0, credit: 5000 },
      { line_no: 4, date: '2026-11-01', period: '2026-11', account: '2300', debit: 5000, credit: 0 },
    ]);
    expect(api.read.journalEntries.entry('JE-000001')).toMatchObject({ status: 'reversed', reverse_on: '2026-11-01', reversal_date: '2026-11-01', reversal_event: post!.seq, posted_event: post!.seq });
  });

  it('cannot be written when the reversal is dated in a month that is not open', () => {
    const { erp } = given();
    appendGiven(erp, [drafted]);
    const late = { ...posted, data: { ...(posted.data as object), reversal_journal: { ...(posted.data as any).reversal_journal, date: '2026-09-01' } } };
    expect(() => appendGiven(erp, [late])).toThrow('JournalEntryPosted: period 2026-09 is not open for postings.');
  });

  it('replays to the same read models', () => {
    const { erp, file } = given();
    appendGiven(erp, [drafted, posted]);
    expect(checkReplay(file, erp.db, createAppRegistry()).differingTables).toEqual([]);
  });
});

describe('registers and their runs, as events', () => {
  it('keep an asset\'s accumulated depreciation and a run\'s lines, and replay to the same tables', () => {
    const { erp, api, file } = given();
    appendGiven(erp, [
      { type: 'FixedAssetRegistered', allocated: { FA: 1 }, data: { id: 'FA-000001', description: 'Press', cost_account: '1500', accumulated_account: '1510', expense_account: '6700', department: null, cost: 30000, salvage: 0, life_months: 3, in_service_date: '2026-09-10', opening_accumulated: 0, source: 'x' } },
      { type: 'DepreciationRunPosted', allocated: { DPR: 1 }, data: { id: 'DPR-000001', period: '2026-10', lines: [{ asset: 'FA-000001', amount: 30000 }], journal: { date: '2026-10-31', memo: 'Depreciation', lines: [gl('6700', 30000, 0), gl('1510', 0, 30000)] } } },
    ]);
    expect(api.read.schedules.asset('FA-000001')).toMatchObject({ accumulated: 30000, last_period: '2026-10', status: 'fully_depreciated' });
    expect(api.read.schedules.depreciation.takenThrough('FA-000001', '2026-09')).toBe(0);
    expect(api.read.schedules.depreciation.takenThrough('FA-000001', '2026-10')).toBe(30000);
    expect(checkReplay(file, erp.db, createAppRegistry()).differingTables).toEqual([]);
  });
});
