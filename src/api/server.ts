import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { packageVersion } from '../package-info';
import { createAppRegistry } from '../projections';
import { ErpDb } from '../projections/erp-db';
import type { WallClock } from '../events/store';
import { createControlApp, type DayHook } from './control-app';
import { FreshCopies } from './fresh-copies';
import { createAgentApp, type RequestInterceptor } from './http-app';
import { Api } from './pipeline';
import { allRoutes } from './routes';

export interface ServerOptions {
  dbFile: string;
  controlToken: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  controlPort?: number;
  /** The agent port's interface; the control port always listens on loopback. */
  host?: string;
  /**
   * Serve the agent API on this unix socket instead of a TCP port: a sandboxed attempt's, bound
   * into its own agent's sandbox and nowhere else, so whatever arrives on it was sent from that sandbox.
   */
  agentSocket?: string;
  onDay?: DayHook;
  intercept?: RequestInterceptor;
  wallClock?: WallClock;
  /**
   * No fsync (OpenOptions.fast): for a working copy nothing outlives the process that serves it
   * (an attempt's final.db), which a crash would leave unfinished whatever was flushed. The
   * default for a server with `resetFrom`, whose file is such a copy.
   */
  fast?: boolean;
  /**
   * A clean database (a scenario's scenario.db) that POST /control/reset copies over dbFile and
   * serves from the next request on: a reset without starting a process. Its copies are served
   * without fsync unless `fast` is false: the switch of a fresh copy to WAL would otherwise flush
   * the whole copy to disk (tens of milliseconds for a year's history, most of a reset).
   */
  resetFrom?: string;
  /** Runs on the served file once it is open, at the start and after every reset (tokens a person was given are issued into each copy). */
  afterReset?: (api: Api) => void;
}

export interface RunningServer {
  /** The agent API's URL; `unix:PATH` when it is served on a unix socket (agentSocket). */
  url: string;
  controlUrl: string;
  /** The interfaces the two ports are bound to, as the sockets report them. */
  boundAddresses: { agent: string; control: string };
  api: Api;
  /** The database served now (a reset replaces it). */
  readonly erp: ErpDb;
  /** Serves a fresh copy of `resetFrom` (the same as POST /control/reset). */
  reset(): Promise<void>;
  /** Resolves once both ports are closed and the database is checkpointed and closed. */
  closed: Promise<void>;
  close(): Promise<void>;
}

function listen(server: Server, port: number | string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const done = () => resolve(typeof port === 'string' ? 0 : (server.address() as AddressInfo).port);
    if (typeof port === 'string') server.listen(port, done);
    else server.listen(port, host, done);
  });
}

/** Opens the database and serves the agent API and the control API. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const registry = createAppRegistry();
  const fast = options.fast ?? options.resetFrom !== undefined;
  const open = () => ErpDb.open(options.dbFile, registry, { wallClock: options.wallClock, fast });
  const copies = options.resetFrom ? FreshCopies.beside(options.resetFrom, options.dbFile) : undefined;
  await copies?.take(options.dbFile);
  let erp = open();
  const routes = allRoutes();
  const api = new Api(erp, routes);
  const reset = copies ? async () => {
    erp.close();
    await copies.take(options.dbFile);
    erp = open();
    api.replaceDatabase(erp);
    options.afterReset?.(api);
  } : undefined;
  const version = packageVersion();
  let closing: Promise<void> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));

  const agent = await createHttpServer(createAgentApp(api, { '/openapi.json': () => openApiOf(routes, version) }, options.intercept), options.agentSocket ?? options.port ?? 0, options.host ?? '127.0.0.1');
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await Promise.all([shutdown(agent.server), shutdown(control.server), copies?.dispose()]);
      try {
        erp.db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        erp.close();
        resolveClosed();
      }
    })();
    return closing;
  };
  const control = await createHttpServer(createControlApp(api, { token: options.controlToken, onDay: options.onDay, onShutdown: () => void close(), onReset: reset }), options.controlPort ?? 0, '127.0.0.1');
  return {
    url: options.agentSocket ? `unix:${options.agentSocket}` : `http://127.0.0.1:${agent.port}`,
    controlUrl: `http://127.0.0.1:${control.port}`,
    boundAddresses: { agent: options.agentSocket ?? (agent.server.address() as AddressInfo).address, control: (control.server.address() as AddressInfo).address },
    api,
    get erp() {
      return erp;
    },
    reset: async () => {
      if (!reset) throw new Error('This server was not started with a file to reset from.');
      await reset();
    },
    closed,
    close,
  };
}

// The documents are built on first request, and their modules loaded then: a server starts without them.
function openApiOf(routes: ReturnType<typeof allRoutes>, version: string): object {
  return (require('./openapi') as typeof import('./openapi')).buildOpenApi(routes, version);
}

async function createHttpServer(app: RequestListener, port: number | string, host: string): Promise<{ server: Server; port: number }> {
  const server = createServer(app);
  server.keepAliveTimeout = 30_000;
  return { server, port: await listen(server, port, host) };
}

function shutdown(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
