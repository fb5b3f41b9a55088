/** Running MRP. */
export const MRP_RUN = 'mrp.run';
/** Firming planned orders and releasing them into purchase orders and work orders. */
export const MRP_RELEASE = 'mrp.release';
/** Setting an item's forecast. */
export const FORECAST_SET = 'forecast.set';
