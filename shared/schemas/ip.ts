import ipaddr from 'ipaddr.js';
import { z } from 'zod';

// The one parser for IP rule entries (whitelist, blacklist, page allow lists, --trusted-proxy):
// the API stores what parseIpRange() returns and the edge compiles with it (daemon/proxy/ip-set.ts),
// so every entry the API accepts compiles at the edge, and nothing else does. Built on ipaddr.js,
// with what a firewall list must not guess at refused:
// - IPv4 only as four decimal parts without leading zeros (not 0x7f.1, 010.0.0.1, 1.2.3), also
//   inside IPv6 (ipaddr.js reads ::ffff:010.0.0.1 as 8.0.0.1);
// - no zone id (fe80::1%eth0 names an interface, not an address);
// - not ::1.2.3.4 (deprecated IPv4-compatible: ipaddr.js and RFC 4291 disagree on what it is);
// - the prefix in decimal without leading zeros, 0-32 (IPv4) or 0-128 (IPv6);
// - no host bits (10.1.2.3/8: the network or the one address? the caller says which).
// Canonical form (DESIGN.md section 5): IPv4 dotted quad, IPv6 RFC 5952 lower case, CIDR as
// net/prefix. An IPv4-mapped IPv6 entry (::ffff:1.2.3.4, ::ffff:10.0.0.0/104, 0:0:0:0:0:ffff:a00:0)
// is the IPv4 entry (1.2.3.4, 10.0.0.0/8): the edge sees a mapped client as its IPv4 address.

export const MAX_IP_TEXT = 64;

export type IpRange =
  | { readonly v: 4; /** network address as a number */ readonly start: number; readonly bits: number; readonly text: string }
  | { readonly v: 6; readonly start: bigint; readonly bits: number; readonly text: string };

export type IpRangeResult = { readonly ok: true; readonly range: IpRange } | { readonly ok: false; readonly reason: string };

const DECIMAL = /^(?:0|[1-9][0-9]{0,2})$/;
const COMPATIBLE = /^::[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/;
const MAPPED_HIGH = 0xffffn << 32n; // ::ffff:0:0, the IPv4-mapped block (its top 96 bits)

/** An address or CIDR entry, canonical, or the reason it is refused (a phrase fit for an API message). */
export function parseIpRange(input: string): IpRangeResult {
  const text = input.trim();
  if (text === '') return fail('is empty');
  if (text.length > MAX_IP_TEXT) return fail(`is longer than ${MAX_IP_TEXT} characters`);
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const prefixText = slash === -1 ? null : text.slice(slash + 1);
  const isV6 = addressText.includes(':');
  if (isV6 && addressText.includes('%')) return fail('has a zone id (%...): a rule names addresses, not interfaces');
  if (isV6 && COMPATIBLE.test(addressText)) {
    // RFC 4291's deprecated IPv4-compatible form: ipaddr.js reads it as mapped, the edge's client
    // parser (and RFC 4291) as ::102:304. Ambiguous in a rule: the caller writes which one.
    return fail('is the deprecated IPv4-compatible form (::a.b.c.d): write the IPv4 address, or ::ffff:a.b.c.d');
  }
  const address = isV6 ? strictV6(addressText) : strictV4(addressText);
  if (address === null) {
    return fail(isV6 ? 'is not an IPv6 address' : 'is not an IPv4 address (four decimal numbers 0-255 without leading zeros) or an IPv6 address');
  }
  const maxBits = isV6 ? 128 : 32;
  let bits = maxBits;
  if (prefixText !== null) {
    if (!DECIMAL.test(prefixText) || Number(prefixText) > maxBits) {
      return fail(`has a bad prefix length ${JSON.stringify(prefixText)}: ${isV6 ? 'IPv6' : 'IPv4'} takes 0-${maxBits}`);
    }
    bits = Number(prefixText);
  }
  let v: 4 | 6 = isV6 ? 6 : 4;
  let value = isV6 ? v6Value(address as ipaddr.IPv6) : BigInt(v4Value(address as ipaddr.IPv4));
  if (isV6 && bits >= 96 && value >> 32n === 0xffffn) {
    // IPv4-mapped: the same clients as the IPv4 entry (a mapped range below /96 has host bits set).
    v = 4;
    value -= MAPPED_HIGH;
    bits -= 96;
  }
  const hostBits = BigInt((v === 4 ? 32 : 128) - bits);
  const network = (value >> hostBits) << hostBits;
  if (network !== value) {
    const net = v === 6 ? v6Text(network) : v4Text(Number(network));
    return fail(`has host bits set: the network is ${net}/${bits}, one address is written without a prefix`);
  }
  return v === 6 ? ok(6, value, bits, prefixText !== null) : ok(4, Number(value), bits, prefixText !== null);
}

/** Canonical `addr` or `net/prefix`, or null when parseIpRange refuses the text. */
export function canonicalIpOrCidr(text: string): string | null {
  const parsed = parseIpRange(text);
  return parsed.ok ? parsed.range.text : null;
}

/** A single address (no prefix) in canonical form, or null. */
export function canonicalIp(text: string): string | null {
  return text.includes('/') ? null : canonicalIpOrCidr(text);
}

function ok(v: 4 | 6, start: number | bigint, bits: number, withPrefix: boolean): IpRangeResult {
  const address = v === 4 ? v4Text(start as number) : v6Text(start as bigint);
  const text = withPrefix ? `${address}/${bits}` : address;
  return { ok: true, range: v === 4 ? { v, start: start as number, bits, text } : { v, start: start as bigint, bits, text } };
}

function fail(reason: string): IpRangeResult {
  return { ok: false, reason };
}

function strictV4(text: string): ipaddr.IPv4 | null {
  return ipaddr.IPv4.isValidFourPartDecimal(text) && text.split('.').every((p) => DECIMAL.test(p)) ? ipaddr.IPv4.parse(text) : null;
}

function strictV6(text: string): ipaddr.IPv6 | null {
  // ipaddr.js reads a trailing dotted quad with its lenient IPv4 parser (octal, hex): check it here.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.') && strictV4(tail) === null) return null;
  return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : null;
}

function v4Value(a: ipaddr.IPv4): number {
  const o = a.octets;
  return o[0] * 0x1000000 + o[1] * 0x10000 + o[2] * 0x100 + o[3];
}

function v6Value(a: ipaddr.IPv6): bigint {
  let n = 0n;
  for (const part of a.parts) n = (n << 16n) | BigInt(part);
  return n;
}

function v4Text(n: number): string {
  return `${Math.floor(n / 0x1000000)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function v6Text(n: bigint): string {
  const parts: number[] = [];
  for (let i = 7; i >= 0; i--) parts.push(Number((n >> BigInt(i * 16)) & 0xffffn));
  return new ipaddr.IPv6(parts).toString(); // RFC 5952
}

export const IpAddressSchema = z.string().max(MAX_IP_TEXT).refine((v) => isStrictAddress(v.trim()), {
  message: 'must be an IPv4 or IPv6 address',
});

// For client addresses in ingested logs (not rule entries): a plain address, zone id allowed.
function isStrictAddress(text: string): boolean {
  if (text.includes(':')) return ipaddr.IPv6.isValid(text);
  return ipaddr.IPv4.isValidFourPartDecimal(text);
}

/** A rule entry: refused with parseIpRange's reason; the parsed value stays the text (callers canonicalise). */
export const IpOrCidrSchema = z.string().superRefine((v, ctx) => {
  const parsed = parseIpRange(v);
  if (!parsed.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be an IPv4 or IPv6 address or CIDR range: ${JSON.stringify(v.slice(0, 80))} ${parsed.reason}` });
});
