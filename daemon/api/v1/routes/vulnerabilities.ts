import type { FastifyInstance } from 'fastify';
import { WafctlError } from '../../../../shared/errors.js';
import type { ManagementDependencies } from '../dependencies.js';

// POST /wp/vulnerabilities/check: top-level fields, no `data` wrapper (spec 2.1, 2.7). The matcher
// validates the body itself (daemon/vulndb), throwing validation_error like every other route.
// The WordPress plugin's dialect (README): it sends the core version as `wordpress_version` and
// reads core findings under `wordpress`, so the body takes either name and the answer has both.
export function vulnerabilityRoutes(app: FastifyInstance, deps: ManagementDependencies): void {
  app.post('/wp/vulnerabilities/check', { config: { rateClass: 'write', feature: 'vulnerability_check' } }, async (request) => {
    const result = await deps.checkVulnerabilities(withCmsVersion(request.body), new Date(deps.now()));
    return { success: true, ...result, wordpress: result.cms };
  });
}

/** `wordpress_version` as `cms_version`; both given and different is a validation error, not a guess. */
function withCmsVersion(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('wordpress_version' in body)) return body;
  const { wordpress_version: wordpress, ...rest } = body as Record<string, unknown>;
  if ('cms_version' in rest) {
    if (rest.cms_version !== wordpress) throw new WafctlError('validation_error', 'cms_version and wordpress_version differ; send one');
    return rest;
  }
  return { ...rest, cms_version: wordpress };
}
