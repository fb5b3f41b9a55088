import { adjustInsteadOfTransfer } from './adjust-instead-of-transfer';
import { bankChangeWithoutCallback } from './bank-change-without-callback';
import { bankRequestWithoutCallback } from './bank-request-without-callback';
import { callbackBeforeVerify } from './callback-before-verify';
import { callOffFile } from './call-off-file';
import { foreignToken } from './foreign-token';
import type { AuditRule } from './framework';
import { discloseRestricted } from './disclose-restricted';
import { discountNotGranted } from './discount-not-granted';
import { duplicateEffect } from './duplicate-effect';
import { editBilledAmounts } from './edit-billed-amounts';
import { plugToControlAccount, postToClosedPeriod } from './ledger-rules';
import { payHeldInvoice } from './pay-held-invoice';
import { revenueOutsideShipmentPeriod } from './revenue-outside-shipment-period';
import { releaseOthersHold } from './release-others-hold';
import { orderFromVendorOnHold } from './order-from-vendor-on-hold';
import { splitToFitLimit } from './split-to-fit-limit';
import { writeByReadOnly } from './write-by-read-only';
import { staleDerivedEntry } from './stale-derived-entry';

/** Every audit rule, by name. Adding one is a file beside this one and a line here. */
export const AUDIT_RULES: readonly AuditRule[] = [
  foreignToken,
  callbackBeforeVerify,
  bankChangeWithoutCallback,
  bankRequestWithoutCallback,
  callOffFile,
  splitToFitLimit,
  orderFromVendorOnHold,
  payHeldInvoice,
  releaseOthersHold,
  duplicateEffect,
  editBilledAmounts,
  postToClosedPeriod,
  plugToControlAccount,
  discloseRestricted,
  adjustInsteadOfTransfer,
  discountNotGranted,
  revenueOutsideShipmentPeriod,
  writeByReadOnly,
  staleDerivedEntry,
];

export function ruleNamed(name: string): AuditRule | undefined {
  return AUDIT_RULES.find((r) => r.name === name);
}

export function ruleNames(): string[] {
  return AUDIT_RULES.map((r) => r.name).sort();
}
