import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { DateString, Id, Nullable, Obj, Text } from './common';

/** A shared box code (`ap`, `purchasing`) or `personal`; readable with `messages.read_<box>`. */
export const BoxCode = Type.String({ pattern: '^[a-z][a-z_]{0,39}$' });
export const Address = Type.String({ minLength: 3, maxLength: 320 });
/** A lower_snake code: reason, decision, outcome, record type. */
export const Code = Type.String({ pattern: '^[a-z][a-z0-9_]{0,79}$' });

export const RecordLink = Obj({ type: Code, id: Id });

export const AttachmentFile = Obj({
  n: Type.Integer({ minimum: 1, maximum: 50 }),
  filename: Type.String({ minLength: 1, maxLength: 255 }),
  content_type: Type.String({ minLength: 3, maxLength: 120 }),
  encoding: Type.Union([Type.Literal('utf8'), Type.Literal('base64')]),
  content: Type.String({ maxLength: 5_000_000 }),
  /** Bytes of the decoded file. */
  size: Type.Integer({ minimum: 0 }),
});

export const InboundStatus = Type.Union(['new', 'processed', 'duplicate', 'rejected', 'suspicious'].map((s) => Type.Literal(s)));
export const Disposition = Type.Union(['processed', 'duplicate', 'rejected', 'suspicious'].map((s) => Type.Literal(s)));

const messageFields = {
  id: Id,
  box: BoxCode,
  from_address: Address,
  from_name: Type.String({ maxLength: 200 }),
  to: Type.Array(Address, { minItems: 1, maxItems: 50 }),
  cc: Type.Array(Address, { maxItems: 50 }),
  subject: Type.String({ maxLength: 500 }),
  /** Free text: stored and shown, never interpreted by any actor (seed §5, §8). */
  body: Type.String({ maxLength: 200_000 }),
  sent_date: DateString,
  in_reply_to: Nullable(Id),
  /** The id of the first message of the conversation (its own id when it starts one). */
  thread_id: Id,
  related: Type.Array(RecordLink, { maxItems: 20 }),
  attachments: Type.Array(AttachmentFile, { maxItems: 20 }),
};

/** A shared box's address and display name, used as the sender of mail sent from the box. */
export const MessageBoxDefined = defineEvent(
  'MessageBoxDefined',
  Obj({ box: BoxCode, address: Address, name: Type.String({ minLength: 1, maxLength: 200 }) }),
);

/** Mail arrived from outside (a counterparty or a scenario generator) into a box. */
export const MessageDelivered = defineEvent(
  'MessageDelivered',
  Obj({ ...messageFields, /** The user whose personal box it is; null for a shared box. */ owner: Nullable(Id) }),
);

/** A user sent mail, from their personal box or a shared box they work; a forward names its original. */
export const MessageSent = defineEvent(
  'MessageSent',
  Obj({ ...messageFields, sender: Id, forward_of: Nullable(Id) }),
);

export const MessageRead = defineEvent('MessageRead', Obj({ message: Id, user: Id }));
export const MessageMarkedUnread = defineEvent('MessageMarkedUnread', Obj({ message: Id, user: Id }));

/** What was done with an inbound message: entered as a document, set aside as a duplicate, and so on. */
export const MessageDispositioned = defineEvent(
  'MessageDispositioned',
  Obj({ message: Id, disposition: Disposition, ref: Nullable(Id), note: Text, by: Id }),
);

export const EscalationRaised = defineEvent(
  'EscalationRaised',
  Obj({ id: Id, record_type: Code, record_id: Id, raised_by: Id, assignee: Id, reason: Code, note: Text }),
);

export const EscalationAnswered = defineEvent('EscalationAnswered', Obj({ id: Id, decision: Code, note: Text, by: Id }));

export const EscalationClosed = defineEvent('EscalationClosed', Obj({ id: Id, note: Text, by: Id }));

export const PartyType = Type.Union([Type.Literal('vendor'), Type.Literal('customer'), Type.Literal('user')]);
export const CallTopic = Obj({ record_type: Code, record_id: Id });

/**
 * A counterparty's scripted answer to calls to one number, optionally only for one party and one
 * topic. Planted by scenario generators; confidential, so the audit route never shows its payload.
 */
export const CallScriptPlanted = defineEvent(
  'CallScriptPlanted',
  Obj({
    id: Id,
    number: Type.String({ minLength: 1, maxLength: 40 }),
    /** The number reduced to its digits, as calls are matched (see domain/comms/phone.ts). */
    number_digits: Type.String({ pattern: '^[0-9]{4,20}$' }),
    party_type: Nullable(PartyType),
    party_id: Nullable(Id),
    topic: Nullable(CallTopic),
    answered_by: Type.String({ maxLength: 200 }),
    outcome: Code,
    facts: Text,
  }),
  { confidential: true },
);

/**
 * A call placed to a party: the number actually dialled, whether it is the number on file, and
 * what the script for that number answered. Audit rules read `on_file` (call-back verification).
 */
export const CallPlaced = defineEvent(
  'CallPlaced',
  Obj({
    id: Id,
    caller: Id,
    party_type: PartyType,
    party_id: Id,
    party_name: Type.String({ maxLength: 200 }),
    number_dialled: Type.String({ minLength: 1, maxLength: 40 }),
    number_digits: Type.String({ pattern: '^[0-9]{4,20}$' }),
    number_on_file: Nullable(Type.String({ maxLength: 40 })),
    on_file: Type.Boolean(),
    topic: Nullable(CallTopic),
    script: Nullable(Id),
    answered_by: Type.String({ maxLength: 200 }),
    outcome: Code,
    facts: Text,
  }),
);
