// The operator registry: lower-cased SecLang name -> factory (see ../CONTRACT.md).
import type { OperatorFactory } from './types.js';
import { beginsWith } from './begins-with.js';
import { contains } from './contains.js';
import { containsWord } from './contains-word.js';
import { detectSQLi } from './detect-sqli.js';
import { detectXSS } from './detect-xss.js';
import { endsWith } from './ends-with.js';
import { eq } from './eq.js';
import { ge } from './ge.js';
import { geoLookup } from './geo-lookup.js';
import { gt } from './gt.js';
import { ipMatch } from './ip-match.js';
import { ipMatchFromFile } from './ip-match-from-file.js';
import { le } from './le.js';
import { lt } from './lt.js';
import { noMatch } from './no-match.js';
import { pm } from './pm.js';
import { pmFromFile } from './pm-from-file.js';
import { rbl } from './rbl.js';
import { rx } from './rx.js';
import { streq } from './streq.js';
import { strmatch } from './strmatch.js';
import { unconditionalMatch } from './unconditional-match.js';
import { validateByteRange } from './validate-byte-range.js';
import { validateUrlEncoding } from './validate-url-encoding.js';
import { validateUtf8Encoding } from './validate-utf8-encoding.js';
import { within } from './within.js';

export type { OperatorCompileContext, OperatorEvaluate, OperatorFactory, OperatorRuntime } from './types.js';

export const operators: ReadonlyMap<string, OperatorFactory> = new Map<string, OperatorFactory>([
  ['beginswith', beginsWith],
  ['contains', contains],
  ['containsword', containsWord],
  ['detectsqli', detectSQLi],
  ['detectxss', detectXSS],
  ['endswith', endsWith],
  ['eq', eq],
  ['ge', ge],
  ['geolookup', geoLookup],
  ['gt', gt],
  ['ipmatch', ipMatch],
  ['ipmatchfromfile', ipMatchFromFile],
  ['ipmatchf', ipMatchFromFile],
  ['le', le],
  ['lt', lt],
  ['nomatch', noMatch],
  ['pm', pm],
  ['pmfromfile', pmFromFile],
  ['pmf', pmFromFile],
  ['rbl', rbl],
  ['rx', rx],
  ['streq', streq],
  ['strmatch', strmatch],
  ['unconditionalmatch', unconditionalMatch],
  ['validatebyterange', validateByteRange],
  ['validateurlencoding', validateUrlEncoding],
  ['validateutf8encoding', validateUtf8Encoding],
  ['within', within],
]);
