// Slow clients on the management API port (the same slowloris bounds as the edge): a TLS handshake
// that stalls and a request head that trickles are both cut, with short configured timeouts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, DEFAULT_API_TIMEOUTS, type ApiServer } from '../../daemon/api/server.js';
import { ensureApiTls } from '../../daemon/tls/api-tls.js';
import { dataPaths } from '../../shared/paths.js';

let dir: string;
let ca: string;
let server: ApiServer;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-api-timeouts-'));
  const apiTls = await ensureApiTls(dataPaths(dir), {});
  ca = await readFile(apiTls.caFile!, 'utf8');
  server = await createApiServer({ tls: apiTls, logger: pino({ level: 'silent' }), timeouts: { handshakeMs: 400, headersMs: 400 } });
  port = await server.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await server.close(0);
  await rm(dir, { recursive: true, force: true });
});

describe('API listener against slow clients', () => {
  it('defaults: handshake 10 s, head 20 s', () => {
    expect(DEFAULT_API_TIMEOUTS).toEqual({ handshakeMs: 10_000, headersMs: 20_000 });
  });

  it('a TLS handshake that starts and stalls is cut at the handshake timeout', async () => {
    const closed = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => s.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x40]))); // a ClientHello record header, then nothing
      s.on('close', () => resolve(true));
      s.on('error', () => undefined);
      // Closed before the 10 s default could fire: the configured 400 ms cut it (no duration is
      // asserted; the client gives up just short of the default, which only a broken setting reaches).
      setTimeout(() => { s.destroy(); resolve(false); }, DEFAULT_API_TIMEOUTS.handshakeMs - 1_000);
    });
    expect(closed).toBe(true);
  });

  it('a request head trickling over TLS is answered and closed at the header timeout', async () => {
    const { text, closed } = await new Promise<{ text: string; closed: boolean }>((resolve) => {
      let text = '';
      const s = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
        s.write('GET /api/v1/connect HTTP/1.1\r\nHost: localhost\r\n');
        const drip = setInterval(() => s.write('X'), 50);
        s.on('close', () => { clearInterval(drip); resolve({ text, closed: true }); });
      });
      s.setEncoding('latin1');
      s.on('data', (d: string) => { text += d; });
      s.on('error', () => undefined);
      setTimeout(() => { s.destroy(); resolve({ text, closed: false }); }, DEFAULT_API_TIMEOUTS.headersMs - 1_000);
    });
    expect(closed).toBe(true);
    // The envelope's client-error handler (daemon/api/envelope.ts) answers parser-level refusals itself.
    expect(text).toMatch(/^HTTP\/1\.1 40[08] /);
  });
});
