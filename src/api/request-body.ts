/**
 * Reading a JSON request body, for both ports: every way a body can be unreadable becomes a
 * BodyError (a 4xx with a code and one sentence), never an exception and never a half-parsed value.
 */
export interface BodyError {
  status: number;
  code: string;
  detail: string;
}

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Arrays and objects nest at most this deep. The widest request schema nests four levels; the
 * bound is checked on the raw text, before JSON.parse or the validator recurse on it.
 */
export const MAX_JSON_DEPTH = 32;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The parsed body, or why it cannot be read. An empty body is no body. */
export function parseJsonBody(raw: Buffer | undefined, contentType: string | undefined): { body?: unknown; bodyError?: BodyError } {
  if (!raw || raw.length === 0) return {};
  const type = (contentType ?? '').toLowerCase();
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/.test(type)) {
    return { bodyError: { status: 415, code: 'unsupported_media_type', detail: `Send the body as application/json, not ${type || 'no content type'}.` } };
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/.exec(type)?.[1];
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return { bodyError: { status: 415, code: 'unsupported_media_type', detail: `Send JSON in UTF-8, not ${charset}.` } };
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { bodyError: { status: 400, code: 'malformed_json', detail: 'The body is not valid UTF-8.' } };
  }
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    return { bodyError: { status: 400, code: 'nesting_too_deep', detail: `The body nests arrays and objects ${depth} deep; at most ${MAX_JSON_DEPTH} levels are accepted.` } };
  }
  try {
    return { body: JSON.parse(text) };
  } catch (err) {
    return { bodyError: { status: 400, code: 'malformed_json', detail: `The body is not valid JSON: ${(err as Error).message}.` } };
  }
}

/** The deepest nesting of brackets outside strings, in one pass and without recursion. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * A failure of the body stream itself (express.raw): too large, an unknown Content-Encoding, a
 * broken gzip stream, a client that hung up. Its status is kept when it is a 4xx.
 */
export function streamBodyError(err: { status?: number; type?: string; message?: string }): BodyError {
  if (err.type === 'entity.too.large') return { status: 413, code: 'payload_too_large', detail: `The body is larger than ${MAX_BODY_BYTES} bytes.` };
  if (err.type === 'encoding.unsupported') return { status: 415, code: 'unsupported_encoding', detail: `${err.message ?? 'The Content-Encoding is not supported'}; send identity, gzip or deflate.` };
  if (err.type === 'charset.unsupported') return { status: 415, code: 'unsupported_media_type', detail: err.message ?? 'The charset is not supported; send UTF-8.' };
  const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 400;
  return { status, code: 'unreadable_body', detail: `The body could not be read: ${(err.message ?? 'the stream failed').replace(/\.$/, '')}.` };
}
