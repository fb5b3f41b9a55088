import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { DateString, Id, Nullable, Obj } from './common';

/** The business date moved: one calendar day per event when the clock advances. */
export const ClockAdvanced = defineEvent('ClockAdvanced', Obj({ from: Nullable(DateString), to: DateString }));

export const CompanyEstablished = defineEvent(
  'CompanyEstablished',
  Obj({
    code: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    fiscal_year_start: DateString,
    /** ISO weekdays the company works (1 = Monday). */
    workdays: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { minItems: 1, maxItems: 7, uniqueItems: true }),
  }),
);

export const HolidayDeclared = defineEvent('HolidayDeclared', Obj({ date: DateString, name: Type.String({ minLength: 1, maxLength: 200 }) }));
