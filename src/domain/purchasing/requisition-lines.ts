import { Type, type Static } from '@sinclair/typebox';
import type { EventData } from '../../events/event-types';
import type { RequisitionCreated } from '../../events/contracts/purchasing';
import type { Queries } from '../../projections';
import { refuse, type Refusal } from '../decision';
import { assertAccountsPostable } from '../ledger/journal';
import { AccountInput, VendorIdInput } from '../master/inputs';
import { roundCents, toCents } from '../money';
import { Body, IdInput, MoneyInput, Opt } from '../schemas';
import { DescriptionInput, OrderQtyInput, UnitInput } from './inputs';

export type RequisitionLine = EventData<typeof RequisitionCreated>['lines'][number];

export const RequisitionLineInput = Body({
  item: Opt(IdInput),
  description: Opt(DescriptionInput),
  qty: OrderQtyInput,
  unit: Opt(UnitInput),
  unit_price: MoneyInput,
  account: Opt(AccountInput),
  suggested_vendor: Opt(VendorIdInput),
});

export const RequisitionLinesInput = Type.Array(RequisitionLineInput, { minItems: 1, maxItems: 500 });

/**
 * Request lines as event lines, numbered from 1: an item line takes its description, unit and
 * expense account from the item unless given; a free-text line needs a description and an account.
 */
export function parseRequisitionLines(read: Queries, input: readonly Static<typeof RequisitionLineInput>[]): { lines: RequisitionLine[]; total: number } | Refusal {
  const lines: RequisitionLine[] = [];
  for (const [i, l] of input.entries()) {
    const n = i + 1;
    const item = l.item ? read.items.item(l.item) : undefined;
    if (l.item && !item) return refuse('not_found', `Line ${n}: no item ${l.item}.`);
    const description = l.description ?? item?.description;
    if (!description) return refuse('invalid_request', `Line ${n} has no item; give it a description.`, 422);
    const account = l.account ?? item?.expense_account ?? item?.inventory_account;
    if (!account) return refuse('invalid_request', `Line ${n} needs the expense account it is budgeted on.`, 422);
    if (l.suggested_vendor && !read.vendors.vendor(l.suggested_vendor)) return refuse('not_found', `Line ${n}: no vendor ${l.suggested_vendor}.`);
    const unitPrice = toCents(l.unit_price);
    if (unitPrice < 0) return refuse('invalid_request', `Line ${n}: a unit price cannot be negative.`, 422);
    lines.push({
      line: n, item: item?.id ?? null, description, qty: l.qty, unit: l.unit ?? item?.unit ?? 'ea', unit_price: unitPrice,
      amount: roundCents(l.qty * unitPrice), account, suggested_vendor: l.suggested_vendor ?? null,
    });
  }
  const bad = assertAccountsPostable(read, lines.map((l) => l.account));
  if (bad) return bad;
  return { lines, total: lines.reduce((s, l) => s + l.amount, 0) };
}
