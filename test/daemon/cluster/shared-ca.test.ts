// The cluster's API CA as read back from PostgreSQL (daemon/cluster/shared-ca.ts): only a CA
// certificate with its own key is adopted; anything else is refused (and the node keeps its CA).
import { describe, expect, it } from 'vitest';
import { parseStoredCa } from '../../../daemon/cluster/shared-ca.js';
import { createLocalCa, createServerCertificate } from '../../../daemon/tls/certificates.js';

const stored = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('parseStoredCa', () => {
  const ca = createLocalCa('cluster');

  it('gives back a stored CA and its key', () => {
    expect(parseStoredCa(stored({ cert: ca.certPem, key: ca.keyPem }))).toEqual(ca);
  });

  it('refuses a certificate that is not a CA, a key of another CA, and what is not a pair', () => {
    const server = createServerCertificate(ca);
    expect(() => parseStoredCa(stored({ cert: server.certPem, key: server.keyPem }))).toThrow(/not a CA/);
    expect(() => parseStoredCa(stored({ cert: ca.certPem, key: createLocalCa('other').keyPem }))).toThrow(/does not belong/);
    expect(() => parseStoredCa(stored({ cert: ca.certPem }))).toThrow(/not a \{cert, key\} pair/);
    expect(() => parseStoredCa(Buffer.from('not json'))).toThrow();
    expect(() => parseStoredCa(stored({ cert: 'junk', key: ca.keyPem }))).toThrow();
  });
});
