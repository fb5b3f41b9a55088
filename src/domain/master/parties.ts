import { registerPartyDirectory } from '../comms/parties';

// Vendors and customers are parties one can call or write to: the number and address on file.
registerPartyDirectory('vendor', (read) => (id) => {
  const v = read.vendors.vendor(id);
  return v ? { type: 'vendor', id: v.id, name: v.name, phone: v.phone || null, email: v.email || null } : undefined;
});

registerPartyDirectory('customer', (read) => (id) => {
  const c = read.customers.customer(id);
  return c ? { type: 'customer', id: c.id, name: c.name, phone: c.phone || null, email: c.email || null } : undefined;
});
