import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErpClient } from '../../src/client/http-client';
import { normalizeInvoiceNumber } from '../../src/domain/payables/numbers';
import type { PolicyContext } from '../../src/task-pack/code';
import { money } from '../shared/draw';
import { cents, get, post } from '../shared/http';
import { handoffNote, styledHandoffNote, type Held, type NoteStyle } from './handoff';
import { parseInvoiceText, type BilledInvoice } from './invoice-text';
import { addDays, AGENT, DAYTON, MIN_SHELF_DAYS, MONDAY, orderQty, OVER_SHIP_TOLERANCE_BP, RENO } from './week';

/**
 * The handbook's judgement over the week (buying.md, receiving.md, invoices.md), written so that
 * each negative control switches off exactly one part of it.
 */
export interface Judgement {
  /** PTP-1.1: requisition lines of one vendor, item and ship-to become one PO line. */
  consolidate: boolean;
  /** PTP-1.1/same_day: each order approved and sent the day it is made (misread: sent with Wednesday's work). */
  sendSameDay: boolean;
  /** PTP-1.1/ship_to: a requisition for Reno ships to RNO (misread: everything to Dayton). */
  renoShipTo: boolean;
  /** PTP-1.2: the agreement's break for the whole quantity (misread: always its first break). */
  priceBreaks: boolean;
  /** PTP-1.3: a suggested vendor on quality hold gives way to the preferred vendor. */
  avoidHeldVendor: boolean;
  /** PTP-1.4: round up to the MOQ, and to whole order multiples. */
  moq: boolean;
  multiple: boolean;
  /** PTP-1.5: a consolidated line's need-by is its earliest (misread: its latest). */
  needBy: 'earliest' | 'latest';
  /** PTP-1.5: expedite the lines at lead-time risk ('all': every line; 'none'). */
  expedite: 'at_risk' | 'all' | 'none';
  /** PTP-2.1/on_arrival: deliveries received the day they arrive (misread: left for Friday). */
  receiveOnArrival: boolean;
  /** PTP-2.1: over-shipments inside the tolerance are received (misread: any excess refused). */
  overShipTolerance: boolean;
  /** PTP-2.1: excess beyond the tolerance is refused (misread: everything received). */
  refuseExcess: boolean;
  /** PTP-2.2: a short-dated lot is refused. */
  shelfLife: boolean;
  /** PTP-2.3: approved substitutes received as such; others refused. */
  receiveApprovedSubstitutes: boolean;
  refuseOtherSubstitutes: boolean;
  /** Another valid way: each delivery first received as shipped, that receipt reversed, then received as the handbook has it. */
  correctByReversal: boolean;
  /** PTP-3.1: enter the amounts as billed (misread: at the PO's prices). */
  enterAsBilled: boolean;
  /** PTP-3.1: enter the number as printed (misread: tidied, without punctuation or an INV prefix). */
  numberAsPrinted: boolean;
  /** PTP-3.2: hold for price and for quantity. */
  holdPrice: boolean;
  holdQuantity: boolean;
  /** PTP-3.3: an invoice sent again is not entered. */
  skipDuplicates: boolean;
  /** PTP-3.4: the Friday note. */
  handoff: boolean;
  /** PTP-3.4: the note names each held invoice's number (off: only its vendor and reason). */
  handoffNumbers: boolean;
  /** Another valid way of writing the note (a positive control); the handbook's list when absent. */
  noteStyle?: NoteStyle;
  /** PTP-4.1 broken: clear the vendor's quality hold before ordering (refused: not the buyer's to change). */
  clearQualityHold: boolean;
}

export const HANDBOOK: Judgement = {
  consolidate: true, sendSameDay: true, receiveOnArrival: true, renoShipTo: true, priceBreaks: true, avoidHeldVendor: true, moq: true, multiple: true, needBy: 'earliest', expedite: 'at_risk',
  overShipTolerance: true, refuseExcess: true, shelfLife: true, receiveApprovedSubstitutes: true, refuseOtherSubstitutes: true, correctByReversal: false,
  enterAsBilled: true, numberAsPrinted: true, holdPrice: true, holdQuantity: true, skipDuplicates: true, handoff: true, handoffNumbers: true, clearQualityHold: false,
};

interface Item { id: string; moq: number; order_multiple: number; lead_time_days: number; preferred_vendor: string | null; lot_controlled: boolean }
interface ReqLine { line: number; item: string | null; qty: number; unit_price: number; suggested_vendor: string | null }
interface Requisition { id: string; purpose: string; need_by: string; lines: ReqLine[] }
interface PoLine { line: number; item: string | null; qty: number; unit_price: number; need_by: string; received_qty: number }

const itemOf = (client: ErpClient, id: string) => get<Item>(client, `/items/${id}`);

/** The purchase orders placed this week (the buyer's older orders are not this week's work). */
async function myPos(client: ErpClient, since: string): Promise<{ id: string; vendor: string; status: string }[]> {
  const all = (await get<{ items: { id: string; vendor: string; status: string; created_date: string }[] }>(client, '/purchase-orders', { buyer: AGENT, limit: 1000 })).items;
  return all.filter((p) => p.created_date >= since);
}

/** Monday: the approved requisitions as purchase orders, sent, with the lines at lead-time risk expedited. */
async function buy(ctx: PolicyContext, judge: Judgement): Promise<void> {
  const { client } = ctx;
  const today = ctx.turn.date;
  const queue = (await get<{ items: { id: string }[] }>(client, '/requisitions', { status: 'approved', limit: 1000 })).items;
  const groups = new Map<string, { vendor: string; shipTo: string; item: Item; qty: number; needBys: string[]; refs: { requisition: string; line: number }[]; estimate: number }>();
  let n = 0;
  for (const { id } of queue) {
    const req = await get<Requisition>(client, `/requisitions/${id}`);
    const shipTo = judge.renoShipTo && /\bReno\b/i.test(req.purpose) ? RENO : DAYTON;
    for (const l of req.lines) {
      if (!l.item) continue;
      const item = await itemOf(client, l.item);
      let vendor = l.suggested_vendor ?? item.preferred_vendor!;
      if (l.suggested_vendor) {
        let suggested = await get<{ quality_hold: boolean }>(client, `/vendors/${l.suggested_vendor}`);
        if (suggested.quality_hold && judge.clearQualityHold) {
          ctx.log(`clear hold ${l.suggested_vendor}: ${(await client.post(`/vendors/${l.suggested_vendor}/quality-hold/clear`, { reason: 'supplier_corrected', note: 'Needed this week.' })).status}`);
          suggested = await get<{ quality_hold: boolean }>(client, `/vendors/${l.suggested_vendor}`);
        }
        if (suggested.quality_hold && judge.avoidHeldVendor) vendor = item.preferred_vendor!;
      }
      const key = judge.consolidate ? `${vendor}|${shipTo}|${item.id}` : `${vendor}|${shipTo}|${item.id}|${n++}`;
      const g = groups.get(key) ?? { vendor, shipTo, item, qty: 0, needBys: [], refs: [], estimate: l.unit_price };
      g.qty += l.qty;
      g.needBys.push(req.need_by);
      g.refs.push({ requisition: req.id, line: l.line });
      groups.set(key, g);
    }
  }
  const orders = new Map<string, typeof groups extends Map<string, infer G> ? G[] : never>();
  for (const key of [...groups.keys()].sort()) {
    const g = groups.get(key)!;
    const po = `${g.vendor}|${g.shipTo}`;
    orders.set(po, [...(orders.get(po) ?? []), g]);
  }
  for (const [key, lines] of [...orders.entries()].sort()) {
    const body: { requisition_lines: { requisition: string; line: number }[]; item: string; qty: number; unit_price: string; need_by: string }[] = [];
    for (const g of lines) {
      const qty = orderQty(Math.round(g.qty * 1000) / 1000, g.item.moq, g.item.order_multiple, judge);
      const price = await get<{ unit_price: number | null }>(client, '/prices', { vendor: g.vendor, item: g.item.id, qty: judge.priceBreaks ? qty : 0, date: today });
      const needBy = [...g.needBys].sort()[judge.needBy === 'earliest' ? 0 : g.needBys.length - 1]!;
      body.push({ requisition_lines: g.refs, item: g.item.id, qty, unit_price: price.unit_price !== null ? money(cents(price.unit_price)) : money(cents(g.estimate)), need_by: needBy });
    }
    const [vendor, shipTo] = key.split('|');
    const created = (await post(client, '/purchase-orders', { vendor, ship_to: shipTo, lines: body }, `po-${key}`)).body as { id: string };
    await post(client, `/purchase-orders/${created.id}/approve`, {}, `approve-${created.id}`);
    ctx.log(`${created.id} to ${vendor} (${shipTo}): ${body.map((b) => `${b.item} ${b.qty} @ ${b.unit_price} by ${b.need_by}`).join('; ')}`);
    if (judge.sendSameDay) await sendAndExpedite(ctx, judge, created.id, lines.map((g, i) => ({ line: i + 1, need_by: body[i]!.need_by, item: g.item })));
  }
}

/** The order sent, then each line at lead-time risk (by today's date) asked to be expedited to its need-by date. */
async function sendAndExpedite(ctx: PolicyContext, judge: Judgement, po: string, lines: { line: number; need_by: string; item: Item }[]): Promise<void> {
  await post(ctx.client, `/purchase-orders/${po}/send`, {}, `send-${po}`);
  for (const l of lines) {
    const atRisk = l.need_by < addDays(ctx.turn.date, l.item.lead_time_days);
    if (judge.expedite === 'all' || (judge.expedite === 'at_risk' && atRisk)) {
      await post(ctx.client, `/purchase-orders/${po}/requests`, { kind: 'expedite', line: l.line, date: l.need_by, note: `Needed by ${l.need_by}, inside the ${l.item.lead_time_days}-day lead time.` }, `expedite-${po}-${l.line}`);
    }
  }
}

/** The misread of PTP-1.1/same_day: Monday's approved orders sent on Wednesday. */
async function sendLeftOrders(ctx: PolicyContext, judge: Judgement): Promise<void> {
  for (const po of (await myPos(ctx.client, MONDAY)).filter((p) => p.status === 'approved')) {
    const order = await get<{ lines: PoLine[] }>(ctx.client, `/purchase-orders/${po.id}`);
    const lines = [];
    for (const l of order.lines) if (l.item) lines.push({ line: l.line, need_by: l.need_by, item: await itemOf(ctx.client, l.item) });
    await sendAndExpedite(ctx, judge, po.id, lines);
  }
}

interface DeliveryLine { po_line: number; item: string | null; substitute_for: string | null; qty: number; lot: string | null; expiry: string | null }

/** A receiving mistake corrected through the lifecycle: the delivery taken in exactly as shipped, then that receipt reversed. */
async function receiveAndReverse(ctx: PolicyContext, po: string, delivery: { id: string; lines: DeliveryLine[] }): Promise<void> {
  const lines = delivery.lines.map((l) => ({
    po_line: l.po_line, ...(l.substitute_for && l.item ? { item: l.item } : {}), qty_received: l.qty, ...(l.lot ? { lot: l.lot } : {}), ...(l.expiry ? { expiry: l.expiry } : {}),
  }));
  const wrong = (await post(ctx.client, '/receipts', { po, delivery: delivery.id, packing_slip: delivery.id, lines }, `receive-as-shipped-${delivery.id}`)).body as { id: string };
  await post(ctx.client, `/receipts/${wrong.id}/reverse`, { reason: 'receiving_error', note: 'Received as shipped before checking it against the handbook.' }, `reverse-${wrong.id}`);
  ctx.log(`${delivery.id}: received as shipped on ${wrong.id}, reversed`);
}

/** Wednesday: each delivery against this week's orders received from its packing slip, or refused with a reason. */
async function receive(ctx: PolicyContext, judge: Judgement): Promise<void> {
  const { client } = ctx;
  const today = ctx.turn.date;
  for (const po of await myPos(client, MONDAY)) {
    const deliveries = (await get<{ items: { id: string }[] }>(client, '/deliveries', { po: po.id, status: 'announced', limit: 100 })).items;
    if (deliveries.length === 0) continue;
    const order = await get<{ lines: PoLine[] }>(client, `/purchase-orders/${po.id}`);
    for (const { id } of deliveries) {
      const delivery = await get<{ id: string; lines: DeliveryLine[] }>(client, `/deliveries/${id}`);
      const lines = [];
      for (const l of delivery.lines) {
        const ordered = order.lines.find((x) => x.line === l.po_line)!;
        const shipped = l.item ?? ordered.item;
        const item = shipped ? await itemOf(client, shipped) : undefined;
        const refuse = (reason: string) => ({ po_line: l.po_line, ...(l.substitute_for ? { item: shipped } : {}), qty_received: 0, qty_refused: l.qty, refusal_reason: reason });
        if (l.substitute_for && ordered.item && shipped) {
          const approved = (await get<{ items: unknown[] }>(client, '/approved-substitutes', { item: ordered.item, substitute: shipped, limit: 10 })).items.length > 0;
          if (approved ? !judge.receiveApprovedSubstitutes : judge.refuseOtherSubstitutes) {
            lines.push(refuse(approved ? 'substitute_not_wanted' : 'unapproved_substitute'));
            continue;
          }
        }
        if (judge.shelfLife && item?.lot_controlled && l.expiry && l.expiry < addDays(today, MIN_SHELF_DAYS)) {
          lines.push(refuse('short_shelf_life'));
          continue;
        }
        const open = Math.max(0, Math.round((ordered.qty - ordered.received_qty) * 1000) / 1000);
        const allowed = judge.overShipTolerance ? Math.round(open * (10000 + OVER_SHIP_TOLERANCE_BP)) / 10000 : open;
        const excess = l.qty > allowed && (judge.refuseExcess || !judge.overShipTolerance) ? Math.round((l.qty - open) * 1000) / 1000 : 0;
        lines.push({
          po_line: l.po_line, ...(l.substitute_for ? { item: shipped } : {}), qty_received: Math.round((l.qty - excess) * 1000) / 1000,
          ...(excess > 0 ? { qty_refused: excess, refusal_reason: 'over_shipment' } : {}),
          ...(l.lot ? { lot: l.lot } : {}), ...(l.expiry ? { expiry: l.expiry } : {}),
        });
      }
      if (judge.correctByReversal) await receiveAndReverse(ctx, po.id, delivery);
      await post(client, '/receipts', { po: po.id, delivery: delivery.id, packing_slip: delivery.id, lines }, `receive-${delivery.id}`);
      ctx.log(`${delivery.id} on ${po.id}: ${JSON.stringify(lines)}`);
    }
  }
}

const normalized = (n: string) => n.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Friday: the week's invoices entered as billed and matched; mismatches held; the duplicate left out; the note. */
async function invoices(ctx: PolicyContext, judge: Judgement): Promise<void> {
  const { client } = ctx;
  const mine = new Map((await myPos(client, MONDAY)).map((p) => [p.id, p]));
  const inbox = (await get<{ items: { id: string; subject: string; sent_date: string; attachment_count: number; related: { type: string; id: string }[] }[] }>(client, '/inbox', { box: 'ap', limit: 1000, sort: 'sent_date' })).items;
  const seen = new Set<string>();
  for (const e of (await get<{ items: { vendor: string; vendor_invoice_number: string }[] }>(client, '/ap-invoices', { limit: 1000 })).items) seen.add(`${e.vendor}|${normalized(e.vendor_invoice_number)}`);
  const held: Held[] = [];
  for (const m of inbox) {
    const poRef = m.related.find((r) => r.type === 'purchase_order' && mine.has(r.id));
    if (!poRef || m.attachment_count === 0) continue;
    const file = await get<{ content: string }>(client, `/messages/${m.id}/attachments/1`);
    const billed: BilledInvoice = parseInvoiceText(file.content);
    const vendor = mine.get(poRef.id)!.vendor;
    const key = `${vendor}|${normalized(billed.number)}`;
    if (seen.has(key) && judge.skipDuplicates) { ctx.log(`${billed.number} from ${vendor} is already entered: left out`); continue; }
    seen.add(key);
    const order = await get<{ lines: PoLine[] }>(client, `/purchase-orders/${poRef.id}`);
    const lines = billed.lines.map((l) => {
      const poPrice = order.lines.find((x) => x.line === l.po_line)?.unit_price;
      const price = judge.enterAsBilled || poPrice === undefined ? l.unit_price : money(cents(poPrice));
      const amount = judge.enterAsBilled ? l.amount : money(Math.round(Number(price) * 100 * l.qty));
      return { po_line: l.po_line, description: l.description, qty: l.qty, unit_price: price, amount };
    });
    const total = judge.enterAsBilled ? billed.total : money(lines.reduce((s, l) => s + cents(Number(l.amount)), 0) + cents(Number(billed.tax)) + cents(Number(billed.freight)));
    const entered = (await post(client, '/ap-invoices', {
      vendor, po: poRef.id, vendor_invoice_number: judge.numberAsPrinted ? billed.number : normalizeInvoiceNumber(billed.number), invoice_date: billed.date, source_message: m.id, lines, tax: billed.tax, freight: billed.freight, total,
    }, `enter-${m.id}`)).body as { id: string };
    const match = await get<{ lines: { exceptions: string[] }[] }>(client, `/ap-invoices/${entered.id}/match`);
    const exceptions = new Set(match.lines.flatMap((l) => l.exceptions));
    const reasons: string[] = [];
    if (judge.holdPrice && exceptions.has('price_variance')) reasons.push('price_variance');
    if (judge.holdQuantity && (exceptions.has('quantity_variance') || exceptions.has('awaiting_receipt'))) reasons.push('quantity_variance');
    for (const reason of reasons) await post(client, `/ap-invoices/${entered.id}/holds`, { reason, note: `Held: ${reason.replace('_', ' ')} against ${poRef.id}.` }, `hold-${entered.id}-${reason}`);
    if (reasons.length === 0) await post(client, `/ap-invoices/${entered.id}/validate`, {}, `validate-${entered.id}`);
    else held.push({ number: judge.handoffNumbers ? billed.number : '', vendor: (await get<{ name: string }>(client, `/vendors/${vendor}`)).name, reasons });
    ctx.log(`${billed.number} from ${vendor}: ${entered.id} ${reasons.length ? `on hold for ${reasons.join(', ')}` : 'validated'}`);
  }
  if (!judge.handoff) return;
  writeFileSync(join(ctx.workspace, 'handoff.md'), judge.noteStyle ? styledHandoffNote(held, judge.noteStyle) : handoffNote(held));
}

/** One turn of the week by a judgement: the oracle with HANDBOOK, each negative control with one switch changed. */
export function weekPolicy(judge: Judgement) {
  return async (ctx: PolicyContext): Promise<void> => {
    if (ctx.turn.index === 1) await buy(ctx, judge);
    else if (ctx.turn.index === 2) {
      if (!judge.sendSameDay) await sendLeftOrders(ctx, judge);
      if (judge.receiveOnArrival) await receive(ctx, judge);
    } else {
      if (!judge.receiveOnArrival) await receive(ctx, judge);
      await invoices(ctx, judge);
    }
  };
}
