// wafctl vuln check: known vulnerabilities of a WordPress site's core, plugins and themes
// (management API, POST /wp/vulnerabilities/check, with the site's key).
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerVulnCheck } from './check.js';

export function registerVulnCommands(program: Command, deps: CommandDeps): void {
  const vuln = program.command('vuln').description('check WordPress core, plugins and themes for known vulnerabilities (management API)');
  registerVulnCheck(vuln, deps);
}
