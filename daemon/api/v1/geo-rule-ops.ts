import { normaliseCountries, type GeoRules, type PutGeoRulesBody } from '../../../shared/schemas/management-api.js';
import { WafctlError } from '../../../shared/errors.js';
import { PLAN_LIMITS, type PlanTier } from '../../../shared/plans.js';

// PUT /geo-rules replaces the whole setting. Disabling keeps the last mode and countries, so turning
// it back on is one flag; a first-ever disable stores an empty blacklist.

export function replaceGeoRules(current: GeoRules | null, body: PutGeoRulesBody, plan: PlanTier): GeoRules {
  if (!body.enabled) {
    return {
      enabled: false,
      mode: body.mode ?? current?.mode ?? 'blacklist',
      countries: body.countries ? normaliseCountries(body.countries) : (current?.countries ?? []),
    };
  }
  const countries = normaliseCountries(body.countries ?? []);
  const limit = PLAN_LIMITS[plan].geoCountries;
  if (countries.length > limit) {
    throw new WafctlError('limit_exceeded', `The ${plan} plan allows at most ${limit} countries in geo rules`);
  }
  return { enabled: true, mode: body.mode!, countries };
}
