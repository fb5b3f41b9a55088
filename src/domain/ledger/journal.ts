import type { Journal, JournalLine } from '../../events/contracts/ledger';
import type { Queries } from '../../projections';
import { refuse, type Refusal } from '../decision';
import { formatCents } from '../money';

/** What a posting line refers to besides its account and amount. */
export interface LineRefs {
  party_type?: JournalLine['party_type'];
  party_id?: string | null;
  document_id?: string | null;
  department?: string | null;
}

/**
 * Refuses with `period_closed` unless the period of `date` accepts postings. A month's period exists,
 * open, from the day the business clock first reaches it, or earlier when opened ahead with
 * POST /periods; `open` and `closing` accept postings, `closed` does not, and a month with no
 * period (before the company's first day, or not yet reached nor opened) does not either.
 */
export function assertPeriodOpen(ctx: { read: Queries }, date: string): Refusal | undefined {
  const month = date.slice(0, 7);
  const period = ctx.read.ledger.period(month);
  if (!period) return refuse('period_closed', `Period ${month} is not open for postings: it has not been opened (POST /periods opens a month ahead).`);
  if (period.status === 'closed') return refuse('period_closed', `Period ${month} is closed; a posting dated ${date} is refused.`);
  return undefined;
}

/** Refuses unless every account exists and is active. */
export function assertAccountsPostable(read: Queries, accounts: readonly string[]): Refusal | undefined {
  for (const code of [...new Set(accounts)].sort()) {
    const account = read.ledger.account(code);
    if (!account) return refuse('not_found', `No account ${code} in the chart of accounts.`);
    if (account.status !== 'active') return refuse('invalid_state', `Account ${code} ${account.name} is inactive and takes no postings.`);
  }
  return undefined;
}

/**
 * Builds a journal that balances by construction: `transfer` adds both sides at once, and
 * `balanceTo` posts whatever difference remains to one account (an invoice's AP credit, a
 * payment's cash). A negative amount posts to the other side; zero amounts are dropped.
 */
export class JournalBuilder {
  private readonly lines: JournalLine[] = [];

  constructor(readonly date: string, readonly memo: string) {}

  debit(account: string, cents: number, refs: LineRefs = {}): this {
    return this.add(account, cents, refs);
  }

  credit(account: string, cents: number, refs: LineRefs = {}): this {
    return this.add(account, -cents, refs);
  }

  transfer(debitAccount: string, creditAccount: string, cents: number, refs: LineRefs = {}): this {
    return this.debit(debitAccount, cents, refs).credit(creditAccount, cents, refs);
  }

  /** Posts the remaining difference to `account`, on whichever side balances the journal. */
  balanceTo(account: string, refs: LineRefs = {}): this {
    return this.add(account, -this.net(), refs);
  }

  /** Debits less credits so far, in cents. */
  net(): number {
    return this.lines.reduce((s, l) => s + l.debit - l.credit, 0);
  }

  /** The journal, or a refusal when it does not balance or posts to a missing or inactive account. */
  build(read: Queries): Journal | Refusal {
    const net = this.net();
    if (net !== 0) {
      const debits = this.lines.reduce((s, l) => s + l.debit, 0);
      return refuse('invalid_request', `The entry does not balance: debits ${formatCents(debits)}, credits ${formatCents(debits - net)}.`, 422);
    }
    const bad = assertAccountsPostable(read, this.lines.map((l) => l.account));
    if (bad) return bad;
    return { date: this.date, memo: this.memo, lines: this.lines.map((l) => ({ ...l })) };
  }

  private add(account: string, signedCents: number, refs: LineRefs): this {
    if (!Number.isInteger(signedCents)) throw new Error(`Journal amounts are integer cents, not ${signedCents}.`);
    if (signedCents === 0) return this;
    this.lines.push({
      account,
      debit: signedCents > 0 ? signedCents : 0,
      credit: signedCents < 0 ? -signedCents : 0,
      party_type: refs.party_type ?? null,
      party_id: refs.party_id ?? null,
      document_id: refs.document_id ?? null,
      ...(refs.department ? { department: refs.department } : {}),
    });
    return this;
  }
}

/** The same postings with debits and credits swapped, dated `date`: how a posted journal is corrected. */
export function reverseJournal(journal: Journal, date: string, memo: string): Journal {
  return { date, memo, lines: journal.lines.map((l) => ({ ...l, debit: l.credit, credit: l.debit })) };
}

