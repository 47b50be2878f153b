// SHA-256 in plain ES5 for the challenge page: crypto.subtle exists only in secure contexts
// (HTTPS or localhost), and the challenge must also work on plain HTTP sites. Input is an
// ASCII string (the token and a number), output an array of 32 bytes.
//
// The round constants are computed exactly here (integer cube roots with BigInt) and written
// into the page as literals, rather than recomputed with floating point in the browser.

function roundConstants(): number[] {
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  // K[i] = first 32 bits of the fractional part of cbrt(prime) = floor(cbrt(prime * 2^96)) mod 2^32.
  return primes.map((p) => Number(integerCubeRoot(BigInt(p) << 96n) & 0xffffffffn));
}

function integerCubeRoot(n: bigint): bigint {
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 3) + 1);
  for (;;) {
    const y = (2n * x + n / (x * x)) / 3n;
    if (y >= x) break;
    x = y;
  }
  while (x * x * x > n) x--;
  while ((x + 1n) ** 3n <= n) x++;
  return x;
}

export const SHA256_JS = `var K = [${roundConstants().join(',')}];
function sha256(m) {
  var H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  var b = [], w = [], i, j, l = m.length;
  for (i = 0; i < l; i++) b.push(m.charCodeAt(i) & 255);
  b.push(0x80);
  while (b.length % 64 !== 56) b.push(0);
  var bits = l * 8;
  b.push(0, 0, 0, 0, (bits >>> 24) & 255, (bits >>> 16) & 255, (bits >>> 8) & 255, bits & 255);
  for (i = 0; i < b.length; i += 64) {
    for (j = 0; j < 16; j++) w[j] = (b[i + 4 * j] << 24) | (b[i + 4 * j + 1] << 16) | (b[i + 4 * j + 2] << 8) | b[i + 4 * j + 3];
    for (j = 16; j < 64; j++) {
      var x = w[j - 15], y = w[j - 2];
      var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[j] = (w[j - 16] + s0 + w[j - 7] + s1) | 0;
    }
    var A = H[0], B = H[1], C = H[2], D0 = H[3], E = H[4], F = H[5], G = H[6], H0 = H[7];
    for (j = 0; j < 64; j++) {
      var S1 = ((E >>> 6) | (E << 26)) ^ ((E >>> 11) | (E << 21)) ^ ((E >>> 25) | (E << 7));
      var t1 = (H0 + S1 + ((E & F) ^ (~E & G)) + K[j] + w[j]) | 0;
      var S0 = ((A >>> 2) | (A << 30)) ^ ((A >>> 13) | (A << 19)) ^ ((A >>> 22) | (A << 10));
      var t2 = (S0 + ((A & B) ^ (A & C) ^ (B & C))) | 0;
      H0 = G; G = F; F = E; E = (D0 + t1) | 0; D0 = C; C = B; B = A; A = (t1 + t2) | 0;
    }
    H[0] = (H[0] + A) | 0; H[1] = (H[1] + B) | 0; H[2] = (H[2] + C) | 0; H[3] = (H[3] + D0) | 0;
    H[4] = (H[4] + E) | 0; H[5] = (H[5] + F) | 0; H[6] = (H[6] + G) | 0; H[7] = (H[7] + H0) | 0;
  }
  var out = [];
  for (i = 0; i < 8; i++) out.push((H[i] >>> 24) & 255, (H[i] >>> 16) & 255, (H[i] >>> 8) & 255, H[i] & 255);
  return out;
}`;
