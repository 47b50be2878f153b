import { authenticateSiteKey } from '../../daemon/api/v1/auth.js';
import { WafctlError } from '../../shared/errors.js';
import type { Config } from '../../shared/schemas/config.js';

/**
 * What the management API answers for a site key against a stored config: 'ok', or the error code
 * (`invalid_api_key`, `invalid_api_key_format`, `site_inactive`...). It runs the API's own check
 * (api/v1/auth.ts); the daemon finds the site by key hash through an index per snapshot
 * (app-services.ts), here a plain search stands in for that index.
 */
export function siteKeyVerdict(config: Readonly<Config>, key: string): string {
  try {
    authenticateSiteKey(key, (hash) => config.sites.find((site) => site.key_hash === hash));
    return 'ok';
  } catch (error) {
    if (error instanceof WafctlError) return error.code;
    throw error;
  }
}
