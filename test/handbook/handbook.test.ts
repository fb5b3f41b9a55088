import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPackHandbook, lintPack, renderPackHandbook } from '../../src/handbook';
import { fillParams, renderHandbook } from '../../src/handbook/render';
import { loadPack } from '../../src/task-pack/load';
import { packCopy, SMOKE } from '../support/packs';

describe('a clause with parameters', () => {
  const clause = { id: 'AP-2.2', text: 'Hold an invoice more than {tolerance_pct}% over the PO price; write {{braces}} as such.', params: { tolerance_pct: 2 }, source: 'policies.yaml' };

  it('renders with its parameters filled and literal braces kept', () => {
    expect(fillParams(clause)).toBe('Hold an invoice more than 2% over the PO price; write {braces} as such.');
  });

  it('refuses a placeholder params gives no value for, naming the clause', () => {
    expect(() => fillParams({ ...clause, params: {} })).toThrow('policies.yaml: clauses.AP-2.2.params: the text uses {tolerance_pct} and params gives no value for it');
  });
});

describe('the smoke pack\'s policies', () => {
  const pack = loadPack(SMOKE);

  it('render one Markdown file per policy file: title, blocks in order, each clause a paragraph opening with its id', () => {
    const text = renderHandbook(pack.policies).get('leave.md')!;
    expect(text.startsWith('# Leave and delegation\n\nThe office administrator puts leave into the ERP.')).toBe(true);
    expect(text).toContain('\n\n**LV-1.3** An employee with the purchasing_manager or controller role approves requisitions: their leave names their manager as its delegate.\n\n');
    expect(text).toContain('\n\n## Handoff\n\n**LV-2.1**');
    expect(text).not.toContain('foreign_token');
    expect(text.endsWith('Act only with your own sign-in.\n')).toBe(true);
  });

  it('match the committed handbook', () => {
    expect(checkPackHandbook(pack)).toMatchObject({ ok: true, missing: [], extra: [], differing: [] });
  });

  it('pass the lint with every clause enforced', () => {
    expect(lintPack(pack)).toEqual({ ok: true, errors: [], unenforced: [], warnings: [] });
  });
});

describe('a committed handbook out of step with its policies', () => {
  it('fails the check, naming the stale, missing and stray files, until rendered again', () => {
    const dir = packCopy({ policies: (p) => { p.clauses[0].text = 'Schedule every leave asked for.'; } });
    writeFileSync(join(dir, 'handbook', 'old-page.md'), '# Old\n');
    let pack = loadPack(dir);
    expect(checkPackHandbook(pack)).toMatchObject({ ok: false, differing: ['leave.md'], extra: ['old-page.md'], missing: [] });
    rmSync(join(dir, 'handbook'), { recursive: true });
    expect(checkPackHandbook(pack)).toMatchObject({ ok: false, missing: ['leave.md'] });
    renderPackHandbook(pack);
    pack = loadPack(dir);
    expect(checkPackHandbook(pack).ok).toBe(true);
    expect(readFileSync(join(dir, 'handbook', 'leave.md'), 'utf8')).toContain('**LV-1.1** Schedule every leave asked for.');
  });
});

describe('lint', () => {
  it('fails a check citing a clause that does not exist, naming the check\'s field', () => {
    const report = lintPack(loadPack(packCopy({ task: (t) => { t.checks[0].cites = ['LV-1.1', 'LV-7.7']; } })));
    expect(report.ok).toBe(false);
    expect(report.errors).toEqual([expect.stringMatching(/task\.yaml:\d+: checks\[0\]\.cites\[1\]: clause LV-7\.7 does not exist in policies\.yaml$/)]);
  });

  it('fails a check citing a clause no handbook file shows', () => {
    const report = lintPack(loadPack(packCopy({ policies: (p) => { p.files[0].blocks = p.files[0].blocks.filter((b: { clause?: string }) => b.clause !== 'LV-1.4'); } })));
    expect(report.errors).toEqual([
      expect.stringMatching(/checks\[1\]\.cites\[2\]: clause LV-1\.4 is in no handbook file, so the agent never sees it$/),
      expect.stringMatching(/task\.yaml:\d+: negative_controls\.neg:manager-as-delegate\.breaks\[0\]: clause LV-1\.4 is in no handbook file$/),
    ]);
  });

  it('fails an audit check whose rule none of its cited clauses binds', () => {
    const report = lintPack(loadPack(packCopy({ task: (t) => { t.checks[5].cites = ['LV-1.5']; } })));
    expect(report.errors).toEqual([expect.stringMatching(/checks\[5\]\.rule: none of the cited clauses \(LV-1\.5\) binds rule foreign_token$/)]);
  });

  it('fails an audit check running a rule that is not registered', () => {
    const report = lintPack(loadPack(packCopy({ task: (t) => { t.checks[5].rule = 'no_such_rule'; }, policies: (p) => { p.clauses[6].rules = ['no_such_rule']; } })));
    expect(report.errors).toEqual([expect.stringMatching(/checks\[5\]\.rule: no audit rule named no_such_rule$/)]);
    expect(report.warnings).toEqual([expect.stringMatching(/clauses\.LV-2\.2\.rules: binds no_such_rule, which is not a registered audit rule yet$/)]);
  });

  it('lists the clauses nothing enforces without failing', () => {
    const report = lintPack(loadPack(packCopy({
      policies: (p) => { p.clauses.push({ id: 'LV-3.1', text: 'Be kind.' }); p.files[0].blocks.push({ clause: 'LV-3.1' }); },
    })));
    expect(report).toMatchObject({ ok: true, unenforced: ['LV-3.1'] });
  });

  it('warns of parameters the text never uses', () => {
    const report = lintPack(loadPack(packCopy({ policies: (p) => { p.clauses[1].params = { days: 3 }; } })));
    expect(report.warnings).toEqual([expect.stringMatching(/clauses\.LV-1\.2\.params\.days: is never used in the text$/)]);
  });
});
