import { Type } from '@sinclair/typebox';
import { MessageDelivered } from '../../events/contracts/comms';
import { defineAction, type RouteDef } from '../action';
import { isRefusal } from '../decision';
import { toCents } from '../money';
import { Body, DateInput, MoneyInput, Opt, QuantityInput } from '../schemas';
import { invoiceAttachment, type InvoiceDocument } from './documents';
import { toAttachmentFiles } from './inputs';
import { deliverInbound, InboundEnvelope, view } from './messages';
import { DELIVER } from './visibility';

const Line = Type.String({ maxLength: 200 });
const Party = Type.Object({ name: Line, address: Type.Array(Line, { maxItems: 6 }) }, { additionalProperties: false });
const BankDigits = Type.String({ pattern: '^[0-9]{4,17}$' });

/** A vendor invoice as printed, with decimal money: the fields renderInvoiceDocument prints. */
export const InvoiceDocumentInput = Type.Object({
  vendor: Type.Object({ name: Line, address: Type.Array(Line, { maxItems: 6 }), phone: Opt(Line), email: Opt(Line), tax_id: Opt(Line) }, { additionalProperties: false }),
  invoice_number: Type.String({ minLength: 1, maxLength: 80, description: 'As printed' }),
  invoice_date: DateInput,
  due_date: Opt(DateInput),
  bill_to: Party,
  ship_to: Opt(Party),
  customer_po: Type.Union([Type.String({ maxLength: 80 }), Type.Null()]),
  lines: Type.Array(Type.Object({
    po_line: Opt(Type.Integer({ minimum: 1 })), item: Type.Union([Type.String({ maxLength: 80 }), Type.Null()]), description: Line,
    quantity: QuantityInput, unit: Opt(Type.String({ maxLength: 20 })), unit_price: MoneyInput, amount: MoneyInput,
  }, { additionalProperties: false }), { minItems: 1, maxItems: 200 }),
  subtotal: Opt(MoneyInput),
  tax: Opt(MoneyInput),
  tax_label: Opt(Line),
  freight: Opt(MoneyInput),
  total: Opt(MoneyInput),
  terms: Type.String({ maxLength: 40 }),
  remit_to: Opt(Type.Object({ name: Opt(Line), bank_name: Opt(Line), routing: Opt(BankDigits), account: Opt(BankDigits), address: Opt(Type.Array(Line, { maxItems: 6 })) }, { additionalProperties: false })),
  new_bank_notice: Opt(Type.Object({ heading: Opt(Line), text: Opt(Type.String({ maxLength: 2000 })), bank_name: Opt(Line), routing: BankDigits, account: BankDigits, effective_date: Opt(Line) }, { additionalProperties: false })),
  notes: Opt(Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 20 })),
}, { additionalProperties: false });

type Input = import('@sinclair/typebox').Static<typeof InvoiceDocumentInput>;
const cents = (v: number | string | undefined) => (v === undefined ? undefined : toCents(v));

function documentOf(i: Input): InvoiceDocument {
  return {
    vendor: i.vendor, invoice_number: i.invoice_number, invoice_date: i.invoice_date, due_date: i.due_date, bill_to: i.bill_to, ship_to: i.ship_to,
    customer_po: i.customer_po,
    lines: i.lines.map((l) => ({ po_line: l.po_line ?? null, item: l.item, description: l.description, quantity: l.quantity, unit: l.unit, unit_price_cents: toCents(l.unit_price), amount_cents: toCents(l.amount) })),
    subtotal_cents: cents(i.subtotal), tax_cents: cents(i.tax), tax_label: i.tax_label, freight_cents: cents(i.freight), total_cents: cents(i.total),
    terms: i.terms, remit_to: i.remit_to ?? null, new_bank_notice: i.new_bank_notice ?? null, notes: i.notes,
  };
}

/**
 * A vendor's invoice mailed to a box, printed by the one invoice renderer: scenario generators plant
 * invoices through it, so every invoice an agent reads looks the same whoever planted it.
 */
export const invoiceMailRoutes: RouteDef[] = [
  defineAction({
    action: 'message.deliver_invoice', method: 'POST', path: '/sim/invoice-mail', tag: 'simulation', status: 201,
    summary: "Deliver a vendor's invoice into a box, printed from its fields as attachment 1 (scenario generators)",
    body: Body({ ...InboundEnvelope, invoice: InvoiceDocumentInput }),
    permission: DELIVER, objectType: 'message', emits: [MessageDelivered],
    decide: ({ body }, ctx) => {
      const files = toAttachmentFiles([invoiceAttachment(documentOf(body.invoice)), ...(body.attachments ?? [])]);
      if (isRefusal(files)) return files;
      return deliverInbound(body, files, ctx);
    },
    view,
  }),
];
