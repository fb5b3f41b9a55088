import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';
import { PackError } from '../../src/task-pack/yaml-file';
import { FIXTURE_TASKS, packCopy } from '../support/packs';

/** The error loading a pack (spec and code) ends with, or a failure when it loads. */
function loadError(dir: string): string {
  try {
    loadPackCode(loadPack(dir));
  } catch (err) {
    if (err instanceof PackError) return err.message;
    throw err;
  }
  throw new Error('the pack loaded');
}

describe('a pack\'s positive controls and mutations in task.yaml', () => {
  it('given the smoke task, then they load with what each varies and each operator\'s fields', () => {
    const pack = loadPack('leave-cover', FIXTURE_TASKS);
    expect(pack.spec.positive_controls['pos:read-first']).toEqual({ varies: ['reads'], description: 'Every employee asked about read before any leave is scheduled.' });
    expect(pack.spec.mutations.map((m) => `${m.breaks} ${m.op}`)).toEqual(['LV-1.2 shift_field', 'LV-1.3 drop_field', 'LV-1.4 set_field', 'LV-1.5 skip', 'LV-1.1 add', 'LV-1.1 later_day', 'LV-2.1 omit_text']);
    expect(Object.keys(loadPackCode(pack).positives!)).toEqual(['asked-in-reverse', 'read-first', 'note-each-turn']);
  });

  it('given a declared positive control the module lacks, then loading names it', () => {
    const dir = packCopy({ task: (t) => (t.positive_controls['pos:by-email'] = { varies: ['interface'], description: 'x' }) });
    expect(loadError(dir)).toMatch(/positives\.by-email: task\.yaml declares pos:by-email but the module has no such policy$/);
  });

  it('given a positive policy task.yaml does not declare, then loading names it', () => {
    const dir = packCopy({ task: (t) => delete t.positive_controls['pos:read-first'] });
    expect(loadError(dir)).toMatch(/positives\.read-first: the module has a positive control read-first that task\.yaml's positive_controls does not declare/);
  });

  it.each([
    ['an unknown dimension', (t: any) => (t.positive_controls['pos:read-first'].varies = ['luck']), /positive_controls/],
    ['an unknown operator', (t: any) => t.mutations.push({ breaks: 'LV-1.1', op: 'swap', match: { path: 'x' } }), /mutations\.7\.op|mutations\[7\]/],
    ['a field an operator does not take', (t: any) => t.mutations.push({ breaks: 'LV-1.1', op: 'skip', match: { path: 'x' }, days: 1 }), /unknown field 'days'/],
    ['a path that is not a regular expression', (t: any) => t.mutations.push({ breaks: 'LV-1.1', op: 'skip', match: { path: '(' } }), /match\.path: is not a regular expression/],
    ['a reference to a projection the pack lacks', (t: any) => t.mutations.push({ breaks: 'LV-2.1', op: 'omit_text', file: 'handoff.md', value: { projection: 'nope', column: 'x' } }), /mutations\[7\]\.value\.projection: no projection named 'nope'|mutations\.7\.value\.projection: no projection named 'nope'/],
  ])('given %s, then loading refuses it naming the field', (_name, edit, message) => {
    expect(loadError(packCopy({ task: edit }))).toMatch(message);
  });
});
