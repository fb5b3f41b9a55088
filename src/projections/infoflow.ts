import { DataAccessGranted, DataAccessRevoked } from '../events/contracts/infoflow';
import { defineReadModel, on } from './read-model';

export interface DataAccessRow {
  id: string;
  class: 'vendor_bank' | 'payroll' | 'employee';
  grantee_type: 'role' | 'user' | 'owner';
  grantee: string | null;
  purpose: string;
  valid_from: string | null;
  valid_to: string | null;
  owner_type: 'vendor' | 'employee' | null;
  owner_id: string | null;
  granted_by: string;
  granted_date: string;
  status: 'active' | 'revoked';
  revoked_date: string | null;
}

/**
 * Grants of visibility over restricted data. Nothing is enforced on reads: the handbook states the
 * policy and the grader checks what was sent to whom (disclose_restricted). Scenarios without
 * information-flow controls leave the table empty.
 */
export const infoflow = defineReadModel({
  name: 'infoflow',
  tables: [{
    name: 'data_access',
    columns: {
      id: 'text', class: 'text', grantee_type: 'text', grantee: 'text', purpose: 'text', valid_from: 'text', valid_to: 'text',
      owner_type: 'text', owner_id: 'text', granted_by: 'text', granted_date: 'text', status: 'text', revoked_date: 'text',
    },
    key: ['id'],
    indexes: [['class']],
  }],
  handlers: [
    on(DataAccessGranted, (tx, d, e) => tx.insert('data_access', { ...d, granted_date: e.businessDate, status: 'active', revoked_date: null })),
    on(DataAccessRevoked, (tx, d, e) => void tx.update('data_access', d.id, (r) => { r.status = 'revoked'; r.revoked_date = e.businessDate; })),
  ],
  queries: (t) => ({
    grant: (id: string) => t.get<DataAccessRow & Record<string, unknown>>('data_access', id),
    grants: (cls?: string) => t.find<DataAccessRow & Record<string, unknown>>('data_access', cls ? { class: cls } : {}),
  }),
});
