import { addDays, isBusinessDay, nextBusinessDay, previousBusinessDay, type WorkCalendar } from '../../../domain/calendar';
import type { ScenarioBuilder } from '../../builder';
import { rng } from '../../random';
import { createSimulator } from '../../simulator';
import type { World } from '../../world';
import type { NorthgateMaster } from '../master';
import { closeMonth } from './books';
import { customerProfiles } from './customers';
import { restockReno } from './finished-goods';
import { applyCash, applyOnAccount, dunCustomers, resolveDeductions, reviewCredit } from './receivables';
import { allocateBackorders, billShipments, creditRebates, creditReturns, enterSalesMail } from './sales';
import { openSales } from './sales-opening';
import type { HistoryDay, Routine } from './context';
import { openBooks } from './opening';
import { counterpartyProfiles } from './profiles';
import { monthlyBills, validateAndApprove, weeklyPaymentRun } from './payables';
import { forecastDemand, planProduction, runProduction } from './production';
import { buyApproved, departmentSpend, replenishStock } from './purchasing';

/** The company's own routine work, in the order it happens each day after the counterparties act. */
export const ROUTINES: readonly Routine[] = [
  forecastDemand, replenishStock, departmentSpend, buyApproved, planProduction, runProduction, validateAndApprove, monthlyBills, weeklyPaymentRun,
  restockReno, applyCash, applyOnAccount, resolveDeductions, reviewCredit, dunCustomers, enterSalesMail, allocateBackorders,
  billShipments, creditReturns, creditRebates, closeMonth,
];

/**
 * Twelve months of history (seed 000 environment §2): the simulator's counterparties and the
 * company's own staff, day by day from the first day of history to `end`, each acting through the
 * API as themselves. New purchasing stops three business days before the end, so no request is
 * left half-way in anyone's queue when a task takes over.
 */
export function buildHistory(b: ScenarioBuilder, master: NorthgateMaster, world: World, end: string, progress?: (date: string) => void): void {
  counterpartyProfiles(world, master, rng(b.seed, 'northgate.profiles'));
  openBooks(b, master, rng(b.seed, 'northgate.opening'));
  const company = b.api.read.clock.company();
  const calendar: WorkCalendar = { workdays: company?.workdays ?? [1, 2, 3, 4, 5], isHoliday: (d) => b.api.read.clock.isHoliday(d) };
  customerProfiles(world, master, rng(b.seed, 'northgate.customer-profiles'), b.today(), end, calendar);
  openSales(b, master, rng(b.seed, 'northgate.sales-opening'));
  let quietFrom = end;
  for (let i = 0; i < 3; i++) quietFrom = previousBusinessDay(quietFrom, calendar);
  const simulate = createSimulator(world, b.tokens);
  const routineRng = rng(b.seed, 'northgate.routines');
  b.advanceTo(end, (date, api) => {
    simulate(date, api);
    const businessDay = isBusinessDay(date, calendar);
    const day: HistoryDay = {
      date, businessDay, businessDayOfMonth: businessDay ? businessDayOfMonth(date, calendar) : 0,
      lastBusinessDay: businessDay && nextBusinessDay(date, calendar).slice(0, 7) !== date.slice(0, 7),
      b, read: api.read, db: api.erp.db, master, rng: routineRng, quietFrom,
    };
    for (const routine of ROUTINES) routine(day);
    progress?.(date);
  });
}


function businessDayOfMonth(date: string, calendar: WorkCalendar): number {
  let n = 0;
  for (let d = `${date.slice(0, 7)}-01`; d <= date; d = addDays(d, 1)) if (isBusinessDay(d, calendar)) n += 1;
  return n;
}
