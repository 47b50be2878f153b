// PCRE -> JavaScript translation for @rx and every other place a SecLang rule holds a regex.
export { compilePcre, pcreGroups, type PcreRegex, type PcreOptions } from './compile.js';
export { PcreSyntaxError } from './escapes.js';
