import { basename } from 'node:path';
import { runtimeModules } from '../../src/runner/sample';
import { sampleReadme } from '../../src/runner/sample-files';

describe('the runtime modules the public sample brings', () => {
  const names = runtimeModules().map((dir) => dir.split('/node_modules/').pop()!);

  it('are the production dependencies, transitively: SQLite with the loader of its compiled addon, the server, the CLI', () => {
    expect(names).toEqual(expect.arrayContaining(['better-sqlite3', 'bindings', 'file-uri-to-path', 'express', '@oclif/core', 'ajv', 'seedrandom', 'yaml']));
  });

  it('leave out development tools and the installer SQLite needs only to build its addon', () => {
    for (const dev of ['typescript', 'jest', 'ts-jest', 'oclif', 'prebuild-install', 'fast-check']) expect(names).not.toContain(dev);
    expect(new Set(names.map((n) => basename(n))).size).toBeGreaterThan(50);
  });
});

describe('the sample README', () => {
  it('says how to run it, how to plug in an agent, and that it is not a held-out set', () => {
    const text = sampleReadme([{ family: 'duplicate', task: 'ap-duplicate', title: 'A title' }]);
    expect(text).toContain('node run.js --agent');
    expect(text).toContain('| duplicate | `ap-duplicate` | A title |');
    expect(text).toMatch(/not a held-out set/);
  });
});
