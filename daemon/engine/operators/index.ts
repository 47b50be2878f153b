// The operator registry: lower-cased SecLang name -> the operator's entry (factory and
// properties, declared in its own file; see ../CONTRACT.md).
import type { OperatorDefinition } from './types.js';
import { beginsWithOperator } from './begins-with.js';
import { containsOperator } from './contains.js';
import { containsWordOperator } from './contains-word.js';
import { detectSQLiOperator } from './detect-sqli.js';
import { detectXSSOperator } from './detect-xss.js';
import { endsWithOperator } from './ends-with.js';
import { eqOperator } from './eq.js';
import { geOperator } from './ge.js';
import { geoLookupOperator } from './geo-lookup.js';
import { gtOperator } from './gt.js';
import { ipMatchOperator } from './ip-match.js';
import { ipMatchFromFileOperator } from './ip-match-from-file.js';
import { leOperator } from './le.js';
import { ltOperator } from './lt.js';
import { noMatchOperator } from './no-match.js';
import { pmOperator } from './pm.js';
import { pmFromFileOperator } from './pm-from-file.js';
import { rblOperator } from './rbl.js';
import { rxOperator } from './rx.js';
import { streqOperator } from './streq.js';
import { strmatchOperator } from './strmatch.js';
import { unconditionalMatchOperator } from './unconditional-match.js';
import { validateByteRangeOperator } from './validate-byte-range.js';
import { validateUrlEncodingOperator } from './validate-url-encoding.js';
import { validateUtf8EncodingOperator } from './validate-utf8-encoding.js';
import { withinOperator } from './within.js';

export type { OperatorCompileContext, OperatorDefinition, OperatorEvaluate, OperatorFactory, OperatorRuntime } from './types.js';

export const operators: ReadonlyMap<string, OperatorDefinition> = new Map<string, OperatorDefinition>([
  ['beginswith', beginsWithOperator],
  ['contains', containsOperator],
  ['containsword', containsWordOperator],
  ['detectsqli', detectSQLiOperator],
  ['detectxss', detectXSSOperator],
  ['endswith', endsWithOperator],
  ['eq', eqOperator],
  ['ge', geOperator],
  ['geolookup', geoLookupOperator],
  ['gt', gtOperator],
  ['ipmatch', ipMatchOperator],
  ['ipmatchfromfile', ipMatchFromFileOperator],
  ['ipmatchf', ipMatchFromFileOperator],
  ['le', leOperator],
  ['lt', ltOperator],
  ['nomatch', noMatchOperator],
  ['pm', pmOperator],
  ['pmfromfile', pmFromFileOperator],
  ['pmf', pmFromFileOperator],
  ['rbl', rblOperator],
  ['rx', rxOperator],
  ['streq', streqOperator],
  ['strmatch', strmatchOperator],
  ['unconditionalmatch', unconditionalMatchOperator],
  ['validatebyterange', validateByteRangeOperator],
  ['validateurlencoding', validateUrlEncodingOperator],
  ['validateutf8encoding', validateUtf8EncodingOperator],
  ['within', withinOperator],
]);
