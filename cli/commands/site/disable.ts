// wafctl site disable DOMAIN: the site becomes inactive.
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerStateChange } from './state-change.js';

export function registerSiteDisable(site: Command, deps: CommandDeps): void {
  registerStateChange(site, deps, {
    verb: 'disable',
    description: 'make a site inactive: the edge passes nothing to its origin and its API key is refused',
    call: (admin, domain) => admin.disableSite(domain),
    done: 'disabled (inactive)',
  });
}
