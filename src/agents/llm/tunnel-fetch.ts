import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';

/** Opens a tunnel to host:port through an HTTP proxy (CONNECT). */
function tunnel(proxy: URL, host: string, port: number, signal?: AbortSignal | null): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: proxy.hostname, port: Number(proxy.port || 80), method: 'CONNECT', path: `${host}:${port}`, headers: { host: `${host}:${port}` }, signal: signal ?? undefined });
    req.once('connect', (res: IncomingMessage, socket: Socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new Error(`The proxy ${proxy.host} refused ${host}:${port}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim()));
    });
    req.once('error', reject);
    req.end();
  });
}

/**
 * A fetch that sends every request through an HTTP proxy's tunnel, TLS end to end: the sandbox's
 * only way to the model endpoint is its egress proxy (HTTPS_PROXY), and node's own fetch ignores
 * proxies. One tunnel per request; the model calls are few and long.
 */
export function tunnelFetch(proxyUrl: string): typeof fetch {
  const proxy = new URL(proxyUrl);
  return async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const secure = url.protocol === 'https:';
    const port = Number(url.port || (secure ? 443 : 80));
    const socket = await tunnel(proxy, url.hostname, port, req.signal);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => (headers[k] = v));
    if (body) headers['content-length'] = String(body.length);
    const send = secure ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const out = send({
        method: req.method, host: url.hostname, port, path: `${url.pathname}${url.search}`, headers, signal: req.signal,
        createConnection: () => (secure ? tlsConnect({ socket, servername: url.hostname }) : socket),
      }, (res) => {
        const resHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) resHeaders.append(k, one);
        const empty = res.statusCode === 204 || res.statusCode === 304 || req.method === 'HEAD';
        if (empty) res.resume();
        res.once('end', () => socket.destroy());
        resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream), { status: res.statusCode ?? 502, statusText: res.statusMessage ?? '', headers: resHeaders }));
      });
      out.once('error', (err) => {
        socket.destroy();
        reject(err);
      });
      out.end(body);
    });
  };
}

/** The proxy the environment names for a URL's scheme, if any (HTTPS_PROXY or HTTP_PROXY, either case). */
export function proxyFor(url: string, env: NodeJS.ProcessEnv): string | undefined {
  const names = new URL(url).protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy'] : ['HTTP_PROXY', 'http_proxy'];
  return names.map((n) => env[n]).find((v) => v);
}
