import type { ApInvoiceLine, Arithmetic, GrniMovement, MatchLine } from '../../events/contracts/payables';
import type { Queries } from '../../projections';
import type { ApPolicyRow } from '../../projections/payables-queries';
import { roundQty } from '../../projections/quantities';
import { roundCents } from '../money';

export interface MatchInput {
  id: string;
  po: string | null;
  lines: readonly ApInvoiceLine[];
  tax: number;
  freight: number;
  total: number;
}

/** A debit the validation posts besides GRNI and the variances: a services line's PO account, a coded non-PO line. */
export interface CodedDebit {
  account: string;
  amount: number;
  department: string | null;
  document_id: string;
}

export interface MatchOutcome {
  lines: MatchLine[];
  arithmetic: Arithmetic;
  grni: GrniMovement[];
  coded: CodedDebit[];
  priceVariance: number;
  quantityVariance: number;
}

function arithmeticOf(inv: MatchInput): Arithmetic {
  const lines_total = inv.lines.reduce((s, l) => s + l.amount, 0);
  const computed_total = lines_total + inv.tax + inv.freight;
  return { lines_total, tax: inv.tax, freight: inv.freight, computed_total, billed_total: inv.total, difference: inv.total - computed_total };
}

/**
 * A PO line is matched against receipts (goods) unless it is a service, or a description-only
 * line, that nothing was ever received against: such lines match the PO alone (seed 004).
 */
function kindOf(read: Queries, po: string, poLine: { line: number; item: string | null }): 'goods' | 'services' {
  const service = poLine.item === null || read.items.item(poLine.item)?.type === 'service';
  if (!service) return 'goods';
  return read.receiving.receiptLinesOfPoLine(po, poLine.line).length > 0 ? 'goods' : 'services';
}

function exceeds(billedPrice: number, poPrice: number, toleranceBp: number): boolean {
  return Math.abs(billedPrice - poPrice) * 10000 > toleranceBp * poPrice;
}

/**
 * The three-way match of an invoice as billed, as of the GL date, without changing anything.
 *
 * Goods: each line takes at most what was received by the GL date and not yet matched by another
 * invoice, at PO price; that value leaves GRNI. The units billed beyond it go to the quantity
 * variance account at PO price, and whatever else the billed amount differs by to the price
 * variance account. So GRNI is never debited beyond what receipts credited to it. Services lines
 * take at most what was ordered and not yet invoiced, debited to the PO line's account.
 */
export function matchInvoice(read: Queries, inv: MatchInput, glDate: string, policy: ApPolicyRow): MatchOutcome {
  const taken = new Map<string, { qty: number; value: number }>();
  const out: MatchOutcome = { lines: [], arithmetic: arithmeticOf(inv), grni: [], coded: [], priceVariance: 0, quantityVariance: 0 };
  for (const l of inv.lines) {
    const arithmetic_difference = roundCents(l.qty * l.unit_price) - l.amount;
    const base = { line: l.line, po_line: l.po_line, billed_qty: l.qty, billed_unit_price: l.unit_price, billed_amount: l.amount, arithmetic_difference };
    const poLine = inv.po !== null && l.po_line !== null ? read.purchasing.poLine(inv.po, l.po_line) : undefined;
    if (!poLine || inv.po === null) {
      out.coded.push({ account: l.account!, amount: l.amount, department: l.department, document_id: inv.id });
      out.lines.push({
        ...base, kind: 'non_po', result: arithmetic_difference !== 0 ? 'arithmetic' : 'non_po', exceptions: arithmetic_difference !== 0 ? ['arithmetic'] : [],
        po_unit_price: null, price_variance_bp: null, available_qty: null, matched_qty: 0, matched_value: 0, price_variance: 0, quantity_variance: 0,
      });
      continue;
    }
    const kind = kindOf(read, inv.po, poLine);
    const key = `${poLine.line}`;
    const already = taken.get(key) ?? { qty: 0, value: 0 };
    const exceptions: string[] = [];
    let available: number;
    let availableValue: number;
    if (kind === 'goods') {
      const received = read.receiving.receivedAsOf(inv.po, poLine.line, glDate);
      const matched = read.payables.grniMatched(inv.po, poLine.line);
      available = Math.max(0, roundQty(received.qty - matched.qty - already.qty));
      availableValue = Math.max(0, received.value - matched.value - already.value);
      if (received.qty <= 0) exceptions.push('awaiting_receipt');
    } else {
      available = Math.max(0, roundQty(poLine.qty - read.payables.invoicedQty(inv.po, poLine.line) - already.qty));
      availableValue = Number.MAX_SAFE_INTEGER;
    }
    const matched_qty = Math.min(Math.max(l.qty, 0), available);
    const atPoPrice = roundCents(matched_qty * poLine.unit_price);
    const matched_value = kind === 'goods' && matched_qty === available ? availableValue : Math.min(atPoPrice, availableValue);
    const quantity_variance = l.qty > matched_qty ? roundCents(roundQty(l.qty - matched_qty) * poLine.unit_price) : 0;
    const price_variance = l.amount - matched_value - quantity_variance;
    if (exceeds(l.unit_price, poLine.unit_price, policy.price_tolerance_bp)) exceptions.unshift('price_variance');
    if (l.qty > available && !exceptions.includes('awaiting_receipt')) exceptions.push('quantity_variance');
    if (arithmetic_difference !== 0) exceptions.push('arithmetic');
    taken.set(key, { qty: already.qty + matched_qty, value: already.value + matched_value });
    out.lines.push({
      ...base, kind, result: exceptions[0] ?? 'matched', exceptions,
      po_unit_price: poLine.unit_price,
      price_variance_bp: poLine.unit_price > 0 ? Math.round(((l.unit_price - poLine.unit_price) * 10000) / poLine.unit_price) : null,
      available_qty: available, matched_qty, matched_value, price_variance, quantity_variance,
    });
    out.priceVariance += price_variance;
    out.quantityVariance += quantity_variance;
    if (kind === 'goods') {
      if (matched_qty !== 0 || matched_value !== 0) out.grni.push({ po: inv.po, po_line: poLine.line, invoice: inv.id, qty: matched_qty, value: matched_value });
    } else {
      const department = read.purchasing.po(inv.po)?.department ?? null;
      out.coded.push({ account: poLine.account, amount: matched_value, department, document_id: inv.po });
    }
  }
  return out;
}
