import { Type } from '@sinclair/typebox';
import { CallPlaced, CallScriptPlanted } from '../../events/contracts/comms';
import type { Queries } from '../../projections';
import type { CallRow } from '../../projections/comms-calls';
import { defineAction, defineQuery, sortOf, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { Body, IdInput, ListQuery, NoteInput, Opt } from '../schemas';
import { CodeInput } from './inputs';
import { findParty, type PartyType } from './parties';
import { phoneDigits } from './phone';

export const CALL = 'call.place';
export const SCRIPT = 'sim.script';
/** What a call reaches when no script answers the number dialled. */
export const NO_ANSWER = 'no_answer';

const PartyTypeInput = Type.Union([Type.Literal('vendor'), Type.Literal('customer'), Type.Literal('user')]);
const PhoneInput = Type.String({ pattern: '^\\+?[0-9 ().-]{4,39}$', description: 'A phone number: digits, spaces, dots, dashes, parentheses' });
const TopicInput = Type.Object({ record_type: CodeInput, record_id: IdInput }, { additionalProperties: false, description: 'The record the call is about' });

/**
 * A call as its caller sees it. Whether the number dialled is the one on file is recorded in the
 * event for the grader, and not echoed here: the caller knows what they dialled and can look the
 * party up like anyone else.
 */
function callView(c: CallRow) {
  return {
    id: c.id, date: c.created_date, caller: c.caller, party_type: c.party_type, party_id: c.party_id, party_name: c.party_name,
    number_dialled: c.number_dialled, topic: c.topic_type ? { record_type: c.topic_type, record_id: c.topic_id } : null,
    answered_by: c.answered_by, outcome: c.outcome, facts: c.facts,
  };
}

const viewCall = (read: Queries, id: string) => {
  const c = read.calls.call(id);
  return c ? callView(c) : undefined;
};

export const callRoutes: RouteDef[] = [
  defineAction({
    action: 'call.place', method: 'POST', path: '/calls', tag: 'calls', status: 201,
    summary: "Call a vendor, customer or colleague: the number on file, or the number you give",
    description: 'The answer (outcome code and facts) is whatever the party reached at that number says.',
    body: Body({ party_type: PartyTypeInput, party_id: IdInput, number: Opt(PhoneInput), topic: Opt(TopicInput) }),
    permission: CALL, objectType: 'call', emits: [CallPlaced],
    decide: ({ body }, ctx) => {
      const partyType = body.party_type as PartyType;
      const party = findParty(ctx.read, partyType, body.party_id);
      if (!party) return refuse('not_found', `No ${partyType} ${body.party_id}.`);
      const dialled = body.number ?? party.phone;
      if (!dialled) return refuse('invalid_request', `${party.name} has no phone number on file; give the number to dial.`, 422);
      const digits = phoneDigits(dialled);
      if (digits.length < 4 || digits.length > 20) return refuse('invalid_request', `${dialled} is not a phone number.`, 422);
      const topic = body.topic ?? null;
      const script = ctx.read.calls.scriptFor({ numberDigits: digits, partyType, partyId: party.id, topic });
      const id = ctx.nextId('CALL');
      return emit(CallPlaced, {
        id, caller: ctx.actor.id, party_type: partyType, party_id: party.id, party_name: party.name,
        number_dialled: dialled, number_digits: digits, number_on_file: party.phone,
        on_file: party.phone !== null && phoneDigits(party.phone) === digits, topic, script: script?.id ?? null,
        answered_by: script?.answered_by ?? '', outcome: script?.outcome ?? NO_ANSWER, facts: script?.facts ?? '',
      }, 'call', id);
    },
    view: viewCall,
  }),
  defineAction({
    action: 'call_script.plant', method: 'POST', path: '/call-scripts', tag: 'simulation', status: 201,
    summary: 'Plant the scripted answer to calls to a number (scenario generators only; never readable through the API)',
    description: 'A script may be narrowed to one party and one topic; the most specific script that fits a call answers it. Planting again for the same number, party and topic replaces the script.',
    body: Body({
      number: PhoneInput, party_type: Opt(PartyTypeInput), party_id: Opt(IdInput), topic: Opt(TopicInput),
      answered_by: Opt(Type.String({ maxLength: 200 })), outcome: CodeInput, facts: NoteInput,
    }),
    permission: SCRIPT, objectType: 'call_script', emits: [CallScriptPlanted],
    decide: ({ body }, ctx) => {
      if ((body.party_type === undefined) !== (body.party_id === undefined)) {
        return refuse('invalid_request', 'A script for one party names both party_type and party_id.', 422);
      }
      const digits = phoneDigits(body.number);
      if (digits.length < 4 || digits.length > 20) return refuse('invalid_request', `${body.number} is not a phone number.`, 422);
      const id = ctx.nextId('SCR');
      return emit(CallScriptPlanted, {
        id, number: body.number, number_digits: digits, party_type: (body.party_type as PartyType | undefined) ?? null, party_id: body.party_id ?? null,
        topic: body.topic ?? null, answered_by: body.answered_by ?? '', outcome: body.outcome, facts: body.facts,
      }, 'call_script', id);
    },
    view: (_read, id) => ({ id }),
  }),
  defineQuery({
    path: '/calls', tag: 'calls', permission: null,
    summary: 'Calls you placed, oldest first unless sorted',
    query: ListQuery({ party_type: Opt(PartyTypeInput), party_id: Opt(IdInput) }),
    run: ({ query }, ctx) => {
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 200;
      const order = sortOf(ctx, 'calls', query.sort);
      if (isRefusal(order)) return order;
      const page = ctx.read.calls.callsBy(ctx.actor.id, { party_type: query.party_type, party_id: query.party_id }, offset, limit, order);
      return { items: page.items.map(callView), total: page.total, offset, limit };
    },
  }),
  defineQuery({
    path: '/calls/{id}', tag: 'calls', permission: null, objectType: 'call',
    summary: 'A call you placed: the number dialled, who answered, the outcome and the facts given',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => {
      const c = ctx.read.calls.call(params.id!);
      return c && (ctx.actor.system || c.caller === ctx.actor.id) ? callView(c) : undefined;
    },
  }),
];
