import type { DayHook } from '../api/control-app';
import type { Api } from '../api/pipeline';
import { isBusinessDay } from '../domain/calendar';
import type { Queries } from '../projections';
import { behavioursOf } from './behaviour-registry';
import type { Credentials } from './credentials';
import { ACTOR_ORDER, type AskedAbout, type World } from './world';
// The counterparties' behaviours register themselves when imported.
import './behaviours';

export { registerBehaviour, registeredBehaviours } from './behaviour-registry';

export interface SimResponse {
  status: number;
  body: any;
}

/** A counterparty acting as one user, through the same pipeline as anyone (its own bearer token). */
export interface SimClient {
  get(path: string, query?: Record<string, unknown>): SimResponse;
  post(path: string, body?: unknown, idempotencyKey?: string): SimResponse;
}

export interface SimContext {
  date: string;
  businessDay: boolean;
  world: World;
  read: Queries;
  as(userId: string): SimClient;
}

/** One behaviour of an actor kind: reads what the system contains and acts through `ctx.as`. */
export type ActorBehaviour = (ctx: SimContext) => void;

/** A client acting as one user, through the pipeline with the token this run issued to that user. */
export function clientFor(api: Api, credentials: Credentials, userId: string): SimClient {
  const token = credentials[userId];
  if (!token) throw new Error(`No token was issued to ${userId} for this run (world.json users).`);
  return {
    get: (path, query) => api.call({ method: 'GET', path, query: query ?? {}, token }),
    post: (path, body, idempotencyKey) => api.call({ method: 'POST', path, body: body ?? {}, token, idempotencyKey: idempotencyKey ?? null }),
  };
}

/** Whether the party was called before `date` about one of the messages or a document entered from one. */
export function wasAsked(read: Queries, asked: AskedAbout, date: string): boolean {
  const about = (topicType: string | null, topicId: string | null): boolean => {
    if (topicId === null) return false;
    if (topicType === 'message') return asked.messages.includes(topicId);
    if (topicType === 'ap_invoice') {
      const source = read.payables.invoice(topicId)?.source_message;
      return source !== null && source !== undefined && asked.messages.includes(source);
    }
    return false;
  };
  return read.calls.callsTo(asked.party_type, asked.party_id).some((c) => c.on_file && c.created_date < date && about(c.topic_type, c.topic_id));
}

/**
 * The day hook of the control API: on each day the clock reaches, each actor kind in the fixed
 * order runs the world's scheduled actions for it (an answer only when it was asked), then its behaviours.
 */
export function createSimulator(world: World, credentials: Credentials): DayHook {
  return (date: string, api: Api) => {
    const company = api.read.clock.company();
    const businessDay = isBusinessDay(date, { workdays: company?.workdays ?? [1, 2, 3, 4, 5], isHoliday: (d) => api.read.clock.isHoliday(d) });
    const ctx: SimContext = { date, businessDay, world, read: api.read, as: (userId) => clientFor(api, credentials, userId) };
    for (const kind of ACTOR_ORDER) {
      for (const action of world.scheduled.filter((a) => a.date === date && a.actor === kind && (!a.when_asked || wasAsked(api.read, a.when_asked, date)))) {
        const client = ctx.as(action.as);
        const res = action.method === 'GET' ? client.get(action.path) : client.post(action.path, action.body);
        if (res.status >= 400) throw new Error(`Scheduled ${action.method} ${action.path} by ${action.as} on ${date} failed: ${JSON.stringify(res.body)}`);
      }
      for (const b of behavioursOf(kind)) b.act(ctx);
    }
  };
}
