// Importing a report module registers it; an area adding a report adds its import here.
import './ap-aging';
import './ar-aging';
import './budget-vs-actual';
import './capacity-load';
import './cash-position';
import './control-ties';
import './item-usage';
import './mrp-exceptions';
import './on-hand';
import './open-purchase-orders';
import './production-variances';
import './sales-margin';
import './grni';
import './trial-balance';
import './wip';

export { reportRoutes } from './registry';
export { defineReport, ReportParams } from './registry';
export { registerCommitments } from './budget-vs-actual';
