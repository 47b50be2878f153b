// TLS for every listener that terminates it (the edge's HTTPS port and the management API): TLS 1.2
// and 1.3 only, and for 1.2 only forward-secret AEAD suites (Mozilla's "intermediate" profile,
// which every browser and client of the last decade speaks). TLS 1.3 suites are OpenSSL's
// defaults, all AEAD. The server's order wins, so a client offering CBC first still gets GCM.

export const MODERN_TLS_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

export const MODERN_TLS = Object.freeze({
  minVersion: 'TLSv1.2' as const,
  ciphers: MODERN_TLS_CIPHERS,
  honorCipherOrder: true,
});
