// wafctl site enable DOMAIN: an inactive site becomes active again.
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerStateChange } from './state-change.js';

export function registerSiteEnable(site: Command, deps: CommandDeps): void {
  registerStateChange(site, deps, {
    verb: 'enable',
    description: 'make an inactive site active again',
    call: (admin, domain) => admin.enableSite(domain),
    done: 'enabled (active)',
  });
}
