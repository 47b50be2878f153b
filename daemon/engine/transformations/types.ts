// See ../CONTRACT.md: byte string in, byte string out.
export type Transformation = (input: string) => string;
