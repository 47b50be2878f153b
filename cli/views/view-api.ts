// What the Ink views need from the management API: the two calls of shared/api-client's ApiClient
// they use. The real client satisfies it; view tests hand in a fake.
import type { ApiClient } from '../../shared/api-client/index.js';

export type ViewApi = Pick<ApiClient, 'get' | 'request'>;

/** One line for an error shown inside a view: `code: message`, like the CLI's error line. */
export function describeError(error: unknown): string {
  const coded = error as { code?: unknown; message?: unknown };
  const message = typeof coded.message === 'string' ? coded.message : String(error);
  return typeof coded.code === 'string' && coded.code !== '' ? `${coded.code}: ${message}` : message;
}
