// wafctl vuln check: the site's WordPress core, plugins and themes against the daemon's
// vulnerability database, through the management API with the site's key. Prints a table
// grouped by component (or, with --json, the raw response) and, for CI, exits 3 when findings
// reach --fail-on. No database loaded on the daemon is an error (exit 1): nothing was checked.
import { InvalidArgumentError, type Command } from 'commander';
import { VulnCheckResponseSchema } from '../../../shared/schemas/vulndb.js';
import { CliError, ExitWith, usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import { collect } from '../../options.js';
import { FAIL_ON_LEVELS, gate, parseFailOn, type FailOn } from '../../vuln/fail-on.js';
import { checkWarnings, renderCheck } from '../../vuln/render-check.js';
import { buildCheckRequest } from './check-request.js';

interface Options {
  cmsVersion?: string;
  plugin: string[];
  theme: string[];
  fromWpCli?: string;
  failOn: FailOn;
}

/** WP-CLI output of even a large site is a few hundred KiB; more is not WP-CLI output. */
const MAX_WP_CLI_BYTES = 8 * 1024 * 1024;

function failOnOption(value: string): FailOn {
  const level = parseFailOn(value);
  if (level === null) throw new InvalidArgumentError(`must be one of ${FAIL_ON_LEVELS.join(', ')}.`);
  return level;
}

export function registerVulnCheck(vuln: Command, deps: CommandDeps): void {
  vuln
    .command('check')
    .description('list known vulnerabilities of a WordPress core version, plugins and themes')
    .option('--cms-version <version>', 'the WordPress core version, e.g. 6.4.2')
    .option('--plugin <slug@version>', 'a plugin to check, e.g. contact-form-7@5.8 (repeatable)', collect, [])
    .option('--theme <slug@version>', 'a theme to check, e.g. astra@4.1 (repeatable)', collect, [])
    .option('--from-wp-cli <file>', 'read core, plugins and themes from WP-CLI output (- for standard input)')
    .option('--fail-on <level>', `exit 3 when a vulnerability of this severity or worse is found: ${FAIL_ON_LEVELS.join('|')}`, failOnOption, 'none' as FailOn)
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wafctl vuln check --cms-version 6.4.2 --plugin contact-form-7@5.8 --theme astra@4.1\n' +
        '  { wp core version --extra; wp plugin list --format=json; wp theme list --format=json; } | wafctl vuln check --from-wp-cli - --fail-on high\n',
    )
    .action(withContext(deps, (ctx, options: Options) => check(ctx, options)));
}

async function check(ctx: CommandContext, options: Options): Promise<void> {
  const wpCliText = options.fromWpCli === undefined ? undefined : await readWpCli(ctx, options.fromWpCli);
  const built = buildCheckRequest(options, wpCliText);
  if (!built.ok) throw built.usage ? usageError(built.message, built.hint) : new CliError('invalid_input', built.message);
  for (const warning of built.warnings) ctx.out.warn(warning);

  const api = await ctx.api();
  const { body } = await api.request('POST', '/wp/vulnerabilities/check', { body: built.request });
  const parsed = VulnCheckResponseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError('bad_response', `the check answer does not have the expected shape (${issue?.path.join('.') || '(root)'}: ${issue?.message})`);
  }
  const response = parsed.data;
  // --json: the response exactly as the server sent it.
  ctx.out.data(body, () => renderCheck(response, { style: ctx.out.style }));

  if (response.message !== undefined) {
    for (const warning of checkWarnings(response)) ctx.out.warn(warning);
    throw new CliError('no_database', 'the daemon has no vulnerability database loaded, so nothing was checked', {
      hint: 'import it with `wafctl vulndb import FILE|URL` on the daemon host',
    });
  }
  const verdict = gate(response, options.failOn);
  if (verdict.fail && verdict.reason === 'found') {
    ctx.out.info(`${verdict.count} ${verdict.count === 1 ? 'vulnerability' : 'vulnerabilities'} at or above --fail-on ${options.failOn}`);
    throw new ExitWith(ExitCode.vulnerable);
  }
}

async function readWpCli(ctx: CommandContext, path: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.deps.files.read(path)) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > MAX_WP_CLI_BYTES) throw new CliError('invalid_input', `--from-wp-cli: ${path} is over ${MAX_WP_CLI_BYTES / 1024 / 1024} MiB, which is not WP-CLI output`);
      chunks.push(bytes);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError('file_not_found', `--from-wp-cli: no such file: ${path}`);
    throw new CliError('file_not_readable', `--from-wp-cli: cannot read ${path}: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}
