import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAgentFiles, conditionWithIsolation } from '../../src/runner/agent-launch';
import { agentEnv, checkPassEnv } from '../../src/runner/launcher';
import { packageRoot } from '../../src/package-info';

describe('the agent\'s environment', () => {
  const runner = { PATH: '/usr/bin', HOME: '/root', LANG: 'C.UTF-8', TERM: 'xterm', ERP_CONTROL_TOKEN: 'c', ERP_URL: 'http://runner', AWS_SECRET_ACCESS_KEY: 'k', BENCH_MODEL: 'm', OPENAI_API_KEY: 'sk' };

  it('is an allow-list: LANG, TERM, BENCH_*, the declared variables and the agent\'s own ERP_URL and ERP_TOKEN', () => {
    expect(agentEnv({ url: 'http://127.0.0.1:1', token: 'erp_x' }, ['OPENAI_API_KEY'], runner)).toEqual({
      LANG: 'C.UTF-8', TERM: 'xterm', BENCH_MODEL: 'm', OPENAI_API_KEY: 'sk', ERP_URL: 'http://127.0.0.1:1', ERP_TOKEN: 'erp_x',
    });
  });

  it('refuses to pass what the runner sets itself', () => {
    expect(() => checkPassEnv(['ERP_CONTROL_TOKEN'])).toThrow('--pass-env ERP_CONTROL_TOKEN: the runner sets the ERP_ variables itself.');
    expect(() => checkPassEnv(['HOME'])).toThrow('--pass-env HOME: the runner sets HOME itself.');
    expect(() => checkPassEnv(['A-B'])).toThrow('not an environment variable name');
  });
});

describe('harness files let into the sandbox', () => {
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-files-'));
  const scenarioDir = join(root, 'scenario');
  const attemptDir = join(root, 'attempt');
  mkdirSync(scenarioDir);
  mkdirSync(attemptDir);
  writeFileSync(join(root, 'harness.py'), '');
  writeFileSync(join(scenarioDir, 'truth.json'), '{}');

  it('are taken at their real paths', () => {
    expect(checkAgentFiles([join(root, 'harness.py')], { scenarioDir, attemptDir })).toEqual([join(root, 'harness.py')]);
  });

  it('may not show the checkout, the scenario or the attempt', () => {
    expect(() => checkAgentFiles([root], { scenarioDir, attemptDir })).toThrow(`it would show ${scenarioDir} to the agent`);
    expect(() => checkAgentFiles(['/'], { scenarioDir, attemptDir })).toThrow(`it would show ${packageRoot()} to the agent`);
    expect(() => checkAgentFiles([join(scenarioDir, 'truth.json')], { scenarioDir, attemptDir })).toThrow(`lies inside ${scenarioDir}`);
    expect(() => checkAgentFiles([join(root, 'nope')], { scenarioDir, attemptDir })).toThrow('no such file or folder');
  });
});

describe('the condition of an attempt', () => {
  it('says unsandboxed when a cmd: agent ran without the sandbox, beside any fault condition', () => {
    expect(conditionWithIsolation('clean', true)).toBe('unsandboxed');
    expect(conditionWithIsolation('lost-writes', true)).toBe('lost-writes+unsandboxed');
    expect(conditionWithIsolation('clean', false)).toBe('clean');
  });
});
