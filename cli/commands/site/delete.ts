// wafctl site delete DOMAIN: a soft delete; the site is kept with status `deleted`.
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerStateChange } from './state-change.js';

export function registerSiteDelete(site: Command, deps: CommandDeps): void {
  registerStateChange(site, deps, {
    verb: 'delete',
    description: 'delete a site (soft: it is kept with status deleted and shown by `site list --all`)',
    call: (admin, domain) => admin.deleteSite(domain),
    done: 'deleted',
  });
}
