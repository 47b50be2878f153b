// Admin-socket routes for the vulnerability database, ready to register through the daemon's
// `adminRoutes` hook (app-services.ts): `adminRoutes: [vulndbAdminRoutes(vulndb)]`.
//
//   GET  /admin/vulndb            data: VulnDbStatus                 (wafctl vulndb status)
//   PUT  /admin/vulndb/import     body: the feed bytes (application/octet-stream), streamed;
//                                 header x-vulndb-source: a label for the metadata (the CLI's path)
//   POST /admin/vulndb/import     {source: "<http(s) URL or absolute path>", api_key?}
//                                 both answer 200 data: VulnDbImportResult (wafctl vulndb import)
//   POST /admin/vulndb/refresh    one refresh now, if a refresh URL is configured; data: VulnDbStatus
//   POST /admin/vulndb/check      a check body; the spec 2.7 response, top-level (wafctl vuln check)
//
// Import failures answer the envelope with the VulnDbError code (see README.md for the table).

import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAbsolute } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { describeIssues } from '../../shared/schemas/issues.js';
import { VulnDbError, type VulnDbErrorCode } from './vulndb-error.js';
import type { VulnDb } from './vulndb.js';

const IMPORT_ERROR_STATUS: Record<VulnDbErrorCode, number> = {
  invalid_source: 422,
  fetch_failed: 502,
  not_json_object: 422,
  invalid_json: 422,
  truncated: 422,
  record_too_large: 422,
  no_valid_records: 422,
  import_in_progress: 409,
  aborted: 503,
  not_modified: 200,
  read_only: 500,
};

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

      scope.put('/admin/vulndb/import', async (request, reply) => {
        const header = request.headers[SOURCE_HEADER];
        const label = typeof header === 'string' && header.trim() !== '' ? header.trim() : 'upload';
        const body = request.body as Readable | undefined;
        if (body === undefined || typeof (body as Readable).pipe !== 'function') {
          return sendVulnError(reply, 415, 'unsupported_media_type', 'send the feed as application/octet-stream');
        }
        try {
          return await runImport(reply, () => vulndb.import(body, { label }));
        } finally {
          body.resume(); // a failed import stops reading: discard the rest of the upload
        }
      });

      scope.post('/admin/vulndb/import', async (request, reply) => {
        const parsed = ImportFromSourceSchema.safeParse(request.body ?? {});
        if (!parsed.success) return sendVulnError(reply, 422, 'validation_error', describeIssues(parsed.error));
        const { source, api_key } = parsed.data;
        if (!/^https?:\/\//i.test(source) && !isAbsolute(source)) {
          return sendVulnError(reply, 422, 'validation_error', 'source: must be an http(s) URL or an absolute file path (the daemon does not share your working directory)');
        }
        return runImport(reply, () => vulndb.import(source, { apiKey: api_key }));
      });

      scope.post('/admin/vulndb/refresh', async (_request, reply) => {
        if (vulndb.status().refresh === undefined) {
          return sendVulnError(reply, 409, 'invalid_source', 'no refresh URL is configured for the vulnerability database');
        }
        await vulndb.refreshNow();
        return { success: true, data: vulndb.status() };
      });

      scope.post('/admin/vulndb/check', async (request, reply) => {
        const parsed = vulndb.parseCheckRequest(request.body);
        if (!parsed.ok) return sendVulnError(reply, 422, 'validation_error', parsed.message);
        return vulndb.check(parsed.request);
      });
    });
  };
}

async function runImport(reply: FastifyReply, run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { success: true, data: await run() };
  } catch (err) {
    if (err instanceof VulnDbError) return sendVulnError(reply, IMPORT_ERROR_STATUS[err.code], err.code, err.message);
    throw err;
  }
}

function sendVulnError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ success: false, error: code, message });
}
