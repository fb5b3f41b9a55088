import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { verifyChain } from '../events/chain-verify';
import type { Db } from '../events/database';
import { eventsDifferFromStart, type StartRecord } from './start-snapshot';

/**
 * heads.jsonl: tamper evidence the runner writes in the attempt folder, outside the agent's
 * sandbox, at every turn boundary: the head of final.db's hash chain and the hash of each file of
 * the scenario's reference. The chain has no anchor inside the file (anyone who can write it can
 * re-chain it), so these lines are the anchor: a final.db that does not extend every head, or a
 * reference that changed, is not graded.
 */
export const HEADS_FILE = 'heads.jsonl';

export interface ChainHead {
  seq: number;
  row_hash: string;
}

export interface HeadRecord extends ChainHead {
  /** `start` (final.db after the reset, before the server starts), `turn N begins`, `turn N ends`, `closed` (the run's last event). */
  at: string;
  /** sha256 of each file of the scenario's reference folder, by name; null when the run writes the reference. */
  reference: Record<string, string> | null;
}

export function chainHead(db: Db): ChainHead {
  const row = db.prepare('SELECT seq, row_hash FROM events ORDER BY seq DESC LIMIT 1').get() as ChainHead | undefined;
  return row ?? { seq: 0, row_hash: '' };
}

/** The files the grader reads from a reference folder (its CSVs and events.jsonl), each hashed. */
export function referenceDigest(referenceDir: string): Record<string, string> {
  if (!existsSync(referenceDir)) return {};
  const out: Record<string, string> = {};
  for (const name of readdirSync(referenceDir).sort()) {
    const file = join(referenceDir, name);
    if (statSync(file).isFile()) out[name] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return out;
}

export function appendHead(attemptDir: string, head: HeadRecord): void {
  appendFileSync(join(attemptDir, HEADS_FILE), JSON.stringify(head) + '\n');
}

export function readHeads(attemptDir: string): HeadRecord[] | undefined {
  const file = join(attemptDir, HEADS_FILE);
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as HeadRecord);
}

function rowAt(db: Db, seq: number): ChainHead | undefined {
  return db.prepare('SELECT seq, row_hash FROM events WHERE seq = ?').get(seq) as ChainHead | undefined;
}

/** Why `db` does not extend `head`, or undefined when it does. */
function notExtending(db: Db, head: HeadRecord, file: string): string | undefined {
  const row = rowAt(db, head.seq);
  if (!row) return `${file} has no event ${head.seq}, the chain head recorded at ${head.at}`;
  if (row.row_hash !== head.row_hash) return `${file}'s event ${head.seq} has row hash ${row.row_hash.slice(0, 12)}…, not ${head.row_hash.slice(0, 12)}… as recorded at ${head.at}: its history was rewritten`;
  return undefined;
}

function referenceChanges(recorded: Record<string, string>, now: Record<string, string>, at: string): string[] {
  const names = [...new Set([...Object.keys(recorded), ...Object.keys(now)])].sort();
  const changed = names.filter((n) => recorded[n] !== now[n]).map((n) => (!(n in now) ? `${n} (removed)` : !(n in recorded) ? `${n} (added)` : n));
  return changed.length ? [`the scenario's reference differs from its hash recorded at ${at}: ${changed.join(', ')}`] : [];
}

/**
 * Why a file's hash chain does not hold, or undefined. With the scenario's verified start, its
 * first events must be the start's, column for column (their chain was verified at generation),
 * and the chain is recomputed from the start's head on; without it, from the first event.
 */
function chainProblem(db: Db, verified: { dir: string; record: StartRecord } | undefined): string | undefined {
  if (verified && verified.record.events > 0) {
    const differs = eventsDifferFromStart(db, verified.dir, verified.record);
    if (differs) return `events are not the scenario's verified start: ${differs}`;
  }
  const chain = verified ? verifyChain(db, { seq: verified.record.events, rowHash: verified.record.head }) : verifyChain(db);
  return chain.ok ? undefined : `hash chain breaks at event ${chain.brokenAt}: ${chain.reason}`;
}

/**
 * What differs between an attempt's files and its tamper evidence, one sentence each; empty when
 * nothing does. final.db must verify as a chain, extend every recorded head and end at the head
 * recorded when the run closed; the record's start must be the start head; the reference must hash
 * as it did. An attempt of record version 2 also kept a start.db: it must verify and be the start head.
 */
export function tamperFindings(heads: readonly HeadRecord[], files: { start?: Db; startSeq: number; final: Db; referenceDir: string; verifiedStart?: { dir: string; record: StartRecord } }): string[] {
  const out: string[] = [];
  for (const [name, db] of [['start.db', files.start], ['final.db', files.final]] as const) {
    if (!db) continue;
    const problem = chainProblem(db, files.verifiedStart);
    if (problem) out.push(`${name}'s ${problem}`);
  }
  const start = heads.find((h) => h.at === 'start');
  if (!start) out.push(`${HEADS_FILE} has no start head`);
  else {
    if (files.startSeq !== start.seq) out.push(`attempt.json's start_seq ${files.startSeq} is not the start head recorded at the reset (event ${start.seq})`);
    if (files.start) {
      const startHead = chainHead(files.start);
      if (startHead.seq !== start.seq || startHead.row_hash !== start.row_hash) out.push(`start.db ends at event ${startHead.seq} (${startHead.row_hash.slice(0, 12)}…), not at the start head recorded at the reset (event ${start.seq})`);
    }
  }
  for (const head of heads) {
    const problem = notExtending(files.final, head, 'final.db');
    if (problem) out.push(problem);
  }
  const closed = heads.find((h) => h.at === 'closed');
  if (!closed) out.push(`${HEADS_FILE} has no head for the run's close: the run did not finish writing its evidence`);
  else {
    const last = chainHead(files.final).seq;
    if (last > closed.seq) out.push(`final.db has ${last - closed.seq} event${last - closed.seq === 1 ? '' : 's'} after the run closed at event ${closed.seq}`);
  }
  const now = referenceDigest(files.referenceDir);
  const withReference = heads.filter((h) => h.reference !== null);
  // One sentence for the first boundary whose reference differs from now: later ones say the same.
  const first = withReference.map((h) => referenceChanges(h.reference!, now, h.at)).find((s) => s.length);
  if (first) out.push(...first);
  return [...new Set(out)];
}
