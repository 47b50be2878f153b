// t:base64Encode: standard alphabet with padding.
import type { Transformation, TransformationDefinition } from './types.js';

export const base64Encode: Transformation = (input) => Buffer.from(input, 'latin1').toString('base64');

export const base64EncodeTransformation: TransformationDefinition = { apply: base64Encode, triggerBytes: null };
