// t:md5: the raw 16-byte digest (binary, not hex), as ModSecurity returns it.
// crypto.hash (one call) costs about half of createHash().update().digest(); 'binary' is latin1.
import { hash } from 'node:crypto';
import type { Transformation, TransformationDefinition } from './types.js';
import { digestMemo } from './digest-memo.js';

export const md5: Transformation = digestMemo((input) => hash('md5', Buffer.from(input, 'latin1'), 'binary'));

export const md5Transformation: TransformationDefinition = { apply: md5, triggerBytes: null };
