import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from './hardening/raw-client.js';
import { startEdge, type RunningEdge } from './helpers.js';
import { nginxAvailable, startNginxOrigin, type NginxOrigin } from './nginx-origin.js';
import { FUZZ_SEED } from '../../reliability/support/hostile-inputs.js';
import { spellingArb } from './path-encodings.js';

const RUNS = Number(process.env.WAFCTL_FUZZ_RUNS ?? 250);

// Differential check of H2 against a real nginx origin: for random request paths (spellings of
// the protected path and free-form mixes of the tricks), whenever nginx itself routes the path
// into its protected location, the edge in front of it must refuse the request (403) to a client
// outside the allow list. nginx is asked directly, then through the edge.

const HOST = 'nginx.test';
const UNITS = ['/', '/', '..', '.', '%2e', '%2E%2e', '%2f', '%5c', '\\', '//', 'wp-admin', 'WP-ADMIN', '%77p-admin', 'wp%2dadmin', 'w', 'p-admin', 'x', ';', ';a', '%3b', '%ff', '%c0%af', '%00', '%20', '%25', '%2577'];
const freeForm = fc.array(fc.constantFrom(...UNITS), { minLength: 1, maxLength: 8 }).map((a) => '/' + a.join(''));
const paths = fc.oneof(spellingArb('/wp-admin', { nginxOnly: true }).map((s) => s.raw), spellingArb('/wp-admin/').map((s) => s.raw), freeForm);

const send = (port: number, target: string, client?: string) =>
  rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: ${HOST}\r\n${client ? `X-Forwarded-For: ${client}\r\n` : ''}Connection: close\r\n\r\n`);

describe.skipIf(!nginxAvailable)('every path nginx serves as /wp-admin is refused by the edge in front of it', () => {
  let nginx: NginxOrigin;
  let edge: RunningEdge;

  beforeAll(async () => {
    nginx = await startNginxOrigin(['/wp-admin']);
    edge = await startEdge([{ id: 1, domain: HOST, origin: nginx.url, pageProtection: [{ path: '/wp-admin', allow: ['10.9.9.9'] }] }], { trustedProxies: ['127.0.0.1/32'] });
  });
  afterAll(async () => { await edge?.close(); await nginx?.close(); });

  it('the review\'s payloads reach nginx\'s protected location directly, and not through the edge', async () => {
    for (const target of ['/%77p-admin/%ff', '/wp%2dadmin/index.php%80', '/x/..%2fwp-admin/']) {
      expect((await send(nginx.port, target)).text, target).toContain('PROTECTED /wp-admin/');
      expect((await send(edge.port, target, '20.0.0.1')).statuses, target).toEqual([403]);
    }
  });

  it('random paths (property; WAFCTL_FUZZ_SEED / WAFCTL_FUZZ_RUNS explore further): nginx PROTECTED => edge 403', async () => {
    let protectedSeen = 0;
    await fc.assert(fc.asyncProperty(paths, async (target) => {
      const direct = await send(nginx.port, target);
      if (!/PROTECTED /.test(direct.text)) return;
      protectedSeen++;
      const viaEdge = await send(edge.port, target, '20.0.0.2');
      expect(viaEdge.statuses, `${target}: nginx says ${direct.text.split('\r\n\r\n')[1]}`).toEqual([403]);
    }), { numRuns: RUNS, seed: FUZZ_SEED });
    // The sample must actually exercise the protected location.
    expect(protectedSeen).toBeGreaterThan(RUNS / 5);
  });

  it('the allowed client still reaches nginx\'s protected location through the edge', async () => {
    const reply = await send(edge.port, '/%77p-admin/%ff', '10.9.9.9');
    expect(reply.statuses).toEqual([200]);
    expect(reply.text).toContain('PROTECTED /wp-admin/');
  });
});
