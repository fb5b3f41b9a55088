import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServerOptions } from '../../src/api/server';
import { ErpClient } from '../../src/client/http-client';
import { testWallClock } from './erp';
import { seedSmallOrg } from '../../src/sim/small-company';

export const CONTROL_TOKEN = 'control-secret';

/** A live server on loopback over a fresh file holding the small test company. */
export async function liveServer(options: Partial<ServerOptions> = {}): Promise<{ server: RunningServer; tokens: ReturnType<typeof seedSmallOrg>; client: (token: string | null) => ErpClient; control: ErpClient; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-http-'));
  const server = await startServer({ dbFile: join(dir, 'erp.db'), controlToken: CONTROL_TOKEN, wallClock: testWallClock, ...options });
  const tokens = seedSmallOrg(server.api);
  return {
    server,
    tokens,
    dir,
    client: (token) => new ErpClient({ baseUrl: server.url, token, timeoutMs: 10_000 }),
    control: new ErpClient({ baseUrl: server.controlUrl, token: CONTROL_TOKEN, timeoutMs: 10_000 }),
  };
}
