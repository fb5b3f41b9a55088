import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveServer } from '../support/http';
import { FIXTURE_TASKS, packCopy } from '../support/packs';

/** The erp command as oclif users expect it: help, -h, suggestions, completion, --json everywhere, one-sentence errors. */
const bin = join(__dirname, '..', '..', 'bin', 'run.js');
const cwd = mkdtempSync(join(tmpdir(), 'bb-erp-conventions-'));

function erp(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(/(^|\s*\n)\s*›\s*/g, ' ').trim() };
}

/** For commands that talk to the in-process server: spawnSync would block the loop that answers them. */
async function erpAsync(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd, env: { ...process.env, ...env } });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('help', () => {
  it('erp help and erp -h list the agent commands, the operator topics and the plugins\' commands', () => {
    for (const args of [['help'], ['-h'], ['--help']]) {
      const out = erp(args);
      expect(out.code).toBe(0);
      expect(out.stdout).toMatch(/AGENT COMMANDS\n(.|\n)*  whoami (.|\n)*OPERATOR TOPICS\n(.|\n)*  bench (.|\n)*MORE COMMANDS\n(.|\n)*  autocomplete (.|\n)*  help /);
    }
  });

  it('erp help bench run and erp bench run -h show that command', () => {
    for (const args of [['help', 'bench', 'run'], ['bench', 'run', '-h']]) {
      const out = erp(args);
      expect(out.code).toBe(0);
      expect(out.stdout).toMatch(/^Run attempts at a task(.|\n)*USAGE\n  \$ erp bench run TASK/);
    }
  });

  it('of delete, patch and put describes that method, not POST', () => {
    for (const method of ['delete', 'patch', 'put']) {
      const out = erp(['help', method]);
      expect(out.stdout.split('\n')[0]).toMatch(new RegExp(`^${method.toUpperCase()} `));
      expect(out.stdout).not.toContain('POST a JSON body');
    }
  });
});

describe('a mistyped command', () => {
  it('suggests the nearest and exits 127', () => {
    const out = erp(['bench', 'rn']);
    expect(out.code).toBe(127);
    expect(out.stderr).toContain('bench rn is not a erp command. Did you mean bench run?');
    expect(out.stderr).toContain('Run erp help bench for a list of available commands.');
  });
});

describe('shell completion', () => {
  it('is set up by erp autocomplete', () => {
    const out = erp(['autocomplete', 'bash'], { XDG_CACHE_HOME: join(cwd, 'cache') });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('erp autocomplete script bash');
  });
});

describe('--json', () => {
  let live: Awaited<ReturnType<typeof liveServer>>;
  beforeAll(async () => { live = await liveServer(); });
  afterAll(async () => { await live.server.close(); });
  const agentEnv = () => ({ ERP_URL: live.server.url, ERP_TOKEN: live.tokens.maya });

  it('is accepted by the agent commands, on either path, and prints the same JSON', async () => {
    const plain = await erpAsync(['whoami'], agentEnv());
    for (const env of [agentEnv(), { ...agentEnv(), ERP_CLI_OCLIF_ONLY: '1' }]) {
      const out = await erpAsync(['whoami', '--json'], env);
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual(JSON.parse(plain.stdout));
    }
    expect(JSON.parse((await erpAsync(['get', '/users', 'department=PUR', '--json'], agentEnv())).stdout).total).toBe(2);
  });

  it('makes erp docs print data: every endpoint, or those a word names with their fields', async () => {
    const all = JSON.parse((await erpAsync(['docs', '--json'], agentEnv())).stdout);
    expect(all.endpoints).toContainEqual({ method: 'POST', path: '/leaves', summary: expect.any(String), permission: 'org.admin' });
    const leave = JSON.parse((await erpAsync(['docs', 'leave', '--json'], { ...agentEnv(), ERP_CLI_OCLIF_ONLY: '1' })).stdout);
    expect(leave.endpoints.find((e: { method: string; path: string }) => e.method === 'POST' && e.path === '/leaves').body.properties).toHaveProperty('delegate');
  });

  it('makes log show print one JSON document', () => {
    const db = join(live.dir, 'erp.db');
    live.server.api.erp.db.pragma('wal_checkpoint(TRUNCATE)');
    const out = erp(['log', 'show', db, '--limit', '2', '--json']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).events.map((e: { seq: number }) => e.seq)).toEqual([1, 2]);
  });
});

describe('an operator error', () => {
  it('names the database that is missing or is not one', () => {
    expect(erp(['log', 'hash', '/no/such.db'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Error: No database at /no/such.db.') });
    expect(erp(['log', 'verify', cwd])).toMatchObject({ code: 1, stderr: expect.stringContaining(`Error: ${cwd} is a folder, not a database file.`) });
  });

  it('says so when bench grade is given a folder that is not an attempt', () => {
    const out = erp(['bench', 'grade', cwd]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`${cwd} is not an attempt folder: it has no attempt.json`);
  });

  it('is one sentence without a stack, and the stack only under DEBUG', () => {
    const plain = erp(['log', 'show', '/no/such.db']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toBe('Error: No database at /no/such.db.');
    const debug = erp(['log', 'show', '/no/such.db'], { DEBUG: '1' });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/\n?\s+at openExistingDatabase /);
  });

  it('keeps --tasks-dir in the hint of handbook check', () => {
    const dir = packCopy({ policies: (p) => { p.clauses[0].text = 'Changed.'; } });
    const tasksDir = join(dir, '..');
    const out = erp(['handbook', 'check', 'leave-cover', '--tasks-dir', tasksDir]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(`run: erp handbook render leave-cover --tasks-dir ${tasksDir}`);
    expect(erp(['handbook', 'check', 'leave-cover', '--tasks-dir', FIXTURE_TASKS]).code).toBe(0);
  });
});
