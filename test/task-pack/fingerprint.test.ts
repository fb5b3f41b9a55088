import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importedFromOutside } from '../../src/task-pack/fingerprint';

/** tasks/<pack>/index.ts importing shared code beside it, a type from elsewhere, and a module of its own. */
function layout() {
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-fp-'));
  const write = (file: string, text: string) => {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write('tasks/pack/index.ts', "import type { X } from '../../src/x';\nimport { local } from './local';\nimport { shared } from '../shared/common';\nexport default { local, shared };\n");
  write('tasks/pack/local.ts', 'export const local = 1;\n');
  write('tasks/shared/common.ts', "export { more } from './more';\nexport const shared = 2;\n");
  write('tasks/shared/more.ts', 'export const more = 3;\n');
  write('tasks/shared/unused.ts', 'export const unused = 4;\n');
  write('src/x.ts', 'export type X = number;\n');
  return root;
}

describe('a pack that imports code shared with other packs', () => {
  it('counts the shared modules it imports, transitively, and not type-only imports or files it never imports', () => {
    const root = layout();
    expect(importedFromOutside(join(root, 'tasks', 'pack'))).toEqual([join(root, 'tasks', 'shared', 'common.ts'), join(root, 'tasks', 'shared', 'more.ts')]);
  });
});
