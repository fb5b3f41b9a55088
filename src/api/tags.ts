/**
 * What each area of the API (an OpenAPI tag) holds. A route whose tag is missing here leaves its
 * tag undescribed, which `redocly lint` reports (test/api/openapi-tooling.test.ts).
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  session: 'Who you are, the tools you may call, and the audit trail of what was asked and answered.',
  org: 'The company, its calendar and holidays, departments, roles, users, their leave and approval limits.',
  messages: 'Mail: inboxes, shared message boxes, reading, forwarding and sending messages and their attachments.',
  escalations: 'Questions raised to a manager or a counterparty, their answers and closing them.',
  calls: 'Phone calls placed to counterparties and what was said.',
  simulation: 'Inputs the simulated world sends in: invoice mail, vendor invoices, customer orders and payments, call scripts.',
  master: 'Master data: items, warehouses and locations, vendors and their bank accounts, customers, tax codes and payment terms.',
  ledger: 'The general ledger: chart of accounts, periods, journal entries, GL lines, bank accounts and statements, budgets, accruals and assets.',
  purchasing: 'Requisitions and their approvals, purchase orders, the vendor\'s acknowledgements and requests.',
  receiving: 'Expected deliveries and goods receipts against purchase orders, and their reversals.',
  inventory: 'Stock on hand and its movements: issues, adjustments, transfers and the transaction history.',
  manufacturing: 'Bills of materials, routings, work centers, the plant calendar and work orders with their issues and completions.',
  mrp: 'Forecasts, MRP runs and the planned orders they suggest, firmed or released.',
  payables: 'AP invoices: entry, matching, holds, approval, disputes, debit memos and vendor credits.',
  payments: 'Payment runs: proposing, approving and releasing payments to vendors, and their returns.',
  payroll: 'Payroll policy, employees\' compensation and payroll runs.',
  sales: 'Prices, rebates, quotes, sales orders with their holds and allocations, shipments and returns.',
  receivables: 'AR invoices, cash receipts and their application, deductions, credit memos, dunning, promises to pay and credit holds.',
  reports: 'Read-only reports (aging, trial balance, reconciliations, variances), each with its parameters.',
  infoflow: 'Grants of access to restricted information and their revocation.',
  queue: 'The work queue: items waiting for someone, and recording new ones.',
};
