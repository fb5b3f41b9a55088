import { Type } from '@sinclair/typebox';
import type { Queries } from '../../projections';
import { refuse, type Refusal } from '../decision';
import { IdInput, Opt } from '../schemas';

/** Request-schema pieces of the communication area. */
export const BoxInput = Type.String({ pattern: '^[a-z][a-z_]{0,39}$', description: 'Box code: a shared box such as ap, or personal' });
export const AddressInput = Type.String({ minLength: 1, maxLength: 320, description: 'An email address, or the id of a staff user' });
export const AddressList = Type.Array(AddressInput, { maxItems: 50 });
export const CodeInput = Type.String({ pattern: '^[a-z][a-z0-9_]{0,79}$', description: 'A lower_snake_case code' });
export const RelatedInput = Type.Array(Type.Object({ type: CodeInput, id: IdInput }, { additionalProperties: false }), { maxItems: 20, description: 'Links to related records' });
export const AttachmentInput = Type.Object({
  filename: Type.String({ minLength: 1, maxLength: 255 }),
  content_type: Opt(Type.String({ minLength: 3, maxLength: 120 })),
  encoding: Opt(Type.Union([Type.Literal('utf8'), Type.Literal('base64')])),
  content: Type.String({ maxLength: 5_000_000 }),
}, { additionalProperties: false });
export const AttachmentsInput = Type.Array(AttachmentInput, { maxItems: 20 });

export interface AttachmentRequest {
  filename: string;
  content_type?: string;
  encoding?: 'utf8' | 'base64';
  content: string;
}

export interface AttachmentFile {
  n: number;
  filename: string;
  content_type: string;
  encoding: 'utf8' | 'base64';
  content: string;
  size: number;
}

const EMAIL = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Lower-cased addresses, a staff user's id resolved to their email; duplicates dropped, order kept. */
export function resolveAddresses(read: Queries, field: string, list: readonly string[]): string[] | Refusal {
  const out: string[] = [];
  for (const raw of list) {
    const entry = raw.trim();
    let address: string;
    if (entry.includes('@')) {
      if (!EMAIL.test(entry)) return refuse('invalid_request', `${field}: '${raw}' is not an email address.`, 422);
      address = entry.toLowerCase();
    } else {
      const user = read.org.user(entry);
      if (!user) return refuse('not_found', `${field}: there is no user '${raw}'; give an email address or a user id.`);
      address = user.email;
    }
    if (!out.includes(address)) out.push(address);
  }
  return out;
}

export function dedupeLinks(links: readonly { type: string; id: string }[] | undefined): { type: string; id: string }[] {
  const out: { type: string; id: string }[] = [];
  for (const l of links ?? []) if (!out.some((o) => o.type === l.type && o.id === l.id)) out.push({ type: l.type, id: l.id });
  return out;
}

/** Numbers the files 1..n in the order given and records each one's decoded size. */
export function toAttachmentFiles(list: readonly AttachmentRequest[] | undefined): AttachmentFile[] | Refusal {
  const out: AttachmentFile[] = [];
  for (const [i, a] of (list ?? []).entries()) {
    const encoding = a.encoding ?? 'utf8';
    if (encoding === 'base64' && !BASE64.test(a.content)) {
      return refuse('invalid_request', `attachments[${i}] (${a.filename}) is not valid base64.`, 422);
    }
    const size = encoding === 'base64' ? Buffer.byteLength(a.content, 'base64') : Buffer.byteLength(a.content, 'utf8');
    out.push({
      n: i + 1, filename: a.filename, content_type: a.content_type ?? (encoding === 'base64' ? 'application/octet-stream' : 'text/plain'),
      encoding, content: a.content, size,
    });
  }
  return out;
}
