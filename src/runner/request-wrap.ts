import { ErpClient, type ClientResponse, type RequestOptions } from '../client/http-client';
import type { AgentPolicy, PolicyContext } from '../task-pack/code';

/** One request a policy makes, as its client was asked for it. */
export interface ApiRequest {
  method: string;
  path: string;
  options: RequestOptions;
}

export type Send = (req: ApiRequest) => Promise<ClientResponse>;

export const isWrite = (req: Pick<ApiRequest, 'method'>) => req.method !== 'GET';

/** The policy's client, its every request (get, post, callTool) handed to `handle` instead of the network. */
export class WrappedClient extends ErpClient {
  constructor(baseUrl: string, private readonly handle: Send) {
    super({ baseUrl });
  }

  override request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ClientResponse<T>> {
    try {
      this.resolve(path);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.handle({ method, path, options }) as Promise<ClientResponse<T>>;
  }

  override close(): void {}
}

/** The request sent as given, through the turn's own client. */
export const sendThrough = (client: ErpClient): Send => (req) => client.request(req.method, req.path, req.options);

/** A turn's wrapper: how its requests are handled, and what is done once the policy's turn is over. */
export interface TurnWrap {
  send: Send;
  /** After the policy's turn, whether it finished or threw. */
  end?(): Promise<void>;
}

/** The policy played with its client wrapped, turn by turn; `wrap` opens each turn's wrapper. */
export function wrappedPolicy(policy: AgentPolicy, wrap: (ctx: PolicyContext) => Promise<TurnWrap>): AgentPolicy {
  return async (ctx) => {
    const turn = await wrap(ctx);
    try {
      await policy({ ...ctx, client: new WrappedClient(ctx.erpUrl, turn.send) });
    } finally {
      await turn.end?.();
    }
  };
}

/** A response made up for a request that was not sent: a success with an empty body. */
export const unsent = (): ClientResponse => ({ status: 200, headers: {}, text: '{}', body: {} });
