import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../src/api/server';
import { ErpClient } from '../src/client/http-client';
import { packageRoot } from '../src/package-info';
import { seedSmallOrg } from '../src/sim/small-company';
import { ANCHOR_FIGURES_ISSUE_25 } from './anchor';
import { percentile, printFigures, timeAsync, wantsJson, type Figure } from './figures';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CLI_CALLS = Number(process.env.BENCH_CLI_CALLS ?? 40);
/** [sandbox]'s single-file agent client, when it is built. */
const CLIENT_BUNDLE = join(packageRoot(), 'dist', 'erp-client.cjs');
const execFileP = promisify(execFile);

/**
 * The floor of any command that asks the server one thing: node starting, one GET /whoami with the
 * agent's token on a bare socket, its body written to stdout, exit. Nothing of the package is loaded.
 */
const ONE_REQUEST_SCRIPT = [
  "const u = new URL(process.env.ERP_URL);",
  "const s = require('net').connect(Number(u.port), u.hostname, () => s.end('GET /whoami HTTP/1.1\\r\\nhost: ' + u.host + '\\r\\nauthorization: Bearer ' + process.env.ERP_TOKEN + '\\r\\nconnection: close\\r\\n\\r\\n'));",
  "const c = [];",
  "s.on('data', (d) => c.push(d));",
  "s.on('end', () => { const r = Buffer.concat(c); if (!/^HTTP\\/1\\.1 200 /.test(r.toString('latin1', 0, 16))) process.exitCode = 1; require('fs').writeSync(1, r.subarray(r.indexOf('\\r\\n\\r\\n') + 4)); });",
].join('\n');

async function latencies(n: number, send: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    const res = await send(i);
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (res.status >= 400) throw new Error(`request ${i} failed with ${res.status}`);
  }
  return out.sort((a, b) => a - b);
}

function pair(name: string, sorted: number[], note?: string): Figure[] {
  return [
    { name: `${name}.p50`, value: percentile(sorted, 0.5), unit: 'ms', note },
    { name: `${name}.p99`, value: percentile(sorted, 0.99), unit: 'ms' },
  ];
}

/** A bare node:http server answering a JSON body of the same size: the floor for the transport. */
async function bareBaseline(bodyText: string): Promise<Figure[]> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(bodyText);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keep = new ErpClient({ baseUrl: url, keepAlive: true });
  const fresh = new ErpClient({ baseUrl: url, keepAlive: false });
  const figures = [...pair('api.bare_node_http.keepalive', await latencies(REQUESTS, () => keep.get('/'))), ...pair('api.bare_node_http.new_connection', await latencies(REQUESTS, () => fresh.get('/')))];
  keep.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  return figures;
}

export async function benchApi(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-bench-api-'));
  try {
    const server = await startServer({ dbFile: join(dir, 'erp.db'), controlToken: 'bench' });
    const tokens = seedSmallOrg(server.api);
    const keep = new ErpClient({ baseUrl: server.url, token: tokens.grace, keepAlive: true });
    const fresh = new ErpClient({ baseUrl: server.url, token: tokens.grace, keepAlive: false });
    // Each POST schedules a new leave: a write with a new document id, no idempotency key.
    const leave = { user: 'sam.ortiz', start_date: '2027-01-04', end_date: '2027-01-08', delegate: 'maya.chen' };
    const post = (c: ErpClient) => () => c.post('/leaves', leave);
    const whoamiText = (await keep.get('/whoami')).text;
    const figures: Figure[] = [
      { name: 'api.requests_per_series', value: REQUESTS, unit: 'requests' },
      ...pair('api.get_whoami.keepalive', await latencies(REQUESTS, () => keep.get('/whoami'))),
      ...pair('api.get_whoami.new_connection', await latencies(REQUESTS, () => fresh.get('/whoami'))),
      ...pair('api.post_leave.keepalive', await latencies(REQUESTS, post(keep)), 'a write: validation, decider, event + read models in one transaction'),
      ...pair('api.post_leave.new_connection', await latencies(REQUESTS, post(fresh))),
    ];
    keep.close();
    const bare = await bareBaseline(whoamiText);
    figures.push(...bare);
    const p50 = (name: string) => figures.find((f) => f.name === name)!.value;
    figures.push({ name: 'api.get_whoami_vs_bare.keepalive', value: p50('api.get_whoami.keepalive.p50') / p50('api.bare_node_http.keepalive.p50'), unit: 'x', note: 'p50 over bare node:http p50' });
    const anchor = ANCHOR_FIGURES_ISSUE_25;
    figures.find((f) => f.name === 'api.get_whoami.keepalive.p50')!.target = { value: anchor.getP50KeepAliveMs / 2, from: `0.5x the anchor in issue 25 (${anchor.getP50KeepAliveMs})` };
    figures.find((f) => f.name === 'api.get_whoami.new_connection.p50')!.target = { value: anchor.getP50NewConnectionMs / 2, from: `0.5x the anchor in issue 25 (${anchor.getP50NewConnectionMs})` };

    const env = { ...process.env, ERP_URL: server.url, ERP_TOKEN: tokens.maya };
    // The floor and the commands take turns call by call, so that a busy moment of the machine
    // lands on all of them rather than on whichever series ran then.
    const commands: Record<string, string[]> = { node: ['-e', '0'], oneRequest: ['-e', ONE_REQUEST_SCRIPT], cli: [join(packageRoot(), 'bin', 'run.js'), 'whoami'] };
    if (existsSync(CLIENT_BUNDLE)) commands.client = [CLIENT_BUNDLE, 'whoami'];
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
    for (let i = 0; i < CLI_CALLS; i++) {
      for (const [k, args] of Object.entries(commands)) times[k]!.push((await timeAsync(() => execFileP(process.execPath, args, { env }))).seconds * 1000);
    }
    const p50Of = (k: string) => percentile(times[k]!.sort((a, b) => a - b), 0.5);
    const nodeBare = p50Of('node');
    const cliTarget = { value: 1.1 * nodeBare, from: '1.1x node -e 0' };
    figures.push({ name: 'cli.node_startup.p50', value: nodeBare, unit: 'ms', note: `node -e 0, the floor; ${CLI_CALLS} calls of each command, interleaved` });
    const oneRequest = p50Of('oneRequest');
    figures.push({ name: 'cli.node_one_request.p50', value: oneRequest, unit: 'ms', note: 'node, one GET /whoami on a bare socket, exit: the floor of any command that asks the server' });
    figures.push({ name: 'cli.erp_whoami.p50', value: p50Of('cli'), unit: 'ms', note: 'bin/run.js', ...(commands.client ? {} : { target: cliTarget }) });
    if (commands.client) {
      const client = p50Of('client');
      figures.push({ name: 'cli.erp_client_whoami.p50', value: client, unit: 'ms', note: 'dist/erp-client.cjs, the agent\'s client', target: cliTarget });
      figures.push({ name: 'cli.erp_client_vs_one_request', value: client / oneRequest, unit: 'x', note: 'the client\'s p50 over cli.node_one_request.p50' });
    }
    await server.close();
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchApi().then((f) => printFigures(`HTTP API and CLI (${REQUESTS} requests per series)`, f, wantsJson()), (err) => {
    process.stderr.write(String(err?.stack ?? err) + '\n');
    process.exitCode = 1;
  });
}
