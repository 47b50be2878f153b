// The rule compiler's speed layers, each of which can be switched off by its environment variable
// (`=off`): for A/B runs of one build against itself (bench/proxy/ab-layers.sh) and for the replay
// tests that show a layer changes no verdict (test/crs/speed-layer-replay.test.ts). Read when a
// rule set is compiled, so a daemon started with one of them off runs without that layer.
// Every layer is exact, so turning one off changes the cost of a request, never its outcome.

export const SPEED_LAYERS = {
  /** A value's miss bits kept across transactions (miss-memo.ts); off: per transaction only. */
  'miss-memo': 'WAFCTL_MISS_MEMO',
  /** CRS's constant phase-1 setup run once at load (init-fold.ts). */
  'init-fold': 'WAFCTL_INIT_FOLD',
  /** Rules skipped whole when every value they read is known to miss (miss-groups.ts). */
  'rule-skips': 'WAFCTL_RULE_SKIPS',
  /** `@rx` calls skipped on values without a byte every match needs (gate-assignment.ts). */
  'byte-gate': 'WAFCTL_BYTE_GATE',
} as const;

export type SpeedLayer = keyof typeof SPEED_LAYERS;

export function speedLayerOn(layer: SpeedLayer): boolean {
  return process.env[SPEED_LAYERS[layer]] !== 'off';
}
