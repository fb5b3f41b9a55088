import { Type } from '@sinclair/typebox';
import { ClockAdvanced, CompanyEstablished, HolidayDeclared } from '../../events/contracts/clock';
import { defineAction, defineQuery, type ActionDef, type RouteDef } from '../action';
import { addDays } from '../calendar';
import { emit, refuse } from '../decision';
import { Body, DateInput, IdInput } from '../schemas';

/**
 * Moves the business date forward by exactly one calendar day, or sets it the first time.
 * Only the control API calls it: agents cannot move time.
 */
export const advanceClock: ActionDef = defineAction({
  action: 'clock.advance', method: 'POST', path: '/control/advance', tag: 'control',
  summary: 'Advance the business date by one day (control API only)',
  body: Body({ to: DateInput }),
  permission: 'clock.advance', objectType: 'clock', emits: [ClockAdvanced],
  decide: ({ body }, ctx) => {
    const company = ctx.read.clock.company();
    const current = company?.business_date ?? null;
    if (current !== null && body.to !== addDays(current, 1)) {
      return refuse('invalid_request', `The clock moves one day at a time: from ${current} the next date is ${addDays(current, 1)}, not ${body.to}.`, 422);
    }
    return emit(ClockAdvanced, { from: current, to: body.to }, 'clock', 'business_date');
  },
});

export const clockRoutes: RouteDef[] = [
  defineAction({
    action: 'company.establish', method: 'POST', path: '/company', tag: 'org',
    summary: 'Set the company profile: name, currency, fiscal year start and working days',
    body: Body({
      code: IdInput,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      currency: Type.String({ pattern: '^[A-Z]{3}$' }),
      fiscal_year_start: DateInput,
      workdays: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { minItems: 1, maxItems: 7, uniqueItems: true }),
    }),
    permission: 'org.admin', objectType: 'company', emits: [CompanyEstablished],
    decide: ({ body }) => emit(CompanyEstablished, body, 'company', body.code),
    view: (read) => read.clock.company(),
  }),
  defineAction({
    action: 'calendar.declare_holiday', method: 'POST', path: '/calendar/holidays', tag: 'org', status: 201,
    summary: 'Declare a company holiday',
    body: Body({ date: DateInput, name: Type.String({ minLength: 1, maxLength: 200 }) }),
    permission: 'org.admin', objectType: 'calendar', emits: [HolidayDeclared],
    decide: ({ body }) => emit(HolidayDeclared, body, 'calendar', body.date),
  }),
  defineQuery({
    path: '/calendar', tag: 'org', summary: 'The company calendar: working weekdays and holidays', permission: null,
    query: Type.Object({}, { additionalProperties: false }),
    run: (_input, ctx) => ({ workdays: ctx.read.clock.company()?.workdays ?? [1, 2, 3, 4, 5], holidays: ctx.read.clock.holidays() }),
  }),
];
