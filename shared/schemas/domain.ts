import { domainToASCII } from 'node:url';
import { z } from 'zod';

// Site domains and origin URLs. Decision (DESIGN.md section 5 is silent): internationalised domain
// names are accepted and stored in their ASCII (punycode) form, lower case, without a trailing dot,
// because that is what arrives in a Host header; anything that is not a host name is refused.

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const HOST_CHARS = /^[\p{L}\p{M}\p{N}.-]+$/u;

export type DomainCheck = { ok: true; domain: string } | { ok: false, problem: string };

export function normaliseDomain(input: string): DomainCheck {
  let text = input.trim();
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (text === '') return { ok: false, problem: 'must not be empty' };
  if (!HOST_CHARS.test(text)) return { ok: false, problem: 'must be a host name like example.com (no scheme, port, path or wildcard)' };
  const ascii = domainToASCII(text);
  if (ascii === '') return { ok: false, problem: 'is not a valid internationalised domain name' };
  if (ascii.length > 253) return { ok: false, problem: 'must be at most 253 characters' };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, problem: 'must have at least two labels, like example.com' };
  for (const label of labels) {
    if (!LABEL.test(label)) return { ok: false, problem: `has an invalid label "${label}" (letters, digits and inner hyphens, 1-63 characters)` };
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return { ok: false, problem: 'must be a domain name, not an IP address' };
  return { ok: true, domain: ascii };
}

export const DomainSchema = z.string().max(1024).transform((value, ctx) => {
  const check = normaliseDomain(value);
  if (check.ok) return check.domain;
  ctx.addIssue({ code: 'custom', message: check.problem });
  return z.NEVER;
});

/** An origin is `http(s)://host[:port]`: no credentials, path, query or fragment. Stored as URL.origin. */
export function normaliseOrigin(input: string): { ok: true; origin: string } | { ok: false; problem: string } {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, problem: 'must be an http:// or https:// URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: `must be an http:// or https:// URL, not ${url.protocol}` };
  if (url.username || url.password) return { ok: false, problem: 'must not contain credentials' };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return { ok: false, problem: 'must be scheme://host[:port] without a path, query or fragment' };
  }
  if (url.hostname === '') return { ok: false, problem: 'must name a host' };
  return { ok: true, origin: url.origin };
}

export const OriginSchema = z.string().max(2048).transform((value, ctx) => {
  const check = normaliseOrigin(value);
  if (check.ok) return check.origin;
  ctx.addIssue({ code: 'custom', message: check.problem });
  return z.NEVER;
});
