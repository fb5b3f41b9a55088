import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Id, Obj, Text } from './common';

/** The kinds of record a work item can put in someone's queue. */
export const WORK_RECORD_TYPES = ['ap_invoice', 'bank_statement_line'] as const;
export type WorkRecordType = (typeof WORK_RECORD_TYPES)[number];

/**
 * A record put in a user's work queue. The queue is the scope of a clerk's turn ("work only the
 * items in your queue", seed 004): its order is the order items were assigned.
 */
export const WorkItemAssigned = defineEvent(
  'WorkItemAssigned',
  Obj({
    id: Id,
    assigned_to: Id,
    record_type: Type.Union(WORK_RECORD_TYPES.map((t) => Type.Literal(t))),
    record_id: Id,
    note: Text,
  }),
);
