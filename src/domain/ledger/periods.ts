import { Type } from '@sinclair/typebox';
import { PeriodCloseStarted, PeriodClosed, PeriodOpened, PeriodReopened } from '../../events/contracts/ledger';
import type { Queries } from '../../projections';
import type { PeriodRow } from '../../projections/ledger';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { endOfMonth } from '../calendar';
import { emit, refuse } from '../decision';
import { closeBlockers, closeChecklist } from './close-checks';
import { Body, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';

export const PERIOD_CLOSE = 'period.close';
const PeriodInput = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' });

function periodView(read: Queries, period: string) {
  const row = read.ledger.period(period);
  if (!row) return undefined;
  return {
    ...row,
    end_date: endOfMonth(`${period}-01`),
    unposted_journal_entries: read.journalEntries.unpostedIn(period).map((e) => ({ id: e.id, status: e.status })),
  };
}

const notFound = (period: string) => refuse('not_found', `No period ${period}; a month's period opens when the clock reaches it or with POST /periods.`);

/**
 * Periods close in order and reopen in reverse order, so the closed months are always a run of the
 * earliest ones: a posting can never land between two closed months.
 */
export const periodRoutes: RouteDef[] = [
  defineAction({
    action: 'period.open', method: 'POST', path: '/periods', tag: 'ledger', status: 201,
    summary: 'Open a month for postings ahead of the clock (a month opens by itself when the clock reaches it)',
    body: Body({ period: PeriodInput, note: Opt(NoteInput) }),
    permission: PERIOD_CLOSE, objectType: 'period', emits: [PeriodOpened],
    decide: ({ body }, ctx) => {
      if (ctx.read.ledger.period(body.period)) return refuse('already_exists', `Period ${body.period} already exists.`);
      return emit(PeriodOpened, { period: body.period, note: body.note ?? '' }, 'period', body.period);
    },
    view: periodView,
  }),
  defineAction({
    action: 'period.start_close', method: 'POST', path: '/periods/{period}/start-close', tag: 'ledger',
    summary: 'Mark an open period as closing: the close is under way; postings are still accepted',
    body: Body({ note: Opt(NoteInput) }),
    permission: PERIOD_CLOSE, objectType: 'period', emits: [PeriodCloseStarted],
    decide: ({ params, body }, ctx) => {
      const period = ctx.read.ledger.period(params.period!);
      if (!period) return notFound(params.period!);
      if (period.status !== 'open') return refuse('invalid_state', `Period ${period.period} is ${period.status}, not open.`);
      return emit(PeriodCloseStarted, { period: period.period, note: body.note ?? '' }, 'period', period.period);
    },
    view: periodView,
  }),
  defineAction({
    action: 'period.close', method: 'POST', path: '/periods/{period}/close', tag: 'ledger',
    summary: 'Close a period: postings dated in it are refused from now on. Refused while a blocking item of its close checklist fails (control accounts that do not tie, entries in flight)',
    body: Body({ note: Opt(NoteInput) }),
    permission: PERIOD_CLOSE, objectType: 'period', emits: [PeriodClosed],
    decide: ({ params, body }, ctx) => {
      const period = ctx.read.ledger.period(params.period!);
      if (!period) return notFound(params.period!);
      if (period.status === 'closed') return refuse('invalid_state', `Period ${period.period} is already closed.`);
      const ends = endOfMonth(`${period.period}-01`);
      if (ctx.today <= ends) return refuse('invalid_state', `Period ${period.period} ends on ${ends}; it can be closed only after that.`);
      const earlier = openBefore(ctx.read.ledger.periods(), period.period);
      if (earlier) return refuse('invalid_state', `Period ${earlier.period} is still ${earlier.status}; periods close in order.`);
      const blockers = closeBlockers(closeChecklist(ctx.read, period.period));
      if (blockers.length > 0) {
        return refuse('close_blocked', `Period ${period.period} cannot close: ${blockers.slice(0, 3).join(' ')}${blockers.length > 3 ? ` (and ${blockers.length - 3} more; see GET /periods/${period.period}/close-checklist)` : ''}`);
      }
      return emit(PeriodClosed, { period: period.period, note: body.note ?? '' }, 'period', period.period);
    },
    view: periodView,
  }),
  defineAction({
    action: 'period.reopen', method: 'POST', path: '/periods/{period}/reopen', tag: 'ledger',
    summary: 'Reopen a closed period, with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: PERIOD_CLOSE, objectType: 'period', emits: [PeriodReopened],
    decide: ({ params, body }, ctx) => {
      const period = ctx.read.ledger.period(params.period!);
      if (!period) return notFound(params.period!);
      if (period.status !== 'closed') return refuse('invalid_state', `Period ${period.period} is ${period.status}, not closed.`);
      const later = ctx.read.ledger.periods().find((p) => p.period > period.period && p.status === 'closed');
      if (later) return refuse('invalid_state', `Period ${later.period} is closed; reopen the later periods first.`);
      return emit(PeriodReopened, { period: period.period, reason: body.reason, note: body.note ?? '' }, 'period', period.period);
    },
    view: periodView,
  }),
  defineQuery({
    path: '/periods', tag: 'ledger', summary: 'List accounting periods and their status', permission: null,
    query: ListQuery({ status: Opt(Type.Union([Type.Literal('open'), Type.Literal('closing'), Type.Literal('closed')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'periods', { status: query.status }, query),
  }),
  defineQuery({
    path: '/periods/{period}/close-checklist', tag: 'ledger', permission: null, objectType: 'period',
    summary: "What the month's close needs: each check of the checklist, whether it blocks the close, and the problems it finds",
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => {
      const row = ctx.read.ledger.period(params.period!);
      if (!row) return undefined;
      const checks = closeChecklist(ctx.read, row.period);
      return { period: row.period, status: row.status, end_date: endOfMonth(`${row.period}-01`), ready: closeBlockers(checks).length === 0, checks };
    },
  }),
  defineQuery({
    path: '/periods/{period}', tag: 'ledger', summary: 'A period with its status history and its unposted journal entries', permission: null, objectType: 'period',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => periodView(ctx.read, params.period!),
  }),
];

function openBefore(periods: readonly PeriodRow[], period: string): PeriodRow | undefined {
  return periods.find((p) => p.period < period && p.status !== 'closed');
}
