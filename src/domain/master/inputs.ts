import { Type } from '@sinclair/typebox';

/** Request pieces shared by the master-data routes. */
export const VendorIdInput = Type.String({ pattern: '^V-[A-Z0-9]{1,12}$', description: 'Vendor id, e.g. V-0142' });
export const AccountInput = Type.String({ pattern: '^[0-9]{4,6}$', description: 'Account code' });
export const MonthInput = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' });
export const EmailInput = Type.Union([Type.String({ format: 'email' }), Type.Literal('')]);
export const PhoneInput = Type.String({ maxLength: 40 });
export const AddressInput = Type.String({ maxLength: 1000 });
export const NameInput = Type.String({ minLength: 1, maxLength: 200 });
