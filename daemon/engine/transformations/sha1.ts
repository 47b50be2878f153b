// t:sha1: the raw 20-byte digest (binary, not hex), as ModSecurity returns it.
import { createHash } from 'node:crypto';
import type { Transformation } from './types.js';

export const sha1: Transformation = (input) => createHash('sha1').update(input, 'latin1').digest().toString('latin1');
