import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/events/database';
import type { EventRow } from '../../src/events/event-row';
import type { CheckContext } from '../../src/grader/checks/context';
import type { Table } from '../../src/grader/csv';
import { EvidenceIndex } from '../../src/grader/evidence';
import type { AttemptFacts } from '../../src/grader/rules/framework';

/** A hand-built event row: an accepted write by the agent unless told otherwise. */
export function ev(seq: number, e: Partial<EventRow> = {}): EventRow {
  return {
    seq, kind: 'write', businessDate: '2026-10-06', wallTime: '', actor: 'olga.park', tokenId: 'TOK-AGENT', method: 'POST', path: '/x',
    action: 'x.do', objectType: null, objectId: null, outcome: 'ok', errorCode: null, idempotencyKey: null, type: null, data: {}, allocated: null, rowHash: '',
    ...e,
  };
}

/** The attempt of most rule tests: events 1–10 are the start state, turns run 11–20 and 31–40. */
export const attempt: AttemptFacts = {
  agentUser: 'olga.park',
  counterparties: ['grace.lin', 'vendor.bot'],
  startSeq: 10,
  agentWindows: [{ turn: 1, fromSeq: 11, toSeq: 20 }, { turn: 2, fromSeq: 31, toSeq: 40 }],
};

export function table(columns: string[], rows: (string | number)[][]): Table {
  return { columns, rows: rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, String(r[i] ?? '')]))) };
}

/** A check context over empty in-memory states; tests fill in what the check reads. */
export function checkContext(over: Partial<CheckContext> = {}): CheckContext {
  const events = over.events ?? [];
  return {
    final: openDatabase(':memory:'),
    start: openDatabase(':memory:'),
    agentTables: new Map(),
    referenceTables: new Map(),
    events,
    attempt,
    gradingDate: '2026-10-09',
    workspace: mkdtempSync(join(tmpdir(), 'bb-erp-ws-')),
    evidence: new EvidenceIndex(events),
    tableKey: () => undefined,
    controlTies: [],
    ...over,
  };
}

export const base = { cites: ['LV-1.1'] };
