import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClientBundle, clientBundlePath, foreignInputs } from '../../src/runner/client-bundle';

describe('the agent client bundle', () => {
  it('holds the client alone: none of the ERP, the tasks or the grader', async () => {
    const { metafile } = await buildClientBundle({ write: false });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs).toEqual(expect.arrayContaining(['src/client/main.ts', 'src/client/fast-path.ts', 'src/client/http-client.ts', 'src/client/docs.ts']));
    expect(foreignInputs(metafile)).toEqual([]);
    expect(inputs.filter((f) => /src\/(api|domain|events|grader|projections|runner|sim|task-pack)\/|tasks\/|node_modules/.test(f))).toEqual([]);
  });

  it('is built to dist/erp-client.cjs and runs with node alone, from any folder', () => {
    expect(existsSync(clientBundlePath())).toBe(true);
    const cwd = mkdtempSync(join(tmpdir(), 'bb-erp-bundle-'));
    const help = spawnSync(process.execPath, [clientBundlePath(), '--help'], { cwd, encoding: 'utf8', env: {} });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^erp: the bb-erp agent client/);
    const down = spawnSync(process.execPath, [clientBundlePath(), 'whoami'], { cwd, encoding: 'utf8', env: { ERP_URL: 'http://127.0.0.1:9' } });
    expect(down.status).toBe(2);
    expect(JSON.parse(down.stdout)).toMatchObject({ code: 'connection_failed' });
    const wrong = spawnSync(process.execPath, [clientBundlePath(), 'server', 'start'], { cwd, encoding: 'utf8', env: {} });
    expect(wrong.status).toBe(2);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ code: 'usage' });
  });
});
