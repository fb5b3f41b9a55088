import type { Static, TSchema } from '@sinclair/typebox';
import type { Db } from '../../events/database';
import type { EventRow } from '../../events/event-row';
import { describeErrors } from '../../events/json-schema';
import { validatorFor } from '../../events/validators';

/** One piece of evidence a rule found: the events it rests on and one sentence saying what they show. */
export interface Finding {
  event_ids: number[];
  sentence: string;
}

/** What the runner recorded about an attempt, so rules can tell the agent's requests from the rest. */
export interface AttemptFacts {
  agentUser: string;
  /** Users the simulator acts as, each with a token issued at the attempt's reset. */
  counterparties: string[];
  /** The token issued to the agent at the reset; absent in attempts recorded before tokens were issued per attempt. */
  agentTokenId?: string;
  /** Every token issued at the reset (the agent's and the counterparties'). */
  issuedTokenIds?: string[];
  /** The last event of the start state: the attempt's events come after it. */
  startSeq: number;
  /** Event ranges (inclusive) in which the agent's turns ran and no counterparty acted. */
  agentWindows: { turn: number; fromSeq: number; toSeq: number }[];
}

export interface RuleContext<P = Record<string, unknown>> {
  params: P;
  attempt: AttemptFacts;
  gradingDate: string;
  /** The replayed final state (read models), for rules that need master data. */
  db: Db;
}

/**
 * An audit rule: a pure function over the event stream (seed 000 §7, §9). Check types
 * audit_forbidden (a finding is a breach) and audit_required (a finding is missing evidence) run it.
 */
export interface AuditRule<P = any> {
  name: string;
  /** What the rule looks for, in one sentence. */
  description: string;
  params: TSchema;
  evaluate(events: readonly EventRow[], ctx: RuleContext<P>): Finding[];
}

export function defineRule<S extends TSchema>(def: {
  name: string;
  description: string;
  params: S;
  evaluate(events: readonly EventRow[], ctx: RuleContext<Static<S>>): Finding[];
}): AuditRule<Static<S>> {
  return def;
}

/** A sentence naming what is wrong with a check's params for a rule, or undefined when they fit. */
export function paramsProblem(rule: AuditRule, params: unknown): string | undefined {
  const validate = validatorFor('payload', rule.params);
  return validate(params ?? {}) ? undefined : describeErrors(validate.errors, 'params');
}

/** True for events written during the attempt. */
export function inAttempt(e: EventRow, attempt: AttemptFacts): boolean {
  return e.seq > attempt.startSeq;
}

/** True for the agent's own requests during the attempt. */
export function byAgent(e: EventRow, attempt: AttemptFacts): boolean {
  return inAttempt(e, attempt) && e.actor === attempt.agentUser;
}

/** The domain events of a stream by type, each list in stream order with the rows' places in it. */
type TypeIndex = Map<string, { rows: EventRow[]; at: number[] }>;

/**
 * Rules ask for a few types each, many times over one stream (a year of history): the stream is
 * read into lists by type once, on the first ask. A stream is a grade's list of rows, which nobody
 * changes once built.
 */
const indexes = new WeakMap<readonly EventRow[], TypeIndex>();

function typeIndex(events: readonly EventRow[]): TypeIndex {
  let index = indexes.get(events);
  if (!index) {
    index = new Map();
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (e.kind !== 'write' || e.outcome !== 'ok' || e.type === null) continue;
      let list = index.get(e.type);
      if (!list) index.set(e.type, (list = { rows: [], at: [] }));
      list.rows.push(e);
      list.at.push(i);
    }
    indexes.set(events, index);
  }
  return index;
}

/** Accepted writes that carry a domain event of one of these types, in stream order. */
export function domainEvents(events: readonly EventRow[], ...types: string[]): EventRow[] {
  const index = typeIndex(events);
  const lists = [...new Set(types)].flatMap((t) => index.get(t) ?? []);
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0]!.rows.slice();
  const merged: { row: EventRow; at: number }[] = [];
  for (const list of lists) for (let i = 0; i < list.rows.length; i++) merged.push({ row: list.rows[i]!, at: list.at[i]! });
  return merged.sort((a, b) => a.at - b.at).map((m) => m.row);
}
