import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPackCode } from '../../src/task-pack/module-loader';
import { loadPack } from '../../src/task-pack/load';
import { packCopy } from '../support/packs';

/** What a task author meets: errors that say what to fix, in the author's own terms. */
const TASKS = join(__dirname, '..', '..', 'tasks');

describe('a check of a type that does not exist', () => {
  it('is refused naming the allowed types', () => {
    const dir = packCopy({ task: (t) => { t.checks[0].type = 'state_sett'; } });
    expect(() => loadPack(dir)).toThrow(/task\.yaml:\d+: checks\[0\]\.type: 'state_sett' is not one of: .*\bstate_set\b.*\bstate_values\b.*\baudit_forbidden\b/);
  });
});

describe('a pack copied into another tasks folder without tasks/shared/', () => {
  const tasksDir = mkdtempSync(join(tmpdir(), 'bb-erp-authoring-'));
  cpSync(join(TASKS, 'ap-duplicate'), join(tasksDir, 'ap-duplicate'), { recursive: true });

  it('says which shared file is missing and what to copy where', () => {
    expect(() => loadPack('ap-duplicate', tasksDir)).toThrow(
      `${join(tasksDir, 'shared', 'ap-exceptions', 'payments.yaml')}: the file is missing or unreadable; the pack uses bb-erp's tasks/shared/, which is not beside it: copy ${join(TASKS, 'shared')} to ${join(tasksDir, 'shared')}`,
    );
  });

  it('loads once tasks/shared/ is copied beside it, code and all', () => {
    cpSync(join(TASKS, 'shared'), join(tasksDir, 'shared'), { recursive: true });
    const pack = loadPack('ap-duplicate', tasksDir);
    expect(typeof loadPackCode(pack).oracle).toBe('function');
  });
});

describe('a pack whose code imports a shared module that is not there', () => {
  it('names the importing file, the import and the folder to copy', () => {
    const tasksDir = mkdtempSync(join(tmpdir(), 'bb-erp-authoring-'));
    const dir = packCopy({ index: (s) => `import { must } from '../shared/http';\nvoid must;\n${s}` }, 'leave-cover', tasksDir);
    expect(() => loadPackCode(loadPack(dir))).toThrow(
      `${join(dir, 'index.ts')}: cannot be loaded: ${join(dir, 'index.ts')} imports ../shared/http, and there is no ${join(tasksDir, 'shared', 'http')}; the pack uses bb-erp's tasks/shared/, which is not beside it: copy ${join(TASKS, 'shared')} to ${join(tasksDir, 'shared')}`,
    );
  });
});
