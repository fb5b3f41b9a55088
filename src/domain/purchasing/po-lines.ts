import { Type, type Static } from '@sinclair/typebox';
import type { PurchaseOrderCreated } from '../../events/contracts/purchasing';
import type { EventData } from '../../events/event-types';
import type { Queries } from '../../projections';
import type { RequisitionLineRow } from '../../projections/purchasing-requisitions';
import type { VendorRow } from '../../projections/master-vendors';
import { refuse, type Refusal } from '../decision';
import { assertAccountsPostable } from '../ledger/journal';
import { roundCents, toCents } from '../money';
import { Body, IdInput, MoneyInput, Opt } from '../schemas';
import { DescriptionInput, RequisitionLineRefInput, UnitInput } from './inputs';

export type PoLine = EventData<typeof PurchaseOrderCreated>['lines'][number];

export const PoLineInput = Body({
  requisition_lines: Opt(Type.Array(RequisitionLineRefInput, { minItems: 1, maxItems: 200, description: 'Approved requisition lines this line converts; several consolidate' })),
  item: Opt(IdInput),
  description: Opt(DescriptionInput),
  qty: Opt(Type.Number({ exclusiveMinimum: 0, maximum: 1e9, description: 'Default: the sum of the requisition lines' })),
  unit: Opt(UnitInput),
  unit_price: Opt(MoneyInput),
  need_by: Opt(Type.String({ format: 'date', description: 'YYYY-MM-DD; default: the earliest need-by date of the requisitions' })),
  account: Opt(Type.String({ pattern: '^[0-9]{4,6}$', description: 'Expense account of a non-stock line; a stock line posts to its inventory account' })),
});

export const PoLinesInput = Type.Array(PoLineInput, { minItems: 1, maxItems: 500 });

/** The requisition lines a PO line converts, or a refusal when one is missing, not approved, or on another PO. */
function sourcesOf(read: Queries, n: number, refs: readonly { requisition: string; line: number }[], po: string | null, seen: Set<string>): RequisitionLineRow[] | Refusal {
  const sources: RequisitionLineRow[] = [];
  for (const ref of refs) {
    const key = `${ref.requisition}/${ref.line}`;
    if (seen.has(key)) return refuse('invalid_request', `Line ${n}: ${ref.requisition} line ${ref.line} is named twice.`, 422);
    seen.add(key);
    const req = read.requisitions.requisition(ref.requisition);
    if (!req) return refuse('not_found', `Line ${n}: no requisition ${ref.requisition}.`);
    const line = read.requisitions.line(ref.requisition, ref.line);
    if (!line) return refuse('not_found', `Line ${n}: ${ref.requisition} has no line ${ref.line}.`);
    if (line.converted_po !== null && line.converted_po !== po) return refuse('invalid_state', `Line ${n}: ${ref.requisition} line ${ref.line} is already on ${line.converted_po}.`);
    const convertible = req.status === 'approved' || (req.status === 'converted' && line.converted_po === po);
    if (!convertible) return refuse('invalid_state', `Line ${n}: ${ref.requisition} is ${req.status}; only approved requisitions are converted to purchase orders.`);
    sources.push(line);
  }
  return sources;
}

/**
 * Request lines as PO lines, numbered from 1. A line converting requisition lines takes its item,
 * description, quantity (their sum), estimated price, need-by date and account from them unless
 * given; a direct line names them itself. Stock lines post to the item's inventory account.
 * `po` is the order being revised, whose own requisition lines may stay on it.
 */
export function parsePoLines(read: Queries, vendor: VendorRow, input: readonly Static<typeof PoLineInput>[], po: string | null): { lines: PoLine[]; total: number } | Refusal {
  const lines: PoLine[] = [];
  const seen = new Set<string>();
  for (const [i, l] of input.entries()) {
    const n = i + 1;
    const sources = sourcesOf(read, n, l.requisition_lines ?? [], po, seen);
    if (!Array.isArray(sources)) return sources;
    const first = sources[0];
    const sourceItems = [...new Set(sources.map((s) => s.item ?? ''))];
    if (!l.item && sourceItems.length > 1) return refuse('invalid_request', `Line ${n} consolidates requisition lines of different items; name the item ordered.`, 422);
    const itemId = l.item ?? first?.item ?? null;
    const item = itemId ? read.items.item(itemId) : undefined;
    if (itemId && !item) return refuse('not_found', `Line ${n}: no item ${itemId}.`);
    const description = l.description ?? item?.description ?? first?.description;
    if (!description) return refuse('invalid_request', `Line ${n} has no item; give it a description.`, 422);
    const qty = l.qty ?? (sources.length ? sources.reduce((s, r) => s + r.qty, 0) : undefined);
    if (qty === undefined) return refuse('invalid_request', `Line ${n}: give the quantity ordered.`, 422);
    const unitPrice = l.unit_price !== undefined ? toCents(l.unit_price) : first?.unit_price;
    if (unitPrice === undefined) return refuse('invalid_request', `Line ${n}: give the unit price.`, 422);
    if (unitPrice < 0) return refuse('invalid_request', `Line ${n}: a unit price cannot be negative.`, 422);
    const needBy = l.need_by ?? sources.map((s) => read.requisitions.requisition(s.requisition)!.need_by).sort()[0];
    if (!needBy) return refuse('invalid_request', `Line ${n}: give the need-by date.`, 422);
    const account = item?.type === 'stock' ? item.inventory_account : l.account ?? first?.account ?? item?.expense_account ?? vendor.default_expense_account;
    if (!account) return refuse('invalid_request', `Line ${n} needs the expense account its receipt is charged to.`, 422);
    lines.push({
      line: n, item: item?.id ?? null, description, qty, unit: l.unit ?? item?.unit ?? first?.unit ?? 'ea', unit_price: unitPrice,
      amount: roundCents(qty * unitPrice), need_by: needBy, account,
      requisition_lines: sources.map((s) => ({ requisition: s.requisition, line: s.line })),
    });
  }
  const bad = assertAccountsPostable(read, lines.map((l) => l.account));
  if (bad) return bad;
  return { lines, total: lines.reduce((s, l) => s + l.amount, 0) };
}

/**
 * The department a PO line's spend belongs to: the first requisition it converts, else the PO's.
 * Budget commitments and the expense postings of receipts both use it.
 */
export function poLineDepartment(read: Queries, po: { department: string | null }, line: { requisition_lines: readonly { requisition: string }[] }): string | null {
  const first = line.requisition_lines[0];
  return (first && read.requisitions.requisition(first.requisition)?.department) || po.department;
}
