import { findParty } from '../../src/domain/comms/parties';
import '../../src/api/routes';
import { openTestErp, systemCall } from '../support/erp';
import { seedBooks, seedVendor } from '../support/books-fixture';

describe('a vendor and a customer in master data', () => {
  const { api } = openTestErp();
  seedBooks(api);
  seedVendor(api);
  systemCall(api, 'POST', '/customers', { id: 'C-0001', name: 'Lakeside Plumbing', credit_limit: 5000, terms: 'NET30', email: 'ap@lakeside.example', phone: '+1 555 0101' });

  it('are parties a call can reach, at the number on file', () => {
    expect(findParty(api.read, 'vendor', 'V-0142')).toEqual({ type: 'vendor', id: 'V-0142', name: 'Mid-State Brass Supply', phone: '+1 555 0142', email: 'ar@midstate.example' });
    expect(findParty(api.read, 'customer', 'C-0001')).toMatchObject({ name: 'Lakeside Plumbing', phone: '+1 555 0101' });
  });

  it('do not make up a party that does not exist', () => {
    expect(findParty(api.read, 'vendor', 'V-9999')).toBeUndefined();
  });
});
