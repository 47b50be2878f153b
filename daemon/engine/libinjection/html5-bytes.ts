/** Bytes the HTML5 tokenizer states look for, and its white-space rule. */
export const EOF = -1;
export const BANG = 0x21;
export const DOUBLE = 0x22;
export const PERCENT = 0x25;
export const SINGLE = 0x27;
export const SLASH = 0x2f;
export const EQUALS = 0x3d;
export const GT = 0x3e;
export const QUESTION = 0x3f;
export const TICK = 0x60;

/** h5_is_white: its strchr also finds the terminating NUL, so NUL counts as white space. */
export const isWhite = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0;

export const isAsciiLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
