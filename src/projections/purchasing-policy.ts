import { RequisitionFirstApproverSet } from '../events/contracts/purchasing-policy';
import { defineReadModel, on } from './read-model';

export interface PurchasingPolicyRow {
  id: number;
  first_approver_rule: 'department_manager' | 'named_user';
  first_approver: string | null;
}

export const purchasingPolicy = defineReadModel({
  name: 'purchasing-policy',
  tables: [{ name: 'purchasing_policy', columns: { id: 'integer', first_approver_rule: 'text', first_approver: 'text' }, key: ['id'] }],
  handlers: [
    on(RequisitionFirstApproverSet, (tx, d) => {
      tx.upsert('purchasing_policy', { id: 1, first_approver_rule: d.rule, first_approver: d.user }, (r) => {
        r.first_approver_rule = d.rule;
        r.first_approver = d.user;
      });
    }),
  ],
  queries: (t) => ({
    /** The first approver of a submitted requisition of a department, or undefined when it has none. */
    firstApprover(department: { manager: string | null } | undefined): string | undefined {
      const policy = t.get<PurchasingPolicyRow & Record<string, unknown>>('purchasing_policy', 1);
      if (policy?.first_approver_rule === 'named_user' && policy.first_approver) return policy.first_approver;
      return department?.manager ?? undefined;
    },
    policy: () => t.get<PurchasingPolicyRow & Record<string, unknown>>('purchasing_policy', 1) ?? { id: 1, first_approver_rule: 'department_manager' as const, first_approver: null },
  }),
});
