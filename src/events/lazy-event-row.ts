import type { EventRow } from './event-row';

/**
 * Columns of the events table a lazy row is built from, in the order it takes them: those before
 * the payload. The payload and the two columns stored after it (allocated, row_hash) are read
 * when first used: SQLite reaches a column stored after a long payload only by reading the
 * payload's overflow pages, so reading them for every row of a year cost more than reading the
 * columns before it.
 */
export const LEADING_EVENT_COLUMNS = ['seq', 'kind', 'business_date', 'wall_time', 'actor', 'token_id', 'method', 'path', 'action', 'object_type', 'object_id', 'outcome', 'error_code', 'idempotency_key', 'type'] as const;

/** Where a lazy row reads the stored text of its later columns, when it was built without them. */
export interface LaterColumns {
  data(row: EventRow): string;
  /** allocated (its JSON text, or null) and row_hash. */
  tail(row: EventRow): [allocated: string | null, rowHash: string];
}

const NOT_READ = Symbol('not read');
type Later<T> = T | typeof NOT_READ;

/**
 * An event row whose payload is parsed, and whose later columns are read, on first use. Its own
 * enumerable properties are an eager row's, in the same order, so a copy or the JSON of it holds
 * the payload; `data`, `allocated` and `rowHash` are accessors sharing one definition, so a row
 * costs a class instance rather than an object with closures of its own (a grade builds a
 * year's rows).
 */
class LazyEventRow {
  #later: LaterColumns | undefined;
  #data: Later<unknown> = NOT_READ;
  #dataText: string | undefined;
  #allocated: Later<Record<string, number> | null> = NOT_READ;
  #rowHash: Later<string> = NOT_READ;

  static readonly #accessors = (() => {
    const loadTail = (row: LazyEventRow) => {
      const [allocated, rowHash] = row.#later!.tail(row as unknown as EventRow);
      if (row.#allocated === NOT_READ) row.#allocated = allocated ? (JSON.parse(allocated) as Record<string, number>) : null;
      if (row.#rowHash === NOT_READ) row.#rowHash = rowHash;
    };
    return {
      data: {
        enumerable: true, configurable: true,
        get(this: LazyEventRow): unknown {
          if (this.#data === NOT_READ) this.#data = JSON.parse(this.#dataText ?? this.#later!.data(this as unknown as EventRow));
          this.#dataText = undefined;
          return this.#data;
        },
        set(this: LazyEventRow, value: unknown) {
          this.#data = value;
          this.#dataText = undefined;
        },
      },
      allocated: {
        enumerable: true, configurable: true,
        get(this: LazyEventRow): Record<string, number> | null {
          if (this.#allocated === NOT_READ) loadTail(this);
          return this.#allocated as Record<string, number> | null;
        },
        set(this: LazyEventRow, value: Record<string, number> | null) {
          this.#allocated = value;
        },
      },
      rowHash: {
        enumerable: true, configurable: true,
        get(this: LazyEventRow): string {
          if (this.#rowHash === NOT_READ) loadTail(this);
          return this.#rowHash as string;
        },
        set(this: LazyEventRow, value: string) {
          this.#rowHash = value;
        },
      },
    } satisfies Record<'data' | 'allocated' | 'rowHash', PropertyDescriptor>;
  })();

  /**
   * `v`: the LEADING_EVENT_COLUMNS' values, then optionally the stored texts of data, allocated
   * and row_hash; `later` reads those not given.
   */
  constructor(v: readonly unknown[], later: LaterColumns | undefined) {
    const self = this as unknown as Record<string, unknown>;
    self.seq = v[0];
    self.kind = v[1];
    self.businessDate = v[2];
    self.wallTime = v[3];
    self.actor = v[4];
    self.tokenId = v[5];
    self.method = v[6];
    self.path = v[7];
    self.action = v[8];
    self.objectType = v[9];
    self.objectId = v[10];
    self.outcome = v[11];
    self.errorCode = v[12];
    self.idempotencyKey = v[13];
    self.type = v[14];
    this.#later = later;
    if (v.length > 15) {
      this.#dataText = v[15] as string;
      this.#allocated = v[16] ? (JSON.parse(v[16] as string) as Record<string, number>) : null;
      this.#rowHash = v[17] as string;
    }
    Object.defineProperty(this, 'data', LazyEventRow.#accessors.data);
    Object.defineProperty(this, 'allocated', LazyEventRow.#accessors.allocated);
    Object.defineProperty(this, 'rowHash', LazyEventRow.#accessors.rowHash);
  }
}

/** A row from the values of LEADING_EVENT_COLUMNS (a raw SQLite row); `later` reads the rest when used. */
export function lazyEventRow(v: readonly unknown[], later: LaterColumns): EventRow {
  return new LazyEventRow(v, later) as unknown as EventRow;
}

/** A row from a whole stored row (SELECT *), its payload parsed on first read. */
export function fromStoredRowLazy(raw: Record<string, unknown>): EventRow {
  return new LazyEventRow([...LEADING_EVENT_COLUMNS.map((c) => raw[c]), raw.data, raw.allocated, raw.row_hash], undefined) as unknown as EventRow;
}
