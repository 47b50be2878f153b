// t:md5: the raw 16-byte digest (binary, not hex), as ModSecurity returns it.
import { createHash } from 'node:crypto';
import type { Transformation } from './types.js';

export const md5: Transformation = (input) => createHash('md5').update(input, 'latin1').digest().toString('latin1');
