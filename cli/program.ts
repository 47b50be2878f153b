// The wafctl command tree: global options, then one registration per command group. Nothing here
// runs a command; run.ts parses and dispatches.
import { Command } from 'commander';
import { registerAccountCommands } from './commands/account/index.js';
import { registerAnalytics } from './commands/analytics/index.js';
import { registerBansCommands } from './commands/bans/index.js';
import { registerClusterCommands } from './commands/cluster/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerConnect } from './commands/connect.js';
import { registerCrsCommands } from './commands/crs/index.js';
import { registerDaemonCommands } from './commands/daemon/index.js';
import { registerGeoRulesCommands } from './commands/geo-rules/index.js';
import { registerIngest } from './commands/ingest/index.js';
import { registerIpRulesCommands } from './commands/ip-rules/index.js';
import { registerLogin } from './commands/login.js';
import { registerLogs } from './commands/logs/index.js';
import { registerProtectCommands } from './commands/protect/index.js';
import { registerRulesCommands } from './commands/rules/index.js';
import { registerSiteCommands } from './commands/site/index.js';
import { registerTokenCommands } from './commands/token/index.js';
import { registerVulnCommands } from './commands/vuln/index.js';
import { registerVulndbCommands } from './commands/vulndb/index.js';
import type { CommandDeps } from './context.js';
import { parsePath } from './options.js';

export function buildProgram(deps: CommandDeps): Command {
  const program = new Command('wafctl');
  program
    .description('wafctl: an edge web application firewall that fits on one machine')
    .version(deps.version, '--version', 'print the version and exit')
    .option('--json', 'print data as JSON (exactly the data; [] for an empty list)')
    .option('--data-dir <dir>', 'daemon data directory (default: $WAFCTL_DATA_DIR, else $XDG_DATA_HOME/wafctl or ~/.local/share/wafctl)', parsePath)
    .option('--server <url>', 'management API URL, https (default: from the login profile or $WAFCTL_SERVER)')
    .option('--site <domain>', 'the site to act on (default: $WAFCTL_SITE or the current login profile)')
    .option('--no-color', 'no colour, even on a terminal (also: NO_COLOR, CI)')
    .option('-q, --quiet', 'print only data and errors')
    .option('-v, --verbose', 'print more detail on stderr')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.io.stdout.write(text),
      writeErr: (text) => deps.io.stderr.write(text),
      // run.ts prints usage errors in the one error format.
      outputError: () => {},
    })
    .addHelpText(
      'after',
      '\nExit status: 0 ok, 1 error, 2 usage, 3 vulnerabilities found (vuln check --fail-on), 4 daemon unreachable or authentication failure.\n\nExamples:\n  wafctl daemon start --demo\n  wafctl site add example.com --origin http://127.0.0.1:8081 --json\n  wafctl daemon status --json\n',
    );
  // Subcommands copy the settings above (exit override, output) when created with .command().
  registerDaemonCommands(program, deps);
  registerClusterCommands(program, deps);
  // The Core Rule Set releases the daemon runs, in the data dir.
  registerCrsCommands(program, deps);
  registerSiteCommands(program, deps);
  // Protection settings and rules of a site, on the admin socket.
  registerProtectCommands(program, deps);
  registerBansCommands(program, deps);
  registerRulesCommands(program, deps);
  registerTokenCommands(program, deps);
  registerAccountCommands(program, deps);
  registerLogin(program, deps);
  // The management API, with the profile saved by login.
  registerConnect(program, deps);
  registerAnalytics(program, deps);
  registerLogs(program, deps);
  registerIpRulesCommands(program, deps);
  registerGeoRulesCommands(program, deps);
  // The ingestion API, with an account token.
  registerIngest(program, deps);
  // The vulnerability database: import on the admin socket, check over the management API.
  registerVulndbCommands(program, deps);
  registerVulnCommands(program, deps);
  registerCompletion(program, deps);
  return program;
}
