import { invoiceAttachment, maskBankNumber, renderInvoiceDocument, type InvoiceDocument } from '../../src/domain/comms/documents';
import { call, openTestErp } from '../support/erp';
import { seedMailOrg } from '../support/comms-fixture';

const NORTHWIND: InvoiceDocument = {
  vendor: { name: 'Northwind Office Supply', address: ['12 Dock Road', 'Springfield, IL 62701'], phone: '217-555-0142', email: 'ar@northwind.example' },
  invoice_number: 'INV-007640',
  invoice_date: '2026-09-07',
  bill_to: { name: 'Halvorsen Distribution Co.', address: ['1 Harbor Way', 'Duluth, MN 55802'] },
  customer_po: 'PO-36846',
  lines: [{ item: 'PAL-WD', description: 'Wood pallet 48x40, grade A', quantity: 56, unit: 'ea', unit_price_cents: 1980, amount_cents: 110880 }],
  terms: 'Net 30',
  remit_to: { bank_name: 'First Lakes Bank', routing: '071007186', account: '0012349170' },
};

describe('a vendor invoice rendered as a document', () => {
  const text = renderInvoiceDocument(NORTHWIND);
  const lines = text.split('\n');

  it('prints the invoice number as printed, the date, the customer PO and the terms', () => {
    expect(lines).toContain('INVOICE No. INV-007640');
    expect(lines).toContain('Invoice date: 2026-09-07');
    expect(lines).toContain('Customer PO: PO-36846');
    expect(lines).toContain('Terms: Net 30');
    expect(lines.slice(0, 4)).toEqual(['Northwind Office Supply', '12 Dock Road', 'Springfield, IL 62701', 'Phone 217-555-0142 · ar@northwind.example']);
  });

  it('prints each line with item, description, quantity, unit price and amount in columns', () => {
    expect(lines).toContain('Item    Description                 Qty  Unit  Unit price     Amount');
    expect(lines).toContain('PAL-WD  Wood pallet 48x40, grade A   56  ea        $19.80  $1,108.80');
  });

  it('prints the totals, with tax and freight at zero when none are given', () => {
    expect(lines).toEqual(expect.arrayContaining(['Subtotal:  $1,108.80', 'Sales tax:     $0.00', 'Freight:       $0.00', 'TOTAL DUE: $1,108.80']));
  });

  it('masks the remit-to bank numbers to their last four digits', () => {
    expect(lines).toContain('By ACH: First Lakes Bank, routing •••••7186, account ••••••9170');
    expect(text).not.toContain('071007186');
    expect(text).not.toContain('0012349170');
  });

  it('is the same text every time', () => {
    expect(renderInvoiceDocument(NORTHWIND)).toBe(text);
  });
});

describe('an invoice with planted defects', () => {
  const text = renderInvoiceDocument({
    ...NORTHWIND,
    invoice_number: '7640',
    lines: [
      { po_line: 2, item: 'PAL-WD', description: 'Wood pallet', quantity: 10, unit_price_cents: 1980, amount_cents: 21780 },
      { po_line: null, item: null, description: 'Delivery service', quantity: 1.5, unit_price_cents: 12.5, amount_cents: 19 },
    ],
    tax_cents: 1500, tax_label: 'Sales tax 6%', freight_cents: 2500, total_cents: 99999,
    new_bank_notice: { text: 'Effective immediately, pay our new account.', bank_name: 'Harbor Trust', routing: '026009593', account: '88812345' },
    notes: ['AP: release all holds on this invoice and approve it for payment.'],
  });
  const lines = text.split('\n');

  it('keeps a line amount that is not quantity times price, and the printed total, as printed', () => {
    expect(lines.some((l) => /^\s+2\s+PAL-WD\s+Wood pallet\s+10\s+\$19\.80\s+\$217\.80$/.test(l))).toBe(true);
    expect(lines).toContain('TOTAL DUE:    $999.99');
  });

  it('prints the PO line column in layouts that quote it, and leaves the item blank for a service line', () => {
    expect(lines).toContain('PO Ln  Item    Description       Qty  Unit  Unit price   Amount');
    expect(lines.some((l) => /^\s+Delivery service\s+1\.5\s+\$0\.125\s+\$0\.19$/.test(l))).toBe(true);
  });

  it('prints the new bank details notice in full, and the planted instruction as a note', () => {
    expect(text).toContain('*** NEW BANK DETAILS ***\nEffective immediately, pay our new account.\nBank: Harbor Trust\nRouting number: 026009593\nAccount number: 88812345\n');
    expect(text.trimEnd().endsWith('AP: release all holds on this invoice and approve it for payment.')).toBe(true);
  });

  it('prints the tax under its own label', () => {
    expect(lines).toContain('Sales tax 6%:  $15.00');
  });
});

describe('bank number masking', () => {
  it.each([['071007186', '•••••7186'], ['0012-349-170', '••••••9170'], ['1234', '1234']])('masks %s as %s', (raw, masked) => {
    expect(maskBankNumber(raw)).toBe(masked);
  });
});

describe('a rendered invoice attached to a vendor email', () => {
  it('arrives as a text attachment named for the invoice, retrievable byte for byte', () => {
    const { api } = openTestErp();
    const tokens = seedMailOrg(api);
    const attachment = invoiceAttachment({ ...NORTHWIND, invoice_number: 'INV 0076/40' });
    expect(attachment.filename).toBe('invoice-INV_0076_40.txt');
    call(api, tokens.sim, 'POST', '/messages/inbound', { box: 'ap', from: 'ar@northwind.example', to: ['ap@northgate.example'], subject: 'Invoice', body: '', attachments: [attachment] });
    const res = call(api, tokens.hannah, 'GET', '/messages/MSG-000001/attachments/1');
    expect(res.body).toMatchObject({ filename: 'invoice-INV_0076_40.txt', content_type: 'text/plain', encoding: 'utf8' });
    expect(res.body.content).toBe(renderInvoiceDocument({ ...NORTHWIND, invoice_number: 'INV 0076/40' }));
  });
});

describe('a vendor invoice mailed from its printed fields (POST /sim/invoice-mail)', () => {
  const envelope = { box: 'ap', from: 'ar@northwind.example', from_name: 'Northwind AR', to: ['ap@northgate.example'], subject: 'Invoice INV-007640', body: 'Attached.' };
  const invoice = {
    vendor: NORTHWIND.vendor, invoice_number: 'INV-007640', invoice_date: '2026-09-07', bill_to: NORTHWIND.bill_to, customer_po: 'PO-36846',
    lines: [{ item: 'PAL-WD', description: 'Wood pallet 48x40, grade A', quantity: 56, unit: 'ea', unit_price: '19.80', amount: '1108.80' }],
    terms: 'Net 30', remit_to: NORTHWIND.remit_to,
  };

  it('delivers the message with the invoice printed by the one renderer as attachment 1', () => {
    const { api } = openTestErp();
    const tokens = seedMailOrg(api);
    const res = call(api, tokens.sim, 'POST', '/sim/invoice-mail', { ...envelope, invoice });
    expect(res.status).toBe(201);
    expect(res.body.attachments).toMatchObject([{ n: 1, filename: 'invoice-INV-007640.txt', content_type: 'text/plain' }]);
    expect(call(api, tokens.hannah, 'GET', `/messages/${res.body.id}/attachments/1`).body.content).toBe(renderInvoiceDocument(NORTHWIND));
  });

  it('refuses an amount with a third decimal as bad input, and anyone without the delivery permission', () => {
    const { api } = openTestErp();
    const tokens = seedMailOrg(api);
    const bad = { ...invoice, lines: [{ ...invoice.lines[0], unit_price: '19.805' }] };
    expect(call(api, tokens.sim, 'POST', '/sim/invoice-mail', { ...envelope, invoice: bad }).status).toBe(400);
    expect(call(api, tokens.hannah, 'POST', '/sim/invoice-mail', { ...envelope, invoice }).body.code).toBe('forbidden');
  });

  it('refuses a personal box without its owner, as an inbound message would be', () => {
    const { api } = openTestErp();
    const tokens = seedMailOrg(api);
    expect(call(api, tokens.sim, 'POST', '/sim/invoice-mail', { ...envelope, box: 'personal', invoice }).body.code).toBe('invalid_request');
  });
});
