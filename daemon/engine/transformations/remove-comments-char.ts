// t:removeCommentsChar: deletes the comment markers themselves: /*  */  <!--  -->  --  #
import type { Transformation, TransformationDefinition } from './types.js';

const MARKERS = /\/\*|\*\/|<!--|-->|--|#/g;

export const removeCommentsChar: Transformation = (input) => {
  MARKERS.lastIndex = 0;
  return MARKERS.test(input) ? input.replace(MARKERS, '') : input;
};

// Comments start with "/*", "<!--", "--" or "#": each needs '*', '-' or '#'.
export const removeCommentsCharTransformation: TransformationDefinition = { apply: removeCommentsChar, triggerBytes: '*-#' };
