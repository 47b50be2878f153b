// Byte ranges the transformations' trigger sets are made of (types.ts, `triggerBytes`).

function range(from: number, to: number): string {
  let out = '';
  for (let c = from; c <= to; c++) out += String.fromCharCode(c);
  return out;
}

export const UPPER = range(0x41, 0x5a);
export const LOWER = range(0x61, 0x7a);
/** C isspace(): \t \n \v \f \r and space. */
export const SPACE = '\t\n\v\f\r ';
export const HIGH = range(0x80, 0xff);
