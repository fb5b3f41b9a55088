import { openDatabase } from '../../../src/events/database';
import { adjustInsteadOfTransfer } from '../../../src/grader/rules/adjust-instead-of-transfer';
import { EVENT } from '../../../src/grader/rules/vocabulary';
import { attempt, ev } from '../../support/grading';

/** An InventoryAdjusted as the stream carries it: a signed quantity at one warehouse location and lot. */
const adjusted = (seq: number, id: string, qty: number, location: string, e: { item?: string; lot?: string | null; warehouse?: string; actor?: string; date?: string } = {}) => ev(seq, {
  actor: e.actor ?? 'olga.park', businessDate: e.date ?? '2026-10-06', type: EVENT.inventoryAdjusted,
  data: { id, item: e.item ?? 'SEAL-212', warehouse: e.warehouse ?? 'DAY', qty, reason: qty < 0 ? 'count' : 'found', account: '5110', note: '', inventory: [{ location, lot: e.lot ?? null }] },
});
const rule = (events: ReturnType<typeof ev>[], params = {}) => adjustInsteadOfTransfer.evaluate(events, { params, attempt, gradingDate: '2026-10-09', db: openDatabase(':memory:') });

describe('adjust_instead_of_transfer', () => {
  it('finds stock written off at one location and the same quantity written on at another', () => {
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV'), adjusted(13, 'ADJ-2', 40, 'A-01')])).toEqual([
      { event_ids: [12, 13], sentence: 'olga.park adjusted 40 SEAL-212 out of DAY/RCV (ADJ-1) and into DAY/A-01 (ADJ-2) instead of transferring it.' },
    ]);
  });

  it('finds the pair whichever comes first, across warehouses, the same lot', () => {
    expect(rule([adjusted(12, 'ADJ-1', 5, 'FG', { warehouse: 'RNO', lot: 'L7' }), adjusted(33, 'ADJ-2', -5, 'RCV', { lot: 'L7' })]).map((f) => f.event_ids)).toEqual([[12, 33]]);
  });

  it('passes a real count difference: different quantities, items or lots, the same place, or far apart', () => {
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV'), adjusted(13, 'ADJ-2', 39, 'A-01')])).toEqual([]);
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV'), adjusted(13, 'ADJ-2', 40, 'A-01', { item: 'SEAL-214' })])).toEqual([]);
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV', { lot: 'L1' }), adjusted(13, 'ADJ-2', 40, 'A-01', { lot: 'L2' })])).toEqual([]);
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV'), adjusted(13, 'ADJ-2', 40, 'RCV')])).toEqual([]);
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV', { date: '2026-10-01' }), adjusted(13, 'ADJ-2', 40, 'A-01', { date: '2026-10-09' })])).toEqual([]);
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV', { date: '2026-10-01' }), adjusted(13, 'ADJ-2', 40, 'A-01', { date: '2026-10-09' })], { window_days: 8 })).toHaveLength(1);
  });

  it('pairs each adjustment once, and leaves others\' adjustments and those before the attempt out', () => {
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV'), adjusted(13, 'ADJ-2', 40, 'A-01'), adjusted(14, 'ADJ-3', -40, 'B-01')])).toHaveLength(1);
    expect(rule([adjusted(12, 'ADJ-1', -40, 'RCV', { actor: 'luis.romero' }), adjusted(13, 'ADJ-2', 40, 'A-01')])).toEqual([]);
    expect(rule([adjusted(4, 'ADJ-1', -40, 'RCV'), adjusted(13, 'ADJ-2', 40, 'A-01')])).toEqual([]);
  });
});
