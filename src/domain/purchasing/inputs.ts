import { Type } from '@sinclair/typebox';
import { IdInput } from '../schemas';

/** Request pieces shared by the purchasing routes. */
export const UserIdInput = Type.String({ pattern: '^[a-z][a-z0-9._-]{1,60}$', description: 'User id, e.g. maya.chen' });
export const LineNoInput = Type.Integer({ minimum: 1, maximum: 10000 });
export const OrderQtyInput = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });
export const UnitInput = Type.String({ minLength: 1, maxLength: 20 });
export const DescriptionInput = Type.String({ minLength: 1, maxLength: 400 });
export const RequisitionLineRefInput = Type.Object({ requisition: IdInput, line: LineNoInput }, { additionalProperties: false });

/** A path parameter that is a line number. */
export const LineParam = Type.String({ pattern: '^[1-9][0-9]{0,4}$', description: 'Line number' });
