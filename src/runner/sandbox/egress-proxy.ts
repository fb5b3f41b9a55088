import { connect, createServer, type Server, type Socket } from 'node:net';

/** A `host:port` a turn may reach through the proxy: its model endpoint, say. */
export type Destination = string;

/** The destination of an endpoint URL, with the scheme's port when it names none. */
export function destinationOf(url: string): Destination {
  const u = new URL(url);
  const port = u.port || (u.protocol === 'https:' ? '443' : u.protocol === 'http:' ? '80' : '');
  if (!port) throw new Error(`${url}: an endpoint is http:// or https://.`);
  return `${u.hostname.replace(/^\[|\]$/g, '')}:${port}`;
}

const HEAD_LIMIT = 8192;

function refuse(client: Socket, status: string, sentence: string): void {
  client.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(sentence) + 1}\r\n\r\n${sentence}\n`);
}

/**
 * The host's side of a turn's way out: an HTTP proxy on a unix socket (bound into the sandbox and
 * forwarded to a loopback port there) that only tunnels (CONNECT) to the allowed destinations, so
 * TLS goes end to end and nothing else on the host or the network is reachable from the turn.
 */
export function startEgressProxy(socketPath: string, allowed: readonly Destination[]): Promise<Server> {
  const allow = new Set(allowed.map((d) => d.toLowerCase()));
  const server = createServer({ allowHalfOpen: true }, (client) => {
    let head = Buffer.alloc(0);
    client.on('error', () => undefined);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > HEAD_LIMIT) refuse(client, '431 Request Header Fields Too Large', 'The request head is too long.');
        return;
      }
      client.off('data', onData);
      const [method, target] = head.subarray(0, head.indexOf('\r\n')).toString('latin1').split(' ');
      if (method !== 'CONNECT' || !target) return refuse(client, '405 Method Not Allowed', 'This proxy only tunnels (CONNECT) to the endpoints the turn was given.');
      if (!allow.has(target.toLowerCase())) return refuse(client, '403 Forbidden', `${target} is not an endpoint this turn was given (${[...allow].join(', ') || 'none'}).`);
      const colon = target.lastIndexOf(':');
      const upstream = connect({ port: Number(target.slice(colon + 1)), host: target.slice(0, colon).replace(/^\[|\]$/g, ''), allowHalfOpen: true });
      let open = false;
      upstream.once('connect', () => {
        open = true;
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = head.subarray(end + 4);
        if (rest.length > 0) upstream.write(rest);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', (err) => (!open ? refuse(client, '502 Bad Gateway', `${target}: ${err.message}`) : client.destroy()));
      client.on('close', () => upstream.destroy());
    };
    client.on('data', onData);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}
