// go-ftw runs a stage's `data` through Go's text/template with the sprig functions. CRS uses one
// form, `{{ "1" | repeat 64200 }}`, to build a body too big to write out (920400). Only sprig's
// `repeat` is evaluated here; any other action throws, so a test that needs more fails loudly
// with that reason instead of sending a different body than go-ftw would.

const PIPED = /^-?\s*("(?:[^"\\]|\\.)*")\s*\|\s*repeat\s+(\d+)\s*-?$/;
const CALLED = /^-?\s*repeat\s+(\d+)\s+("(?:[^"\\]|\\.)*")\s*-?$/;

export function expandGoTemplate(data: string): string {
  return data.replace(/\{\{([\s\S]*?)\}\}/g, (_whole, action: string) => {
    const piped = PIPED.exec(action);
    if (piped) return (JSON.parse(piped[1]) as string).repeat(Number(piped[2]));
    const called = CALLED.exec(action);
    if (called) return (JSON.parse(called[2]) as string).repeat(Number(called[1]));
    throw new Error(`go template action not supported by this runner: {{${action}}}`);
  });
}
