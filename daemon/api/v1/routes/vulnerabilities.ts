import type { FastifyInstance } from 'fastify';
import type { ManagementDependencies } from '../dependencies.js';

// POST /wp/vulnerabilities/check: top-level fields, no `data` wrapper (spec 2.1, 2.7). The matcher
// validates the body itself (daemon/vulndb), throwing validation_error like every other route.
export function vulnerabilityRoutes(app: FastifyInstance, deps: ManagementDependencies): void {
  app.post('/wp/vulnerabilities/check', { config: { rateClass: 'write', feature: 'vulnerability_check' } }, async (request) => {
    const result = await deps.checkVulnerabilities(request.body, new Date(deps.now()));
    return { success: true, ...result };
  });
}
