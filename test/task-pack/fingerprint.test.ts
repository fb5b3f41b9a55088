import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { importedFromOutside, packFolders, packHash } from '../../src/task-pack/fingerprint';
import { loadPack } from '../../src/task-pack/load';
import { packCopy } from '../support/packs';

describe('the fingerprint of a pack', () => {
  function tasksFolder(): { base: string; variant: string } {
    const base = packCopy({}, 'leave-cover');
    const variant = packCopy({ task: (t) => { t.id = 'leave-cover-again'; t.variant_of = 'leave-cover'; } }, 'leave-cover-again', dirname(base));
    return { base, variant };
  }
  const hashOf = (dir: string) => packHash(loadPack(dir));

  it('covers the pack and the task it varies', () => {
    const { base, variant } = tasksFolder();
    expect(packFolders(loadPack(variant))).toEqual([variant, base]);
    expect(packFolders(loadPack(base))).toEqual([base]);
  });

  it.each([
    ['a file of its own', (f: ReturnType<typeof tasksFolder>) => join(f.variant, 'index.ts')],
    ['a file of the task it varies', (f: ReturnType<typeof tasksFolder>) => join(f.base, 'index.ts')],
  ])('of a variant changes when %s changes', (_what, file) => {
    const folder = tasksFolder();
    const before = hashOf(folder.variant);
    appendFileSync(file(folder), '\n// changed\n');
    expect(hashOf(folder.variant)).not.toBe(before);
  });

  it('of the base does not change when a variant of it does', () => {
    const folder = tasksFolder();
    const before = hashOf(folder.base);
    appendFileSync(join(folder.variant, 'index.ts'), '\n// changed\n');
    expect(hashOf(folder.base)).toBe(before);
  });
});

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
