import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AttemptResult } from '../../src/grader/result';
import { runAttempt } from '../../src/runner/attempt';
import { generateScenario } from '../../src/runner/scenario';
import { loadPack } from '../../src/task-pack/load';
import { FIXTURE_TASKS } from '../support/packs';

/**
 * A shell agent: turn 1 records what it was given and calls erp; turn 2 reads the note turn 1
 * left, starts a straggler in the background and outstays its budget.
 */
const AGENT = `#!/bin/sh
if [ ! -f notes.txt ]; then
  echo "left by turn 1" > notes.txt
  printf 'arg=%s\\nhome=%s\\nurl=%s\\ntoken=%s\\nerp=%s\\ncontrol=%s\\n' "$1" "$HOME" "$ERP_URL" "\${ERP_TOKEN:+set}" "$(command -v erp)" "\${ERP_CONTROL_TOKEN:-absent}" > env-1.txt
  head -n 1 > stdin-1.txt
  touch "$HOME/marker"
  erp whoami > whoami.json
  erp post /leaves user=maya.chen start_date=2026-10-12 end_date=2026-10-16 delegate=grace.lin --key maya-oct > leave.json
  echo "turn 1 done"
else
  printf 'notes=%s\\nhome=%s\\nmarker=%s\\n' "$(cat notes.txt)" "$HOME" "$( [ -f "$HOME/marker" ] && echo kept || echo fresh)" > env-2.txt
  (sleep 60; touch late.txt) &
  echo $! > straggler.pid
  sleep 60
fi
`;

const root = mkdtempSync(join(tmpdir(), 'bb-erp-cmd-'));
const dir = join(root, 'attempt');
const ws = (f: string) => readFileSync(join(dir, 'workspace', f), 'utf8');
/** Whether a process still runs: gone, or a zombie waiting to be reaped, is not running. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
const kv = (text: string) => Object.fromEntries(text.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
let result: AttemptResult;

beforeAll(async () => {
  const pack = loadPack('leave-cover', FIXTURE_TASKS);
  const scenario = await generateScenario(pack, { seed: 0, out: join(root, 'scenario') });
  const script = join(root, 'agent.sh');
  writeFileSync(script, AGENT);
  chmodSync(script, 0o755);
  process.env.ERP_CONTROL_TOKEN = 'must-not-reach-the-agent';
  try {
    const out = await runAttempt({ pack, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: 0, agent: { kind: 'command', command: script }, attemptDir: dir, label: 'cmd', rep: 1, timeoutSeconds: 2 });
    result = out.result!;
  } finally {
    delete process.env.ERP_CONTROL_TOKEN;
  }
}, 30_000);

describe('a command agent\'s first turn', () => {
  it('runs in the workspace with ERP_URL, ERP_TOKEN and this package\'s erp first on PATH, and no ERP_ settings of the runner', () => {
    const env = kv(ws('env-1.txt'));
    expect(env.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.token).toBe('set');
    expect(env.erp).toBe(join(dir, 'bin', 'erp'));
    expect(env.control).toBe('absent');
    expect(env.home).toBe(join(dir, 'turns', '1', 'home'));
  });

  it('gets the prompt file as its argument and the prompt on stdin', () => {
    const env = kv(ws('env-1.txt'));
    expect(env.arg).toBe(join(dir, 'turns', '1', 'prompt.md'));
    expect(ws('stdin-1.txt')).toBe(readFileSync(env.arg!, 'utf8').split('\n')[0] + '\n');
  });

  it('acts as the agent user through erp, and its output is kept', () => {
    expect(JSON.parse(ws('whoami.json')).user.id).toBe('olga.park');
    expect(JSON.parse(ws('leave.json'))).toMatchObject({ id: 'LV-000002', business_date: '2026-10-06' });
    expect(readFileSync(join(dir, 'turns', '1', 'stdout.txt'), 'utf8')).toBe('turn 1 done\n');
    expect(JSON.parse(readFileSync(join(dir, 'turns', '1', 'exit.json'), 'utf8'))).toMatchObject({ index: 1, exit_code: 0, timed_out: false });
  });
});

describe('a command agent\'s second turn', () => {
  it('finds the workspace as the first turn left it, with a fresh HOME', () => {
    expect(kv(ws('env-2.txt'))).toEqual({ notes: 'left by turn 1', home: join(dir, 'turns', '2', 'home'), marker: 'fresh' });
  });

  it('is killed at its budget with everything it started', () => {
    const turn = JSON.parse(readFileSync(join(dir, 'turns', '2', 'exit.json'), 'utf8'));
    expect(turn).toMatchObject({ index: 2, timed_out: true, exit_code: null, signal: 'SIGTERM' });
    expect(turn.duration_s).toBeGreaterThanOrEqual(2);
    expect(turn.duration_s).toBeLessThan(10);
    expect(running(Number(ws('straggler.pid')))).toBe(false);
    expect(existsSync(join(dir, 'workspace', 'late.txt'))).toBe(false);
  });
});

describe('the graded attempt', () => {
  it('records the turns and counts the agent\'s write', () => {
    expect(result.agent).toMatch(/^cmd:/);
    expect(result.cell).toMatch(/^cmd-[0-9a-f]{8}$/);
    expect(result.turns.map((t) => t.timed_out)).toEqual([false, true]);
    expect(result.metrics.writes).toBe(1);
    expect(result.verdict).toBe('fail');
  });
});
