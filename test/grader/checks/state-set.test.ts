import { stateSet } from '../../../src/grader/checks/state-set';
import { EvidenceIndex } from '../../../src/grader/evidence';
import { base, checkContext, ev, table } from '../../support/grading';

const check = { ...base, id: 'set', type: 'state_set' as const, projection: 'leaves', key: ['employee', 'start'] };
const reference = table(['employee', 'start', 'end'], [['maya.chen', '2026-10-12', '2026-10-16'], ['sam.ortiz', '2026-10-14', '2026-10-15']]);

describe('a projection whose keys are those of the reference', () => {
  it('passes, whatever the other columns hold', () => {
    const agent = table(['employee', 'start', 'end'], [['sam.ortiz', '2026-10-14', '2026-10-31'], ['maya.chen', '2026-10-12', '2026-10-16']]);
    const out = stateSet(check, checkContext({ agentTables: new Map([['leaves', agent]]), referenceTables: new Map([['leaves', reference]]) }));
    expect(out).toMatchObject({ passed: true, differing: [] });
  });

  it('compares keys after the declared normalisers', () => {
    const agent = table(['employee', 'start'], [[' Maya.Chen ', '2026-10-12'], ['SAM.ORTIZ', '2026-10-14']]);
    const out = stateSet({ ...check, normalize: ['lower'] }, checkContext({ agentTables: new Map([['leaves', agent]]), referenceTables: new Map([['leaves', reference]]) }));
    expect(out.passed).toBe(true);
  });
});

describe('a projection with a key missing and a key too many', () => {
  const agent = table(['employee', 'start', 'end'], [['maya.chen', '2026-10-12', '2026-10-16'], ['ava.reed', '2026-10-19', '2026-10-23']]);
  const events = [ev(11, { type: 'LeaveScheduled', objectId: 'LV-3', data: { id: 'LV-3', user: 'ava.reed', start_date: '2026-10-19' } })];

  it('fails and lists each differing key with the events behind it', () => {
    const out = stateSet(check, checkContext({ events, evidence: new EvidenceIndex(events), agentTables: new Map([['leaves', agent]]), referenceTables: new Map([['leaves', reference]]) }));
    expect(out.passed).toBe(false);
    expect(out.detail).toBe('leaves: 1 expected key missing and 1 key not in the reference.');
    expect(out.differing).toEqual([
      { key: { employee: 'sam.ortiz', start: '2026-10-14' }, kind: 'missing', expected: reference.rows[1], event_ids: [] },
      { key: { employee: 'ava.reed', start: '2026-10-19' }, kind: 'extra', agent: agent.rows[1], event_ids: [11] },
    ]);
  });
});

describe('a projection without a key column', () => {
  it('fails naming the column', () => {
    const out = stateSet(check, checkContext({ agentTables: new Map([['leaves', table(['employee'], [])]]), referenceTables: new Map([['leaves', reference]]) }));
    expect(out).toEqual({ passed: false, detail: 'Projection leaves has no column start.' });
  });
});
