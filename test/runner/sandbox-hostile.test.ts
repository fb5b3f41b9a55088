import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AttemptResult } from '../../src/grader/result';
import { runAttempt } from '../../src/runner/attempt';
import { limitsFrom } from '../../src/runner/sandbox/limits';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import { loadPack, type TaskPack } from '../../src/task-pack/load';
import { FIXTURE_TASKS } from '../support/packs';

/**
 * Hostile command agents run through the runner in the sandbox, each trying one of the ways out
 * the issue found: a setuid file left for the host, requests to every loopback listener it can
 * find (another attempt's agent and control ports, a listener of the host), and a turn that
 * writes, forks, allocates, prints or computes without end.
 */
const root = mkdtempSync(join(tmpdir(), 'bb-erp-hostile-'));
const scenarioDir = join(root, 'scenario');
let scenario: Scenario;
let pack: TaskPack;

/** Turn 1 runs `first`, turn 2 `second`: the workspace's `turn` file says which turn this is. */
const twoTurns = (first: string, second: string) => `#!/bin/sh
if [ ! -f turn ]; then echo 1 > turn
${first}
else
${second}
fi
`;

async function attempt(name: string, script: string, options: { limits?: string[]; timeoutSeconds?: number } = {}): Promise<{ dir: string; result: AttemptResult }> {
  const file = join(root, `${name}.sh`);
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  const dir = join(root, name);
  const limits = { limits: limitsFrom(options.limits ?? []) };
  const out = await runAttempt({
    pack, packHash: scenario.manifest.pack_hash, scenarioDir, seed: 0, agent: { kind: 'command', command: file }, identity: { agent_name: name, model: null, interface: 'cli' },
    attemptDir: dir, label: name, rep: 1, timeoutSeconds: options.timeoutSeconds ?? 20, agentFiles: [file], ...limits,
  });
  return { dir, result: out.result! };
}

const exitOf = (dir: string, turn: number) => JSON.parse(readFileSync(join(dir, 'turns', String(turn), 'exit.json'), 'utf8'));
const ws = (dir: string, file: string) => readFileSync(join(dir, 'workspace', file), 'utf8');

beforeAll(async () => {
  pack = loadPack('leave-cover', FIXTURE_TASKS);
  scenario = await generateScenario(pack, { seed: 0, out: scenarioDir });
}, 60_000);

describe('two attempts side by side, each agent scanning for loopback listeners', () => {
  /** Every listening TCP port the agent can see, tried for 3 s with a control request; what answered is written to reached.txt. */
  const SCANNER = twoTurns(`
cp /bin/sh suid-sh && chmod 4755 suid-sh
mkfifo pipe
stat -c '%u %a' suid-sh > suid-inside.txt
/opt/erp/node -e '
const fs = require("fs"), net = require("net");
const own = Number(new URL(process.env.ERP_URL).port);
const listening = () => ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((f) => { try { return fs.readFileSync(f, "utf8").trim().split("\\n").slice(1); } catch { return []; } })
  .map((l) => l.trim().split(/\\s+/)).filter((c) => c[3] === "0A").map((c) => parseInt(c[1].split(":")[1], 16));
const reached = new Set();
const tryPort = (port) => new Promise((done) => {
  const s = net.connect(port, "127.0.0.1", () => { reached.add(port); s.end("POST /control/advance HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 2\\r\\n\\r\\n{}"); });
  s.on("error", () => done()); s.on("close", () => done()); setTimeout(() => { s.destroy(); done(); }, 300);
});
(async () => {
  const until = Date.now() + 3000;
  while (Date.now() < until) {
    const ports = new Set([...listening(), Number(process.env.BENCH_HOST_PORT)]);
    ports.delete(own);
    for (const p of ports) await tryPort(p);
    await new Promise((r) => setTimeout(r, 100));
  }
  fs.writeFileSync("reached.txt", [...reached].sort().join("\\n"));
})();
'
erp whoami > whoami.json`, 'true');

  let host: Server;
  const hostConnections: string[] = [];
  let pair: { dir: string; result: AttemptResult }[];

  beforeAll(async () => {
    host = createServer((c) => {
      hostConnections.push(String(c.remotePort));
      c.destroy();
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', () => r()));
    process.env.BENCH_HOST_PORT = String((host.address() as { port: number }).port);
    try {
      pair = await Promise.all([attempt('left', SCANNER), attempt('right', SCANNER)]);
    } finally {
      delete process.env.BENCH_HOST_PORT;
      host.close();
    }
  }, 90_000);

  it('reach nothing but their own agent port: no other attempt, no control port, no host listener', () => {
    for (const { dir } of pair) {
      expect(ws(dir, 'reached.txt')).toBe('');
      expect(JSON.parse(ws(dir, 'whoami.json')).user.id).toBe('olga.park');
    }
    expect(hostConnections).toEqual([]);
  });

  it('leave no request on either attempt\'s control port, so neither is charged with the other\'s probes', () => {
    for (const { dir } of pair) {
      const db = new Database(join(dir, 'final.db'), { readonly: true });
      try {
        expect(db.prepare("SELECT count(*) AS n FROM events WHERE action = 'control'").get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    }
  });

  it('leave a setuid file that is not setuid on the host, and no fifo; the turn record says what was swept', () => {
    for (const { dir } of pair) {
      // Inside, the file was the sandbox user's, setuid.
      expect(ws(dir, 'suid-inside.txt')).toBe('1000 4755\n');
      const mode = statSync(join(dir, 'workspace', 'suid-sh')).mode;
      expect(mode & 0o6000).toBe(0);
      expect(existsSync(join(dir, 'workspace', 'pipe'))).toBe(false);
      expect(exitOf(dir, 1).swept).toEqual({ privileged: ['workspace/suid-sh'], removed: ['workspace/pipe'] });
    }
  });
});

describe('a turn that reaches a limit', () => {
  it('ends at the process limit when it forks 1,000 times, at the workspace limit when it writes 1 GB in files below the per-file limit, and the attempt is graded', async () => {
    const { dir, result } = await attempt('disk', twoTurns('i=0; while [ $i -lt 1000 ]; do sleep 5 & i=$((i+1)); done; wait', 'i=0; while [ $i -lt 64 ]; do head -c 16777216 /dev/zero > f$i; i=$((i+1)); done'), { limits: ['workspace=48M', 'processes=64'] });
    expect(exitOf(dir, 1)).toMatchObject({ limit: 'processes', limit_detail: 'The turn tried to run more than 64 processes at once.' });
    expect(exitOf(dir, 2)).toMatchObject({ limit: 'workspace', limit_detail: 'The workspace and HOME reached 48 MiB on disk.' });
    const written = readdirSync(join(dir, 'workspace')).filter((f) => /^f\d+$/.test(f)).length;
    expect(written).toBeLessThan(64);
    expect(result.status).toBe('graded');
    expect(result.checks.length).toBeGreaterThan(0);
  }, 60_000);

  it('ends at the memory limit when it allocates 4 GB, and at the output limit when it prints without end', async () => {
    const { dir, result } = await attempt('memory', twoTurns(
      `/opt/erp/node -e 'const a = []; for (let i = 0; i < 64; i++) a.push(Buffer.alloc(64 << 20, 1)); console.log("allocated 4 GB")'`,
      'yes bb-erp | head -c 104857600',
    ), { limits: ['memory=192M', 'output=1M'] });
    expect(exitOf(dir, 1)).toMatchObject({ limit: 'memory' });
    expect(readFileSync(join(dir, 'turns', '1', 'stdout.txt'), 'utf8')).not.toContain('allocated 4 GB');
    const second = exitOf(dir, 2);
    expect(second).toMatchObject({ limit: 'stdout', output: { stdout: { kept: 1024 * 1024 } } });
    expect(second.output.stdout.dropped).toBeGreaterThan(0);
    expect(statSync(join(dir, 'turns', '2', 'stdout.txt')).size).toBe(1024 * 1024);
    expect(result.status).toBe('graded');
  }, 60_000);

  it('ends at the CPU limit when it computes without end, long before its budget', async () => {
    const { dir } = await attempt('cpu', twoTurns('while :; do :; done', 'true'), { limits: ['cpu=1'], timeoutSeconds: 30 });
    expect(exitOf(dir, 1)).toMatchObject({ limit: 'cpu', timed_out: false });
    expect(exitOf(dir, 1).duration_s).toBeLessThan(15);
  }, 60_000);

  it('leaves no cgroup of its own behind', () => {
    const cgroups = ['/sys/fs/cgroup/memory', '/sys/fs/cgroup/pids', '/sys/fs/cgroup/unified'].filter(existsSync);
    const left = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) => (d.name.startsWith(`bb-erp-turn-${process.pid}-`) ? [join(dir, d.name)] : left(join(dir, d.name))));
    expect(cgroups.flatMap(left)).toEqual([]);
  });
});
