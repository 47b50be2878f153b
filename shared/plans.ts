// Plan tiers, their limits and features: the one table (spec section 8 + DESIGN.md section 5).
// The spec's column "Pro" is the plan_tier value `advanced`.

export const PLAN_TIERS = ['free', 'advanced', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export const FEATURE_KEYS = [
  'waf_protection',
  'analytics',
  'ip_access_control',
  'geo_blocking',
  'rate_limiting',
  'page_protection',
  'bot_protection',
  'vulnerability_check',
] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];

export interface PlanLimits {
  whitelistIps: number;
  blacklistIps: number;
  geoCountries: number;
  protectedPaths: number;
  rateLimitPaths: number;
}

const UNLIMITED = Number.POSITIVE_INFINITY;

export const PLAN_LIMITS: Readonly<Record<PlanTier, PlanLimits>> = {
  free: { whitelistIps: 5, blacklistIps: 5, geoCountries: 5, protectedPaths: 5, rateLimitPaths: 5 },
  advanced: { whitelistIps: 50, blacklistIps: 50, geoCountries: 50, protectedPaths: 30, rateLimitPaths: 30 },
  enterprise: { whitelistIps: 500, blacklistIps: 500, geoCountries: UNLIMITED, protectedPaths: UNLIMITED, rateLimitPaths: UNLIMITED },
};

// Every tier has every feature today; the table exists so a tier can lose one without touching callers.
export const PLAN_FEATURES: Readonly<Record<PlanTier, Readonly<Record<FeatureKey, boolean>>>> = {
  free: allFeatures(true),
  advanced: allFeatures(true),
  enterprise: allFeatures(true),
};

function allFeatures(value: boolean): Record<FeatureKey, boolean> {
  return Object.fromEntries(FEATURE_KEYS.map((key) => [key, value])) as Record<FeatureKey, boolean>;
}

export function hasFeature(plan: PlanTier, feature: FeatureKey): boolean {
  return PLAN_FEATURES[plan][feature];
}
