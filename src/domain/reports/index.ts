// Importing a report module registers it; an area adding a report adds its import here.
import './ap-aging';
import './ar-aging';
import './budget-vs-actual';
import './cash-position';
import './control-ties';
import './item-usage';
import './on-hand';
import './open-purchase-orders';
import './sales-margin';
import './grni';
import './trial-balance';

export { reportRoutes } from './registry';
export { defineReport, ReportParams } from './registry';
export { registerCommitments } from './budget-vs-actual';
