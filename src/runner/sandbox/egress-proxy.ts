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

/** A destination as an operator writes it (`--net-allow api.example.com:443`), or a sentence saying what is wrong. */
export function checkDestination(text: string): Destination {
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(text) || Number(text.slice(text.lastIndexOf(':') + 1)) > 65535) {
    throw new Error(`--net-allow ${text}: write HOST:PORT, such as api.openai.com:443.`);
  }
  return text.replace(/^\[|\](?=:)/g, '');
}

const HEAD_LIMIT = 8192;

function refuse(client: Socket, status: string, sentence: string): void {
  client.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(sentence) + 1}\r\n\r\n${sentence}\n`);
}

const bare = (destination: string) => destination.toLowerCase().replace(/^\[|\](?=:)/g, '');

/** Where a request names its destination: a CONNECT's authority, or the host and port of an absolute http:// URI. */
function destinationOfRequest(method: string, target: string): { destination: string; originForm?: string } | undefined {
  if (method === 'CONNECT') return { destination: bare(target) };
  const m = /^http:\/\/([^/?#]+)(.*)$/i.exec(target);
  if (!m) return undefined;
  const authority = m[1]!.includes('@') ? m[1]!.slice(m[1]!.lastIndexOf('@') + 1) : m[1]!;
  return { destination: bare(/:\d+$/.test(authority) ? authority : `${authority}:80`), originForm: m[2] || '/' };
}

/**
 * The host's side of a turn's way out: an HTTP proxy on a unix socket (bound into the sandbox and
 * forwarded to a loopback port there) that reaches only the allowed destinations: it tunnels
 * (CONNECT), so TLS goes end to end, and forwards plain http:// requests, which is how clients
 * send them to a proxy. The connection goes to the allowed destination and nowhere else, whatever
 * later requests on it name. `local` maps the sandbox's own loopback names of the agent port
 * (which a client that proxies loopback too sends here) to the agent's socket.
 */
export function startEgressProxy(socketPath: string, allowed: readonly Destination[], local: { destinations: string[]; socket: string }): Promise<Server> {
  const allow = new Set(allowed.map(bare));
  const locals = new Set(local.destinations.map(bare));
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
      // Held until the upstream is open: what the client sends meanwhile (a request body) waits for the pipe.
      client.pause();
      const lineEnd = head.indexOf('\r\n');
      const [method = '', target = '', version = 'HTTP/1.1'] = head.subarray(0, lineEnd).toString('latin1').split(' ');
      const asked = destinationOfRequest(method, target);
      if (!asked) return refuse(client, '400 Bad Request', 'Send CONNECT host:port, or a request for an absolute http:// URL.');
      const isLocal = locals.has(asked.destination);
      if (!isLocal && !allow.has(asked.destination)) return refuse(client, '403 Forbidden', `${asked.destination} is not an endpoint this turn was given (${[...allow].join(', ') || 'none'}).`);
      const colon = asked.destination.lastIndexOf(':');
      const upstream = isLocal
        ? connect({ path: local.socket, allowHalfOpen: true })
        : connect({ port: Number(asked.destination.slice(colon + 1)), host: asked.destination.slice(0, colon), allowHalfOpen: true });
      let open = false;
      upstream.once('connect', () => {
        open = true;
        if (method === 'CONNECT') {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          const rest = head.subarray(end + 4);
          if (rest.length > 0) upstream.write(rest);
        } else {
          upstream.write(Buffer.concat([Buffer.from(`${method} ${asked.originForm} ${version}`, 'latin1'), head.subarray(lineEnd)]));
        }
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', (err) => (!open ? refuse(client, '502 Bad Gateway', `${asked.destination}: ${err.message}`) : client.destroy()));
      client.on('close', () => upstream.destroy());
    };
    client.on('data', onData);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}
