import type { EventRow } from '../events/event-row';

/** At most this many event ids are listed for one row; the earliest and the latest are kept. */
export const MAX_EVIDENCE = 40;

interface IndexedWrite {
  seq: number;
  objectId: string | null;
  /** An accepted write that carries a domain event: it made a document what it is. */
  effective: boolean;
  values: ReadonlySet<string>;
}

/**
 * Finds the events behind a projection row. Projections are keyed by business keys, never by the
 * ids the system gave the agent's documents, so a row is traced one of two ways:
 *  - a row that names its documents in provenance columns (names starting with `_`, several ids
 *    separated by commas) is traced exactly: every write on, or mentioning, those documents;
 *  - any other row, and a row the agent does not have at all, by its business key: the writes
 *    (accepted or refused, by anyone) whose object id or payload holds every non-empty key value
 *    as one whole scalar, then every write on or mentioning the documents those accepted writes
 *    were about (the later cancellation of a leave carries only its id). This may also find
 *    neighbours that share the values in other fields; it never misses the writes that made the row.
 * Refused writes are kept on purpose: for a row the agent failed to produce they show what it
 * tried. Reads and the clock's own moves are never evidence.
 */
export class EvidenceIndex {
  private indexed: IndexedWrite[] | undefined;

  constructor(private readonly events: readonly EventRow[]) {}

  /** Built on first use: an attempt with nothing to explain never pays for it. */
  private get writes(): IndexedWrite[] {
    this.indexed ??= this.events
      .filter((e) => e.kind === 'write' && e.action !== 'clock.advance')
      .map((e) => ({ seq: e.seq, objectId: e.objectId, effective: e.outcome === 'ok' && e.type !== null, values: scalarsOf(e) }));
    return this.indexed;
  }

  /** Writes holding every one of these values. */
  holdingAll(values: readonly string[]): IndexedWrite[] {
    const wanted = clean(values);
    if (wanted.length === 0) return [];
    return this.writes.filter((w) => wanted.every((v) => w.values.has(v)));
  }

  /** Writes on, or mentioning, any of these documents. */
  touching(ids: ReadonlySet<string>): IndexedWrite[] {
    if (ids.size === 0) return [];
    const wanted = [...ids];
    return this.writes.filter((w) => (w.objectId !== null && ids.has(w.objectId)) || wanted.some((id) => w.values.has(id)));
  }

  /** The evidence of one row: the agent's row when it has one, and the row's key values. */
  forRow(row: Readonly<Record<string, string>> | undefined, keyValues: readonly string[]): number[] {
    const provenance = new Set(row ? Object.entries(row).filter(([c]) => c.startsWith('_')).flatMap(([, v]) => clean(v.split(','))) : []);
    let found: IndexedWrite[];
    if (provenance.size > 0) found = this.touching(provenance);
    else {
      const keyed = this.holdingAll(keyValues);
      found = [...keyed, ...this.touching(new Set(keyed.filter((w) => w.effective && w.objectId !== null).map((w) => w.objectId!)))];
    }
    return cap([...new Set(found.map((w) => w.seq))].sort((a, b) => a - b));
  }
}

function clean(values: readonly string[]): string[] {
  return values.map((v) => v.trim()).filter((v) => v.length > 0);
}

function cap(seqs: number[]): number[] {
  if (seqs.length <= MAX_EVIDENCE) return seqs;
  const half = MAX_EVIDENCE / 2;
  return [...seqs.slice(0, half), ...seqs.slice(-half)];
}

/**
 * The scalars of each row read so far. Rows are never changed once read, and a scenario's start
 * events are shared by every grade of an attempt at it in one process (readAttemptEvents), so
 * their scalars are found once.
 */
const scalarsByRow = new WeakMap<EventRow, ReadonlySet<string>>();

function scalarsOf(e: EventRow): ReadonlySet<string> {
  let found = scalarsByRow.get(e);
  if (!found) {
    found = scalars(e);
    scalarsByRow.set(e, found);
  }
  return found;
}

/** The event's object id and every scalar in its payload, as text. */
function scalars(e: EventRow): Set<string> {
  const out = new Set<string>();
  if (e.objectId) out.add(e.objectId);
  const walk = (v: unknown): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object') Object.values(v as Record<string, unknown>).forEach(walk);
    else out.add(String(v));
  };
  walk(e.data);
  return out;
}
