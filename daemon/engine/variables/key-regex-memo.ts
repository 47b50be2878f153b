// A `/regex/` key selector's answers, kept across transactions. CRS reads TX by regex on every
// request (`TX:/^HEADER_NAME_/` in 920450's chain, `&TX:'/LEAKAGE\/ERRORS/'` in the 980 correlation
// rules...), each time over all ~100 TX names, and those names are nearly the same strings from
// one request to the next. A lookup of a name seen before costs a third of a regex test. Bounded:
// keys are request data for ARGS:/regex/ and the like.
const MAX_ENTRIES = 1024;
const MAX_KEY_LENGTH = 128;

export type KeyTest = (key: string) => boolean;

export function memoizedKeyTest(re: RegExp): KeyTest {
  const answers = new Map<string, boolean>();
  return (key) => {
    if (key.length > MAX_KEY_LENGTH) return re.test(key);
    let answer = answers.get(key);
    if (answer === undefined) {
      if (answers.size >= MAX_ENTRIES) answers.clear();
      answer = re.test(key);
      answers.set(key, answer);
    }
    return answer;
  };
}
