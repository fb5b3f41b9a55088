/** Who may see a vendor's full account and routing numbers. */
export const BANK_READ_FULL = 'vendor_bank.read_full';

/** Response fields that hold restricted bank numbers, wherever they appear. */
const RESTRICTED_FIELDS = new Set(['account_number', 'routing_number']);

/** All but the last four characters replaced: 1234569170 → ••••••9170. */
export function maskNumber(value: string): string {
  if (value.length <= 4) return '•'.repeat(value.length);
  return '•'.repeat(value.length - 4) + value.slice(-4);
}

/**
 * A copy of a response body with every `account_number` and `routing_number` masked, however deep,
 * unless the reader holds vendor_bank.read_full. The pipeline applies it to every response, so
 * lists, documents, audit rows and later areas' views (a payment's bank account) are all covered.
 */
export function maskBankNumbers<T>(body: T, permissions: ReadonlySet<string>): T {
  if (permissions.has(BANK_READ_FULL)) return body;
  return mask(body) as T;
}

function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = RESTRICTED_FIELDS.has(k) && typeof v === 'string' ? maskNumber(v) : mask(v);
  }
  return out;
}
