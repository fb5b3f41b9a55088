import { Type } from '@sinclair/typebox';
import { BudgetSet, PaymentTermsDefined, TaxCodeDefined } from '../../events/contracts/master';
import type { BudgetRow } from '../../projections/master-finance';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, refuse } from '../decision';
import { fromCents, toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt } from '../schemas';
import { AccountInput, MonthInput } from './inputs';
import { parseTermsCode, termsSchedule } from './payment-terms';
import { MASTER_DATA_MANAGE } from './permissions';

const Days = Type.Integer({ minimum: 0, maximum: 3650 });
const TermsCode = Type.String({ pattern: '^[A-Z0-9./_-]{2,20}$', description: 'e.g. NET30, 2/10NET30' });

/** Tax codes, payment terms and budgets. */
export const codeRoutes: RouteDef[] = [
  defineAction({
    action: 'tax_code.define', method: 'POST', path: '/tax-codes', tag: 'master',
    summary: 'Define (or redefine) a tax code and its rate in basis points (725 = 7.25%)',
    body: Body({ code: IdInput, rate_bp: Type.Integer({ minimum: 0, maximum: 10000 }), description: Opt(Type.String({ maxLength: 200 })) }),
    permission: MASTER_DATA_MANAGE, objectType: 'tax_code', emits: [TaxCodeDefined],
    decide: ({ body }) => emit(TaxCodeDefined, { code: body.code, rate_bp: body.rate_bp, description: body.description ?? '' }, 'tax_code', body.code),
    view: (read, code) => read.finance.taxCode(code),
  }),
  defineAction({
    action: 'payment_terms.define', method: 'POST', path: '/payment-terms', tag: 'master',
    summary: 'Define (or redefine) payment terms; days and discount are read from a code like 2/10NET30 when not given',
    body: Body({
      code: TermsCode,
      days_due: Opt(Days),
      discount_days: Opt(Days),
      discount_bp: Opt(Type.Integer({ minimum: 0, maximum: 10000 })),
      description: Opt(Type.String({ maxLength: 200 })),
    }),
    permission: MASTER_DATA_MANAGE, objectType: 'payment_terms', emits: [PaymentTermsDefined],
    decide: ({ body }) => {
      const parsed = parseTermsCode(body.code);
      const days_due = body.days_due ?? parsed?.days_due;
      if (days_due === undefined) return refuse('invalid_request', `Terms ${body.code} do not read as NETn or d/nNETm; give days_due.`, 422);
      const discount_days = body.discount_days ?? parsed?.discount_days ?? 0;
      const discount_bp = body.discount_bp ?? parsed?.discount_bp ?? 0;
      if (discount_days > days_due) return refuse('invalid_request', 'The discount window cannot outlast the due date.', 422);
      if ((discount_days > 0) !== (discount_bp > 0)) return refuse('invalid_request', 'A discount needs both its days and its rate.', 422);
      return emit(PaymentTermsDefined, { code: body.code, days_due, discount_days, discount_bp, description: body.description ?? '' }, 'payment_terms', body.code);
    },
    view: (read, code) => read.finance.terms(code),
  }),
  defineAction({
    action: 'budget.set', method: 'POST', path: '/budgets', tag: 'master',
    summary: "Set (or replace) a department's budget per account and month",
    body: Body({
      department: IdInput,
      lines: Type.Array(Body({ account: AccountInput, month: MonthInput, amount: MoneyInput }), { minItems: 1, maxItems: 1200 }),
      note: Opt(NoteInput),
    }),
    permission: MASTER_DATA_MANAGE, objectType: 'budget', emits: [BudgetSet],
    decide: ({ body }, ctx) => {
      if (!ctx.read.org.department(body.department)) return refuse('not_found', `No department ${body.department}.`);
      const seen = new Set<string>();
      for (const l of body.lines) {
        if (!ctx.read.ledger.account(l.account)) return refuse('not_found', `No account ${l.account}.`);
        const cell = `${l.account} ${l.month}`;
        if (seen.has(cell)) return refuse('invalid_request', `Account ${l.account} in ${l.month} is given twice.`, 422);
        seen.add(cell);
      }
      const lines = body.lines.map((l) => ({ account: l.account, month: l.month, amount: toCents(l.amount) }));
      return emit(BudgetSet, { department: body.department, lines, note: body.note ?? '' }, 'budget', body.department);
    },
    view: (read, department) => ({ department, lines: read.finance.budgets(department, '0000-01', '9999-12').map((b) => withDecimals(b, ['amount'])) }),
  }),
  defineQuery({
    path: '/tax-codes', tag: 'master', summary: 'Tax codes and their rates', permission: null,
    query: ListQuery({}),
    run: ({ query }, ctx) => listPage(ctx.tables, 'tax_codes', {}, query),
  }),
  defineQuery({
    path: '/payment-terms', tag: 'master', summary: 'Payment terms', permission: null,
    query: ListQuery({}),
    run: ({ query }, ctx) => listPage(ctx.tables, 'terms', {}, query),
  }),
  defineQuery({
    path: '/payment-terms/{code}/schedule', tag: 'master', summary: 'Due date, discount deadline and discount of an invoice under these terms', permission: null, objectType: 'payment_terms',
    query: Type.Object({ invoice_date: DateInput, amount: MoneyInput }, { additionalProperties: false }),
    run: ({ params, query }, ctx) => {
      const terms = ctx.read.finance.terms(params.code!);
      if (!terms) return undefined;
      const s = termsSchedule(terms, query.invoice_date, toCents(query.amount));
      return { terms: terms.code, invoice_date: query.invoice_date, amount: fromCents(toCents(query.amount)), ...s, discount_amount: fromCents(s.discount_amount) };
    },
  }),
  defineQuery({
    path: '/budgets', tag: 'master', summary: 'Budget cells by department, account and month', permission: null,
    query: ListQuery({ department: Opt(IdInput), account: Opt(AccountInput), month: Opt(MonthInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'budgets', { department: query.department, account: query.account, month: query.month }, query, {
      map: (r) => withDecimals(r as unknown as BudgetRow, ['amount']),
    }),
  }),
];
