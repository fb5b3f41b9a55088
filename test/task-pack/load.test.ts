import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadPack } from '../../src/task-pack/load';
import { PackError } from '../../src/task-pack/yaml-file';
import { FIXTURE_TASKS, packCopy } from '../support/packs';

function loadError(dir: string): PackError {
  try {
    loadPack(dir);
  } catch (err) {
    if (err instanceof PackError) return err;
    throw err;
  }
  throw new Error('the pack loaded');
}

describe('the smoke task pack', () => {
  const pack = loadPack('leave-cover', FIXTURE_TASKS);

  it('loads with its turns, checks, negative controls and fault profiles', () => {
    expect(pack.slug).toBe('leave-cover');
    expect(pack.spec.turns.map((t) => t.date)).toEqual(['2026-10-06', '2026-10-08']);
    expect(pack.spec.checks.map((c) => c.type)).toEqual(['state_set', 'state_values', 'state_unchanged', 'state_unchanged', 'text_sentence_matches', 'audit_forbidden', 'state_values']);
    expect(pack.spec.negative_controls['neg:no-note']).toEqual({ breaks: ['LV-2.1'], fails: ['handoff-note'], refused: [], regression: null });
    expect(pack.spec.fault_profiles).toEqual({ 'lost-leave': { spec: 'lost_response:POST /leaves@1', negative_controls: { 'neg:blind-retry': { breaks: [], fails: ['leave-once', 'leave-values'], refused: [], regression: null } } } });
  });

  it('loads its policies in handbook order', () => {
    expect(pack.policies.files.map((f) => f.file)).toEqual(['leave.md']);
    expect([...pack.policies.clauses.keys()]).toEqual(['LV-1.1', 'LV-1.2', 'LV-1.3', 'LV-1.4', 'LV-1.5', 'LV-2.1', 'LV-2.2']);
  });

  it('is found by the path of its folder too', () => {
    expect(loadPack(join(FIXTURE_TASKS, 'leave-cover')).dir).toBe(pack.dir);
  });
});

describe('a task.yaml with a defect', () => {
  const cases: [string, Parameters<typeof packCopy>[0], RegExp][] = [
    ['a misspelt field', { task: (t) => { t.checks[1].cite = t.checks[1].cites; delete t.checks[1].cites; } }, /task\.yaml:\d+: checks\[1\]: (unknown field 'cite'|missing required field 'cites')$/],
    ['a check citing nothing', { task: (t) => { t.checks[0].cites = []; } }, /task\.yaml:\d+: checks\[0\]\.cites: must NOT have fewer than 1 items$/],
    ['an unknown check type', { task: (t) => { t.checks[2].type = 'state_equal'; } }, /checks\[2\]\.type: must be equal to one of the allowed values|checks\[2\]\.type/],
    ['a projection nobody declared', { task: (t) => { t.checks[0].projection = 'leave'; } }, /task\.yaml:\d+: checks\[0\]\.projection: no projection named 'leave' \(projections: leaves, leave_entries\)$/],
    ['a duplicate check id', { task: (t) => { t.checks[1].id = 'leave-set'; } }, /checks\[1\]\.id: check id 'leave-set' is used twice$/],
    ['a negative control naming no check', { task: (t) => { t.negative_controls['neg:no-note'] = ['handoff']; } }, /negative_controls\.neg:no-note\[0\]: no check 'handoff'$/],
    ['a negative control without the neg: prefix', { task: (t) => { t.negative_controls['no-note'] = ['handoff-note']; } }, /negative_controls: unknown field 'no-note'$/],
    ['a fault profile that is not a SPEC', { task: (t) => { t.fault_profiles['lost-leave'].spec = 'lose:POST /leaves@1'; } }, /fault_profiles\.lost-leave\.spec: Fault rule 'lose:POST \/leaves@1': unknown kind lose/],
    ['turns out of order', { task: (t) => { t.turns[1].date = '2026-10-05'; } }, /turns\[1\]\.date: 2026-10-05 is before the previous turn's 2026-10-06$/],
    ['a grading date before the last turn', { task: (t) => { t.grading_date = '2026-10-07'; } }, /grading_date: 2026-10-07 is before the last turn's 2026-10-08$/],
    ['a pattern that is not a regular expression', { task: (t) => { t.checks[4].patterns = ['(maya']; } }, /checks\[4\]\.patterns\[0\]: is not a regular expression/],
    ['a sentence pattern whose expression does not compile', { task: (t) => { t.checks[4].patterns = [{ all: ['cover', '[grace'] }]; } }, /checks\[4\]\.patterns\[0\]\.all\[1\]: is not a regular expression/],
    ['a sentence pattern naming a projection nobody declared', { task: (t) => { t.checks[4].patterns = [{ all: ['cover'], mentions: [{ projection: 'absences', column: 'employee' }] }]; } }, /checks\[4\]\.patterns\[0\]\.mentions\[0\]\.projection: no projection named 'absences' \(projections: leaves, leave_entries\)$/],
    ['a figure from a projection nobody declared', { task: (t) => { t.checks[4] = { id: 'handoff-note', type: 'text_numbers_present', cites: ['LV-2.1'], file: 'handoff.md', numbers: [15, { projection: 'absences', column: 'days' }] }; } }, /checks\[4\]\.numbers\[1\]\.projection: no projection named 'absences'/],
    ['a text fact whose concept the vocabulary lacks', { task: (t) => { t.checks[4] = { id: 'handoff-note', type: 'text_facts', cites: ['LV-2.1'], file: 'handoff.md', vocabulary: { cover: ['covers'] }, facts: [{ name: 'the cover', concepts: ['absence'] }] }; } }, /checks\[4\]\.facts\[0\]\.concepts\[0\]: 'absence' is not a concept of the check's vocabulary$/],
    ['text facts for each row of a projection nobody declared', { task: (t) => { t.checks[4] = { id: 'handoff-note', type: 'text_facts', cites: ['LV-2.1'], file: 'handoff.md', vocabulary: { cover: ['covers'] }, facts: [{ name: 'the cover', each: { projection: 'absences' }, names: [{ column: 'employee' }] }] }; } }, /checks\[4\]\.facts\[0\]\.each\.projection: no projection named 'absences'/],
    ['a date that is not a date', { task: (t) => { t.turns[0].date = '2026-13-01'; } }, /turns\[0\]\.date: must match format "date"$/],
    ['an id that is not the folder\'s name', { task: (t) => { t.id = 'leave-cover-2'; } }, /task\.yaml:1: id: is 'leave-cover-2' but the pack's folder is named 'leave-cover'$/],
    ['a per-table where naming a table the check does not compare', { task: (t) => { t.checks[2].where = { users: "id <> 'x'" }; } }, /checks\[2\]\.where\.users: 'users' is not one of the check's tables$/],
    ['broken YAML', { taskText: (s) => s.replace('checks:', 'checks:\n  - id: [unclosed') }, /task\.yaml:\d+: not valid YAML/],
  ];

  it.each(cases)('(%s) is refused with an error naming the file, the line and the field', (_name, edit, message) => {
    const err = loadError(packCopy(edit));
    expect(err.message).toMatch(message);
    expect(err.file).toMatch(/task\.yaml$/);
  });
});

describe('a policies.yaml with a defect', () => {
  const cases: [string, (p: any) => void, RegExp][] = [
    ['a block naming an undefined clause', (p) => p.files[0].blocks.push({ clause: 'LV-9.9' }), /policies\.yaml:\d+: files\[0\]\.blocks\[9\]\.clause: no clause LV-9\.9 is defined$/],
    ['a clause placed twice', (p) => p.files[0].blocks.push({ clause: 'LV-1.1' }), /blocks\[9\]\.clause: clause LV-1\.1 is placed twice in the handbook$/],
    ['a clause defined twice', (p) => p.clauses.push({ id: 'LV-1.1', text: 'again' }), /clauses\[7\]\.id: clause LV-1\.1 is already defined$/],
    ['a block that is both markdown and a clause', (p) => (p.files[0].blocks[0].clause = 'LV-1.1'), /files\[0\]\.blocks\[0\]: must NOT have more than 1 properties$/],
    ['a clause id that is not an id', (p) => (p.clauses[0].id = 'lv 1'), /clauses\[0\]\.id: 'lv 1' must match/],
  ];

  it.each(cases)('(%s) is refused naming the field', (_name, edit, message) => {
    const err = loadError(packCopy({ policies: edit }));
    expect(err.message).toMatch(message);
  });
});

describe('a variant whose policies extend another task\'s', () => {
  function variant(extra: string): string {
    const dir = packCopy({}, 'leave-cover');
    const variantDir = packCopy({ task: (t) => { t.id = 'leave-cover-strict'; t.variant_of = 'leave-cover'; } }, 'leave-cover-strict', dirname(dir));
    writeFileSync(join(variantDir, 'policies.yaml'), `extends: ${join(dir, 'policies.yaml')}\n${extra}`);
    return variantDir;
  }

  it('has the base\'s files and clauses first, then its own', () => {
    const pack = loadPack(variant('files:\n  - file: need-to-know.md\n    title: Need to know\n    blocks:\n      - clause: INF-1.1\nclauses:\n  - id: INF-1.1\n    text: Share no bank details.\n'));
    expect(pack.policies.files.map((f) => f.file)).toEqual(['leave.md', 'need-to-know.md']);
    expect([...pack.policies.clauses.keys()].slice(-2)).toEqual(['LV-2.2', 'INF-1.1']);
    expect(pack.policies.sources).toHaveLength(2);
  });

  it('may not define a clause its base has', () => {
    expect(loadError(variant('files: []\nclauses:\n  - id: LV-1.1\n    text: Mine now.\n')).message).toMatch(/clauses\[0\]\.id: clause LV-1\.1 is already defined in .*policies\.yaml$/);
  });

  it('may not extend itself in a loop', () => {
    const dir = packCopy();
    writeFileSync(join(dir, 'policies.yaml'), `extends: ./policies.yaml\nfiles: []\nclauses: []\n`);
    expect(loadError(dir).message).toMatch(/extends: the extends chain loops back to/);
  });
});

describe('a variant\'s task.yaml', () => {
  const handoffOnly = (t: any) => {
    t.id = 'leave-cover-handoff';
    t.variant_of = 'leave-cover';
    t.projections = {};
    t.checks = [
      { id: 'handoff-note', type: 'text_sentence_matches', cites: ['LV-2.1'], file: 'handoff.md', patterns: ['cover'] },
      { id: 'leaves-again', type: 'state_set', cites: ['LV-1.1'], projection: 'leaves', key: ['employee', 'start_date'] },
    ];
    t.negative_controls = { 'neg:forget': ['leave-set'] };
    t.fault_profiles = {};
  };

  function variantOf(edit: (t: any) => void): string {
    const base = packCopy({}, 'leave-cover');
    return packCopy({ task: edit }, 'leave-cover-handoff', dirname(base));
  }

  describe('given a base task beside it', () => {
    const pack = loadPack(variantOf(handoffOnly));
    const base = loadPack('leave-cover', FIXTURE_TASKS);

    it('inherits the base\'s checks, replacing one of the same id, and adds its own after them', () => {
      const ids = pack.spec.checks.map((c) => c.id);
      expect(ids.slice(0, -2)).toEqual(base.spec.checks.map((c) => c.id).filter((id) => id !== 'handoff-note'));
      expect(ids.slice(-2)).toEqual(['handoff-note', 'leaves-again']);
      expect(pack.spec.checks.find((c) => c.id === 'handoff-note')).toMatchObject({ patterns: ['cover'] });
    });

    it('may use the base\'s projections, negative controls and fault profiles as its own', () => {
      expect(pack.spec.projections).toEqual(base.spec.projections);
      expect(pack.spec.negative_controls).toEqual({ ...base.spec.negative_controls, 'neg:forget': { breaks: [], fails: ['leave-set'], refused: [], regression: null } });
      expect(pack.spec.fault_profiles).toEqual(base.spec.fault_profiles);
    });

    it('keeps its own id, turns and dates', () => {
      expect(pack.slug).toBe('leave-cover-handoff');
      expect(pack.spec.turns).toEqual(base.spec.turns);
    });
  });

  it('naming no task beside it is refused at variant_of', () => {
    const dir = packCopy({ task: (t) => { handoffOnly(t); t.variant_of = 'leave-covr'; } }, 'leave-cover-handoff');
    expect(loadError(dir).message).toMatch(/task\.yaml:\d+: variant_of: no task 'leave-covr' beside this one$/);
  });

  it('naming itself is refused as a loop', () => {
    expect(loadError(variantOf((t) => { handoffOnly(t); t.variant_of = 'leave-cover-handoff'; })).message).toMatch(/variant_of: the variant_of chain loops back to 'leave-cover-handoff'$/);
  });

  it('using a check id twice of its own is still refused', () => {
    expect(loadError(variantOf((t) => { handoffOnly(t); t.checks[1].id = 'handoff-note'; })).message).toMatch(/checks\[1\]\.id: check id 'handoff-note' is used twice$/);
  });

  it('naming a projection neither it nor its base declares is refused', () => {
    expect(loadError(variantOf((t) => { handoffOnly(t); t.checks[1].projection = 'absences'; })).message).toMatch(/checks\[1\]\.projection: no projection named 'absences' \(projections: leaves, leave_entries\)$/);
  });
});
