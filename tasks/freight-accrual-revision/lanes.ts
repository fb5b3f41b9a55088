/**
 * MVF's rate schedule as its mail states it, and the accrual arithmetic, written once for the
 * generator (which states the rates and computes the truth) and the policies (which read the mail).
 */
export interface Lane {
  lane: string;
  origin: string;
  shippers: string[];
  /** Percent of the goods value, two decimals, as text ("1.55"). */
  rate: string;
}

export const CARRIER = 'Miami Valley Freight Lines';
export const CARRIER_ADDRESS = 'billing@mvfreight.example';
export const ACCOUNTING_ADDRESS = 'accounting@northgatevalve.example';
export const FREIGHT_IN = '5200';
export const ACCRUED_LIABILITIES = '2300';

export const scheduleSubject = (month: string) => `MVF rate schedule, ${month}`;

export function scheduleBody(month: string, lanes: readonly Lane[]): string {
  const rows = lanes.map((l) => `${l.lane} | ${l.origin} | ${l.shippers.join('; ')} | ${l.rate}%`).join('\n');
  return [
    `Northgate Valve Co., account NG-4471.`, '',
    `Freight-collect rates for inbound deliveries to Dayton, ${month}, as a percentage of the goods value of each delivery:`, '',
    'Lane | Origin | Shippers | Rate', rows, '',
    'Deliveries from shippers not listed are not carried or billed by MVF. We bill each month\'s deliveries on the 12th of the following month.', '',
    `${CARRIER}, customer accounts`,
  ].join('\n');
}

/** The lanes of a schedule body: `L1 | Dayton, OH | Mid-State Metals; Riverbend Alloys | 1.55%`. */
export function parseSchedule(body: string): Lane[] {
  const lanes: Lane[] = [];
  for (const m of body.matchAll(/^(L\d+) \| ([^|]+) \| ([^|]+) \| (\d+\.\d{2})%$/gm)) {
    lanes.push({ lane: m[1]!, origin: m[2]!.trim(), shippers: m[3]!.split(';').map((s) => s.trim()), rate: m[4]! });
  }
  return lanes;
}

/** The accrual in cents: the goods value times the rate, to the nearest cent, half a cent up. */
export function accrualCents(valueCents: number, rate: string): number {
  const hundredths = Math.round(Number(rate) * 100);
  return Math.floor((valueCents * hundredths + 5000) / 10000);
}
