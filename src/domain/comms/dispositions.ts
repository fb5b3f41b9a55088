import { Type } from '@sinclair/typebox';
import { MessageDispositioned } from '../../events/contracts/comms';
import { defineAction, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { Body, IdInput, NoteInput, Opt } from '../schemas';
import { messageView } from './views';
import { PERSONAL, mayDisposition, visibleMessage } from './visibility';

const DispositionInput = Type.Union(['processed', 'duplicate', 'rejected', 'suspicious'].map((s) => Type.Literal(s)), {
  description: 'processed (entered or acted on), duplicate, rejected (not ours, not valid), suspicious (possible fraud)',
});

export const dispositionRoutes: RouteDef[] = [
  defineAction({
    action: 'message.disposition', method: 'POST', path: '/inbox/{id}/disposition', tag: 'messages',
    summary: 'Record what was done with an inbound message of a box you work',
    description: 'ref names the related document (the invoice entered, the original of a duplicate). A later disposition replaces the current one; the history keeps both.',
    body: Body({ disposition: DispositionInput, ref: Opt(IdInput), note: Opt(NoteInput) }),
    permission: null, objectType: 'message', emits: [MessageDispositioned],
    decide: ({ params, body }, ctx) => {
      const m = visibleMessage(ctx.read, ctx.actor, params.id!);
      if (!m) return refuse('not_found', `No message ${params.id}.`);
      if (m.direction !== 'inbound') return refuse('invalid_request', `${m.id} is a message sent from here; only inbound messages take a disposition.`, 422);
      if (!mayDisposition(ctx.actor, m)) {
        const where = m.box === PERSONAL ? `${m.owner}'s personal box` : `the ${m.box} box, which you do not work`;
        return refuse('forbidden', `${m.id} is in ${where}; you were only addressed or copied.`);
      }
      if (m.status === body.disposition) return refuse('invalid_state', `${m.id} is already marked ${m.status}.`);
      const disposition = body.disposition as 'processed';
      return emit(MessageDispositioned, { message: m.id, disposition, ref: body.ref ?? null, note: body.note ?? '', by: ctx.actor.id }, 'message', m.id);
    },
    view: (read, id, actor) => messageView(read, id, actor),
  }),
];
