import { WafctlError } from '../../../shared/errors.js';
import type { Config } from '../../../shared/schemas/config.js';
import type { StoredSite } from '../../../shared/schemas/site.js';
import { requireSite } from '../../store/config/sites.js';

/** The site a protection change is for: 404 when unknown, 403 site_deleted when deleted. */
export function requireLiveSite(config: Config, domain: string): StoredSite {
  const site = requireSite(config, domain);
  if (site.status === 'deleted') throw new WafctlError('site_deleted', `site ${site.domain} has been deleted`);
  return site;
}
