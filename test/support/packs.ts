import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

export const FIXTURE_TASKS = join(__dirname, '..', 'fixtures', 'tasks');
export const SMOKE = join(FIXTURE_TASKS, 'leave-cover');

/** A copy of the smoke pack in a tasks folder (a fresh temp one unless given), its YAML edited by `edit`. Returns the pack folder. */
export function packCopy(edit: { task?: (t: any) => void; policies?: (p: any) => void; taskText?: (s: string) => string; index?: (s: string) => string } = {}, slug = 'leave-cover', tasksDir = mkdtempSync(join(tmpdir(), 'bb-erp-pack-'))): string {
  const dir = join(tasksDir, slug);
  cpSync(SMOKE, dir, { recursive: true });
  const taskFile = join(dir, 'task.yaml');
  if (edit.task) {
    const t = parse(readFileSync(taskFile, 'utf8'));
    edit.task(t);
    writeFileSync(taskFile, stringify(t));
  }
  if (edit.taskText) writeFileSync(taskFile, edit.taskText(readFileSync(taskFile, 'utf8')));
  if (edit.policies) {
    const file = join(dir, 'policies.yaml');
    const p = parse(readFileSync(file, 'utf8'));
    edit.policies(p);
    writeFileSync(file, stringify(p));
  }
  if (edit.index) {
    const file = join(dir, 'index.ts');
    const source = readFileSync(file, 'utf8').replace(/'(\.\.\/)+src\//g, `'${join(__dirname, '..', '..', 'src')}/`);
    writeFileSync(file, edit.index(source));
  }
  return dir;
}
