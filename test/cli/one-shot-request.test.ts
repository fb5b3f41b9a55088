import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { ErpClient, RequestTimeout } from '../../src/client/http-client';
import { MalformedResponse, parseResponse } from '../../src/client/one-shot-request';

const raw = (s: string) => Buffer.from(s, 'latin1');

describe('reading a response off the socket', () => {
  it('given a Content-Length, then the body is that many bytes and headers are lower-cased', () => {
    const res = parseResponse(raw('HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 7\r\nX-A: 1\r\nX-A: 2\r\n\r\n{"a":1}'));
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-a']).toBe('1, 2');
    expect(res.body.toString()).toBe('{"a":1}');
  });

  it('given a chunked body, then the chunks are joined', () => {
    const res = parseResponse(raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n3;ext=1\r\n:1}\r\n0\r\n\r\n'));
    expect(res.body.toString()).toBe('{"a":1}');
  });

  it('given neither, then the body is the rest of the connection', () => {
    expect(parseResponse(raw('HTTP/1.0 200 OK\r\n\r\nhello')).body.toString()).toBe('hello');
  });

  it.each([
    ['nothing at all', '', 'socket hang up'],
    ['a cut in the headers', 'HTTP/1.1 200 OK\r\nContent-Le', 'inside its headers'],
    ['not HTTP', 'SSH-2.0-OpenSSH\r\n\r\n', 'not an HTTP/1.x status line'],
    ['a short body', 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc', 'after 3 of its 10 bytes'],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'not hexadecimal'],
    ['a cut chunk', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nabc', 'inside a chunk'],
  ])('given %s, then it is refused as malformed', (_what, text, message) => {
    expect(() => parseResponse(raw(text))).toThrow(MalformedResponse);
    expect(() => parseResponse(raw(text))).toThrow(message);
  });
});

describe('a one-shot client against a server', () => {
  let server: Server;
  let url: string;
  const seen: { method?: string; url?: string; headers?: Record<string, unknown>; body?: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        if (req.url === '/chunked') {
          res.write('{"part":');
          res.end('"two"}');
          return;
        }
        res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ echoed: body ? JSON.parse(body) : null, café: 'naïve' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('given a write, when sent, then the server gets method, path, query, token, key and UTF-8 body, and the reply parses', async () => {
    const client = new ErpClient({ baseUrl: url, token: 'tok', oneShot: true });
    const res = await client.request('POST', '/things', { body: { name: 'Zoë' }, query: { a: 'b c' }, idempotencyKey: 'k1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ echoed: { name: 'Zoë' }, café: 'naïve' });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', url: '/things?a=b+c', body: '{"name":"Zoë"}' });
    expect(last.headers).toMatchObject({ authorization: 'Bearer tok', 'idempotency-key': 'k1', connection: 'close', 'content-type': 'application/json' });
  });

  it('given a refusal or a chunked reply, then status and body come back as node:http gives them', async () => {
    const client = new ErpClient({ baseUrl: url, oneShot: true });
    expect((await client.get('/missing')).status).toBe(404);
    expect((await client.get('/chunked')).body).toEqual({ part: 'two' });
  });

  it('given nothing listening, then the connection error is the socket error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await expect(new ErpClient({ baseUrl: `http://127.0.0.1:${port}`, oneShot: true }).get('/x')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('given a server that never answers, then it times out with RequestTimeout', async () => {
    const held: Socket[] = [];
    const silent: TcpServer = createTcpServer({ allowHalfOpen: true }, (socket) => void held.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const client = new ErpClient({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, oneShot: true, timeoutMs: 150 });
      await expect(client.get('/x')).rejects.toBeInstanceOf(RequestTimeout);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});
