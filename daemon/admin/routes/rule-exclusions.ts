import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { WafctlError } from '../../../shared/errors.js';
import type { Config } from '../../../shared/schemas/config.js';
import { ExcludeEventBodySchema, RemoveExclusionBodySchema, type ExclusionRemoved, type ExclusionResult } from '../../../shared/schemas/rule-exclusion.js';
import type { StoredSite } from '../../../shared/schemas/site.js';
import { parseWith } from '../../api/envelope.js';
import type { RequestEvents, RequestKey } from '../../store/events/request-lookup.js';
import { planExclusion } from '../../rule-sets/exclusion/exclusion-plan.js';
import { appendExclusion, EXCLUSION_FIRST_ID, EXCLUSION_LAST_ID, findExclusion, freeIds, removeExclusion, renderExclusion } from '../../rule-sets/exclusion/exclusion-text.js';
import { replay } from '../../rule-sets/exclusion/replay.js';
import { replayRequest } from '../../rule-sets/exclusion/replay-request.js';
import type { AdminDependencies } from '../dependencies.js';
import { lazyRuleGroups, type LazyRuleGroups } from '../protection/lazy-rule-groups.js';
import { ruleFile, siteRuleSettings } from '../protection/rule-files.js';
import { requireLiveSite } from '../protection/site-lookup.js';

// `wafctl rules exclude` on the admin socket (ROUTES.md): the narrowest exclusion that
// lets one stored request through, written into the site's "before" file, proved by replaying the
// stored request through the site's rule set without and with it. The admin socket, not the
// REST API: the spec's endpoint table has no rules resource, and `rules set` lives here too.
// Applied only when the replay proves it (blocked before, passes after) unless `force`; a dry run
// writes nothing. --remove takes the block out again, found by its marker comment.

export interface RuleExclusionDependencies extends AdminDependencies {
  /** The stored WAF events of one request (as GET /waf-logs/{id}). */
  wafRequest(siteId: number, key: RequestKey): Promise<RequestEvents>;
}

type DomainParams = { Params: { domain: string } };

export function ruleExclusionRoutes(deps: RuleExclusionDependencies) {
  return (app: FastifyInstance): void => {
    const ruleGroups = lazyRuleGroups(deps, (m) => app.log.warn(m));

    app.post<DomainParams>('/admin/sites/:domain/rules/exclusions', async (request) => {
      const body = parseWith(ExcludeEventBodySchema, request.body);
      const result = await exclude(deps, ruleGroups, request.params.domain, body);
      if (result.applied) request.log.info({ domain: result.site, request_id: result.request_id, path: result.path }, 'rule exclusion added');
      return { success: true, data: result };
    });

    app.delete<DomainParams>('/admin/sites/:domain/rules/exclusions', async (request) => {
      const body = parseWith(RemoveExclusionBodySchema, request.body);
      const result = await remove(deps, ruleGroups, request.params.domain, body.event);
      request.log.info({ domain: result.site, request_id: result.request_id }, 'rule exclusion removed');
      return { success: true, data: result };
    });
  };
}

async function exclude(
  deps: RuleExclusionDependencies, ruleGroups: LazyRuleGroups, domain: string,
  body: { event: string; dry_run: boolean; force: boolean },
): Promise<ExclusionResult> {
  const site = requireLiveSite(deps.store.snapshot() as Config, domain);
  const ref = body.event.toLowerCase();
  const key: RequestKey = /^\d+$/.test(ref) ? { id: Number(ref) } : { request_id: ref };
  const { events } = await deps.wafRequest(site.id, key);
  if (events.length === 0) throw new WafctlError('not_found', `no WAF event of ${site.domain} has the id ${body.event}`);
  const plan = planExclusion(events, body.event);

  const current = site.protection.waf.rules_before;
  const text = current?.text ?? '';
  if (findExclusion(text, plan.requestId)) {
    throw new WafctlError('duplicate', `request ${plan.requestId} already has an exclusion in the before file of ${site.domain}; take it out first with \`wafctl rules exclude --remove --event ${plan.requestId}\``);
  }
  const ids = freeIds(text, plan.targets.length);
  if (ids === null) throw new WafctlError('limit_exceeded', `the ids reserved for exclusions (${EXCLUSION_FIRST_ID}-${EXCLUSION_LAST_ID}) are all used in the before file of ${site.domain}`);
  const now = deps.now().toISOString();
  const block = renderExclusion(plan, ids, now);
  const path = current?.path ?? join(deps.status().data_dir, 'rules', `${site.domain}.before.conf`);
  const candidate = structuredClone(site);
  candidate.protection.waf.rules_before = ruleFile({ path, text: appendExclusion(text, block) }, now);

  const { groups } = await ruleGroups();
  const old = groups.load(siteRuleSettings(site));
  if (!old.ok) throw new WafctlError('validation_error', `the rules of ${site.domain} do not load as they are, so nothing can be proved against them: ${old.error}`);
  const next = groups.load(siteRuleSettings(candidate));
  if (!next.ok) throw new WafctlError('validation_error', next.error);
  const replayed = replayRequest(events);
  const before = replay(old.waf, replayed);
  const after = replay(next.waf, replayed);

  const proved = before.blocked && !after.blocked;
  const applied = !body.dry_run && (proved || body.force);
  if (applied) {
    await deps.store.update((draft) => {
      const live = requireLiveSite(draft, domain);
      if ((live.protection.waf.rules_before?.text ?? '') !== text) {
        throw new WafctlError('config_conflict', `the before file of ${site.domain} changed while the exclusion was checked; nothing was changed, run it again`);
      }
      live.protection.waf.rules_before = candidate.protection.waf.rules_before;
      live.updated_at = now;
    });
  }
  const warnings = [...plan.warnings];
  if (!before.blocked) warnings.push('the replay of the stored parts of the request is not blocked by the current rules either, so it does not prove the exclusion (a value cut in the event, a body the event did not keep)');
  return {
    site: site.domain, request_id: plan.requestId, path: plan.path, rule: block, excluded: plan.targets,
    replay: { blocked_before: before.blocked, passes: !after.blocked, rules_still_matching: after.matching },
    applied, warnings,
  };
}

async function remove(deps: RuleExclusionDependencies, ruleGroups: LazyRuleGroups, domain: string, ref: string): Promise<ExclusionRemoved> {
  const site = requireLiveSite(deps.store.snapshot() as Config, domain);
  const current = site.protection.waf.rules_before;
  const found = current ? findExclusion(current.text, ref) : null;
  if (!current || !found) throw new WafctlError('not_found', `no exclusion in the before file of ${site.domain} comes from ${ref}`);
  const { text, removed } = removeExclusion(current.text, found);
  const now = deps.now().toISOString();
  // A file that held only exclusions goes away with the last one.
  const file = text.trim() === '' ? null : ruleFile({ path: current.path, text }, now);
  const candidate: StoredSite = structuredClone(site);
  candidate.protection.waf.rules_before = file;
  const { groups } = await ruleGroups();
  const outcome = groups.load(siteRuleSettings(candidate));
  if (!outcome.ok) throw new WafctlError('validation_error', outcome.error);
  await deps.store.update((draft) => {
    const live = requireLiveSite(draft, domain);
    if (live.protection.waf.rules_before?.text !== current.text) {
      throw new WafctlError('config_conflict', `the before file of ${site.domain} changed meanwhile; nothing was changed, run it again`);
    }
    live.protection.waf.rules_before = file;
    live.updated_at = now;
  });
  return { site: site.domain, request_id: found.requestId, removed };
}
