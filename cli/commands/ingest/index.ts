// wafctl ingest waf|access [FILE|-]: streams NDJSON or a JSON array into the ingestion API in batches,
// each entry sent until it is accepted or rejected for a reason; rejects are reported with their line.
import { InvalidArgumentError, type Command } from 'commander';
import { FatalIngestError, type Rejected } from '../../../shared/ingest-client/batch-sender.js';
import { readEntryGroups } from '../../../shared/ingest-client/entry-reader.js';
import { DEFAULT_CONCURRENCY, runIngest, type IngestKind } from '../../../shared/ingest-client/ingest-run.js';
import { CliError, ExitWith, usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps, type LineWriter } from '../../context.js';
import { ProgressLine } from './progress.js';

const PATHS: Record<IngestKind, string> = { waf: '/api/vector/waf', access: '/api/vector/access' };

interface Options {
  batchSize: number;
  concurrency: number;
  token?: string;
  rejects?: string;
  dryRun?: boolean;
}

function parseBatchSize(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 1000) throw new InvalidArgumentError('must be a whole number from 1 to 1000.');
  return n;
}

function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 32) throw new InvalidArgumentError('must be a whole number from 1 to 32.');
  return n;
}

export function registerIngest(program: Command, deps: CommandDeps): void {
  program
    .command('ingest')
    .description('send WAF events or access log entries (NDJSON or a JSON array) to the ingestion API')
    .argument('<kind>', 'waf or access')
    .argument('[file]', 'input file; - or nothing for standard input', '-')
    .option('--batch-size <n>', 'entries per request, 1 to 1000', parseBatchSize, 100)
    .option('--concurrency <n>', `requests in flight at once, 1 to 32 (1 stores entries in input order)`, parseConcurrency, DEFAULT_CONCURRENCY)
    .option('--token <token>', 'ingestion token (default: $WAFCTL_TOKEN or the login profile)')
    .option('--rejects <file>', 'write rejected entries there as NDJSON {line, error, entry} instead of to stderr')
    .option('--dry-run', 'validate locally with the same schemas as the server; send nothing')
    .addHelpText('after', '\nExamples:\n  wafctl ingest access /var/log/edge/access.ndjson\n  vector-export | wafctl ingest waf - --batch-size 500 --rejects rejects.ndjson\n')
    .action(withContext(deps, (ctx, kind: string, file: string, options: Options) => ingest(ctx, kind, file, options)));
}

async function ingest(ctx: CommandContext, kind: string, file: string, options: Options): Promise<void> {
  if (kind !== 'waf' && kind !== 'access') throw usageError(`kind must be waf or access, not ${JSON.stringify(kind)}`);
  const client = options.dryRun ? null : await ingestClient(ctx, options.token);
  const progress = new ProgressLine(ctx.io, ctx.io.isTTY && !ctx.globals.quiet && !ctx.io.env.CI);
  const rejects: LineWriter | null = options.rejects ? await ctx.deps.files.create(options.rejects) : null;
  const report = async (rejected: Rejected) => {
    if (rejects) await rejects.write(JSON.stringify(rejected));
    else progress.note(`rejected: line ${rejected.line}: ${rejected.error}`);
  };

  try {
    const summary = await runIngest(readEntryGroups(ctx.deps.files.read(file)), {
      kind,
      batchSize: options.batchSize,
      concurrency: options.concurrency,
      dryRun: Boolean(options.dryRun),
      onRejected: report,
      onProgress: (s) => progress.update(s),
      sender: {
        transport: {
          async post(json) {
            const response = await client!.postJson(PATHS[kind], json);
            const retryAfter = Number(response.headers.get('retry-after'));
            return { status: response.status, body: parseBody(response.text), retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined };
          },
        },
        sleep: (ms) => ctx.deps.sleep(ms),
        onRetry: (reason, ms) => ctx.out.detail(`${reason} in ${Math.round(ms)} ms`),
      },
    });
    progress.end();
    ctx.out.data(summary, () => '');
    if (!ctx.out.json) {
      const verb = options.dryRun ? 'validated' : 'sent';
      ctx.out.info(`${summary.read} read, ${options.dryRun ? summary.read : summary.sent} ${verb}, ${summary.accepted} accepted, ${summary.rejected} rejected, ${summary.retried} retried`);
    }
    if (summary.rejected > 0) throw new ExitWith(1);
  } catch (error) {
    progress.end();
    if (error instanceof FatalIngestError) {
      throw new CliError(error.code, error.message, { exitCode: error.code === 'invalid_token' ? 4 : 1 });
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError('file_not_found', (error as Error).message);
    throw error;
  } finally {
    await rejects?.close();
  }
}

async function ingestClient(ctx: CommandContext, tokenFlag: string | undefined) {
  const resolved = await ctx.deps.profiles.resolve({ site: ctx.globals.site, server: ctx.globals.server });
  const token = tokenFlag ?? resolved.token;
  if (!resolved.server || !token) {
    throw new CliError('not_logged_in', !resolved.server ? 'no ingestion server is configured' : 'no ingestion token is configured', {
      hint: 'create one with `wafctl token create NAME`, then pass --token or set WAFCTL_TOKEN (and --server or WAFCTL_SERVER)',
    });
  }
  return ctx.deps.apiClient({ server: resolved.server, token, caFile: resolved.ca });
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 200) };
  }
}
