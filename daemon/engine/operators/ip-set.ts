// A set of IPv4/IPv6 addresses and CIDR ranges for @ipMatch and @ipMatchFromFile (ipaddr.js).
// Inputs are matched only when they are a literal address of the right family (inet_pton rules:
// IPv4 must be four decimal parts), as ModSecurity's radix-tree lookup requires.
import ipaddr from 'ipaddr.js';
import { StringMemo } from '../macros/string-memo.js';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Answers kept per set: CRS's 905110 asks about REMOTE_ADDR on every request, and clients come
 *  back; parsing the text with ipaddr.js is most of a lookup. Bounded (inputs are request data). */
const ANSWER_LIMITS = { entries: 4096, inputLength: 64 };

export class IpSet {
  private readonly v4: Cidr[] = [];
  private readonly v6: Cidr[] = [];
  private readonly answers = new StringMemo((input) => this.lookup(input), ANSWER_LIMITS);

  /** Adds "a.b.c.d", "a.b.c.d/n", an IPv6 address or "v6/n"; throws on anything else. */
  add(entry: string): void {
    const text = entry.trim();
    const slash = text.indexOf('/');
    const addressText = slash < 0 ? text : text.slice(0, slash);
    const isV6 = addressText.includes(':');
    if (isV6 ? !ipaddr.IPv6.isValid(addressText) : !ipaddr.IPv4.isValidFourPartDecimal(addressText)) {
      throw new Error(`invalid IP address "${entry}"`);
    }
    const max = isV6 ? 128 : 32;
    let bits = max;
    if (slash >= 0) {
      const maskText = text.slice(slash + 1);
      if (!/^\d{1,3}$/.test(maskText) || Number(maskText) > max) throw new Error(`invalid netmask in "${entry}"`);
      bits = Number(maskText);
    }
    const address = ipaddr.parse(addressText);
    (isV6 ? this.v6 : this.v4).push([address, bits]);
    this.answers.clear();
  }

  get size(): number {
    return this.v4.length + this.v6.length;
  }

  has(input: string): boolean {
    return this.answers.get(input);
  }

  private lookup(input: string): boolean {
    const isV6 = input.includes(':');
    if (isV6 ? !ipaddr.IPv6.isValid(input) : !ipaddr.IPv4.isValidFourPartDecimal(input)) return false;
    const address = ipaddr.parse(input);
    const ranges = isV6 ? this.v6 : this.v4;
    for (const range of ranges) if (address.match(range as never)) return true;
    return false;
  }
}
