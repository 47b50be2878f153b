// When the ACME manager orders: what was asked at once, renewals and retries only on the timer,
// renewal when 30 days or less remain (the clock is a parameter: no waiting for one).
import { describe, expect, it } from 'vitest';
import { acmeOrderDue } from '../../../daemon/tls/acme/acme-due.js';
import type { StoredAcme } from '../../../shared/schemas/acme.js';

const now = new Date('2030-01-01T00:00:00Z');
const days = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString();
const acme = (state: StoredAcme['state'], notAfter: string | null): StoredAcme => ({
  directory: 'https://ca.test/dir', email: null, state, not_after: notAfter, serial: null, error: null, changed_at: now.toISOString(), challenges: [],
});

describe('acmeOrderDue', () => {
  it('orders a pending site on a config change and on the timer', () => {
    expect(acmeOrderDue(acme('pending', null), 'change', now)).toBe(true);
    expect(acmeOrderDue(acme('pending', days(80)), 'timer', now)).toBe(true);
  });
  it('renews on the timer when 30 days or less remain, not before', () => {
    expect(acmeOrderDue(acme('valid', days(31)), 'timer', now)).toBe(false);
    expect(acmeOrderDue(acme('valid', days(30)), 'timer', now)).toBe(true);
    expect(acmeOrderDue(acme('valid', days(-1)), 'timer', now)).toBe(true);
  });
  it('never renews or retries on a config change (a failure is one: no tight loop against the CA)', () => {
    expect(acmeOrderDue(acme('valid', days(1)), 'change', now)).toBe(false);
    expect(acmeOrderDue(acme('failed', days(1)), 'change', now)).toBe(false);
  });
  it('retries a failed order on the timer', () => {
    expect(acmeOrderDue(acme('failed', days(80)), 'timer', now)).toBe(true);
  });
  it('takes the renewal window as a setting', () => {
    expect(acmeOrderDue(acme('valid', days(50)), 'timer', now, 60 * 86_400_000)).toBe(true);
  });
});
