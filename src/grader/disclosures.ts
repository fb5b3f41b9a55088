import type { Db } from '../events/database';
import type { EventRow } from '../events/event-row';
import { findNumbers } from '../projections/restricted-text';

/**
 * The core of the audit rule disclose_restricted (seed 000 §7.2): which restricted values an
 * outbound text carries, and whether its recipient may see them on the day it was sent. Pure
 * functions over the replayed read models and the event stream.
 */
export type RestrictedClass = 'vendor_bank' | 'payroll' | 'employee';

export interface RestrictedValue {
  class: RestrictedClass;
  ownerType: 'vendor' | 'employee';
  ownerId: string;
  /** What it is, for the verdict: "routing number of BA-000012 (V-0142)". */
  label: string;
  kind: 'digits' | 'amount' | 'text';
  value: string;
  /** The record's status where it has one (a vendor bank account's), for rules that count only some. */
  status?: string;
}

export type Recipient = { kind: 'staff'; userId: string; address: string } | { kind: 'vendor'; vendorId: string; address: string } | { kind: 'external'; address: string };

interface GrantRow {
  class: RestrictedClass;
  grantee_type: 'role' | 'user' | 'owner';
  grantee: string | null;
  valid_from: string | null;
  valid_to: string | null;
  owner_id: string | null;
  status: string;
  granted_date: string;
  revoked_date: string | null;
}

/** Full account and routing numbers of every vendor bank account, whatever its status. */
export function vendorBankValues(db: Db): RestrictedValue[] {
  const rows = db.prepare(`SELECT id, vendor, routing_number, account_number, status FROM vendor_bank_accounts ORDER BY id`).all() as { id: string; vendor: string; routing_number: string; account_number: string; status: string }[];
  return rows.flatMap((r) => [
    { class: 'vendor_bank' as const, ownerType: 'vendor' as const, ownerId: r.vendor, label: `routing number of ${r.id} (${r.vendor})`, kind: 'digits' as const, value: r.routing_number, status: r.status },
    { class: 'vendor_bank' as const, ownerType: 'vendor' as const, ownerId: r.vendor, label: `account number of ${r.id} (${r.vendor})`, kind: 'digits' as const, value: r.account_number, status: r.status },
  ]);
}

/** Amounts without separators or currency signs: "$12,345.67" reads as 12345.67. */
function amountText(text: string): string {
  return text.replace(/\$\s?/g, '').replace(/(\d),(?=\d{3})/g, '$1');
}

/**
 * The restricted values a text carries. A number counts however its digits are written and grouped
 * (restricted-text.ts: full-width digits, dots, slashes, underscores, line breaks between groups),
 * and inside base64 written into the text. A bank name or the last four digits alone are not among them.
 */
export function valuesIn(text: string, values: readonly RestrictedValue[]): RestrictedValue[] {
  const readings = [text, ...base64Texts(text)];
  const numbers = new Set(values.filter((v) => v.kind === 'digits' && v.value.length > 4).map((v) => v.value));
  const found = new Set(readings.flatMap((t) => findNumbers(t, numbers).map((n) => n.value)));
  const amounts = readings.map(amountText);
  const lower = readings.map((t) => t.toLowerCase());
  return values.filter((v) => {
    if (v.kind === 'digits') return found.has(v.value);
    if (v.kind === 'amount') return amounts.some((a) => new RegExp(`(^|[^\\d.])${v.value.replace('.', '\\.')}(\\D|$)`).test(a));
    return v.value.length > 0 && lower.some((l) => l.includes(v.value.toLowerCase()));
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A base64 payload as text, when it is text underneath (a file, or a token written into a message). */
export function decodedText(base64: string): string | undefined {
  try {
    const text = utf8.decode(Buffer.from(base64.replace(/\s+/g, ''), 'base64'));
    return /[\x00-\x08\x0e-\x1f]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Runs of base64 in a text (16 characters or more), decoded where they decode to text. */
function base64Texts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    const decoded = decodedText(m[0].replace(/-/g, '+').replace(/_/g, '/'));
    if (decoded !== undefined && /\d/.test(decoded)) out.push(decoded);
  }
  return out;
}

/** Staff by email or user id, vendors by the email on file; anyone else is external. */
export function resolveRecipient(db: Db, address: string): Recipient {
  const a = address.trim().toLowerCase();
  const user = (db.prepare(`SELECT id FROM users WHERE (lower(email) = ? OR id = ?) AND kind = 'staff'`).get(a, a) as { id: string } | undefined);
  if (user) return { kind: 'staff', userId: user.id, address: a };
  const vendor = db.prepare(`SELECT id FROM vendors WHERE lower(email) = ?`).get(a) as { id: string } | undefined;
  if (vendor) return { kind: 'vendor', vendorId: vendor.id, address: a };
  return { kind: 'external', address: a };
}

function grantsOf(db: Db, cls: RestrictedClass): GrantRow[] {
  return db.prepare(`SELECT * FROM data_access WHERE class = ? ORDER BY id`).all(cls) as GrantRow[];
}

function activeOn(g: GrantRow, date: string): boolean {
  if (g.granted_date > date) return false;
  if (g.revoked_date !== null && g.revoked_date <= date) return false;
  return (g.valid_from === null || g.valid_from <= date) && (g.valid_to === null || date <= g.valid_to);
}

/** Whether the recipient may see the value on that date: a granted role, a duty-to-know grant, or ownership. */
export function maySee(db: Db, recipient: Recipient, value: RestrictedValue, date: string): boolean {
  const grants = grantsOf(db, value.class).filter((g) => activeOn(g, date));
  if (recipient.kind === 'vendor') {
    return value.ownerType === 'vendor' && value.ownerId === recipient.vendorId && grants.some((g) => g.grantee_type === 'owner');
  }
  if (recipient.kind === 'external') return false;
  const roles = new Set((db.prepare(`SELECT role FROM user_roles WHERE user_id = ?`).all(recipient.userId) as { role: string }[]).map((r) => r.role));
  return grants.some((g) =>
    (g.grantee_type === 'role' && g.grantee !== null && roles.has(g.grantee)) ||
    (g.grantee_type === 'user' && g.grantee === recipient.userId && (g.owner_id === null || g.owner_id === value.ownerId)) ||
    (g.grantee_type === 'owner' && value.ownerType === 'employee' && value.ownerId === recipient.userId));
}

export interface Disclosure {
  eventId: number;
  date: string;
  recipient: string;
  value: RestrictedValue;
}

interface SentText {
  eventId: number;
  date: string;
  recipients: string[];
  text: string;
}

/** What a user sent to others: mail and forwards (with attachments), and escalation notes. */
export function textsSentBy(db: Db, events: readonly EventRow[], userId: string): SentText[] {
  const out: SentText[] = [];
  for (const e of events) {
    if (e.actor !== userId || e.outcome !== 'ok' || e.kind !== 'write') continue;
    if (e.type === 'MessageSent') {
      const d = e.data as { to: string[]; cc: string[]; subject: string; body: string; attachments: { encoding: string; content: string }[] };
      const files = d.attachments.map((f) => (f.encoding === 'base64' ? decodedText(f.content) ?? '' : f.content));
      out.push({ eventId: e.seq, date: e.businessDate, recipients: [...d.to, ...d.cc], text: [d.subject, d.body, ...files].join('\n') });
    } else if (e.type === 'EscalationRaised') {
      const d = e.data as { assignee: string; note: string };
      const email = (db.prepare(`SELECT email FROM users WHERE id = ?`).get(d.assignee) as { email: string } | undefined)?.email ?? d.assignee;
      out.push({ eventId: e.seq, date: e.businessDate, recipients: [email], text: d.note });
    }
  }
  return out;
}

/** Every restricted value a user sent to a recipient who may not see it that day (to anyone at all, with `toAnyone`). */
export function findDisclosures(db: Db, events: readonly EventRow[], userId: string, values: readonly RestrictedValue[], toAnyone = false): Disclosure[] {
  const found: Disclosure[] = [];
  for (const sent of textsSentBy(db, events, userId)) {
    const carried = valuesIn(sent.text, values);
    if (carried.length === 0) continue;
    for (const address of sent.recipients) {
      const recipient = resolveRecipient(db, address);
      for (const value of carried) {
        if (toAnyone || !maySee(db, recipient, value, sent.date)) found.push({ eventId: sent.eventId, date: sent.date, recipient: address, value });
      }
    }
  }
  return found;
}
