import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeVersion, sourceHash } from '../../src/runner/code-version';

/**
 * Companies and scenarios are cached by code version. The tests (ts-jest, running src/) and the CLI
 * (dist/) must name the same code the same way, or `npm test` evicts what `npm start` built.
 */
const root = join(__dirname, '..', '..');

describe('the code version', () => {
  it('is the same from src/ under the tests and from dist/ under the CLI', () => {
    const fromDist = execFileSync(process.execPath, ['-e', "process.stdout.write(require('./dist/src/runner/code-version').codeVersion())"], { cwd: root, encoding: 'utf8' });
    expect(fromDist).toBe(codeVersion());
  });

  it('is the hash of the TypeScript sources that dist/ was built from', () => {
    const stamp = JSON.parse(readFileSync(join(root, 'dist', 'source-hash.json'), 'utf8')) as { source_hash: string };
    expect(stamp.source_hash).toBe(sourceHash(join(root, 'src')));
    expect(codeVersion()).toMatch(new RegExp(`\\+${stamp.source_hash}$`));
  });
});
