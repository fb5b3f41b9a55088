import { EvidenceIndex, MAX_EVIDENCE } from '../../src/grader/evidence';
import { ev } from '../support/grading';

const stream = [
  ev(5, { actor: 'system', type: 'LeaveScheduled', objectId: 'LV-1', data: { id: 'LV-1', user: 'sam.ortiz', start_date: '2026-11-16', end_date: '2026-11-20' } }),
  ev(11, { kind: 'read', method: 'GET', objectId: 'LV-1', data: { params: { id: 'LV-1' } } }),
  ev(12, { action: 'clock.advance', actor: 'system', type: 'ClockAdvanced', objectId: 'business_date', data: { from: '2026-11-15', to: '2026-11-16' } }),
  ev(13, { type: 'LeaveCancelled', objectId: 'LV-1', data: { id: 'LV-1' } }),
  ev(14, { outcome: 'refused', errorCode: 'invalid_request', objectId: null, data: { user: 'ava.reed', start_date: '2026-10-23', end_date: '2026-10-19' } }),
  ev(15, { type: 'LeaveScheduled', objectId: 'LV-2', data: { id: 'LV-2', user: 'maya.chen', start_date: '2026-11-16', end_date: '2026-11-17' } }),
];
const index = new EvidenceIndex(stream);

describe('the evidence of a row missing from the agent\'s state', () => {
  it('is the write that made the document with those key values and every later write on that document', () => {
    expect(index.forRow(undefined, ['sam.ortiz', '2026-11-16'])).toEqual([5, 13]);
  });

  it('includes a refused attempt at the row, and never reads or the clock', () => {
    expect(index.forRow(undefined, ['ava.reed', '2026-10-19'])).toEqual([14]);
    expect(index.forRow(undefined, ['2026-11-16'])).toEqual([5, 13, 15]);
  });

  it('is empty when nothing ever touched the key', () => {
    expect(index.forRow(undefined, ['grace.lin', '2026-12-01'])).toEqual([]);
    expect(index.forRow(undefined, ['', ' '])).toEqual([]);
  });
});

describe('the evidence of a row the agent has', () => {
  it('is exactly the writes on the documents its provenance columns name', () => {
    expect(index.forRow({ employee: 'maya.chen', start_date: '2026-11-16', _leave: 'LV-2' }, ['2026-11-16'])).toEqual([15]);
    expect(index.forRow({ _docs: 'LV-1,LV-2' }, [])).toEqual([5, 13, 15]);
  });

  it('is found by its key when it names no documents', () => {
    expect(index.forRow({ employee: 'sam.ortiz', start_date: '2026-11-16' }, ['sam.ortiz', '2026-11-16'])).toEqual([5, 13]);
  });
});

describe('a row behind many events', () => {
  it('lists the earliest and the latest, at most MAX_EVIDENCE', () => {
    const many = Array.from({ length: 100 }, (_, i) => ev(i + 1, { type: 'X', objectId: 'DOC', data: { v: 'k' } }));
    const ids = new EvidenceIndex(many).forRow(undefined, ['k']);
    expect(ids).toHaveLength(MAX_EVIDENCE);
    expect(ids[0]).toBe(1);
    expect(ids[ids.length - 1]).toBe(100);
  });
});

describe('rows shared by two indexes (a scenario\'s start events, read once for every grade)', () => {
  it('given the second index over the same rows, then it finds the same evidence without reading their payloads again', () => {
    let reads = 0;
    const counted = stream.map((e) => {
      const data = e.data;
      return Object.defineProperty({ ...e }, 'data', { enumerable: true, get: () => { reads += 1; return data; } });
    });
    const first = new EvidenceIndex(counted).forRow(undefined, ['sam.ortiz', '2026-11-16']);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    expect(new EvidenceIndex(counted).forRow(undefined, ['sam.ortiz', '2026-11-16'])).toEqual(first);
    expect(reads).toBe(afterFirst);
  });
});
