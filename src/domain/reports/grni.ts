import { roundQty } from '../../projections/quantities';
import { fromCents } from '../money';
import { DateInput, IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/**
 * Goods received not invoiced as of a date, per PO line: value received at PO price less what
 * validated invoices took out of GRNI. Its total is the GRNI subledger.
 */
export const grniReport = defineReport({
  id: 'grni',
  summary: 'Goods received not invoiced as of a date (default today), per PO line: received and matched quantity and value at PO price',
  params: ReportParams({ as_of: Opt(DateInput), po: Opt(IdInput) }),
  permission: null,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const lines = new Map<string, { po: string; po_line: number; received_qty: number; received_value: number; matched_qty: number; matched_value: number }>();
    const entry = (po: string, poLine: number) => {
      const key = `${po}\u0000${String(poLine).padStart(6, '0')}`;
      const row = lines.get(key) ?? { po, po_line: poLine, received_qty: 0, received_value: 0, matched_qty: 0, matched_value: 0 };
      lines.set(key, row);
      return row;
    };
    for (const l of ctx.read.receiving.receiptLinesAsOf(asOf)) {
      const row = entry(l.po, l.po_line);
      row.received_qty = roundQty(row.received_qty + l.qty_received);
      row.received_value += l.amount;
    }
    for (const m of ctx.read.payables.grniMatchedByLineAsOf(asOf)) {
      const row = entry(m.po, m.po_line);
      row.matched_qty = roundQty(row.matched_qty + m.qty);
      row.matched_value += m.value;
    }
    let total = 0;
    const rows = [...lines.keys()].sort().map((k) => lines.get(k)!)
      .filter((r) => (!params.po || r.po === params.po) && (r.received_value !== r.matched_value || r.received_qty !== r.matched_qty))
      .map((r) => {
        const poLine = ctx.read.purchasing.poLine(r.po, r.po_line);
        const balance = r.received_value - r.matched_value;
        total += balance;
        return {
          po: r.po, po_line: r.po_line, vendor: ctx.read.purchasing.po(r.po)?.vendor ?? null, item: poLine?.item ?? null, description: poLine?.description ?? '',
          unit_price: poLine ? fromCents(poLine.unit_price) : null,
          received_qty: r.received_qty, received_value: fromCents(r.received_value), matched_qty: r.matched_qty, matched_value: fromCents(r.matched_value),
          balance_qty: roundQty(r.received_qty - r.matched_qty), balance_value: fromCents(balance),
        };
      });
    return { as_of: asOf, rows, total: fromCents(total) };
  },
});
