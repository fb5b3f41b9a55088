import { approvalRefusal } from '../../src/domain/approval';
import { contextFor, openTestErp } from '../support/erp';
import { seedSmallOrg } from '../../src/sim/small-company';

const { api } = openTestErp();
seedSmallOrg(api);
const req = (requester: string, amount: number) => ({ documentType: 'requisition', documentId: 'REQ-000001', requester, amount, department: 'PUR' });

describe('an approval by the purchasing manager (limit $10,000)', () => {
  it('is allowed for someone else\'s request within her limit', () =>
    expect(approvalRefusal(contextFor(api, 'maya.chen'), req('sam.ortiz', 1_000_000))).toBeUndefined());

  it('is refused over_limit one cent above her limit', () =>
    expect(approvalRefusal(contextFor(api, 'maya.chen'), req('sam.ortiz', 1_000_001))).toMatchObject({ code: 'over_limit', status: 403 }));

  it('is refused requester_cannot_approve for her own request, whatever the amount', () =>
    expect(approvalRefusal(contextFor(api, 'maya.chen'), req('maya.chen', 100))).toMatchObject({ code: 'requester_cannot_approve' }));
});

describe('an approval by a buyer with no limit', () => {
  it('is refused as forbidden', () =>
    expect(approvalRefusal(contextFor(api, 'sam.ortiz'), req('maya.chen', 100))).toMatchObject({ code: 'forbidden' }));
});
