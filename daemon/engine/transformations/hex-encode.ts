// t:hexEncode: every byte as two lower-case hex digits.
import type { Transformation, TransformationDefinition } from './types.js';

export const hexEncode: Transformation = (input) => Buffer.from(input, 'latin1').toString('hex');

export const hexEncodeTransformation: TransformationDefinition = { apply: hexEncode, triggerBytes: null };
