import type { SiteCertificate } from '../../../shared/schemas/admin.js';
import type { Config } from '../../../shared/schemas/config.js';

/** `daemon status`: every live ACME site's state and the expiry of the certificate it serves. */
export function siteCertificates(config: Readonly<Config>): SiteCertificate[] {
  return config.sites
    .filter((s) => s.status !== 'deleted' && s.acme)
    .map((s) => ({ site: s.domain, state: s.acme!.state, not_after: s.acme!.not_after, error: s.acme!.error }));
}
