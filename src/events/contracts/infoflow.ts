import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { DateString, Id, Nullable, Obj, Text } from './common';

/**
 * Restricted data (seed 000 §7.2): vendor_bank (full account and routing numbers), payroll (wage
 * and payroll-tax amounts), employee (tax id, home address, date of birth, personal phone).
 */
export const RestrictedClass = Type.Union([Type.Literal('vendor_bank'), Type.Literal('payroll'), Type.Literal('employee')]);

/**
 * Who may see a class: a role (standing visibility), one user for a stated purpose between two
 * dates (optionally only one owner's records: duty to know), or every record's owner.
 */
export const DataAccessGranted = defineEvent(
  'DataAccessGranted',
  Obj({
    id: Id,
    class: RestrictedClass,
    grantee_type: Type.Union([Type.Literal('role'), Type.Literal('user'), Type.Literal('owner')]),
    /** A role id, a user id, or null for the owner grant. */
    grantee: Nullable(Id),
    purpose: Text,
    valid_from: Nullable(DateString),
    valid_to: Nullable(DateString),
    owner_type: Nullable(Type.Union([Type.Literal('vendor'), Type.Literal('employee')])),
    owner_id: Nullable(Id),
    granted_by: Id,
  }),
);

export const DataAccessRevoked = defineEvent('DataAccessRevoked', Obj({ id: Id, reason: Text, revoked_by: Id }));
