// The body processor registry, keyed by ModSecurity's processor names (see ../CONTRACT.md).
import type { BodyProcessor } from './types.js';
import { json } from './json.js';
import { multipart } from './multipart.js';
import { urlencoded } from './urlencoded.js';
import { xml } from './xml.js';

export type { BodyLimits, BodyParseResult, BodyProcessor, UploadedFile, MultipartDetails } from './types.js';

export const bodyProcessors: ReadonlyMap<string, BodyProcessor> = new Map<string, BodyProcessor>([
  ['URLENCODED', urlencoded],
  ['MULTIPART', multipart],
  ['JSON', json],
  ['XML', xml],
]);
