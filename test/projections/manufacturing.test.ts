import { appendGiven } from '../support/erp';
import { manufacturingCompany } from '../support/manufacturing-fixture';

const journal = (wip: number) => ({
  date: '2026-10-05', memo: 'issue', lines: [
    { account: '1310', debit: wip, credit: 0, party_type: null, party_id: null, document_id: 'WO-000001' },
    { account: '1300', debit: 0, credit: wip, party_type: null, party_id: null, document_id: 'WOI-000001' },
  ],
});

function withOrder() {
  const company = manufacturingCompany();
  appendGiven(company.erp, [{ type: 'WorkOrderCreated', data: {
    id: 'WO-000001', item: 'SUB-B', qty: 2, warehouse: 'WH1', start_date: '2026-10-05', due_date: '2026-10-06', planned_order: null, bom_date: '2026-10-05', note: '',
    components: [{ item: 'SEAL-1', qty_per: 2, required: 4, standard_cost: 1200, via_phantom: null }], operations: [],
  } }]);
  return company;
}

describe('the manufacturing read model', () => {
  it('ends the lines an engineering change removes on the day before and adds its own from its date', () => {
    const { erp, api } = manufacturingCompany();
    appendGiven(erp, [{ type: 'EngineeringChangeRecorded', data: {
      id: 'ECN-000009', item: 'SUB-B', effective_date: '2026-11-02', reason: 'material_change', ended_lines: [1], ended_on: '2026-11-01', note: '',
      added_lines: [{ line: 3, component: 'SEAL-1X', qty_per: 2, scrap_bp: 0, effective_from: '2026-11-02', effective_to: null }],
    } }]);
    expect(api.read.manufacturing.bomLines('SUB-B').map((l) => [l.line, l.component, l.effective_from, l.effective_to, l.added_by_change, l.ended_by_change])).toEqual([
      [1, 'SEAL-1', '2026-10-05', '2026-11-01', null, 'ECN-000009'], [2, 'BOLT-1', '2026-10-05', null, null, null], [3, 'SEAL-1X', '2026-11-02', null, 'ECN-000009', null],
    ]);
  });

  it('folds WIP movements into the order and the WIP subledger, and issued quantities into its components', () => {
    const { erp, api } = withOrder();
    appendGiven(erp, [{ type: 'WorkOrderMaterialIssued', data: {
      id: 'WOI-000001', work_order: 'WO-000001', date: '2026-10-05', lines: [{ line: 1, item: 'SEAL-1', qty: 4, value: 4800 }], note: '', journal: journal(4800), inventory: [],
      wip: [{ work_order: 'WO-000001', kind: 'material', amount: 4800 }],
    } }]);
    expect(api.read.manufacturing.workOrder('WO-000001')).toMatchObject({ wip_balance: 4800, material_issued: 4800, status: 'planned' });
    expect(api.read.manufacturing.components('WO-000001')[0]).toMatchObject({ item: 'SEAL-1', issued: 4 });
    expect(api.read.manufacturing.wipAsOf('2026-10-05')).toBe(4800);
    expect(api.read.manufacturing.wipAsOf('2026-10-04')).toBe(0);
  });

  it('refuses an event whose WIP movements differ from what its journal posts to WIP, so the subledger cannot drift', () => {
    const { erp, api } = withOrder();
    expect(() => appendGiven(erp, [{ type: 'WorkOrderMaterialIssued', data: {
      id: 'WOI-000001', work_order: 'WO-000001', date: '2026-10-05', lines: [{ line: 1, item: 'SEAL-1', qty: 4, value: 4800 }], note: '', journal: journal(4800), inventory: [],
      wip: [{ work_order: 'WO-000001', kind: 'material', amount: 4700 }],
    } }])).toThrow('WorkOrderMaterialIssued: its WIP movements (4700) differ from what its journal posts to WIP (4800).');
    expect(api.read.manufacturing.wipAsOf('2026-10-05')).toBe(0);
  });
});
