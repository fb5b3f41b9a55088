import { addDays, endOfMonth, isBusinessDay, nextBusinessDay, type WorkCalendar } from '../../domain/calendar';
import { formatCents } from '../../domain/money';
import type { ScenarioBuilder } from '../builder';
import type { Rng } from '../random';
import { createSimulator } from '../simulator';
import type { World } from '../world';
import { accountNumber, BANKS, invoiceNumber, type ItemSpec, type VendorSpec } from './catalog';
import { routingNumber } from '../northgate/parties';
import { OPERATING_ACCOUNT, verifyByCallBack, type HalvorsenMaster } from './master';
import { enterInvoice, mailInvoice, payInFull, placeOrder, receive, type Billing, type OrderLine } from './orders';
import { CFO, COMPANY, HOLIDAYS, VENDOR_DESK } from './roster';

const CALENDAR: WorkCalendar = { workdays: [1, 2, 3, 4, 5], isHoliday: (d) => HOLIDAYS.some(([h]) => h === d) };
const TERM_DAYS: Record<string, number> = { NET15: 15, NET30: 30, NET45: 45 };

/** The first business day on or after `date`. */
const onOrAfter = (date: string) => (isBusinessDay(date, CALENDAR) ? date : nextBusinessDay(date, CALENDAR));
const businessDaysAfter = (date: string, n: number) => { let d = date; for (let i = 0; i < n; i++) d = nextBusinessDay(d, CALENDAR); return d; };
function lastBusinessDayBy(date: string): string {
  let d = date;
  while (!isBusinessDay(d, CALENDAR)) d = addDays(d, -1);
  return d;
}

/** One purchase in history: ordered, perhaps received (in full or short), perhaps billed and entered. */
interface Purchase {
  vendor: VendorSpec;
  lines: OrderLine[];
  orderDate: string;
  receipt?: { date: string; fraction: number };
  bill?: { date: string; entryDate: string; upliftBp: number; hold?: string };
  po?: string;
}

type Phase = 0 | 1 | 2 | 3 | 4;
interface Step { phase: Phase; run: () => void }

/**
 * The quarter before the tasks (seed 004 needs only a small history): from July to the Friday before
 * the week the queue is worked. Vendors sell on their schedules; receipts, invoices (entered, matched
 * and released by the AP supervisor, a few held) and payments on due dates follow; three vendors
 * change banks in August, verified by call-back. What is left open at the end (invoices not yet due,
 * receipts not yet billed, short shipments, orders still in transit, September's services) is what
 * the tasks' queues are made of.
 */
export function buildHistory(b: ScenarioBuilder, master: HalvorsenMaster, world: World, end: string, r: { orders: Rng; changes: Rng }): void {
  const start = b.today();
  const purchases = planPurchases(master, start, end, r.orders);
  // Two early invoices held for a price variance the vendor is to credit: old exceptions nobody asked the clerk to touch.
  const holds = r.orders.sample(purchases.filter((p) => p.bill && p.bill.date < '2026-08-15' && (p.vendor.pattern === 'occasional' || p.vendor.pattern === 'biweekly') && p.lines.length === 1), 2);
  for (const p of holds) p.bill = { ...p.bill!, upliftBp: r.orders.int(300, 500), hold: 'price_variance' };
  const steps = new Map<string, Step[]>();
  const at = (date: string, phase: Phase, run: () => void) => {
    const list = steps.get(date) ?? [];
    list.push({ phase, run });
    steps.set(date, list);
  };
  const bankOf = new Map(master.vendors.map((v) => [v.id, v.bank]));
  const billedCount = new Map<string, number>();

  for (const p of purchases) {
    at(p.orderDate, 0, () => { p.po = placeOrder(b, p.vendor, p.lines, addDays(p.orderDate, 10)); });
    if (p.receipt) at(p.receipt.date, 1, () => receive(b, p.po!, p.lines, p.receipt!.fraction));
    if (!p.bill) continue;
    const bill = p.bill;
    at(bill.entryDate, 2, () => {
      const n = billedCount.get(p.vendor.id) ?? 0;
      billedCount.set(p.vendor.id, n + 1);
      const billing: Billing = {
        number: invoiceNumber(p.vendor, n), date: bill.date, po: p.po!, remitTo: bankOf.get(p.vendor.id)!,
        lines: p.lines.map((l, i) => ({ poLine: i + 1, item: l.item, qty: l.qty, unitPrice: Math.round(l.unitPrice * (1 + bill.upliftBp / 10000)) })),
      };
      const message = mailInvoice(b, p.vendor, billing);
      const invoice = enterInvoice(b, p.vendor, billing, message, bill.hold ? { reason: bill.hold, note: 'Unit price above the PO; credit memo requested from the vendor.' } : undefined);
      const payOn = lastBusinessDayBy(addDays(bill.date, TERM_DAYS[p.vendor.terms] ?? 30));
      if (!bill.hold && payOn <= end) at(payOn < bill.entryDate ? bill.entryDate : payOn, 3, () => void payInFull(b, invoice));
    });
  }
  for (const change of planBankChanges(master, r.changes)) {
    at(change.date, 4, () => {
      b.as(VENDOR_DESK.id, 'POST', '/messages/inbound', {
        box: 'purchasing', from: change.vendor.email, from_name: `${change.vendor.name} accounts receivable`, to: [`purchasing@${COMPANY.domain}`],
        subject: 'Change of bank details', body: `Please note that from ${change.date} our remittance account is at ${change.bank.bankName}, account ending ${change.bank.account.slice(-4)}. Call us on the number you have on file to confirm.`,
        related: [{ type: 'vendor', id: change.vendor.id }],
      });
      verifyByCallBack(b, change.vendor, change.bank, 'vendor letter, change of bank details', `Change confirmed by call-back to ${change.vendor.phone}, the number on file.`);
      bankOf.set(change.vendor.id, change.bank);
    });
  }

  const runDay = (date: string) => {
    // A step may schedule another for the same day in a later phase: read the list as it grows.
    const today = steps.get(date) ?? [];
    for (const phase of [0, 1, 2, 3, 4] as const) for (let i = 0; i < today.length; i++) if (today[i]!.phase === phase) today[i]!.run();
  };
  const simulate = createSimulator(world, b.tokens);
  runDay(start);
  b.advanceTo(end, (date, api) => {
    simulate(date, api);
    runDay(date);
  });
}

/** The opening cash of the operating account, deposited against owner's equity on the first day. */
export function openBooks(b: ScenarioBuilder, r: Rng): void {
  b.as(CFO, 'POST', `/bank-accounts/${OPERATING_ACCOUNT}/deposits`, {
    date: b.today(), amount: formatCents(r.cents(35_000_000, 45_000_000, 100), false), credit_account: '3000', reference: 'Opening balance', memo: 'Opening balance of the operating account',
  });
}

function lineOf(master: HalvorsenMaster, vendor: VendorSpec, item: ItemSpec, r: Rng, qty?: number): OrderLine {
  return { item, qty: qty ?? r.int(item.qty[0], item.qty[1]), unitPrice: master.prices[vendor.id]![item.id]! };
}

function goodsBill(receiptDate: string, r: Rng): Purchase['bill'] {
  const date = businessDaysAfter(receiptDate, 1);
  return { date, entryDate: businessDaysAfter(date, r.int(1, 2)), upliftBp: 0 };
}

/** Every vendor's purchases from `start` to `end`, by its schedule; a purchase is billed only when its invoice arrives by `end`. */
function planPurchases(master: HalvorsenMaster, start: string, end: string, r: Rng): Purchase[] {
  const out: Purchase[] = [];
  const billedBy = (p: Purchase) => (p.bill && p.bill.entryDate <= end ? p : { ...p, bill: undefined });
  for (const vendor of master.vendors) {
    const items = master.items.filter((i) => i.category === vendor.category);
    if (vendor.pattern === 'biweekly' || vendor.pattern === 'standing') {
      const standing = vendor.pattern === 'standing' ? lineOf(master, vendor, items[0]!, r) : undefined;
      // A standing order's fourth delivery lands in the last days of September, unbilled at the end.
      const first = onOrAfter(addDays('2026-07-06', vendor.pattern === 'standing' ? r.int(0, 1) : r.int(0, 3)));
      for (let d = first; d <= addDays(end, -2); d = onOrAfter(addDays(d, vendor.pattern === 'standing' ? 28 : 14))) {
        const lines = standing ? [standing] : r.sample(items, r.int(1, Math.min(2, items.length))).map((i) => lineOf(master, vendor, i, r));
        const received = businessDaysAfter(d, vendor.pattern === 'standing' ? 3 : r.int(3, 5));
        const receipt = received <= end ? { date: received, fraction: 1 } : undefined;
        out.push(billedBy({ vendor, lines, orderDate: d, receipt, bill: receipt && goodsBill(received, r) }));
      }
    } else if (vendor.pattern === 'occasional') {
      for (const d of r.sample(['2026-07-08', '2026-07-22', '2026-08-05', '2026-08-12', '2026-08-19', '2026-08-26'], 4).sort()) {
        const lines = [lineOf(master, vendor, r.pick(items), r)];
        const received = businessDaysAfter(d, r.int(3, 6));
        out.push(billedBy({ vendor, lines, orderDate: d, receipt: { date: received, fraction: 1 }, bill: goodsBill(received, r) }));
      }
      // A short shipment whose rest is still to come, and orders still in transit at the end.
      const shortOn = onOrAfter(addDays('2026-09-08', r.int(0, 6)));
      out.push({ vendor, lines: [lineOf(master, vendor, r.pick(items), r)], orderDate: shortOn, receipt: { date: businessDaysAfter(shortOn, 4), fraction: 0.8 + r.float() * 0.12 } });
      for (const d of r.sample(['2026-09-23', '2026-09-24', '2026-09-25', '2026-09-28', '2026-09-29'], 2).sort()) {
        out.push({ vendor, lines: r.sample(items, r.int(1, Math.min(2, items.length))).map((i) => lineOf(master, vendor, i, r)), orderDate: d });
      }
    } else {
      const line = lineOf(master, vendor, items[0]!, r, 1);
      for (const month of ['2026-07', '2026-08', '2026-09']) {
        const orderDate = onOrAfter(`${month}-01`);
        const date = lastBusinessDayBy(endOfMonth(orderDate));
        out.push(billedBy({ vendor, lines: [line], orderDate, bill: { date, entryDate: businessDaysAfter(date, 3), upliftBp: 0 } }));
      }
    }
  }
  return out.filter((p) => p.orderDate >= start && p.orderDate <= end);
}

/** Three vendors with business still open at the end change banks in August, each verified by call-back. */
function planBankChanges(master: HalvorsenMaster, r: Rng): { vendor: VendorSpec; date: string; bank: VendorSpec['bank'] }[] {
  const candidates = master.vendors.filter((v) => v.pattern === 'standing' || v.pattern === 'service');
  return r.sample(candidates, 3).sort((a, b) => (a.id < b.id ? -1 : 1)).map((vendor) => ({
    vendor,
    date: onOrAfter(addDays('2026-08-10', r.int(0, 11))),
    bank: { bankName: r.pick(BANKS.filter((n) => n !== vendor.bank.bankName)), routing: routingNumber(r), account: accountNumber(r) },
  }));
}
