import { existsSync, rmSync } from 'node:fs';
import { hashOfTableHashes, tableHashes } from '../events/canonical-hash';
import { attachForScan, openDatabase, writeQueueOf, type Db } from '../events/database';
import { fromStoredRow } from '../events/store';
import type { ReadModelRegistry } from './registry';

export interface ReplayOptions {
  /** Stop after this event: the state as of that event. */
  untilSeq?: number;
  /** Overwrite an existing output file. */
  force?: boolean;
}

export interface ReplayResult {
  events: number;
  domainEvents: number;
  lastSeq: number;
}

/**
 * Rebuilds every read model of `sourceFile` from its events alone into a fresh database:
 * the events (up to `untilSeq`) are copied verbatim, then folded through the read models.
 */
export function replayFile(sourceFile: string, outFile: string, registry: ReadModelRegistry, options: ReplayOptions = {}): ReplayResult {
  if (!existsSync(sourceFile)) throw new Error(`No database at ${sourceFile}.`);
  if (outFile !== ':memory:' && existsSync(outFile)) {
    if (!options.force) throw new Error(`${outFile} exists; pass --force to overwrite it.`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(outFile + suffix, { force: true });
  }
  const out = openDatabase(outFile, { fast: true, deferWrites: true });
  try {
    const result = replayInto(out, sourceFile, registry, options);
    out.pragma('wal_checkpoint(TRUNCATE)');
    return result;
  } finally {
    out.close();
  }
}

/**
 * Replays into an open, empty database (for example ':memory:'). One opened with `deferWrites`
 * folds with its tables in memory (TableAccessOptions.mirror) and writes them as it goes.
 */
export function replayInto(out: Db, sourceFile: string, registry: ReadModelRegistry, options: ReplayOptions = {}): ReplayResult {
  registry.createTables(out);
  const until = options.untilSeq ?? Number.MAX_SAFE_INTEGER;
  const sink = registry.sink(registry.access(out, { mirror: writeQueueOf(out) !== undefined }));
  // A second, read-only connection streams the events while `out` is written.
  const source = openDatabase(sourceFile, { readonly: true });
  try {
    attachForScan(out, sourceFile, 'src');
    let copied: number;
    try {
      copied = out.transaction(() => {
        const n = out.prepare('INSERT INTO main.events SELECT * FROM src.events WHERE seq <= ? ORDER BY seq').run(until).changes;
        out.prepare('INSERT INTO main.idempotency SELECT * FROM src.idempotency WHERE seq <= ?').run(until);
        return n;
      })();
    } finally {
      out.exec('DETACH DATABASE src');
    }
    return out.transaction(() => {
      let domainEvents = 0;
      const rows = source.prepare(`SELECT * FROM events WHERE seq <= ? AND kind = 'write' AND outcome = 'ok' AND type IS NOT NULL ORDER BY seq`);
      for (const raw of rows.iterate(until)) {
        sink.apply(fromStoredRow(raw as Record<string, unknown>));
        domainEvents += 1;
      }
      const last = out.prepare('SELECT MAX(seq) AS s FROM main.events').get() as { s: number | null };
      return { events: copied, domainEvents, lastSeq: last.s ?? 0 };
    })();
  } finally {
    source.close();
  }
}

export interface ReplayCheck {
  equal: boolean;
  liveHash: string;
  replayHash: string;
  differingTables: string[];
}

/** Replays a file in memory and compares every read-model table with the file's own. */
export function checkReplay(sourceFile: string, live: Db, registry: ReadModelRegistry): ReplayCheck {
  return checkReplayAgainst(sourceFile, tableHashes(live, { tables: registry.tableNames() }), registry);
}

/**
 * checkReplay against the file's read-model tables as hashed already (tableHash of each): for a
 * caller that hashes them anyway, so that they are read once.
 */
export function checkReplayAgainst(sourceFile: string, liveTableHashes: Readonly<Record<string, string>>, registry: ReadModelRegistry): ReplayCheck {
  const out = openDatabase(':memory:', { deferWrites: true });
  try {
    replayInto(out, sourceFile, registry);
    const tables = registry.tableNames();
    const replayed = tableHashes(out, { tables });
    const differing = tables.filter((t) => replayed[t] !== liveTableHashes[t]);
    return { equal: differing.length === 0, liveHash: hashOfTableHashes(liveTableHashes, tables), replayHash: hashOfTableHashes(replayed, tables), differingTables: differing };
  } finally {
    out.close();
  }
}
