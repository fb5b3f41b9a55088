import { HANDBOOK_RUN, candidates, selectRun, type Payable, type Proposal, type RunDates, type RunJudgement } from './run-rules';

/**
 * The misreadings of the payment and treasury clauses (PAY-2.1, PAY-2.2, PAY-2.3, TRE-1.1, TRE-1.2)
 * that the planted invoices and the room above the floor must tell from the handbook's reading: on
 * every seed, each selects another run. The generator checks it, so a seed whose amounts happen
 * not to separate one is refused rather than shipped with a clause no attempt can fail.
 */
export const MISREADINGS: Record<string, Partial<RunJudgement>> = {
  pay_everything_due: { respectFloor: false },
  ignore_disputes: { skipDisputes: false },
  no_early_payment: { payEarly: false },
  discount_not_taken: { takeDiscount: false },
  take_expired_discount: { discountWhen: 'listed' },
  stop_at_first_misfit: { continuePastMisfit: false },
  due_date_order: { order: 'due_date' },
  due_before_next_payment_date: { dueBefore: 'next_payment_date' },
  pay_only_due_now: { dueBefore: 'payment_date' },
};

const total = (ps: readonly Proposal[]) => ps.reduce((s, p) => s + p.amount, 0);
const same = (a: readonly Proposal[], b: readonly Proposal[]) => JSON.stringify([...a].sort((x, y) => (x.invoice < y.invoice ? -1 : 1))) === JSON.stringify([...b].sort((x, y) => (x.invoice < y.invoice ? -1 : 1)));

/**
 * The room above the floor and the amount of the bill too large for it. The room is what the
 * handbook's run pays and the slack; the big bill, due first of the rest, is larger than what is
 * left when the handbook's order reaches it (so it is left out and the smaller ones after it are
 * still paid), but fits when every invoice is simply taken by due date, ahead of the discounts (so
 * that order shows).
 */
export function sizeTheFloor(open: readonly Payable[], dates: RunDates, slack: number): { room: number; big: number } {
  const wanted = selectRun(open, dates, Number.MAX_SAFE_INTEGER);
  const room = total(wanted) + slack;
  const early = wanted.filter((p) => p.tier === 1);
  const rest = total(wanted.filter((p) => p.tier === 3));
  const big = Math.round((rest + slack + Math.max(100, Math.floor(total(early) / 2))) / 100) * 100;
  if (big > total(early) + rest + slack) throw new Error('The discounts are too small to tell the handbook\'s order from due-date order.');
  return { room, big };
}

/** Throws unless every misreading, and releasing the held invoice, changes the run the room allows. */
export function checkSeparation(open: readonly Payable[], held: Payable, dates: RunDates, room: number): void {
  const handbook = selectRun(open, dates, room, HANDBOOK_RUN);
  const blind = Object.entries(MISREADINGS).filter(([, m]) => same(selectRun(open, dates, room, { ...HANDBOOK_RUN, ...m }), handbook)).map(([name]) => name);
  const released = selectRun([...open, { ...held, onHold: false }], dates, room, HANDBOOK_RUN);
  if (!released.some((p) => p.invoice === held.id)) blind.push('release_others_hold');
  const misfits = candidates(open, dates, HANDBOOK_RUN).filter((c) => !handbook.some((p) => p.invoice === c.invoice));
  if (misfits.length !== 1) blind.push(`exactly one invoice left out for the floor (${misfits.length})`);
  if (blind.length) throw new Error(`The planted run does not tell these readings from the handbook's: ${blind.join(', ')}.`);
}
