import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface OneShotResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A response that is not HTTP/1.x as this client reads it. */
export class MalformedResponse extends Error {}

/**
 * One HTTP/1.1 request on its own connection (`Connection: close`), over a bare socket: loading
 * node:http costs an agent command about a tenth of its start-up, and a command sends one request.
 * The caller gives the header names in lower case; the response is read to the end of the
 * connection and its body decoded from Content-Length or chunked framing.
 */
export function oneShotRequest(url: URL, method: string, headers: Record<string, string>, payload: string | undefined, timeoutMs: number, onTimeout: () => Error): Promise<OneShotResponse> {
  return new Promise((resolve, reject) => {
    const port = Number(url.port || 80);
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const socket = connect({ host, port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (err: Error | undefined, res?: OneShotResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(res!);
    };
    const timer = setTimeout(() => finish(onTimeout()), timeoutMs);
    const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, 'connection: close'];
    for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
    socket.on('connect', () => socket.end(lines.join('\r\n') + '\r\n\r\n' + (payload ?? '')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => finish(err));
    socket.on('end', () => {
      try {
        finish(undefined, parseResponse(Buffer.concat(chunks)));
      } catch (err) {
        finish(err as Error);
      }
    });
  });
}

export function parseResponse(raw: Buffer): OneShotResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new MalformedResponse(raw.length === 0 ? 'socket hang up' : 'the response ended inside its headers');
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine!);
  if (!status) throw new MalformedResponse(`not an HTTP/1.x status line: ${JSON.stringify(statusLine!.slice(0, 60))}`);
  const headers: IncomingHttpHeaders = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const prior = headers[name];
    if (name === 'set-cookie') headers[name] = [...((prior as string[] | undefined) ?? []), value];
    else headers[name] = prior === undefined ? value : `${prior as string}, ${value}`;
  }
  const rest = raw.subarray(end + 4);
  const chunked = /(^|,)\s*chunked\s*$/i.test(String(headers['transfer-encoding'] ?? ''));
  if (chunked) return { status: Number(status[1]), headers, body: dechunk(rest) };
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  if (length !== undefined && (!Number.isInteger(length) || length < 0)) throw new MalformedResponse(`a Content-Length that is not a length: ${headers['content-length']}`);
  if (length !== undefined && rest.length < length) throw new MalformedResponse(`the response ended after ${rest.length} of its ${length} bytes`);
  return { status: Number(status[1]), headers, body: length === undefined ? rest : rest.subarray(0, length) };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) throw new MalformedResponse('the response ended inside its chunked body');
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isInteger(size) || size < 0) throw new MalformedResponse('a chunk size that is not hexadecimal');
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (data.length < start + size) throw new MalformedResponse('the response ended inside a chunk');
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}
