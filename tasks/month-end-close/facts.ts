/** The dates and accounts the generator plants and the policies work by, written once. */
export const PERIOD = '2026-09';
export const MONTH_END = '2026-09-30';
export const REVERSE_ON = '2026-10-01';
export const AGENT = 'lena.park';
export const PAYROLL_ADMIN = 'mia.santos';

export const WAGES = '6300';
export const PAYROLL_TAXES = '6310';
export const ACCRUED_PAYROLL = '2310';
export const ACCRUED_LIABILITIES = '2300';
export const GRNI = '2100';

/** The expense accounts of the bills that come in arrears: utilities and professional fees. */
export const ARREARS_ACCOUNTS = ['6150', '6450'];

export const PAYROLL_SUBJECT = 'Payroll accrual for September';
export const ARREARS_MEMO = 'Accrued utilities and professional fees for September, billed in October';

/** One department's line of payroll's accrual report: `FIN: wages 1,234.56; employer taxes 123.45`. */
export const PAYROLL_LINE = /^([A-Z]+): wages ([\d,]+\.\d\d); employer taxes ([\d,]+\.\d\d)$/gm;

/** The bill an arrears accrual line is estimated at, named in the line's memo. */
export const BILL_REF = /\bAPINV-\d+\b/;
