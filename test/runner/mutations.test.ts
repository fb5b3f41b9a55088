import type { ClientResponse } from '../../src/client/http-client';
import { fillTemplate, mutantPolicy, mutationNames, mutationSend, newMutantState, omitStating } from '../../src/runner/mutations';
import type { ApiRequest, Send } from '../../src/runner/request-wrap';
import type { AgentPolicy, PolicyContext } from '../../src/task-pack/code';
import type { MutationSpec } from '../../src/task-pack/schema';

const req = (method: string, path: string, body?: unknown): ApiRequest => ({ method, path, options: body === undefined ? {} : { body } });
const shown = (r: ApiRequest) => `${r.method} ${r.path}${r.options.body === undefined ? '' : ` ${JSON.stringify(r.options.body)}`}`;

/** A server that answers every request 200 with a body of its own, and remembers what reached it. */
function fakeServer(answer: (r: ApiRequest) => unknown = () => ({})) {
  const received: ApiRequest[] = [];
  const send: Send = async (r) => {
    received.push(r);
    const body = answer(r);
    return { status: 200, headers: {}, text: JSON.stringify(body), body } as ClientResponse;
  };
  return { received, send };
}

/** The oracle's requests of one turn sent through the mutation: what reaches the server, in order. */
async function stream(m: Exclude<MutationSpec, { op: 'omit_text' }>, requests: ApiRequest[], answer?: (r: ApiRequest) => unknown) {
  const server = fakeServer(answer);
  const state = newMutantState();
  const send = mutationSend(m, server.send, 1, state);
  const responses = [];
  for (const r of requests) responses.push((await send(r)).body);
  return { received: server.received.map(shown), state, responses };
}

const RUN = { method: 'POST' as const, path: '^/payment-runs$' };
const oracle = [
  req('GET', '/ap-invoices'),
  req('POST', '/payment-runs', { payment_date: '2026-10-12', bank_account: 'BANK-OP', items: [{ invoice: 'APINV-1', amount: '10.00' }, { invoice: 'APINV-2', amount: '-4.50' }] }),
  req('POST', '/payment-runs/RUN-1/submit', {}),
];

describe('a mutation applied to the oracle\'s request stream', () => {
  it('given skip, when its request comes, then it never reaches the server and the oracle is answered as if it had', async () => {
    const out = await stream({ breaks: 'PAY-1.1/submit', op: 'skip', match: { method: 'POST', path: '^/payment-runs/[^/]+/submit$' } }, oracle);
    expect(out.received).toEqual([shown(oracle[0]!), shown(oracle[1]!)]);
    expect(out.responses[2]).toEqual({});
    expect(out.state).toMatchObject({ matched: 1, changed: 1 });
  });

  it('given shift_field, then the date moves by the days given and nothing else changes', async () => {
    const out = await stream({ breaks: 'PAY-1.1/date', op: 'shift_field', match: RUN, field: 'payment_date', days: 1 }, oracle);
    expect(out.received[1]).toBe('POST /payment-runs {"payment_date":"2026-10-13","bank_account":"BANK-OP","items":[{"invoice":"APINV-1","amount":"10.00"},{"invoice":"APINV-2","amount":"-4.50"}]}');
    expect(out.received[2]).toBe(shown(oracle[2]!));
  });

  it('given set_field over every line (items.*), then each line takes the value', async () => {
    const out = await stream({ breaks: 'PAY-2.2/take', op: 'set_field', match: RUN, field: 'items.*.amount', value: '1.00' }, oracle);
    expect(JSON.parse(out.received[1]!.slice('POST /payment-runs '.length)).items.map((i: { amount: string }) => i.amount)).toEqual(['1.00', '1.00']);
  });

  it('given negate_field, then a number written as text keeps its digits and flips its sign', async () => {
    const out = await stream({ breaks: 'PAY-2.4/full', op: 'negate_field', match: RUN, field: 'items.*.amount' }, oracle);
    expect(JSON.parse(out.received[1]!.slice('POST /payment-runs '.length)).items.map((i: { amount: string }) => i.amount)).toEqual(['-10.00', '4.50']);
  });

  it('given drop_field, then the field is gone from the body', async () => {
    const out = await stream({ breaks: 'PAY-1.1/account', op: 'drop_field', match: RUN, field: 'bank_account' }, oracle);
    expect(out.received[1]).not.toContain('bank_account');
    expect(out.state.changed).toBe(1);
  });

  it('given add, then the further request follows the matched one, filled from its path, body and answer', async () => {
    const m: Exclude<MutationSpec, { op: 'omit_text' }> = {
      breaks: 'PAY-2.4/once', op: 'add', after: { method: 'POST', path: '^/payment-(runs)$' },
      request: { method: 'POST', path: '/payment-{path.1}/{response.id}/copy', body: { items: '{body.items}', note: 'again on {body.payment_date}' } },
    };
    const out = await stream(m, oracle, (r) => (r.path === '/payment-runs' ? { id: 'RUN-7' } : {}));
    expect(out.received.slice(1, 3)).toEqual([
      shown(oracle[1]!),
      `POST /payment-runs/RUN-7/copy ${JSON.stringify({ items: (oracle[1]!.options.body as { items: unknown }).items, note: 'again on 2026-10-12' })}`,
    ]);
  });

  it('given split, when a document with two lines is made, then two documents go out and later writes on the first are made on the second too', async () => {
    const po = { vendor: 'V-1', lines: [{ item: 'A', qty: 1 }, { item: 'B', qty: 2 }] };
    const requests = [req('POST', '/purchase-orders', po), req('POST', '/purchase-orders/PO-1/approve', {}), req('POST', '/purchase-orders/PO-9/approve', {}), req('GET', '/purchase-orders/PO-1')];
    let n = 0;
    const out = await stream({ breaks: 'PTP-1.1/consolidate', op: 'split', match: { method: 'POST', path: '^/purchase-orders$' }, field: 'lines' }, requests,
      (r) => (r.path === '/purchase-orders' ? { id: `PO-${++n}` } : {}));
    expect(out.received).toEqual([
      `POST /purchase-orders ${JSON.stringify({ vendor: 'V-1', lines: [po.lines[0]] })}`,
      `POST /purchase-orders ${JSON.stringify({ vendor: 'V-1', lines: [po.lines[1]] })}`,
      'POST /purchase-orders/PO-1/approve {}',
      'POST /purchase-orders/PO-2/approve {}',
      'POST /purchase-orders/PO-9/approve {}',
      'GET /purchase-orders/PO-1',
    ]);
    expect(out.responses[0]).toEqual({ id: 'PO-1' });
    expect(out.state).toMatchObject({ changed: 1, twins: new Map([['PO-1', { second: 'PO-2', kept: 1 }]]) });
  });

  it('given split with a line field, when a later write names a line by number, then it goes to the part holding that line, renumbered', async () => {
    const po = { lines: [{ item: 'A' }, { item: 'B' }, { item: 'C' }] };
    const requests = [req('POST', '/purchase-orders', po), req('POST', '/purchase-orders/PO-1/requests', { line: 1 }), req('POST', '/purchase-orders/PO-1/requests', { line: 3 })];
    let n = 0;
    const out = await stream({ breaks: 'PTP-1.1/consolidate', op: 'split', match: { method: 'POST', path: '^/purchase-orders$' }, field: 'lines', line_field: 'line' }, requests,
      (r) => (r.path === '/purchase-orders' ? { id: `PO-${++n}` } : {}));
    expect(out.received.slice(2)).toEqual(['POST /purchase-orders/PO-1/requests {"line":1}', 'POST /purchase-orders/PO-2/requests {"line":2}']);
  });

  it('given split, when the document has one element, then it goes out unchanged and counts as no change', async () => {
    const out = await stream({ breaks: 'PTP-1.1/consolidate', op: 'split', match: { method: 'POST', path: '^/purchase-orders$' }, field: 'lines' }, [req('POST', '/purchase-orders', { lines: [{ item: 'A' }] })]);
    expect(out.received).toEqual([`POST /purchase-orders ${JSON.stringify({ lines: [{ item: 'A' }] })}`]);
    expect(out.state.changed).toBe(0);
  });

  it('given a match on a body field and nth, then only that request of those matching is changed', async () => {
    const decisions = ['A', 'B', 'C'].map((id) => req('POST', `/requisitions/${id}/route`, { to: 'zoe.adams', reason: id === 'B' ? 'over_budget' : 'over_limit' }));
    const byBody = await stream({ breaks: 'APR-1.3/code', op: 'set_field', match: { path: '/route$', body: { reason: 'over_budget' } }, field: 'reason', value: 'over_limit' }, decisions);
    expect(byBody.received.map((r) => r.includes('over_budget'))).toEqual([false, false, false]);
    expect(byBody.state).toMatchObject({ matched: 1, changed: 1 });
    const second = await stream({ breaks: 'APR-1.1', op: 'skip', match: { path: '/route$', nth: 2 } }, decisions);
    expect(second.received).toEqual([shown(decisions[0]!), shown(decisions[2]!)]);
  });

  it('given a match that picks nothing, or a change that leaves the value as it was, then it counts as unchanged', async () => {
    const none = await stream({ breaks: 'PAY-1.1/submit', op: 'skip', match: { path: '^/nothing$' } }, oracle);
    expect(none.received).toEqual(oracle.map(shown));
    expect(none.state).toMatchObject({ matched: 0, changed: 0 });
    const same = await stream({ breaks: 'PAY-1.1/account', op: 'set_field', match: RUN, field: 'bank_account', value: 'BANK-OP' }, oracle);
    expect(same.state).toMatchObject({ matched: 1, changed: 0 });
  });

  it('given reads only, then a match without a method never picks a GET', async () => {
    const out = await stream({ breaks: 'PAY-2.1', op: 'skip', match: { path: '^/ap-invoices$' } }, oracle);
    expect(out.state.matched).toBe(0);
  });
});

describe('later_day over the turns of an attempt', () => {
  it('given a write of turn 1, then it reaches the server first thing in turn 2, and one of the last turn is never made', async () => {
    const server = fakeServer();
    const byTurn: Record<number, ApiRequest[]> = { 1: [req('POST', '/vendor-bank-accounts/VBA-1/verify', {}), req('POST', '/calls', {})], 2: [req('POST', '/payment-runs', {}), req('POST', '/vendor-bank-accounts/VBA-2/verify', {})] };
    const oraclePolicy: AgentPolicy = async (ctx) => {
      for (const r of byTurn[ctx.turn.index]!) await ctx.client.request(r.method, r.path, r.options);
    };
    const mutant = mutantPolicy(oraclePolicy, { breaks: 'VEN-2.1', op: 'later_day', match: { method: 'POST', path: '/verify$' } });
    const client = { request: (method: string, path: string, options: ApiRequest['options']) => server.send({ method, path, options }) };
    for (const index of [1, 2]) {
      await mutant.policy({ client, erpUrl: 'http://127.0.0.1:1', erpToken: 't', turn: { index, date: '', from: '', request: '', prompt: '' }, workspace: '', log: () => undefined } as unknown as PolicyContext);
    }
    expect(server.received.map((r) => r.path)).toEqual(['/calls', '/vendor-bank-accounts/VBA-1/verify', '/payment-runs']);
    expect(mutant.state.deferred.map((r) => r.path)).toEqual(['/vendor-bank-accounts/VBA-2/verify']);
  });
});

describe('templates and names', () => {
  it('keeps a whole placeholder\'s type and refuses an unknown root', () => {
    const scope = { path: /^\/x\/(\d+)$/.exec('/x/42')!, body: { n: 3, lines: [1, 2] }, response: { id: 'R-1' } };
    expect(fillTemplate({ a: '{body.n}', b: 'n={body.n}', c: '{body}', d: ['{path.1}'] }, scope)).toEqual({ a: 3, b: 'n=3', c: { n: 3, lines: [1, 2] }, d: ['42'] });
    expect(() => fillTemplate('{turn.date}', scope)).toThrow(/only \{path\.N\}, \{body\.F\} and \{response\.F\}/);
  });

  it('numbers mutations of one part and operator apart', () => {
    const skip = { breaks: 'VEN-2.3/email', op: 'skip', match: { path: 'x' } } as const;
    expect(mutationNames([skip, skip, { ...skip, breaks: 'VEN-2.1' }])).toEqual(['mut:VEN-2.3/email~skip#1', 'mut:VEN-2.3/email~skip#2', 'mut:VEN-2.1~skip']);
  });
});

describe('omit_text over a Markdown file', () => {
  const note = [
    '# Holds',
    '',
    '- Invoice 4210 from Mid-State Metals: price above the PO, $1,234.50.',
    '  - Buyer told on Friday.',
    '- Invoice 4211 from Acme: quantity.',
    '',
    '| invoice | amount |',
    '|---|---|',
    '| 4212 | 1234.5 |',
    '| 4213 | 99.00 |',
    '',
    'Invoice 42100 is fine.',
  ].join('\n');

  it('given a number, then every unit stating it in any usual form goes: the list item with its children, the table row', () => {
    const out = omitStating(note, ['1234.5']);
    expect(out.dropped).toBe(2);
    expect(out.text).not.toMatch(/4210 |Buyer told|4212/);
    expect(out.text).toMatch(/4211 from Acme/);
    expect(out.text).toMatch(/\| 4213 \| 99\.00 \|/);
  });

  it('given a document number, then a longer number that contains it stays', () => {
    const out = omitStating(note, ['4210']);
    expect(out.text).not.toContain('Mid-State');
    expect(out.text).toContain('Invoice 42100 is fine.');
  });

  it('given a value the text does not state, then nothing goes', () => {
    expect(omitStating(note, ['7777'])).toEqual({ text: note, dropped: 0 });
  });
});
