import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Id, Nullable, Obj } from './common';

/**
 * Who gets a submitted requisition first: the department's manager (the default), or one named
 * approver for every department (central purchasing approves requisitions).
 */
export const RequisitionFirstApproverSet = defineEvent(
  'RequisitionFirstApproverSet',
  Obj({ rule: Type.Union([Type.Literal('department_manager'), Type.Literal('named_user')]), user: Nullable(Id) }),
);
