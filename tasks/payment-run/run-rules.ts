/**
 * The run the handbook asks for (payments.md, treasury.md) as a pure function of the payable
 * invoices and the cash above the floor, so the generator (which sizes the floor's room) and the
 * policies (which prepare the run) judge alike. Each switch is one negative control's mistake.
 */
export interface Payable {
  id: string;
  vendor: string;
  open: number;
  due: string;
  discountDate: string | null;
  discount: number;
  onHold: boolean;
  disputed: boolean;
}

export interface RunJudgement {
  /** TRE-1.1: stay above the floor. */
  respectFloor: boolean;
  /** PAY-2.3: leave invoices with an open dispute out. */
  skipDisputes: boolean;
  /** PAY-2.2: pay an invoice early when its discount would expire before the next run's payment date. */
  payEarly: boolean;
  /** PAY-2.2: deduct the discount when it is taken (misread: pay the full amount all the same). */
  takeDiscount: boolean;
  /** PAY-2.2: take a discount only while it is available on the payment date, or (misread) whenever the invoice lists one. */
  discountWhen: 'available' | 'listed';
  /** TRE-1.2: after one does not fit, keep considering the next. */
  continuePastMisfit: boolean;
  /** TRE-1.2: the handbook's order (expiring discounts, past due, the rest), or (misread) every invoice by due date. */
  order: 'handbook' | 'due_date';
  /**
   * PAY-2.1: what "falls due before the next run" is measured against: the day the next run is
   * prepared (the handbook); misread, the next run's payment date, or this run's.
   */
  dueBefore: 'next_run' | 'next_payment_date' | 'payment_date';
}

export const HANDBOOK_RUN: RunJudgement = {
  respectFloor: true, skipDisputes: true, payEarly: true, takeDiscount: true, discountWhen: 'available', continuePastMisfit: true, order: 'handbook', dueBefore: 'next_run',
};

export interface RunDates {
  /** The day the run is prepared. */
  today: string;
  /** Its payment date: the next business day. */
  paymentDate: string;
  /** The day the next run is prepared (a week later), and its payment date. */
  nextRun: string;
  nextPaymentDate: string;
}

export interface Proposal { invoice: string; amount: number; discount: number; tier: 1 | 2 | 3 }

/** What qualifies, in the handbook's order, with the amount and discount each would pay. */
export function candidates(invoices: readonly Payable[], d: RunDates, judge: RunJudgement): Proposal[] {
  const before = judge.dueBefore === 'next_run' ? d.nextRun : judge.dueBefore === 'next_payment_date' ? d.nextPaymentDate : addDays(d.paymentDate, 1);
  const out: (Proposal & { key: string })[] = [];
  for (const inv of invoices) {
    if (inv.onHold || (judge.skipDisputes && inv.disputed)) continue;
    const available = inv.discountDate !== null && inv.discountDate >= d.paymentDate && inv.discount > 0;
    const expiring = judge.payEarly && available && inv.discountDate! < d.nextPaymentDate;
    const due = inv.due < before;
    if (!due && !expiring) continue;
    const takes = judge.takeDiscount && inv.discount > 0 && (available || judge.discountWhen === 'listed');
    const discount = takes ? inv.discount : 0;
    const tier = judge.order === 'due_date' ? 3 : expiring ? 1 : inv.due < d.today ? 2 : 3;
    const key = tier === 1 ? inv.discountDate! : inv.due;
    out.push({ invoice: inv.id, amount: inv.open - discount, discount, tier, key });
  }
  return out
    .sort((a, b) => a.tier - b.tier || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || (a.invoice < b.invoice ? -1 : 1))
    .map(({ key: _key, ...p }) => p);
}

/** The run: candidates in order, each included while it fits in the room above the floor. */
export function selectRun(invoices: readonly Payable[], d: RunDates, room: number, judge: RunJudgement = HANDBOOK_RUN): Proposal[] {
  const chosen: Proposal[] = [];
  let left = room;
  for (const p of candidates(invoices, d, judge)) {
    if (!judge.respectFloor || p.amount <= left) {
      chosen.push(p);
      left -= p.amount;
    } else if (!judge.continuePastMisfit) {
      break;
    }
  }
  return chosen;
}

export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The run's dates from the day it is prepared and the company calendar. */
export function runDates(today: string, isBusinessDay: (date: string) => boolean): RunDates {
  const next = (date: string) => {
    let x = addDays(date, 1);
    while (!isBusinessDay(x)) x = addDays(x, 1);
    return x;
  };
  const nextRun = addDays(today, 7);
  return { today, paymentDate: next(today), nextRun, nextPaymentDate: next(nextRun) };
}
