import { mkdtempSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDestination, destinationOf, startEgressProxy } from '../../src/runner/sandbox/egress-proxy';
import { DEFAULT_LIMITS, limitsFrom } from '../../src/runner/sandbox/limits';

/** Sends `request` to the proxy's socket and resolves with everything it answered before closing. */
function ask(socket: string, request: string): Promise<string> {
  return new Promise((resolve) => {
    const c = connect(socket);
    let answer = '';
    c.on('data', (d) => {
      answer += d.toString();
      if (answer.includes('echo:')) c.end();
    });
    c.on('close', () => resolve(answer));
    c.on('error', () => resolve(answer));
    c.write(request);
  });
}

describe('the egress proxy of a turn', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-egress-'));
  const servers: Server[] = [];
  let allowed: number;
  let other: number;
  let proxy: Server;

  beforeAll(async () => {
    const listen = () => new Promise<number>((resolve) => {
      const s = createServer((c) => c.once('data', (d) => c.end(`echo:${d.toString().split('\r\n')[0]}`)));
      servers.push(s);
      s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port));
    });
    allowed = await listen();
    other = await listen();
    proxy = await startEgressProxy(join(dir, 'egress.sock'), [`127.0.0.1:${allowed}`], { destinations: ['127.0.0.1:41870'], socket: '/nonexistent' });
  });

  afterAll(() => {
    proxy.close();
    for (const s of servers) s.close();
  });

  it('tunnels to the endpoint it was given', async () => {
    const answer = await ask(join(dir, 'egress.sock'), `CONNECT 127.0.0.1:${allowed} HTTP/1.1\r\nHost: x\r\n\r\nhello\r\n`);
    expect(answer).toBe('HTTP/1.1 200 Connection Established\r\n\r\necho:hello');
  });

  it('forwards a plain http:// request to it in origin form', async () => {
    expect(await ask(join(dir, 'egress.sock'), `POST http://127.0.0.1:${allowed}/v1/chat HTTP/1.1\r\nHost: x\r\n\r\n`)).toBe('echo:POST /v1/chat HTTP/1.1');
  });

  it('refuses any other destination of the host, by tunnel or by URL', async () => {
    expect(await ask(join(dir, 'egress.sock'), `CONNECT 127.0.0.1:${other} HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1.1 403 Forbidden[\s\S]*127.0.0.1:\d+ is not an endpoint this turn was given/);
    expect(await ask(join(dir, 'egress.sock'), `GET http://127.0.0.1:${other}/ HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1.1 403 Forbidden/);
    expect(await ask(join(dir, 'egress.sock'), 'GET / HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1.1 400 Bad Request/);
  });

  it('takes destinations as operators and endpoints write them', () => {
    expect(destinationOf('https://api.example.com/v1')).toBe('api.example.com:443');
    expect(destinationOf('http://127.0.0.1:8080/v1')).toBe('127.0.0.1:8080');
    expect(checkDestination('api.example.com:443')).toBe('api.example.com:443');
    expect(() => checkDestination('api.example.com')).toThrow('--net-allow api.example.com: write HOST:PORT');
  });
});

describe('a turn\'s limits', () => {
  it('are the defaults, each overridden by --limit KEY=VALUE with byte suffixes', () => {
    expect(limitsFrom(['memory=512M', 'workspace=1G', 'processes=64', 'cpu=30', 'output=64k'])).toEqual({
      memory_bytes: 512 * 2 ** 20, workspace_bytes: 2 ** 30, processes: 64, cpu_seconds: 30, output_bytes: 64 * 1024,
    });
    expect(limitsFrom([])).toEqual(DEFAULT_LIMITS);
  });

  it('refuse an unknown key or a value that is not a positive amount', () => {
    expect(() => limitsFrom(['disk=1G'])).toThrow('--limit disk=1G: write KEY=VALUE with KEY one of workspace, output, processes, memory, cpu.');
    expect(() => limitsFrom(['memory=lots'])).toThrow('a positive byte count such as 256M');
    expect(() => limitsFrom(['processes=0'])).toThrow('a positive whole number');
  });
});
