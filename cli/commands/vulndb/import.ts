// wafctl vulndb import FILE|URL: replace the daemon's vulnerability database with a feed. A local
// file (or - for stdin) is streamed over the admin socket, since the daemon may run as another
// user; a URL is fetched by the daemon. The new database is built beside the old one and swapped
// in only when whole: a failed import changes nothing.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { VulnDbImportResult } from '../../../shared/schemas/vulndb.js';
import { CliError, usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { vulndbStatusFields } from './status-fields.js';
import { withUploadProgress } from './upload-progress.js';

interface Options {
  apiKey?: string;
}

const HTTP_URL = /^https?:\/\//i;
const ANY_URL = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Skipped records listed on stderr without -v (the daemon sends the first 20). */
const SKIPPED_SHOWN = 5;

export function registerVulndbImport(vulndb: Command, deps: CommandDeps): void {
  vulndb
    .command('import')
    .description('import the Wordfence Intelligence vulnerability feed (v2/v3, production or scanner) from a file or URL')
    .argument('<source>', 'the feed: a local JSON file, - for standard input, or an http(s) URL the daemon downloads')
    .option('--api-key <key>', 'Wordfence Intelligence API key for the v3 feed URL (sent as Bearer, never stored)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wafctl vulndb import ./vulnerabilities.production.json\n' +
        '  wafctl vulndb import https://www.wordfence.com/api/intelligence/v2/vulnerabilities/production\n' +
        '  wafctl vulndb import https://www.wordfence.com/api/intelligence/v3/vulnerabilities/production --api-key "$WF_KEY"\n',
    )
    .action(withContext(deps, (ctx, source: string, options: Options) => importFeed(ctx, source, options)));
}

async function importFeed(ctx: CommandContext, source: string, options: Options): Promise<void> {
  let result: VulnDbImportResult;
  if (HTTP_URL.test(source)) {
    ctx.out.detail(`the daemon downloads ${source}`);
    result = await ctx.admin().vulndbImportUrl(source, options.apiKey);
  } else if (ANY_URL.test(source)) {
    throw usageError(`only http(s) URLs can be imported, not ${JSON.stringify(source)}`);
  } else {
    if (options.apiKey !== undefined) throw usageError('--api-key goes with a feed URL; a local file is read as it is');
    result = await upload(ctx, source);
  }
  printResult(ctx, result);
}

async function upload(ctx: CommandContext, path: string): Promise<VulnDbImportResult> {
  const label = path === '-' ? 'stdin' : resolve(path);
  // Read the first chunk before calling the daemon, so a missing file is our error, not its.
  const iterator = ctx.deps.files.read(path)[Symbol.asyncIterator]();
  let first: IteratorResult<Buffer | string>;
  try {
    first = await iterator.next();
  } catch (error) {
    throw fileError(error, path);
  }
  async function* all(): AsyncIterable<Buffer | string> {
    if (first.done) return;
    yield first.value;
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } catch (error) {
      throw fileError(error, path);
    }
  }
  const progress = withUploadProgress(all(), ctx.io, ctx.io.isTTY && !ctx.globals.quiet && !ctx.io.env.CI);
  try {
    return await ctx.admin().vulndbImportUpload(progress.chunks, label);
  } finally {
    progress.end();
  }
}

function fileError(error: unknown, path: string): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new CliError('file_not_found', `no such file: ${path}`);
  if (code === 'EISDIR') return new CliError('file_not_readable', `${path} is a directory, not a feed file`);
  if (code === 'EACCES') return new CliError('file_not_readable', `permission denied reading ${path}`);
  return new CliError('file_not_readable', `cannot read ${path}: ${(error as Error).message}`);
}

function printResult(ctx: CommandContext, result: VulnDbImportResult): void {
  const { status, skipped_sample: sample } = result;
  ctx.out.fields(vulndbStatusFields(status), result);
  if (!status.loaded) return; // never after a successful import; kept for the type
  ctx.out.info(`imported ${status.records} records${status.skipped > 0 ? `, ${status.skipped} skipped` : ''}`);
  const shown = ctx.globals.verbose ? sample : sample.slice(0, SKIPPED_SHOWN);
  for (const skipped of shown) ctx.out.info(`  skipped ${skipped.key}: ${skipped.reason}`);
  if (status.skipped > shown.length) ctx.out.info(`  ... ${status.skipped - shown.length} more skipped${ctx.globals.verbose ? '' : ' (-v shows up to 20)'}`);
}
