import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The README's ways of putting erp on PATH: the checkout's bin/ itself, or a link to bin/erp elsewhere. */
const bin = join(__dirname, '..', '..', 'bin');

function erpOnPath(pathDir: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'bb-erp-path-'));
  return spawnSync('erp', ['whoami'], { cwd, encoding: 'utf8', env: { PATH: `${pathDir}:${process.env.PATH}`, ERP_URL: '' }, timeout: 30_000 });
}

describe('erp on PATH', () => {
  it('given bin/ on PATH, when erp runs from another folder, then it is the agent client', () => {
    const r = erpOnPath(bin);
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ code: 'usage', detail: expect.stringMatching(/^ERP_URL is not set/) });
  });

  it('given a link to bin/erp in another folder on PATH, then it runs the checkout\'s erp', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bb-erp-link-'));
    symlinkSync(join(bin, 'erp'), join(dir, 'erp'));
    const r = erpOnPath(dir);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).code).toBe('usage');
  });
});
