import { AmortizationRunPosted, DepreciationRunPosted, FixedAssetRegistered, PrepaidScheduleCreated } from '../events/contracts/ledger-close';
import { documentStamp } from './history';
import type { EventRow } from '../events/event-row';
import { defineReadModel, on, type ProjectionTx } from './read-model';
import type { TableAccess } from './table-access';

export interface FixedAssetRow {
  id: string;
  description: string;
  cost_account: string;
  accumulated_account: string;
  expense_account: string;
  department: string | null;
  cost: number;
  salvage: number;
  life_months: number;
  in_service_date: string;
  opening_accumulated: number;
  /** Opening depreciation plus every run's, in cents. */
  accumulated: number;
  last_period: string | null;
  source: string;
  status: 'in_service' | 'fully_depreciated';
  created_by: string;
  created_date: string;
}

export interface PrepaidScheduleRow {
  id: string;
  description: string;
  prepaid_account: string;
  expense_account: string;
  department: string | null;
  amount: number;
  start_period: string;
  months: number;
  opening_amortized: number;
  amortized: number;
  last_period: string | null;
  source: string;
  status: 'amortizing' | 'fully_amortized';
  created_by: string;
  created_date: string;
}

/** A monthly run of a register: which month, and what it took in all (its lines are ScheduleRunLineRow). */
export interface ScheduleRunRow {
  id: string;
  period: string;
  total: number;
  posted_by: string;
  posted_date: string;
}

/** One run line per asset or schedule, so an item's history and its total as of a month are one query. */
export interface ScheduleRunLineRow {
  run: string;
  item: string;
  period: string;
  amount: number;
}

type Stamp = { created_by: string; created_date: string; created_wall: string };
const stamp = (s: Stamp) => ({ created_by: s.created_by, created_date: s.created_date, created_wall: s.created_wall });

const runTable = (name: string) => ({
  name, columns: { id: 'text', period: 'text', total: 'integer', posted_by: 'text', posted_date: 'text' }, key: ['id'], indexes: [['period']],
} as const);
const runLineTable = (name: string) => ({
  name, columns: { run: 'text', item: 'text', period: 'text', amount: 'integer' }, key: ['run', 'item'], indexes: [['item', 'period']],
} as const);

/** A register's tables, and what a run's line does to the item it takes from. */
interface RegisterTables {
  runs: string;
  lines: string;
  items: string;
  take(row: Record<string, unknown>, amount: number, period: string): void;
}

const DEPRECIATION: RegisterTables = {
  runs: 'depreciation_runs', lines: 'depreciation_lines', items: 'fixed_assets',
  take(row, amount, period) {
    const r = row as unknown as FixedAssetRow;
    r.accumulated += amount;
    r.last_period = period;
    if (r.accumulated >= r.cost - r.salvage) r.status = 'fully_depreciated';
  },
};

const AMORTIZATION: RegisterTables = {
  runs: 'amortization_runs', lines: 'amortization_lines', items: 'prepaid_schedules',
  take(row, amount, period) {
    const r = row as unknown as PrepaidScheduleRow;
    r.amortized += amount;
    r.last_period = period;
    if (r.amortized >= r.amount) r.status = 'fully_amortized';
  },
};

function foldRun(tx: ProjectionTx, reg: RegisterTables, id: string, period: string, lines: { item: string; amount: number }[], e: EventRow): void {
  tx.insert(reg.runs, { id, period, total: lines.reduce((s, l) => s + l.amount, 0), posted_by: e.actor, posted_date: e.businessDate });
  for (const l of lines) {
    tx.insert(reg.lines, { run: id, item: l.item, period, amount: l.amount });
    tx.update(reg.items, l.item, (r) => reg.take(r as Record<string, unknown>, l.amount, period));
  }
}

/**
 * The fixed-asset register with its depreciation runs, and the prepaid register with its
 * amortization runs: the documents behind the month-end depreciation and amortization postings.
 */
export const schedules = defineReadModel({
  name: 'schedules',
  tables: [
    {
      name: 'fixed_assets',
      columns: {
        id: 'text', description: 'text', cost_account: 'text', accumulated_account: 'text', expense_account: 'text', department: 'text', cost: 'integer',
        salvage: 'integer', life_months: 'integer', in_service_date: 'text', opening_accumulated: 'integer', accumulated: 'integer', last_period: 'text',
        source: 'text', status: 'text', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['status']],
    },
    runTable('depreciation_runs'),
    runLineTable('depreciation_lines'),
    {
      name: 'prepaid_schedules',
      columns: {
        id: 'text', description: 'text', prepaid_account: 'text', expense_account: 'text', department: 'text', amount: 'integer', start_period: 'text',
        months: 'integer', opening_amortized: 'integer', amortized: 'integer', last_period: 'text', source: 'text', status: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['status']],
    },
    runTable('amortization_runs'),
    runLineTable('amortization_lines'),
  ],
  handlers: [
    on(FixedAssetRegistered, (tx, d, e) => tx.insert('fixed_assets', {
      ...d, accumulated: d.opening_accumulated, last_period: null, status: d.opening_accumulated >= d.cost - d.salvage ? 'fully_depreciated' : 'in_service', ...stamp(documentStamp(e, 'in_service')),
    })),
    on(DepreciationRunPosted, (tx, d, e) => foldRun(tx, DEPRECIATION, d.id, d.period, d.lines.map((l) => ({ item: l.asset, amount: l.amount })), e)),
    on(PrepaidScheduleCreated, (tx, d, e) => tx.insert('prepaid_schedules', {
      ...d, amortized: d.opening_amortized, last_period: null, status: d.opening_amortized >= d.amount ? 'fully_amortized' : 'amortizing', ...stamp(documentStamp(e, 'amortizing')),
    })),
    on(AmortizationRunPosted, (tx, d, e) => foldRun(tx, AMORTIZATION, d.id, d.period, d.lines.map((l) => ({ item: l.schedule, amount: l.amount })), e)),
  ],
  queries: (t) => scheduleQueries(t),
});

/** The monthly runs of one register: each run, the one for a month, the latest, a run's lines, an item's lines, what runs took from an item through a month. */
function runQueries(t: TableAccess, reg: RegisterTables) {
  type Run = ScheduleRunRow & Record<string, unknown>;
  type Line = ScheduleRunLineRow & Record<string, unknown>;
  return {
    run: (id: string) => t.get<Run>(reg.runs, id),
    runFor: (period: string) => t.find<Run>(reg.runs, { period })[0],
    latestRun(): ScheduleRunRow | undefined {
      const row = t.prepared(`SELECT id FROM ${reg.runs} ORDER BY period DESC LIMIT 1`).get() as { id: string } | undefined;
      return row ? t.get<Run>(reg.runs, row.id) : undefined;
    },
    lines: (run: string) => t.find<Line>(reg.lines, { run }),
    linesOf: (item: string) => t.find<Line>(reg.lines, { item }, { orderBy: ['period'] }),
    /** What runs took from an item up to and including a month (opening amounts not included). */
    takenThrough: (item: string, period: string): number =>
      (t.prepared(`SELECT COALESCE(SUM(amount), 0) AS s FROM ${reg.lines} WHERE item = ? AND period <= ?`).get(item, period) as { s: number }).s,
  };
}

function scheduleQueries(t: TableAccess) {
  return {
    asset: (id: string) => t.get<FixedAssetRow & Record<string, unknown>>('fixed_assets', id),
    assets: () => t.find<FixedAssetRow & Record<string, unknown>>('fixed_assets'),
    depreciation: runQueries(t, DEPRECIATION),
    prepaid: (id: string) => t.get<PrepaidScheduleRow & Record<string, unknown>>('prepaid_schedules', id),
    prepaids: () => t.find<PrepaidScheduleRow & Record<string, unknown>>('prepaid_schedules'),
    amortization: runQueries(t, AMORTIZATION),
  };
}
