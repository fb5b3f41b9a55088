import { CONTROL_TIES } from '../../src/grader/ledger/control-ties';
import { tieControl } from '../../src/grader/ledger/trial-balance';
import { call, openTestErp } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

function tie(db: Parameters<typeof tieControl>[0], kind: string) {
  return tieControl(db, CONTROL_TIES.find((t) => t.kind === kind)!, '2026-10-31');
}

/** Seals received and invoiced, plus cash in the bank: every control kind has a balance. */
function books() {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp, 10);
  ok(call(api, t.grace, 'POST', '/bank-accounts/BANK-OP/deposits', { date: '2026-10-05', amount: '5000.00', credit_account: '3000', reference: 'Opening' }), 'deposit');
  const invoice = ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ total: '72.00' }, { qty: 6, amount: '72.00' })), 'invoice').id as string;
  ok(call(api, t.omar, 'POST', `/ap-invoices/${invoice}/validate`, {}), 'validate');
  return { erp, api, t };
}

describe('the grader\'s control ties, computed from the documents', () => {
  it('tie cash, inventory, GRNI and AP after receipts, an invoice and a deposit', () => {
    const { erp } = books();
    expect(['cash', 'inventory', 'grni', 'ap'].map((k) => [k, tie(erp.db, k).subledger_cents, tie(erp.db, k).ties])).toEqual([
      ['cash', 500_000, true], ['inventory', 12_000, true], ['grni', 4_800, true], ['ap', 7_200, true],
    ]);
  });

  it('show a plug: a manual entry straight to AP moves the ledger and not the invoices', () => {
    const { erp, api, t } = books();
    const je = ok(call(api, t.lena, 'POST', '/journal-entries', { date: '2026-10-05', memo: 'Clear small AP difference', lines: [{ account: '2000', debit: '10.00' }, { account: '6000', credit: '10.00' }], attachments: [{ kind: 'file', ref: 'x' }] }), 'je');
    ok(call(api, t.lena, 'POST', `/journal-entries/${je.id}/submit`, {}), 'submit');
    ok(call(api, t.grace, 'POST', `/journal-entries/${je.id}/approve`, {}), 'approve');
    ok(call(api, t.lena, 'POST', `/journal-entries/${je.id}/post`, {}), 'post');
    expect(tie(erp.db, 'ap')).toMatchObject({ gl_cents: 6_200, subledger_cents: 7_200, ties: false });
  });
});
