// wafctl daemon start: background by default, returning once every listener is up (or exiting 1
// with the daemon's one-line reason); --foreground runs it attached, for systemd and containers.
import { Option, type Command } from 'commander';
import { CliError, ExitWith, usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { parsePath, parsePort, parsePositiveInt } from '../../options.js';
import { daemonTableOptions, tableArgv, type TableOptionValues } from './table-options.js';
import { warnWithoutCrs } from './crs-line.js';
import { statusFields } from './status-fields.js';
import { loginToDemo } from './demo-login.js';
import { installRuleSetForDemo } from './demo-rule-set.js';

export interface StartOptions {
  foreground?: boolean;
  edgePort?: number;
  edgeTlsPort?: number;
  apiPort?: number;
  adminSocket?: string;
  crsDir?: string;
  auditLog?: string;
  workers?: number;
  demo?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  listenHost?: string;
  demoPort?: number;
  /** The daemon settings `daemon start` declares from the daemon's option table (table-options.ts). */
  table?: TableOptionValues;
}

/** The daemon's own command line for these options (flag names are the same on both sides). */
export function daemonArgv(dataDir: string, options: StartOptions): string[] {
  const argv = ['--data-dir', dataDir];
  const valued: Array<[string, string | number | undefined]> = [
    ['--edge-port', options.edgePort],
    ['--edge-tls-port', options.edgeTlsPort],
    ['--api-port', options.apiPort],
    ['--admin-socket', options.adminSocket],
    ['--crs-dir', options.crsDir],
    ['--audit-log', options.auditLog],
    ['--workers', options.workers],
    ['--tls-cert', options.tlsCert],
    ['--tls-key', options.tlsKey],
    ['--listen-host', options.listenHost],
    ['--demo-port', options.demoPort],
  ];
  for (const [flag, value] of valued) if (value !== undefined) argv.push(flag, String(value));
  argv.push(...tableArgv(options.table ?? {}));
  if (options.demo) argv.push('--demo');
  if (options.foreground) argv.push('--foreground');
  return argv;
}

export function registerDaemonStart(daemon: Command, deps: CommandDeps): void {
  const command = daemon
    .command('start')
    .description('start the daemon (in the background unless --foreground) and wait until it is ready')
    .option('--foreground', 'run attached to this terminal (for systemd and containers)')
    .option('--edge-port <port>', 'edge HTTP port (default 8080)', parsePort)
    .option('--edge-tls-port <port>', 'edge HTTPS port (default 8443)', parsePort)
    .option('--api-port <port>', 'management and ingestion API port, HTTPS (default 9443)', parsePort)
    .option('--admin-socket <path>', 'admin socket path (default <data>/wafctl.sock)', parsePath)
    .option('--crs-dir <dir>', 'OWASP Core Rule Set directory, rules/ under it (default /usr/share/modsecurity-crs)', parsePath)
    .option('--audit-log <file>', 'also write every event as one JSON line to this file', parsePath)
    .option('--workers <n>', 'edge worker processes', parsePositiveInt)
    .option('--demo', 'also start a demo origin and the site demo.localhost, and print curl lines to try')
    .option('--demo-port <port>', 'port of the demo origin (default: any free port)', parsePort)
    .option('--listen-host <address>', 'address the edge and API listeners bind (default 127.0.0.1; 0.0.0.0 or :: to serve a network)')
    .addOption(new Option('--tls-cert <file>', 'certificate (PEM) for the API listener instead of the generated one').argParser(parsePath))
    .addOption(new Option('--tls-key <file>', 'private key (PEM) for --tls-cert').argParser(parsePath))
    .addHelpText('after', '\nExamples:\n  wafctl daemon start\n  wafctl daemon start --trusted-proxy 10.0.0.0/8 --edge-header-timeout-ms 10000\n  wafctl daemon start --demo\n  wafctl --data-dir /var/lib/wafctl daemon start --foreground --api-port 9443\n')
    .action(withContext(deps, (ctx, options: StartOptions & TableOptionValues) => start(ctx, { ...options, table: pickTable(options) })));
  for (const option of daemonTableOptions()) command.addOption(option);
}

function pickTable(options: TableOptionValues): TableOptionValues {
  const picked: TableOptionValues = {};
  for (const option of daemonTableOptions()) {
    const key = option.attributeName();
    if (options[key] !== undefined) picked[key] = options[key];
  }
  return picked;
}

async function start(ctx: CommandContext, options: StartOptions): Promise<void> {
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    throw usageError('--tls-cert and --tls-key go together', 'give both, or neither to use the generated certificate');
  }
  const dataDir = ctx.dataDir();
  const argv = daemonArgv(dataDir, options);
  if (options.foreground) {
    const code = await ctx.deps.daemon.runInForeground(argv);
    if (code !== 0) throw new ExitWith(code);
    return;
  }
  ctx.out.detail(`starting: daemon ${argv.join(' ')}`);
  // A first start generates TLS keys and can take seconds: say so to a person watching.
  if (ctx.io.isTTY) ctx.out.info(`starting the wafctl daemon on ${dataDir}…`);
  const result = await ctx.deps.daemon.startInBackground(argv, { dataDir });
  if (!result.ok) throw new CliError('daemon_start_failed', result.reason);
  const status = result.status;
  ctx.out.info(`wafctl daemon started (pid ${status.pid}), data in ${status.data_dir}`);
  ctx.out.fields(statusFields(status, { withLoad: false }), status);
  const ruleSet = status.crs.found || (options.demo === true && await installRuleSetForDemo(ctx));
  if (!ruleSet) warnWithoutCrs(ctx, status.crs);
  if (options.demo && status.demo) await loginToDemoOrWarn(ctx, status, status.demo.domain);
  if (options.demo && status.demo && !ctx.out.json) {
    ctx.out.info(`\nDemo site ${status.demo.domain} -> ${status.demo.origin}. Try:`);
    ctx.io.stdout.write(status.demo.try.map((line) => `  ${line}`).join('\n') + '\n');
  }
}

// The daemon is up either way: a profile that could not be saved is a warning, not a failed start.
async function loginToDemoOrWarn(ctx: CommandContext, status: Parameters<typeof loginToDemo>[1], domain: string): Promise<void> {
  try {
    await loginToDemo(ctx, status, domain);
  } catch (error) {
    ctx.out.warn(`the demo login profile was not saved (${(error as Error).message}); get a key with \`wafctl site key ${domain} --regenerate\``);
  }
}
