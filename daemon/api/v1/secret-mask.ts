// Matched data shown by `logs show` must never hand out a credential or a cookie in full: an
// operator's terminal, a pasted bug report and the TUI are not where a visitor's password goes.
// A match in a cookie, an authorisation header or an argument whose name says password, token,
// secret, key or session keeps its first 2 characters and says how long it was.

const SECRET_VAR = /^(REQUEST_COOKIES(_NAMES)?\b|REQUEST_HEADERS:(cookie|authorization|proxy-authorization|x-api-key|x-service-key)$)|pass|pwd|secret|token|session|api[-_]?key|credential/i;

export function isSecretVariable(matchedVar: string | undefined): boolean {
  return matchedVar !== undefined && SECRET_VAR.test(matchedVar);
}

export function maskSecret(value: string): string {
  const chars = [...value];
  if (chars.length <= 2) return `*** (${chars.length} characters, masked)`;
  return `${chars.slice(0, 2).join('')}*** (${chars.length} characters, masked)`;
}
