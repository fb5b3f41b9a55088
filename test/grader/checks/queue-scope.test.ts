import { stateUnchanged } from '../../../src/grader/checks/state-unchanged';
import { EvidenceIndex } from '../../../src/grader/evidence';
import { readEvents } from '../../../src/grader/grade';
import { createAppRegistry } from '../../../src/projections';
import { call, openTestErp, systemCall } from '../../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../../support/payables-fixture';
import { base, checkContext } from '../../support/grading';

/** Two invoices, one in Omar's queue; in the final state Omar also leaves a note on the other. */
function states() {
  const build = () => {
    const { erp, api } = openTestErp();
    const t = seedPayables(api);
    givenReceivedSeals(erp);
    ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'queued');
    ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'MS-1002' })), 'background');
    ok(systemCall(api, 'POST', '/work-items', { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001' }), 'queue');
    return { erp, api, t };
  };
  const start = build();
  const final = build();
  ok(call(final.api, final.t.omar, 'POST', '/ap-invoices/APINV-000001/holds', { reason: 'duplicate' }), 'hold in the queue');
  ok(call(final.api, final.t.omar, 'POST', '/ap-invoices/APINV-000002/notes', { text: 'Check this one too.' }), 'note outside the queue');
  const events = readEvents(final.erp.db);
  const specs = createAppRegistry().tableSpecs();
  return checkContext({ start: start.erp.db, final: final.erp.db, events, evidence: new EvidenceIndex(events), tableKey: (t) => specs.get(t)?.key });
}

const outside = (column: string) => `${column} NOT IN (SELECT record_id FROM work_items WHERE assigned_to = 'omar.haddad')`;

describe('a note left on an invoice outside the clerk\'s queue (a grader bug found while building the AP packs)', () => {
  const ctx = states();

  it('escapes a scope check that compares only the invoices\' own rows: notes live in a table of their own', () => {
    const narrow = { ...base, id: 'queue-only', type: 'state_unchanged' as const, tables: ['ap_invoices'], where: outside('id') };
    expect(stateUnchanged(narrow, ctx).passed).toBe(true);
  });

  it('is caught once the check covers notes and holds, each table under its own condition', () => {
    const check = {
      ...base, id: 'queue-only', type: 'state_unchanged' as const, tables: ['ap_invoices', 'ap_invoice_notes', 'holds'],
      where: { ap_invoices: outside('id'), ap_invoice_notes: outside('invoice'), holds: outside('invoice') },
    };
    const out = stateUnchanged(check, ctx);
    expect(out.passed).toBe(false);
    expect(out.detail).toBe('Changed since the start: ap_invoice_notes (1 row).');
  });
});
