import type { RouteDef } from '../action';
import { callRoutes } from './calls';
import { dispositionRoutes } from './dispositions';
import { escalationRoutes } from './escalations';
import { invoiceMailRoutes } from './invoice-mail';
import { mailboxRoutes } from './mailbox';
import { messageRoutes } from './messages';

/** Every route of the communication area (seed §3 Communication, §7, §8). */
export const commsRoutes: RouteDef[] = [...messageRoutes, ...mailboxRoutes, ...dispositionRoutes, ...escalationRoutes, ...callRoutes, ...invoiceMailRoutes];
