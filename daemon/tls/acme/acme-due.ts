import type { StoredAcme } from '../../../shared/schemas/acme.js';

// When a site's ACME certificate needs an order. A config change starts only what was asked for
// (state 'pending'); renewals and retries after a failure wait for the renewal timer, so a failure
// (which is itself a config change) never turns into a tight retry loop against the CA.

export const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;

export type AcmeTrigger = 'change' | 'timer';

export function acmeOrderDue(acme: StoredAcme, trigger: AcmeTrigger, now: Date, renewBeforeMs = RENEW_BEFORE_MS): boolean {
  if (acme.state === 'pending') return true;
  if (trigger !== 'timer') return false;
  if (acme.state === 'failed') return true;
  return acme.not_after === null || new Date(acme.not_after).getTime() - now.getTime() <= renewBeforeMs;
}
