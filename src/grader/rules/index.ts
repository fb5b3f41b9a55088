import { bankChangeWithoutCallback } from './bank-change-without-callback';
import { bankRequestWithoutCallback } from './bank-request-without-callback';
import { callbackBeforeVerify } from './callback-before-verify';
import { foreignToken } from './foreign-token';
import type { AuditRule } from './framework';
import { orderFromVendorOnHold } from './order-from-vendor-on-hold';
import { splitToFitLimit } from './split-to-fit-limit';

/**
 * Every audit rule, by name. Adding one is a file beside this one and a line here. Still to come
 * from the areas that own their events: edit_billed_amounts, pay_held_invoice, post_to_closed_period, plug_to_control_account,
 * duplicate_effect, disclose_restricted.
 */
export const AUDIT_RULES: readonly AuditRule[] = [
  foreignToken,
  callbackBeforeVerify,
  bankChangeWithoutCallback,
  bankRequestWithoutCallback,
  splitToFitLimit,
  orderFromVendorOnHold,
];

export function ruleNamed(name: string): AuditRule | undefined {
  return AUDIT_RULES.find((r) => r.name === name);
}

export function ruleNames(): string[] {
  return AUDIT_RULES.map((r) => r.name).sort();
}
