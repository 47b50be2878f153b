// wafctl vulndb <import|status|refresh>: the daemon's vulnerability database (admin socket).
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerVulndbImport } from './import.js';
import { registerVulndbRefresh } from './refresh.js';
import { registerVulndbStatus } from './status.js';

export function registerVulndbCommands(program: Command, deps: CommandDeps): void {
  const vulndb = program.command('vulndb').description('import and inspect the WordPress vulnerability database (Wordfence Intelligence feed)');
  registerVulndbImport(vulndb, deps);
  registerVulndbStatus(vulndb, deps);
  registerVulndbRefresh(vulndb, deps);
}
