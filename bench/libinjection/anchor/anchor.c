/*
 * The C anchor for bench/libinjection: calls the reference libinjection, as found in Debian's
 * libmodsecurity3 (which exports its bundled copy), on length-prefixed inputs from stdin.
 *
 *   anchor detect            -> one line per input: is_sqli <TAB> fingerprint <TAB> is_xss
 *   anchor time ROUNDS ITERS -> one line per input: median us per call, sqli <TAB> xss
 *   anchor pass [PASSES]     -> one line: median us per input over passes of all inputs, sqli <TAB> xss
 *
 * Input: for each value, a 4-byte little-endian length, then the bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int libinjection_sqli(const char *s, size_t slen, char fingerprint[]);
int libinjection_xss(const char *s, size_t slen);
const char *libinjection_version(void);

typedef struct { char *s; size_t len; } value_t;

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static volatile int sink;

static double median_us(int xss, const value_t *v, int rounds, long iters) {
  char fp[8];
  double *per = calloc((size_t)rounds, sizeof(double));
  for (long i = 0; i < 20000; i++) sink += xss ? libinjection_xss(v->s, v->len) : libinjection_sqli(v->s, v->len, fp);
  for (int r = 0; r < rounds; r++) {
    double t0 = now_us();
    for (long i = 0; i < iters; i++) sink += xss ? libinjection_xss(v->s, v->len) : libinjection_sqli(v->s, v->len, fp);
    per[r] = (now_us() - t0) / (double)iters;
  }
  qsort(per, (size_t)rounds, sizeof(double), cmp_double);
  double m = per[rounds / 2];
  free(per);
  return m;
}

int main(int argc, char **argv) {
  size_t cap = 1024, n = 0;
  value_t *vals = malloc(cap * sizeof(value_t));
  uint8_t hdr[4];
  while (fread(hdr, 1, 4, stdin) == 4) {
    size_t len = (size_t)hdr[0] | (size_t)hdr[1] << 8 | (size_t)hdr[2] << 16 | (size_t)hdr[3] << 24;
    char *s = malloc(len + 1);
    if (len > 0 && fread(s, 1, len, stdin) != len) return 2;
    s[len] = '\0';
    if (n == cap) vals = realloc(vals, (cap *= 2) * sizeof(value_t));
    vals[n].s = s;
    vals[n++].len = len;
  }
  const char *mode = argc > 1 ? argv[1] : "detect";
  fprintf(stderr, "libinjection %s\n", libinjection_version());
  if (strcmp(mode, "detect") == 0) {
    for (size_t i = 0; i < n; i++) {
      char fp[8] = {0};
      int q = libinjection_sqli(vals[i].s, vals[i].len, fp);
      printf("%d\t%s\t%d\n", q, q ? fp : "", libinjection_xss(vals[i].s, vals[i].len));
    }
  } else if (strcmp(mode, "time") == 0 && argc > 3) {
    int rounds = atoi(argv[2]);
    long iters = atol(argv[3]);
    for (size_t i = 0; i < n; i++)
      printf("%.4f\t%.4f\n", median_us(0, &vals[i], rounds, iters), median_us(1, &vals[i], rounds, iters));
  } else if (strcmp(mode, "pass") == 0) {
    int passes = argc > 2 ? atoi(argv[2]) : 1;
    if (passes < 1) passes = 1;
    double *sq = calloc((size_t)passes, sizeof(double)), *xs = calloc((size_t)passes, sizeof(double));
    char fp[8];
    for (int p = 0; p < passes; p++) {
      double t0 = now_us();
      for (size_t i = 0; i < n; i++) sink += libinjection_sqli(vals[i].s, vals[i].len, fp);
      double t1 = now_us();
      for (size_t i = 0; i < n; i++) sink += libinjection_xss(vals[i].s, vals[i].len);
      sq[p] = (t1 - t0) / (double)n;
      xs[p] = (now_us() - t1) / (double)n;
    }
    qsort(sq, (size_t)passes, sizeof(double), cmp_double);
    qsort(xs, (size_t)passes, sizeof(double), cmp_double);
    printf("%.4f\t%.4f\n", sq[passes / 2], xs[passes / 2]);
  } else {
    fprintf(stderr, "usage: anchor detect | time ROUNDS ITERS | pass\n");
    return 2;
  }
  return 0;
}
