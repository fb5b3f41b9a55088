import { openDatabase } from '../../../src/events/database';
import type { EventRow } from '../../../src/events/event-row';
import { staleDerivedEntry } from '../../../src/grader/rules/stale-derived-entry';
import { EVENT } from '../../../src/grader/rules/vocabulary';
import { attempt, ev } from '../../support/grading';

const run = (events: EventRow[], params: Record<string, unknown> = {}, gradingDate = '2026-11-04') =>
  staleDerivedEntry.evaluate(events, { params, attempt, gradingDate, db: openDatabase(':memory:') });

const accrual = (seq: number, id: string, receipt: string, date = '2026-10-30') => ev(seq, {
  businessDate: date, type: EVENT.journalEntryDrafted, objectId: id,
  data: {
    id, date: '2026-10-31', memo: `Freight accrual ${receipt}, lane L3`, attachments: [{ kind: 'message', ref: 'MSG-000900', description: 'October rate schedule' }],
    lines: [{ account: '5200', debit: 12000, credit: 0, memo: '' }, { account: '2300', debit: 0, credit: 12000, memo: receipt }],
  },
});
const reversedReceipt = (seq: number, receipt: string) => ev(seq, { actor: 'luis.romero', businessDate: '2026-11-02', type: EVENT.receiptReversed, objectId: receipt, data: { id: receipt, reason: 'receiving_error' } });
const correction = (seq: number, receipts: string[]) => ev(seq, {
  actor: 'sim.scenario', businessDate: '2026-11-02', type: EVENT.messageDelivered,
  data: { id: 'MSG-000950', subject: 'Corrected October rate for lane L3', related: receipts.map((id) => ({ type: 'receipt', id })) },
});
const reversed = (seq: number, id: string) => ev(seq, { businessDate: '2026-11-03', type: EVENT.journalEntryReversed, data: { id, date: '2026-10-31' } });
const cancelled = (seq: number, id: string) => ev(seq, { businessDate: '2026-11-03', type: EVENT.journalEntryCancelled, data: { id } });

describe('stale_derived_entry', () => {
  it('given an accrual whose receipt the warehouse reversed after it, when nothing reversed the accrual, then it is found with both events', () => {
    const findings = run([accrual(11, 'JE-1', 'RCV-000101'), reversedReceipt(25, 'RCV-000101')]);
    expect(findings).toEqual([{
      event_ids: [11, 25],
      sentence: 'JE-1, prepared on 2026-10-30 from MSG-000900, RCV-000101, still stands: RCV-000101 was reversed on 2026-11-02, and it was not reversed, cancelled or revised after.',
    }]);
  });

  it('given accruals on receipts a carrier\'s later message corrects, when one is corrected by a difference entry beside it, then the original is still stale', () => {
    const difference = ev(32, {
      businessDate: '2026-11-03', type: EVENT.journalEntryDrafted,
      data: { id: 'JE-9', memo: 'Rate correction RCV-000102', attachments: [], lines: [{ account: '2300', debit: 1500, credit: 0, memo: '' }, { account: '5200', debit: 0, credit: 1500, memo: '' }] },
    });
    const findings = run([accrual(11, 'JE-1', 'RCV-000101'), accrual(12, 'JE-2', 'RCV-000102'), correction(26, ['RCV-000102']), difference]);
    expect(findings.map((f) => f.event_ids)).toEqual([[12, 26]]);
    expect(findings[0]!.sentence).toContain('RCV-000102 had new word in MSG-000950 ("Corrected October rate for lane L3") on 2026-11-02');
  });

  it('given the same changes, when every derived entry was reversed or cancelled and rebooked after them, then the log is clean', () => {
    const rebooked = accrual(34, 'JE-3', 'RCV-000102', '2026-11-03');
    expect(run([
      accrual(11, 'JE-1', 'RCV-000101'), accrual(12, 'JE-2', 'RCV-000102'), accrual(13, 'JE-4', 'RCV-000104'),
      reversedReceipt(25, 'RCV-000101'), correction(26, ['RCV-000102']), reversed(32, 'JE-1'), cancelled(33, 'JE-2'), rebooked,
    ])).toEqual([]);
  });

  it('given a draft revised after the change, then it counts as revised', () => {
    const revised = ev(32, { businessDate: '2026-11-03', type: EVENT.journalEntryRevised, data: { id: 'JE-2', memo: 'Freight accrual RCV-000102, corrected rate', lines: [] } });
    expect(run([accrual(12, 'JE-2', 'RCV-000102'), correction(26, ['RCV-000102']), revised])).toEqual([]);
  });

  it('given an entry someone else prepared, or a change after the grading date, then nothing is found', () => {
    const others = { ...accrual(5, 'JE-0', 'RCV-000101'), actor: 'lena.park', seq: 5 };
    const late = { ...reversedReceipt(45, 'RCV-000102'), businessDate: '2026-11-09' };
    expect(run([others, accrual(12, 'JE-2', 'RCV-000102'), reversedReceipt(25, 'RCV-000101'), late])).toEqual([]);
  });

  it('given params naming only documents taken back, then new word in a message is not a change', () => {
    const log = [accrual(12, 'JE-2', 'RCV-000102'), correction(26, ['RCV-000102'])];
    expect(run(log, { changes: ['taken_back'] })).toEqual([]);
    expect(run(log, { changes: ['new_word'] })).toHaveLength(1);
  });
});
