import type { RouteDef } from '../action';
import './commitments';
import { approvalPolicyRoutes } from './approval-policy';
import { poVendorRoutes } from './po-vendor';
import { purchaseOrderRoutes } from './purchase-orders';
import { requisitionApprovalRoutes } from './requisition-approvals';
import { requisitionRoutes } from './requisitions';

export { openCommitments, COMMITMENT_RULE } from './commitments';
export { poLineDepartment } from './po-lines';

export const purchasingRoutes: RouteDef[] = [...approvalPolicyRoutes, ...requisitionRoutes, ...requisitionApprovalRoutes, ...purchaseOrderRoutes, ...poVendorRoutes];
