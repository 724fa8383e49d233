/* SPDX-License-Identifier: MIT */
/* prng.h - small seeded generator for slog2-synth.
 *
 * splitmix64 expands the user's seed into the 256-bit state of
 * xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number
 * generators", 2018). Both are public-domain algorithms, reimplemented here so
 * the output depends on nothing but the seed: the same arguments give
 * byte-identical traces on every platform.
 */
#ifndef SLOG2_SYNTH_PRNG_H
#define SLOG2_SYNTH_PRNG_H

#include <stdint.h>

typedef struct synth_rng {
  uint64_t s[4];
} synth_rng;

static inline uint64_t synth_splitmix64(uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Seed from (seed, stream) so every rank gets an independent sequence that
 * does not depend on how many numbers other ranks drew. */
static inline void synth_rng_seed(synth_rng *r, uint64_t seed, uint64_t stream)
{
  uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);
  for (int i = 0; i < 4; i++) r->s[i] = synth_splitmix64(&x);
}

static inline uint64_t synth_rotl(uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline uint64_t synth_rng_next(synth_rng *r)
{
  uint64_t *s = r->s;
  uint64_t result = synth_rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = synth_rotl(s[3], 45);
  return result;
}

/* Uniform integer in [lo, hi] (inclusive); the tiny modulo bias is irrelevant
 * for a workload generator. */
static inline int64_t synth_rng_range(synth_rng *r, int64_t lo, int64_t hi)
{
  uint64_t span = (uint64_t)(hi - lo) + 1;
  return lo + (int64_t)(synth_rng_next(r) % span);
}

/* Uniform double in [0, 1). */
static inline double synth_rng_unit(synth_rng *r)
{
  return (double)(synth_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
