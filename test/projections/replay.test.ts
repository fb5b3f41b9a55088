import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalHash } from '../../src/events/canonical-hash';
import { openDatabase } from '../../src/events/database';
import { createAppRegistry } from '../../src/projections';
import { checkReplay, replayFile } from '../../src/projections/replay';
import { call, openTestErp } from '../support/erp';
import { seedSmallOrg } from '../../src/sim/small-company';

function mixedStream(file: string) {
  const { erp, api } = openTestErp(file);
  const tokens = seedSmallOrg(api);
  call(api, tokens.maya, 'GET', '/whoami');
  call(api, tokens.maya, 'POST', '/departments', { id: 'X', name: 'refused' });
  call(api, 'bad-token', 'GET', '/users');
  call(api, tokens.grace, 'POST', '/leaves', { user: 'maya.chen', start_date: '2026-10-06', end_date: '2026-10-09', delegate: 'grace.lin' }, { idempotencyKey: 'k1' });
  call(api, tokens.grace, 'POST', '/leaves', { user: 'maya.chen', start_date: '2026-10-06', end_date: '2026-10-09', delegate: 'grace.lin' }, { idempotencyKey: 'k1' });
  const mark = erp.store.lastSeq();
  call(api, tokens.grace, 'POST', '/leaves/LV-000001/cancel', {});
  call(api, tokens.grace, 'POST', '/users/sam.ortiz/roles', { roles: ['buyer', 'auditor'] });
  return { erp, api, mark };
}

describe('a file with writes, refusals, reads and an idempotent retry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-replay-'));
  const file = join(dir, 'live.db');
  const { erp, api, mark } = mixedStream(file);

  it('replays to read models equal to the live ones', () => {
    const check = checkReplay(file, erp.db, createAppRegistry());
    expect(check.differingTables).toEqual([]);
    expect(check.equal).toBe(true);
  });

  it('replays to a file whose canonical hash equals the live file\'s', () => {
    const out = join(dir, 'replayed.db');
    const result = replayFile(file, out, createAppRegistry());
    expect(result.events).toBe(erp.store.lastSeq());
    const replayed = openDatabase(out, { readonly: true });
    expect(canonicalHash(replayed)).toBe(canonicalHash(erp.db));
    replayed.close();
  });

  it('replays --until an event to the state as of that event', () => {
    const out = join(dir, 'until.db');
    replayFile(file, out, createAppRegistry(), { untilSeq: mark });
    const replayed = openDatabase(out, { readonly: true });
    expect(replayed.prepare(`SELECT status FROM delegations WHERE id = 'LV-000001'`).get()).toEqual({ status: 'scheduled' });
    expect(replayed.prepare(`SELECT MAX(seq) AS s FROM events`).get()).toEqual({ s: mark });
    replayed.close();
    expect(api.read.org.leave('LV-000001')!.status).toBe('cancelled');
  });

  it('refuses to overwrite an existing output without force', () => {
    expect(() => replayFile(file, join(dir, 'replayed.db'), createAppRegistry())).toThrow(/exists; pass --force/);
  });
});
