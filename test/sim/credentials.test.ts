import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalHash } from '../../src/events/canonical-hash';
import { issueTokens, newSecret } from '../../src/sim/credentials';
import { seedSmallOrg } from '../../src/sim/small-company';
import { call, openTestErp } from '../support/erp';

/** Two runs of the same actions, each with tokens of its own. */
function run() {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-cred-')), 'erp.db');
  const { erp, api } = openTestErp(file);
  seedSmallOrg(api);
  const issued = issueTokens(api, ['grace.lin', 'maya.chen'], 'attempt');
  call(api, issued.secrets['maya.chen']!, 'GET', '/whoami');
  return { erp, api, issued, file };
}

describe('tokens issued at a reset', () => {
  const a = run();
  const b = run();

  it('have random secrets, deterministic ids, and act as their users', () => {
    expect(a.issued.secrets['grace.lin']).toMatch(/^erp_[0-9a-f]{40}$/);
    expect(a.issued.secrets['grace.lin']).not.toBe(b.issued.secrets['grace.lin']);
    expect(a.issued.ids).toEqual(b.issued.ids);
    expect(call(a.api, a.issued.secrets['grace.lin']!, 'GET', '/whoami').body.user.id).toBe('grace.lin');
    expect(call(a.api, b.issued.secrets['grace.lin']!, 'GET', '/whoami').status).toBe(401);
    expect(newSecret()).not.toBe(newSecret());
  });

  it('leave the canonical hash as it would be with any other secrets: their hashes are not hashed', () => {
    const [c, d] = [run(), run()];
    expect(canonicalHash(c.erp.db)).toBe(canonicalHash(d.erp.db));
    const sha = (x: typeof a) => (x.erp.db.prepare(`SELECT token_sha256 FROM api_tokens WHERE id = ?`).get(x.issued.ids['grace.lin']) as { token_sha256: string }).token_sha256;
    expect(sha(c)).not.toBe(sha(d));
  });

  it('are stored as their SHA-256 only', () => {
    a.erp.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(a.file).toString('latin1');
    expect(bytes).not.toContain(a.issued.secrets['grace.lin']);
  });
});
