import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/events/database';
import type { NewEvent } from '../src/events/event-row';
import { HASHED_COLUMNS } from '../src/events/row-hash';
import { toStoredColumns } from '../src/events/store';
import { createAppRegistry } from '../src/projections';
import { ErpDb } from '../src/projections/erp-db';
import { replayFile } from '../src/projections/replay';
import { printFigures, timeIt, wantsJson, type Figure } from './figures';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);

/**
 * The event log against the physical limit of SQLite on this machine: appends through the real
 * path (schema validation, hash chain, inline read models) beside a raw prepared INSERT of the same
 * rows into the same table; replay beside a raw SELECT + JSON.parse of the same rows.
 */
export function benchEvents(): Figure[] {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-bench-'));
  try {
    const events = workload(EVENTS);

    const live = ErpDb.open(join(dir, 'live.db'), createAppRegistry());
    const append = timeIt(() => live.store.append(events));
    const rows = append.result;

    const raw = openDatabase(join(dir, 'raw.db'));
    const insert = raw.prepare(`INSERT INTO events (${HASHED_COLUMNS.join(', ')}, row_hash) VALUES (${HASHED_COLUMNS.map(() => '?').join(', ')}, ?)`);
    const stored = rows.map((r) => ({ values: Object.values(toStoredColumns(r)), hash: r.rowHash }));
    const rawInsert = timeIt(() => raw.transaction(() => { for (const s of stored) insert.run(...s.values, s.hash); })());
    raw.close();
    live.close();

    const rawSelect = timeIt(() => {
      const db = openDatabase(join(dir, 'live.db'), { readonly: true });
      let n = 0;
      for (const r of db.prepare('SELECT * FROM events ORDER BY seq').iterate()) {
        JSON.parse((r as { data: string }).data);
        n += 1;
      }
      db.close();
      return n;
    });
    const replay = timeIt(() => replayFile(join(dir, 'live.db'), join(dir, 'replayed.db'), createAppRegistry()));

    const appendRate = EVENTS / append.seconds;
    const rawInsertRate = EVENTS / rawInsert.seconds;
    const replayRate = EVENTS / replay.seconds;
    const rawSelectRate = rawSelect.result / rawSelect.seconds;
    return [
      { name: 'events.count', value: EVENTS, unit: 'events' },
      { name: 'events.append_rate', value: appendRate, unit: 'events/s', note: 'validation, hash chain, inline read models, one transaction' },
      { name: 'events.raw_insert_rate', value: rawInsertRate, unit: 'rows/s', note: 'same rows, same table, prepared INSERT, one transaction' },
      { name: 'events.append_vs_raw', value: (100 * appendRate) / rawInsertRate, unit: '%' },
      { name: 'events.replay_rate', value: replayRate, unit: 'events/s', note: 'copy + fold into fresh read models' },
      { name: 'events.raw_select_parse_rate', value: rawSelectRate, unit: 'rows/s', note: 'SELECT * + JSON.parse' },
      { name: 'events.replay_vs_raw', value: (100 * replayRate) / rawSelectRate, unit: '%' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Leaves scheduled and cancelled: an insert with a new document id, then an update of it. */
function workload(n: number): NewEvent[] {
  const events: NewEvent[] = [];
  for (let i = 1; events.length < n; i++) {
    const id = `LV-${String(i).padStart(6, '0')}`;
    events.push({
      kind: 'write', businessDate: '2026-10-05', actor: 'grace.lin', tokenId: 'TOK-000001', method: 'POST', path: '/leaves', action: 'leave.schedule',
      objectType: 'leave', objectId: id, outcome: 'ok', type: 'LeaveScheduled',
      data: { id, user: `user.${i % 20}`, start_date: '2026-10-06', end_date: '2026-10-09', delegate: 'grace.lin' }, allocated: { LV: i },
    });
    if (events.length < n) {
      events.push({
        kind: 'write', businessDate: '2026-10-05', actor: 'grace.lin', tokenId: 'TOK-000001', method: 'POST', path: `/leaves/${id}/cancel`, action: 'leave.cancel',
        objectType: 'leave', objectId: id, outcome: 'ok', type: 'LeaveCancelled', data: { id },
      });
    }
  }
  return events;
}

if (require.main === module) printFigures(`Event log (${EVENTS.toLocaleString('en-US')} events)`, benchEvents(), wantsJson());
