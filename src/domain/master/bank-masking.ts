import { maskNumbersInText } from '../../projections/restricted-text';

/** Who may see a vendor's full account and routing numbers. */
export const BANK_READ_FULL = 'vendor_bank.read_full';

/** Response fields that hold restricted bank numbers, wherever they appear. */
const RESTRICTED_FIELDS = new Set(['account_number', 'routing_number']);

/** All but the last four characters replaced: 1234569170 → ••••••9170. */
export function maskNumber(value: string): string {
  if (value.length <= 4) return '•'.repeat(value.length);
  return '•'.repeat(value.length - 4) + value.slice(-4);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A copy of a response body with every `account_number` and `routing_number` masked, however deep,
 * and every vendor bank number in free text (message bodies, text attachments, notes, the payloads
 * /audit shows), unless the reader holds vendor_bank.read_full. `numbers` are the full numbers on
 * file. The pipeline applies it to every response, so lists, documents, audit rows and later areas'
 * views are all covered.
 */
export function maskBankNumbers<T>(body: T, permissions: ReadonlySet<string>, numbers: ReadonlySet<string> = new Set()): T {
  if (permissions.has(BANK_READ_FULL)) return body;
  return mask(body, numbers) as T;
}

function mask(value: unknown, numbers: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return maskNumbersInText(value, numbers);
  if (Array.isArray(value)) return value.map((v) => mask(v, numbers));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = RESTRICTED_FIELDS.has(k) && typeof v === 'string' ? maskNumber(v) : mask(v, numbers);
  }
  if (out.encoding === 'base64' && typeof out.content === 'string') out.content = maskBase64Text(out.content, numbers);
  return out;
}

/** A base64 attachment that is text underneath is masked as text; binary content is left alone. */
function maskBase64Text(content: string, numbers: ReadonlySet<string>): string {
  if (numbers.size === 0) return content;
  let text: string;
  try {
    text = utf8.decode(Buffer.from(content, 'base64'));
  } catch {
    return content;
  }
  const masked = maskNumbersInText(text, numbers);
  return masked === text ? content : Buffer.from(masked, 'utf8').toString('base64');
}
