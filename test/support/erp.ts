import { Api, type ApiRequest } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import type { Emitted } from '../../src/domain/decision';
import type { EventRow } from '../../src/events/event-row';
import { createAppRegistry } from '../../src/projections';
import { ErpDb } from '../../src/projections/erp-db';

let wallTick = 0;
/** A deterministic stand-in for the wall clock, so tests can compare rows exactly. */
export const testWallClock = () => new Date(Date.UTC(2026, 0, 1) + wallTick++ * 1000).toISOString();

export function openTestErp(file = ':memory:'): { erp: ErpDb; api: Api } {
  const erp = ErpDb.open(file, createAppRegistry(), { wallClock: testWallClock });
  return { erp, api: new Api(erp, allRoutes()) };
}

export interface GivenEvent extends Emitted {
  allocated?: Record<string, number>;
  businessDate?: string;
}

/** Appends domain events as the system would have, without going through deciders. */
export function appendGiven(erp: ErpDb, events: readonly GivenEvent[]): EventRow[] {
  return erp.store.append(events.map((e) => ({
    kind: 'write' as const,
    businessDate: e.businessDate ?? '2026-10-05',
    actor: 'system',
    action: 'given',
    outcome: 'ok' as const,
    type: e.type,
    data: e.data,
    allocated: e.allocated ?? null,
  })));
}

export function systemCall(api: Api, method: string, path: string, body?: unknown): { status: number; body: any } {
  const res = api.handle({ method, path, body, asSystem: true });
  return { status: res.status, body: JSON.parse(res.body) };
}

export { issueToken } from '../../src/sim/small-company';

export function call(api: Api, token: string | null, method: string, path: string, body?: unknown, extra: Partial<ApiRequest> = {}) {
  const res = api.handle({ method, path, body, token, ...extra });
  return { status: res.status, headers: res.headers, text: res.body, body: JSON.parse(res.body) };
}

export function eventCount(erp: ErpDb): number {
  return (erp.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
}

/** A decider context for a user, as the pipeline would build it (for pure decider tests). */
export function contextFor(api: Api, userId: string): import('../../src/domain/decision').DecideContext {
  const { actorForUser } = require('../../src/api/actors') as typeof import('../../src/api/actors');
  const actor = actorForUser(api.read, userId, null);
  if (!actor) throw new Error(`no user ${userId}`);
  const allocated: Record<string, number> = {};
  return {
    actor,
    today: api.today(),
    read: api.read,
    nextId: (prefix) => {
      allocated[prefix] = (allocated[prefix] ?? api.read.idCounters.last(prefix)) + 1;
      return `${prefix}-${String(allocated[prefix]).padStart(6, '0')}`;
    },
  };
}
