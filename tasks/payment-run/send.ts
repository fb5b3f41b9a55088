import type { ErpClient } from '../../src/client/http-client';
import { post } from '../shared/http';

/** How a policy treats a write whose response was lost: the oracle sends it again with the same key. */
export type Retry = 'same-key' | 'blind';

/** A write under the policy's retry habit: the oracle re-sends with the same key, a blind retry without one. */
export const send = (client: ErpClient, path: string, body: unknown, key: string, retry: Retry) => post(client, path, body, retry === 'same-key' ? key : undefined);
