// The vulnerability database on the admin socket (ROUTES.md):
//
//   GET  /admin/vulndb            data: VulnDbStatus                 (wafctl vulndb status)
//   PUT  /admin/vulndb/import     body: the feed bytes (application/octet-stream), streamed;
//                                 header x-vulndb-source: a label for the metadata (the CLI's path)
//   POST /admin/vulndb/import     {source: "<http(s) URL or absolute path>", api_key?}
//                                 both answer 200 data: VulnDbImportResult (wafctl vulndb import)
//   POST /admin/vulndb/refresh    one refresh now, if a refresh URL is configured; data: VulnDbStatus
//   POST /admin/vulndb/check      a check body; the spec 2.7 response, top-level (wafctl vuln check)
//
// Failures are WafctlErrors with codes of the one error table (shared/errors.ts), answered by the
// envelope like every other admin route.

import type { FastifyInstance } from 'fastify';
import { isAbsolute } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { WafctlError } from '../../../shared/errors.js';
import { parseWith } from '../../api/envelope.js';
import { VulnDbError } from '../../vulndb/vulndb-error.js';
import type { VulnDb } from '../../vulndb/vulndb.js';

const ImportFromSourceSchema = z.object({
  source: z.string().trim().min(1, { error: 'must be an http(s) URL or an absolute file path' }),
  api_key: z.string().min(1).optional(),
});

const SOURCE_HEADER = 'x-vulndb-source';

export function vulndbAdminRoutes(vulndb: VulnDb): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    await app.register(async (scope) => {
      // The feed arrives as a raw stream: hand fastify's payload to the importer unread, so no
      // body limit or buffering applies; the importer bounds memory per record.
      scope.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

      scope.get('/admin/vulndb', async () => ({ success: true, data: vulndb.status() }));

      scope.put('/admin/vulndb/import', async (request) => {
        const header = request.headers[SOURCE_HEADER];
        const label = typeof header === 'string' && header.trim() !== '' ? header.trim() : 'upload';
        const body = request.body as Readable | undefined;
        if (body === undefined || typeof (body as Readable).pipe !== 'function') {
          throw new WafctlError('unsupported_media_type', 'send the feed as application/octet-stream');
        }
        try {
          return await imported(() => vulndb.import(body, { label }));
        } finally {
          body.resume(); // a failed import stops reading: discard the rest of the upload
        }
      });

      scope.post('/admin/vulndb/import', async (request) => {
        const { source, api_key } = parseWith(ImportFromSourceSchema, request.body);
        if (!/^https?:\/\//i.test(source) && !isAbsolute(source)) {
          throw new WafctlError('validation_error', 'source: must be an http(s) URL or an absolute file path (the daemon does not share your working directory)');
        }
        return imported(() => vulndb.import(source, { apiKey: api_key }));
      });

      scope.post('/admin/vulndb/refresh', async () => {
        await asTableError(() => vulndb.refreshNow());
        return { success: true, data: vulndb.status() };
      });

      scope.post('/admin/vulndb/check', async (request) => {
        const parsed = vulndb.parseCheckRequest(request.body);
        if (!parsed.ok) throw new WafctlError('validation_error', parsed.message);
        return vulndb.check(parsed.request);
      });
    });
  };
}

/** The import's result in the envelope. */
async function imported(run: () => Promise<unknown>): Promise<unknown> {
  return { success: true, data: await asTableError(run) };
}

/** Runs a vulndb call; its failure becomes a WafctlError with the table code it carries. */
async function asTableError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    // not_modified and read_only are no client's business: they stay plain errors, logged, 500.
    if (err instanceof VulnDbError && err.code !== 'not_modified' && err.code !== 'read_only') throw new WafctlError(err.code, err.message);
    throw err;
  }
}
