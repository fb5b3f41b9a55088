import type { WorkCalendar } from '../../../domain/calendar';
import type { Db } from '../../../events/database';
import type { Queries } from '../../../projections';
import type { ScenarioBuilder } from '../../builder';
import type { Rng } from '../../random';
import type { NorthgateMaster } from '../master';

/** What a routine of Northgate's own staff sees on one day of history. */
export interface HistoryDay {
  date: string;
  businessDay: boolean;
  /** The n-th business day of the month (1-based); 0 on other days. */
  businessDayOfMonth: number;
  /** The last business day of its month. */
  lastBusinessDay: boolean;
  b: ScenarioBuilder;
  read: Queries;
  /** The file, for the aggregate questions routines ask (the system may read; it writes only through the API). */
  db: Db;
  master: NorthgateMaster;
  rng: Rng;
  /** The last day routines may start new work (requisitions); afterwards they only finish work in flight. */
  quietFrom: string;
  calendar: WorkCalendar;
  /** The last month the history closes (the month-end work of later months is left undone). */
  closeThrough: string;
}

/** One kind of routine work the company's staff do in history, under the oracle's own policies. */
export type Routine = (day: HistoryDay) => void;
