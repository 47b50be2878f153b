// t:sha1: the raw 20-byte digest (binary, not hex), as ModSecurity returns it.
// crypto.hash (one call) costs about half of createHash().update().digest(); 'binary' is latin1.
import { hash } from 'node:crypto';
import type { Transformation, TransformationDefinition } from './types.js';
import { digestMemo } from './digest-memo.js';

export const sha1: Transformation = digestMemo((input) => hash('sha1', Buffer.from(input, 'latin1'), 'binary'));

export const sha1Transformation: TransformationDefinition = { apply: sha1, triggerBytes: null };
