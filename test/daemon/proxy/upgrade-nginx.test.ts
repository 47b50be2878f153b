import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Edge } from '../../../daemon/proxy/edge.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import { findCrs, RuleGroups } from '../../../daemon/rule-sets/rule-groups.js';
import { RecordingSink } from './helpers.js';
import { converse, selfSigned, type Transport } from './upgrade-fixtures.js';

// The review's reproduction, against a real nginx origin (Debian package `nginx`; .ci/run installs
// it): nginx does not switch protocols for a location without WebSocket proxying, answers the
// upgrade request and parses the next bytes on the connection as a new request. Through the edge,
// nginx's access log must hold the upgrade request only: never the request pipelined behind it,
// never a request whose body the WAF refused.

const NGINX = '/usr/sbin/nginx';
const crs = findCrs('/usr/share/modsecurity-crs');
const ATTACK_QUERY = "id=1'%20OR%20'1'='1";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)); });
  });
}

/** Resolves once nginx accepts connections; rejects if it exits first. */
function accepting(port: number, child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let exited = false;
    child.once('exit', (code) => { exited = true; reject(new Error(`nginx exited with ${code}`)); });
    const attempt = () => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(); });
      s.once('error', () => { s.destroy(); if (!exited) setTimeout(attempt, 20); });
    };
    attempt();
  });
}

async function startNginx(dir: string): Promise<{ url: string; log: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'access.log'), '');
  writeFileSync(join(dir, 'nginx.conf'), `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location /wp-admin/ { return 200 "PROTECTED wp-admin reached, uri=$uri args=$args\\n"; }
    location / { return 200 "public uri=$uri\\n"; }
  }
}
`);
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await accepting(port, child);
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => readFileSync(join(dir, 'access.log'), 'utf8'),
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) { resolve(); return; }
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

describe.skipIf(!existsSync(NGINX) || crs === null)('upgrade requests in front of nginx (needs /usr/sbin/nginx and modsecurity-crs)', () => {
  let dir: string;
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  let edge: Edge;
  const transports: Transport[] = [];
  let serial = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wafctl-upgrade-nginx-'));
    nginx = await startNginx(dir);
    const tls = selfSigned(dir, ['c.test']);
    const groups = new RuleGroups(crs, { prepareAnnounced: false });
    groups.forParanoia(1);
    edge = new Edge({
      snapshot: buildEdgeSnapshot({ sites: [{ id: 1, domain: 'c.test', origin: nginx.url, tls, pageProtection: [{ path: '/wp-admin', allow: ['192.0.2.1'] }] }] }),
      sink: new RecordingSink(), inspector: createEngineInspector(groups),
    });
    transports.push({ name: 'http', port: await edge.listenHttp({ port: 0, host: '127.0.0.1' }) });
    transports.push({ name: 'https', port: await edge.listenHttps({ port: 0, host: '127.0.0.1' }), ca: tls.cert });
  }, 120_000);

  afterAll(async () => {
    await edge?.close();
    await nginx?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** nginx writes a request's log line as it finishes it: wait for the line naming `m`. */
  const logged = (m: string) => new Promise<string[]>((resolve) => {
    const look = () => {
      const lines = nginx.log().split('\n').filter((l) => l.includes(m));
      if (lines.length) resolve(lines); else setTimeout(look, 10);
    };
    look();
  });

  describe.each(['http', 'https'] as const)('over %s', (name) => {
    const t = () => transports.find((x) => x.name === name)!;

    it.each(['websocket', 'h2c'])('Upgrade: %s with a request pipelined behind it: nginx serves the first, never the second', async (protocol) => {
      const m = `n${++serial}`;
      const c = await converse(t(), `GET /${m} HTTP/1.1\r\nHost: c.test\r\nConnection: Upgrade\r\nUpgrade: ${protocol}\r\n\r\n`
        + `GET /wp-admin/${m}?${ATTACK_QUERY}&q=<script>alert(1)</script> HTTP/1.1\r\nHost: c.test\r\n\r\n`, 'c.test');
      const { text, statuses } = await c.closed;
      expect(statuses).toEqual([200]);
      expect(text).toContain(`public uri=/${m}`);
      expect(text).not.toContain('PROTECTED');
      const lines = await logged(m);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`"GET /${m} HTTP/1.1" 200`);
    });

    it('SQL injection in the body of an upgrade request is refused before nginx hears of it', async () => {
      const m = `n${++serial}`;
      const body = "id=1' OR '1'='1";
      const c = await converse(t(), `POST /login-${m} HTTP/1.1\r\nHost: c.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 'c.test');
      expect((await c.closed).statuses).toEqual([403]);
      // A request nginx did get afterwards is logged, and the refused one is not before it.
      const probe = `n${++serial}`;
      const after = await converse(t(), `GET /${probe} HTTP/1.1\r\nHost: c.test\r\nConnection: close\r\n\r\n`, 'c.test');
      expect((await after.closed).statuses).toEqual([200]);
      await logged(probe);
      expect(nginx.log()).not.toContain(`login-${m}`);
    });
  });
});
