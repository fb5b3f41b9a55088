import type { RouteDef } from '../action';
import './commitments';
import { poVendorRoutes } from './po-vendor';
import { purchaseOrderRoutes } from './purchase-orders';
import { requisitionApprovalRoutes } from './requisition-approvals';
import { requisitionRoutes } from './requisitions';

export { openCommitments, COMMITMENT_RULE } from './commitments';
export { poLineDepartment } from './po-lines';

export const purchasingRoutes: RouteDef[] = [...requisitionRoutes, ...requisitionApprovalRoutes, ...purchaseOrderRoutes, ...poVendorRoutes];
