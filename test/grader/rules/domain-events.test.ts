import type { EventRow } from '../../../src/events/event-row';
import { domainEvents } from '../../../src/grader/rules/framework';

function row(seq: number, type: string | null, over: Partial<EventRow> = {}): EventRow {
  return {
    seq, kind: 'write', businessDate: '2026-10-05', wallTime: '', actor: 'maya.chen', tokenId: null, method: 'POST', path: '/x', action: 'x',
    objectType: null, objectId: null, outcome: 'ok', errorCode: null, idempotencyKey: null, type, data: {}, allocated: null, rowHash: '', ...over,
  };
}

/** What domainEvents answers, by its definition: a filter of the stream. */
const plain = (events: readonly EventRow[], ...types: string[]) => events.filter((e) => e.kind === 'write' && e.outcome === 'ok' && e.type !== null && types.includes(e.type));

describe('the domain events of a stream', () => {
  // Out of sequence order on purpose: the answer keeps the stream's order, whatever the seqs.
  const stream = [
    row(5, 'InvoiceEntered'), row(2, 'PaymentMade'), row(9, 'InvoiceEntered', { outcome: 'refused' }), row(3, null),
    row(4, 'InvoiceEntered', { kind: 'read' }), row(1, 'PaymentMade'), row(7, 'InvoiceVoided'), row(6, 'InvoiceEntered'),
  ];

  it.each([[['InvoiceEntered']], [['PaymentMade', 'InvoiceEntered']], [['InvoiceVoided', 'PaymentMade', 'InvoiceEntered']], [['Nothing']], [['PaymentMade', 'PaymentMade']], [[]]])(
    'given types %j, then the accepted writes of those types, in stream order', (types) => {
      expect(domainEvents(stream, ...types).map((e) => e.seq)).toEqual(plain(stream, ...types).map((e) => e.seq));
    });

  it('given an answer changed by its caller, then the next ask is answered as before', () => {
    const first = domainEvents(stream, 'InvoiceEntered');
    first.pop();
    first.push(row(99, 'InvoiceEntered'));
    expect(domainEvents(stream, 'InvoiceEntered').map((e) => e.seq)).toEqual([5, 6]);
  });

  it('given two streams, then each is answered from its own rows', () => {
    const other = [row(1, 'InvoiceEntered'), row(2, 'InvoiceEntered')];
    expect(domainEvents(stream, 'InvoiceEntered').map((e) => e.seq)).toEqual([5, 6]);
    expect(domainEvents(other, 'InvoiceEntered').map((e) => e.seq)).toEqual([1, 2]);
  });
});
