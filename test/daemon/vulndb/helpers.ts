// Shared pieces of the vulndb tests: temp directories and the sample feed.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The synthetic sample feed of shared/vulndb (40 records, exact production format). */
export const SAMPLE_FEED = fileURLToPath(new URL('./fixtures/sample-feed.json', import.meta.url));

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'wafctl-vulndb-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Labels of the README §7 index, for readable assertions. */
export const ID = {
  'core-objinj': '3918765a-b378-5a7e-9f4d-87e0f14f3c16',
  'core-block-xss': '1dcc0126-0043-5416-9f38-19c7121aba29',
  'core-eol-info': '9520c608-4e4f-578a-aea8-bdcfe0707c4a',
  'core-sqli': '71252916-4a2b-53f1-9e32-a127520bde6b',
  'core-comment-disclosure': '0e02e317-c4ce-5b0e-918a-74bfec3906e4',
  'core-prerelease-csrf': '90b1ae2f-47c4-5a25-81a6-4e9ebb27b226',
  'core-oembed-ssrf': '48202332-9358-56d0-865a-9f2bf54fb3ef',
  'core-nav-xss': '7d1c35ed-fa4d-5781-a221-60e507a487a9',
  'cf7-file-upload': 'fc69c846-ee75-5b2f-b99b-83ab2b8b0550',
  'cf7-editor-upload': 'bb2085c2-eb16-5a80-a5f3-cdaf062e36c4',
  'woo-sqli-branches': '9cc920dd-0528-5642-bd7d-569f98d55240',
  'woo-info-exposure': '21df8d09-9996-5b79-b8c6-882bb08e08e1',
  'elementor-widget-xss': '9bb3a670-8a3e-5f9b-8d35-3d3f8cdfed97',
  'elementor-missing-authz': 'afe95a65-bb20-5b56-bab2-d7082f3a4833',
  'nimbus-rce': 'da127c19-057e-5eb5-b85e-aa6055d8a551',
  'nimbus-csrf-all': '117577bd-99f9-5a21-a483-827d7563fd0c',
  'legacy-slider-closed-info': 'bdd1c1bf-1c2a-5e5d-9528-e83abfb91c20',
  'quickpay-beta-xss': 'af540c94-9908-5aee-b1d3-7c640d7362ba',
  'quickpay-no-impact': 'c01f7fa6-20ee-5404-9c7d-4e75957731e6',
  'vendor-sdk-xss': '0d980ad1-894c-5235-a4f0-a5b9cedcf14a',
  'astra-stored-xss': '008b359a-eec0-50d4-b288-0c5176213238',
  'astra-admin-xss': 'f32906c2-3d9c-5f20-bcc1-6d158ffdf0ee',
  'wordfence-debug-info': 'e74e8655-7980-52a1-b120-bcc1c24659d2',
  'oceanic-unpatched': 'aed9fe06-a212-5ae1-b241-4f17a4aab485',
  'swift-cache-purge': 'f5756308-6a56-5469-b3a5-8043061de4b2',
} as const;
