import type { z } from 'zod';
import { LETS_ENCRYPT_DIRECTORY, type AcmeRequestSchema, type StoredAcme } from '../../../shared/schemas/acme.js';

// `site set D --tls acme`: the site's ACME settings, in state 'pending' so the daemon's ACME
// manager (daemon/tls/acme/) starts an order. Asked again on a site that already has a
// certificate, it orders a new one at once (a forced renewal); the current certificate, serial
// and expiry stay shown and served until the new one is issued.

type AcmeRequest = z.output<typeof AcmeRequestSchema>;

export function requestAcme(current: StoredAcme | null, request: AcmeRequest, now: Date): StoredAcme {
  return {
    directory: request.directory ?? current?.directory ?? LETS_ENCRYPT_DIRECTORY,
    email: request.email !== undefined ? request.email : current?.email ?? null,
    state: 'pending',
    not_after: current?.not_after ?? null,
    serial: current?.serial ?? null,
    error: null,
    changed_at: now.toISOString(),
    challenges: [],
  };
}
