import { Type } from '@sinclair/typebox';
import { SalesPolicySet } from '../../events/contracts/receivables';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { AccountInput } from '../master/inputs';
import { Body, IdInput, Opt } from '../schemas';
import { SALES_POLICY_SET } from './permissions';
import { tag } from './shared';

const ACCOUNTS = ['revenue_account', 'freight_account', 'tax_account', 'discount_account', 'returns_account', 'restocking_account', 'rebate_account', 'allowance_account', 'cogs_account'] as const;

export const policyRoutes: RouteDef[] = [
  defineAction({
    action: 'sales_policy.set', method: 'POST', path: '/sales/policy', tag, objectType: 'sales_policy',
    summary: 'Set the default price list and the accounts sales and receivables post to; fields left out keep their value',
    body: Body({ default_price_list: Opt(IdInput), ...Object.fromEntries(ACCOUNTS.map((a) => [a, Opt(AccountInput)])) as Record<(typeof ACCOUNTS)[number], ReturnType<typeof Opt<typeof AccountInput>>> }),
    permission: SALES_POLICY_SET, emits: [SalesPolicySet],
    decide: ({ body }, ctx) => {
      const next = { ...ctx.read.receivables.policy(), ...body } as ReturnType<typeof ctx.read.receivables.policy>;
      if (next.default_price_list && !ctx.read.salesPricing.priceList(next.default_price_list)) return refuse('not_found', `No price list ${next.default_price_list}.`);
      const controls = new Set(ctx.read.ledger.controlAccounts().map((a) => a.code));
      for (const a of ACCOUNTS) {
        if (!ctx.read.ledger.account(next[a])) return refuse('not_found', `${a}: no account ${next[a]}.`);
        if (controls.has(next[a]) && a !== 'tax_account') return refuse('invalid_request', `${a}: ${next[a]} is a control account.`, 422);
      }
      return emit(SalesPolicySet, next, 'sales_policy', 'sales');
    },
    view: (read) => read.receivables.policy(),
  }),
  defineQuery({
    path: '/sales/policy', tag, summary: 'The default price list and the accounts sales and receivables post to', permission: null,
    query: Type.Object({}, { additionalProperties: false }), run: (_input, ctx) => ctx.read.receivables.policy(),
  }),
];
