import { companyHealth } from '../../src/runner/company-health';
import { advanceTo, ok } from '../support/books-fixture';
import { seedCloseBooks } from '../support/close-fixture';
import { call, openTestErp } from '../support/erp';

const CLOSED_TIED = 'every closed period tied at its end, its close checklist clear';

/** The close books on 2 November with October closed, after reconciling the bank accounts or not. */
function octoberClosed(reconciled: boolean) {
  const { api } = openTestErp();
  const t = seedCloseBooks(api);
  advanceTo(api, '2026-11-02');
  if (reconciled) for (const account of ['BANK-OP', 'BANK-PR']) ok(call(api, t.lena, 'POST', '/bank-reconciliations', { bank_account: account, as_of: '2026-10-31' }), account);
  ok(call(api, t.grace, 'POST', '/periods/2026-10/close', {}), 'close');
  return companyHealth(api).find((c) => c.name === CLOSED_TIED)!;
}

describe('company health of the closed months', () => {
  it('passes when every closed month tied at its end and its checklist is clear', () => {
    expect(octoberClosed(true)).toEqual({ name: CLOSED_TIED, ok: true, detail: '1 closed period, each tied and its checklist clear' });
  });

  it('fails, naming the month and the item, when a month was closed past an advisory item of its checklist', () => {
    const check = octoberClosed(false);
    expect(check.ok).toBe(false);
    expect(check.detail).toBe('2026-10 bank_reconciled: BANK-OP was last reconciled never.; 2026-10 bank_reconciled: BANK-PR was last reconciled never.');
  });
});
