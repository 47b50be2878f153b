import type { FastifyInstance } from 'fastify';
import { AddIpRuleBodySchema, DeleteIpRuleBodySchema, IP_LIST_TYPES } from '../../../../shared/schemas/management-api.js';
import type { StoredSite } from '../../../../shared/schemas/site.js';
import type { ManagementDependencies } from '../dependencies.js';
import { addIpRule, removeIpRule } from '../ip-rule-ops.js';
import { validate } from '../validate.js';

// GET /ip-rules, POST /ip-rules/{whitelist,blacklist} (201), DELETE /ip-rules with {ip, type}.
export function ipRuleRoutes(app: FastifyInstance, deps: ManagementDependencies): void {
  const feature = 'ip_access_control';

  app.get('/ip-rules', { config: { rateClass: 'read', feature } }, async (request) => {
    const { whitelist, blacklist } = request.site!.ip_rules;
    return { success: true, data: { whitelist, blacklist } };
  });

  for (const list of IP_LIST_TYPES) {
    app.post(`/ip-rules/${list}`, { config: { rateClass: 'write', feature } }, async (request, reply) => {
      const body = validate(AddIpRuleBodySchema, request.body, 'body');
      const rule = await deps.updateSite(request.site!.id, (site) =>
        addIpRule(site.ip_rules, list, body, site.plan, new Date(deps.now())),
      );
      return reply.code(201).send({ success: true, message: `${rule.ip} added to the ${list}` });
    });
  }

  app.delete('/ip-rules', { config: { rateClass: 'write', feature } }, async (request) =>
    removeIpRuleAnswer(deps, request.site!, validate(DeleteIpRuleBodySchema, request.body, 'body')),
  );
}

/** DELETE /ip-rules, also reached by the plugin dialect's DELETE /access/ip/{type}/{ip}. */
export async function removeIpRuleAnswer(
  deps: ManagementDependencies,
  site: StoredSite,
  body: { ip: string; type: (typeof IP_LIST_TYPES)[number] },
): Promise<{ success: true; message: string }> {
  const removed = await deps.updateSite(site.id, (draft) => removeIpRule(draft.ip_rules, body.type, body.ip));
  return { success: true, message: `${removed.ip} removed from the ${body.type}` };
}
