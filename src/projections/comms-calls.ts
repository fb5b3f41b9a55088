import { CallPlaced, CallScriptPlanted } from '../events/contracts/comms';
import { defineReadModel, on } from './read-model';
import type { Row } from './table-spec';

export interface CallRow {
  id: string;
  caller: string;
  party_type: 'vendor' | 'customer' | 'user';
  party_id: string;
  party_name: string;
  number_dialled: string;
  number_digits: string;
  number_on_file: string | null;
  /** The number dialled is the party's number on file (compared digit by digit). */
  on_file: boolean;
  topic_type: string | null;
  topic_id: string | null;
  script: string | null;
  answered_by: string;
  outcome: string;
  facts: string;
  created_by: string;
  created_date: string;
  created_wall: string;
}

export interface CallScriptRow {
  id: string;
  number: string;
  number_digits: string;
  party_type: string | null;
  party_id: string | null;
  topic_type: string | null;
  topic_id: string | null;
  answered_by: string;
  outcome: string;
  facts: string;
  /** active, or replaced by a later script for the same number, party and topic. */
  status: 'active' | 'replaced';
  replaced_by: string | null;
  planted_date: string;
}

export interface ScriptLookup {
  numberDigits: string;
  partyType: string;
  partyId: string;
  topic: { record_type: string; record_id: string } | null;
}

/** Calls placed, and the counterparties' scripts that answer them. No API route reads call_scripts. */
export const calls = defineReadModel({
  name: 'calls',
  tables: [
    {
      name: 'calls',
      columns: {
        id: 'text', caller: 'text', party_type: 'text', party_id: 'text', party_name: 'text', number_dialled: 'text',
        number_digits: 'text', number_on_file: 'text', on_file: 'bool', topic_type: 'text', topic_id: 'text', script: 'text',
        answered_by: 'text', outcome: 'text', facts: 'text', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['caller'], ['party_type', 'party_id'], ['number_digits']],
    },
    {
      name: 'call_scripts',
      columns: {
        id: 'text', number: 'text', number_digits: 'text', party_type: 'text', party_id: 'text', topic_type: 'text', topic_id: 'text',
        answered_by: 'text', outcome: 'text', facts: 'text', status: 'text', replaced_by: 'text', planted_date: 'text',
      },
      key: ['id'],
      indexes: [['number_digits', 'status']],
    },
  ],
  handlers: [
    on(CallScriptPlanted, (tx, d, e) => {
      const sameKey = { number_digits: d.number_digits, party_type: d.party_type, party_id: d.party_id, topic_type: d.topic?.record_type ?? null, topic_id: d.topic?.record_id ?? null, status: 'active' };
      for (const old of tx.find<CallScriptRow & Row>('call_scripts', sameKey)) {
        tx.update<CallScriptRow & Row>('call_scripts', old.id, (r) => {
          r.status = 'replaced';
          r.replaced_by = d.id;
        });
      }
      tx.insert('call_scripts', {
        id: d.id, number: d.number, number_digits: d.number_digits, party_type: d.party_type, party_id: d.party_id,
        topic_type: d.topic?.record_type ?? null, topic_id: d.topic?.record_id ?? null, answered_by: d.answered_by,
        outcome: d.outcome, facts: d.facts, status: 'active', replaced_by: null, planted_date: e.businessDate,
      });
    }),
    on(CallPlaced, (tx, d, e) => tx.insert('calls', {
      id: d.id, caller: d.caller, party_type: d.party_type, party_id: d.party_id, party_name: d.party_name, number_dialled: d.number_dialled,
      number_digits: d.number_digits, number_on_file: d.number_on_file, on_file: d.on_file, topic_type: d.topic?.record_type ?? null,
      topic_id: d.topic?.record_id ?? null, script: d.script, answered_by: d.answered_by, outcome: d.outcome, facts: d.facts,
      created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime,
    })),
  ],
  queries: (t) => ({
    call: (id: string) => t.get<CallRow & Row>('calls', id),
    callsBy: (caller: string, where: { party_type?: string; party_id?: string }, offset: number, limit: number, order?: readonly string[]) => {
      const filter = { caller, party_type: where.party_type, party_id: where.party_id };
      return { items: t.find<CallRow & Row>('calls', filter, { offset, limit, orderBy: order }), total: t.count('calls', filter) };
    },
    /** Calls to a party, oldest first: what the call-back rules of other areas look for. */
    callsTo: (partyType: string, partyId: string) => t.find<CallRow & Row>('calls', { party_type: partyType, party_id: partyId }),
    /**
     * The active script that answers a call: among those for the number dialled, the most specific
     * one that fits the party and topic (party and topic, then topic, then party, then any caller).
     */
    scriptFor(q: ScriptLookup): CallScriptRow | undefined {
      const fits = t.find<CallScriptRow & Row>('call_scripts', { number_digits: q.numberDigits, status: 'active' })
        .filter((s) => s.party_type === null || (s.party_type === q.partyType && s.party_id === q.partyId))
        .filter((s) => s.topic_type === null || (q.topic !== null && s.topic_type === q.topic.record_type && s.topic_id === q.topic.record_id));
      const score = (s: CallScriptRow) => (s.topic_type !== null ? 2 : 0) + (s.party_type !== null ? 1 : 0);
      return fits.sort((a, b) => score(b) - score(a) || (a.id < b.id ? 1 : -1))[0];
    },
  }),
});
