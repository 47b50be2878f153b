// Endpoint contract: POST /api/v1/wp/vulnerabilities/check on a real socket, through the
// management API plugin (daemon/api/v1) with this module as its checkVulnerabilities
// dependency, exactly as the daemon wires it. Response validated with the shared schema.

import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../daemon/api/v1/auth.js';
import type { ManagementDependencies } from '../../../daemon/api/v1/dependencies.js';
import { managementApiPlugin } from '../../../daemon/api/v1/plugin.js';
import { installEnvelope } from '../../../daemon/api/envelope.js';
import { MemoryCounterStore } from '../../../daemon/store/counter-store.js';
import { VulnDb } from '../../../daemon/vulndb/vulndb.js';
import { NO_DATABASE_MESSAGE } from '../../../daemon/vulndb/check.js';
import { defaultProtection, type StoredSite } from '../../../shared/schemas/site.js';
import { VulnCheckResponseSchema } from '../../../shared/schemas/vulndb.js';
import { ErrorEnvelopeSchema } from '../../../shared/schemas/management-api.js';
import { ID, SAMPLE_FEED } from './helpers.js';

const KEY = 'K'.repeat(40) + 'e'.repeat(23) + '1';
const site: StoredSite = {
  id: 1, account_id: 1, domain: 'shop.test', aliases: [], origin: 'http://127.0.0.1:9', plan: 'enterprise', status: 'active',
  key_hash: sha256Hex(KEY), key_created_at: null, created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z',
  ip_rules: { whitelist: [], blacklist: [] }, geo_rules: null, protection: defaultProtection(),
};

let dir: string;
let db: VulnDb;
let app: FastifyInstance;
let base: string;
let dbs = 0;

// The server is shared; the database is not: each test opens an empty one of its own (the
// dependency below reads `db` at call time), so "no database" holds whatever ran before.
beforeEach(async () => {
  db = await VulnDb.open(join(dir, `vulndb-${++dbs}`));
});
afterEach(() => {
  db.close();
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-vulndb-endpoint-'));
  const deps: ManagementDependencies = {
    findSiteByKeyHash: (hash) => (hash === site.key_hash ? site : undefined),
    updateSite: async () => {
      throw new Error('not used');
    },
    wafLogs: async () => {
      throw new Error('not used');
    },
    wafRequest: async () => {
      throw new Error('not used');
    },
    analytics: async () => {
      throw new Error('not used');
    },
    topList: async () => {
      throw new Error('not used');
    },
    checkVulnerabilities: (body, now) => db.checkBody(body, now),
    counter: new MemoryCounterStore(),
    now: () => Date.now(),
  };
  app = Fastify();
  installEnvelope(app); // as the API server composes it
  await app.register(managementApiPlugin, { deps, prefix: '/api/v1' });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function post(body: unknown) {
  const res = await request(`${base}/api/v1/wp/vulnerabilities/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': KEY },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe('POST /api/v1/wp/vulnerabilities/check', () => {
  it('answers with no database: 200, success, empty lists and the message', async () => {
    const res = await post({ cms_version: '6.4.1', themes: [{ slug: 'astra', version: '4.6.8' }] });
    expect(res.status).toBe(200);
    const body = VulnCheckResponseSchema.parse(res.body);
    expect(body.message).toBe(NO_DATABASE_MESSAGE);
    expect(body.themes).toEqual([{ slug: 'astra', version: '4.6.8', vulnerabilities: [] }]);
  });

  it('answers top-level fields per spec 2.7 once the feed is imported', async () => {
    await db.import(SAMPLE_FEED);
    const res = await post({
      cms_version: '6.4.1',
      plugins: [{ slug: 'contact-form-7', version: '5.3.1' }, { slug: 'elementor', version: '3.18.0' }],
      themes: [{ slug: 'astra', version: '4.6.8' }],
    });
    expect(res.status).toBe(200);
    // `wordpress` repeats `cms` for the WordPress plugin's dialect.
    expect(Object.keys(res.body).sort()).toEqual(['attribution', 'checked_at', 'cms', 'plugins', 'success', 'summary', 'themes', 'wordpress']);
    expect(res.body.wordpress).toEqual(res.body.cms);
    const body = VulnCheckResponseSchema.parse(res.body);
    expect(body.cms.vulnerabilities.map((v) => v.id).sort()).toEqual([ID['core-objinj'], ID['core-nav-xss']].sort());
    expect(body.plugins.map((p) => p.slug)).toEqual(['contact-form-7', 'elementor']);
    // examples 1 + 4 + 7 + 12 of the README
    expect(body.summary).toEqual({ total_vulnerabilities: 7, critical: 1, high: 2, medium: 3, low: 0 });
    expect(body.attribution.license).toContain('Defiant');
  });

  it('refuses bad bodies with 422 validation_error naming the field, and checks nothing', async () => {
    for (const [body, field] of [
      [{}, 'cms_version'],
      [{ cms_version: '' }, 'cms_version'],
      [{ cms_version: '6.4', plugins: [{ slug: 'x'.repeat(65), version: '1' }] }, 'plugins.0.slug'],
      [{ cms_version: '6.4', themes: Array.from({ length: 201 }, (_, i) => ({ slug: `t${i}`, version: '1' })) }, 'themes'],
    ] as const) {
      const res = await post(body);
      expect(res.status).toBe(422);
      const err = ErrorEnvelopeSchema.parse(res.body);
      expect(err.error).toBe('validation_error');
      expect(err.message).toContain(field);
    }
  });
});
