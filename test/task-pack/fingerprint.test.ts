import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packFolders, packHash } from '../../src/task-pack/fingerprint';
import { loadPack } from '../../src/task-pack/load';
import { packCopy } from '../support/packs';

describe('the fingerprint of a pack', () => {
  function tasksFolder(): { base: string; variant: string; lib: string } {
    const base = packCopy({}, 'leave-cover');
    const variant = packCopy({ task: (t) => { t.id = 'leave-cover-again'; t.variant_of = 'leave-cover'; } }, 'leave-cover-again', dirname(base));
    const lib = join(dirname(base), 'lib');
    mkdirSync(lib);
    writeFileSync(join(lib, 'draw.ts'), 'export const n = 1;\n');
    return { base, variant, lib };
  }
  const hashOf = (dir: string) => packHash(loadPack(dir));

  it('covers the pack, the task it varies and the shared lib/', () => {
    const { base, variant, lib } = tasksFolder();
    expect(packFolders(loadPack(variant))).toEqual([variant, base, lib]);
    expect(packFolders(loadPack(base))).toEqual([base, lib]);
  });

  it.each([
    ['a file of its own', (f: ReturnType<typeof tasksFolder>) => join(f.variant, 'index.ts')],
    ['a file of the task it varies', (f: ReturnType<typeof tasksFolder>) => join(f.base, 'index.ts')],
    ['a shared helper in lib/', (f: ReturnType<typeof tasksFolder>) => join(f.lib, 'draw.ts')],
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
