import { WafctlError } from '../../../shared/errors.js';

// A site's detection paranoia (the level rules run and log up to) must not be below its paranoia
// (the level rules block up to): CRS itself refuses every request then (rule 901500 in CRS 4 and 3.3: "Detection (3.3: Executing)
// paranoia level configured is lower than the paranoia level itself"), so the daemon refuses the
// setting instead, naming both. null: detection follows paranoia, always valid.

export function checkParanoiaLevels(paranoia: number, detection: number | null | undefined): void {
  if (detection === null || detection === undefined || detection >= paranoia) return;
  throw new WafctlError(
    'validation_error',
    `detection_paranoia (${detection}) must be at least paranoia (${paranoia}): rules up to the detection level run, those up to paranoia block`,
  );
}
