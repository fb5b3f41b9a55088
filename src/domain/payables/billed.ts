import { Type } from '@sinclair/typebox';
import type { ApInvoiceLine } from '../../events/contracts/payables';
import type { Queries } from '../../projections';
import type { PurchaseOrderRow } from '../../projections/purchasing-orders';
import { isRefusal, refuse, type Refusal } from '../decision';
import { assertAccountsPostable } from '../ledger/journal';
import { AccountInput } from '../master/inputs';
import { parseTermsCode, termsSchedule, type TermsSchedule } from '../master/payment-terms';
import { toCents } from '../money';
import { DateInput, IdInput, MoneyInput, Opt, QuantityInput } from '../schemas';
import { normalizeInvoiceNumber } from './numbers';

export const InvoiceLineInput = Type.Object({
  po_line: Opt(Type.Integer({ minimum: 1, maximum: 10000, description: 'The PO line billed; omit for a line coded to a GL account' })),
  item: Opt(IdInput),
  description: Opt(Type.String({ maxLength: 400 })),
  qty: QuantityInput,
  unit_price: MoneyInput,
  amount: Type.Unsafe<number | string>({ type: ['number', 'string'], 'x-money': true, description: 'The line amount as printed, never recomputed' }),
  account: Opt(AccountInput),
  department: Opt(IdInput),
}, { additionalProperties: false });

/** Everything printed on the vendor's document, as printed. */
export const BilledInput = {
  vendor_invoice_number: Type.String({ minLength: 1, maxLength: 80, description: 'As printed, e.g. INV-007640' }),
  invoice_date: DateInput,
  lines: Type.Array(InvoiceLineInput, { minItems: 1, maxItems: 500 }),
  tax: Opt(MoneyInput),
  freight: Opt(MoneyInput),
  total: MoneyInput,
};

type LineInput = { po_line?: number; item?: string; description?: string; qty: number; unit_price: number | string; amount: number | string; account?: string; department?: string };

export interface Billed extends TermsSchedule {
  vendor_invoice_number: string;
  normalized_number: string;
  invoice_date: string;
  lines: ApInvoiceLine[];
  tax: number;
  freight: number;
  total: number;
  terms: string;
}

function codedAccount(read: Queries, account: string | undefined, n: number): Refusal | undefined {
  if (!account) return refuse('invalid_request', `Line ${n} bills no PO line; code it to a GL account and department.`, 422);
  const bad = assertAccountsPostable(read, [account]);
  if (bad) return bad;
  if (read.ledger.account(account)!.control) return refuse('invalid_request', `Line ${n}: ${account} is a control account; code the line to an expense or asset account.`, 422);
  return undefined;
}

function parseLine(read: Queries, po: PurchaseOrderRow | null, l: LineInput, n: number): ApInvoiceLine | Refusal {
  if (l.department && !read.org.department(l.department)) return refuse('not_found', `Line ${n}: no department ${l.department}.`);
  if (l.po_line !== undefined) {
    if (!po) return refuse('invalid_request', `Line ${n} names PO line ${l.po_line}, but the invoice names no PO.`, 422);
    const poLine = read.purchasing.poLine(po.id, l.po_line);
    if (!poLine) return refuse('not_found', `Line ${n}: ${po.id} has no line ${l.po_line}.`);
    if (l.account) return refuse('invalid_request', `Line ${n} bills PO line ${l.po_line}; its account comes from the PO.`, 422);
    return {
      line: n, po_line: l.po_line, item: l.item ?? poLine.item, description: l.description ?? poLine.description, qty: l.qty,
      unit_price: toCents(l.unit_price), amount: toCents(l.amount), account: null, department: l.department ?? null,
    };
  }
  const coded = codedAccount(read, l.account, n);
  if (coded) return coded;
  return {
    line: n, po_line: null, item: l.item ?? null, description: l.description ?? '', qty: l.qty, unit_price: toCents(l.unit_price), amount: toCents(l.amount),
    account: l.account!, department: l.department ?? null,
  };
}

/**
 * Reads billed values as given (nothing is recomputed) and adds what the vendor's terms make of
 * them: due date, discount date and discount. Refuses lines that cannot be posted as coded.
 */
export function parseBilled(
  read: Queries,
  vendorTerms: string,
  po: PurchaseOrderRow | null,
  body: { vendor_invoice_number: string; invoice_date: string; lines: readonly LineInput[]; tax?: number | string; freight?: number | string; total: number | string },
): Billed | Refusal {
  const lines: ApInvoiceLine[] = [];
  for (const [i, l] of body.lines.entries()) {
    const line = parseLine(read, po, l, i + 1);
    if (isRefusal(line)) return line;
    lines.push(line);
  }
  const total = toCents(body.total);
  if (total <= 0) return refuse('invalid_request', 'An invoice total must be positive; record a credit note with POST /vendor-credits.', 422);
  const terms = read.finance.terms(vendorTerms) ?? parseTermsCode(vendorTerms);
  if (!terms) return refuse('invalid_state', `The vendor's payment terms ${vendorTerms} are not defined; define them with POST /payment-terms.`);
  return {
    vendor_invoice_number: body.vendor_invoice_number.trim(),
    normalized_number: normalizeInvoiceNumber(body.vendor_invoice_number),
    invoice_date: body.invoice_date,
    lines,
    tax: body.tax === undefined ? 0 : toCents(body.tax),
    freight: body.freight === undefined ? 0 : toCents(body.freight),
    total,
    terms: vendorTerms,
    ...termsSchedule(terms, body.invoice_date, total),
  };
}
