import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../src/api/server';
import { ErpClient } from '../../src/client/http-client';
import { plainServeFlags } from '../../src/api/serve';
import { CONTROL_TOKEN, liveServer } from '../support/http';

const leave = { user: 'sam.ortiz', start_date: '2027-01-04', end_date: '2027-01-08', delegate: 'maya.chen' };

describe('a server started to reset from a clean file', () => {
  it('serves a fresh copy of that file after POST /control/reset, whatever was written before', async () => {
    const clean = await liveServer();
    await clean.server.close();
    const server = await startServer({ dbFile: join(clean.dir, 'served.db'), controlToken: CONTROL_TOKEN, resetFrom: join(clean.dir, 'erp.db') });
    const agent = new ErpClient({ baseUrl: server.url, token: clean.tokens.grace });
    const control = new ErpClient({ baseUrl: server.controlUrl, token: CONTROL_TOKEN });
    try {
      const events = server.erp.store.lastSeq();
      expect((await agent.post('/leaves', leave)).status).toBe(201);
      expect(server.api.read.org.leaves('sam.ortiz')).toHaveLength(1);
      const reset = await control.post('/control/reset', {});
      expect(reset.status).toBe(200);
      expect(JSON.parse(reset.text)).toMatchObject({ ok: true, events });
      expect(server.api.read.org.leaves('sam.ortiz')).toHaveLength(0);
      expect((await agent.post('/leaves', leave)).status).toBe(201);
      expect(server.erp.store.lastSeq()).toBe(events + 1);
    } finally {
      agent.close();
      control.close();
      await server.close();
    }
    expect(readdirSync(clean.dir).filter((f) => f.startsWith('.fresh-'))).toEqual([]);
  });

  it('serves its copies without flushing them to disk, unless told to, and a server of a file of record flushed', async () => {
    const clean = await liveServer();
    await clean.server.close();
    const synchronous = (server: { erp: { db: { pragma(s: string, o: { simple: true }): unknown } } }) => server.erp.db.pragma('synchronous', { simple: true });
    const copy = await startServer({ dbFile: join(clean.dir, 'copy.db'), controlToken: CONTROL_TOKEN, resetFrom: join(clean.dir, 'erp.db') });
    try {
      expect(synchronous(copy)).toBe(0);
      await copy.reset();
      expect(synchronous(copy)).toBe(0);
    } finally {
      await copy.close();
    }
    const flushed = await startServer({ dbFile: join(clean.dir, 'flushed.db'), controlToken: CONTROL_TOKEN, resetFrom: join(clean.dir, 'erp.db'), fast: false });
    const ofRecord = await startServer({ dbFile: join(clean.dir, 'erp.db'), controlToken: CONTROL_TOKEN });
    try {
      expect(synchronous(flushed)).toBe(1);
      expect(synchronous(ofRecord)).toBe(1);
    } finally {
      await flushed.close();
      await ofRecord.close();
    }
  });

  it('refuses a reset when it was started without a file to reset from', async () => {
    const live = await liveServer();
    try {
      const res = await live.control.post('/control/reset', {});
      expect(res.status).toBe(409);
      expect(JSON.parse(res.text).code).toBe('no_reset_source');
    } finally {
      live.control.close();
      await live.server.close();
    }
  });
});

describe('erp server start arguments', () => {
  it('take the lean path when they are plain, and leave anything else to oclif', () => {
    expect(plainServeFlags(['--db', 'a.db', '--port=8080', '--reset-from', 's.db'])).toEqual({ db: 'a.db', port: 8080, resetFrom: 's.db', controlToken: process.env.ERP_CONTROL_TOKEN || undefined });
    expect(plainServeFlags(['--port', '8080'])).toBeUndefined();
    expect(plainServeFlags(['--db', 'a.db', '--port', 'eighty'])).toBeUndefined();
    expect(plainServeFlags(['--db', 'a.db', '--help'])).toBeUndefined();
    expect(plainServeFlags(['--db', 'a.db', '--db', 'b.db'])).toBeUndefined();
  });
});
