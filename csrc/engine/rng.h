/* rng.h: a per-game random stream. Each game owns a 64-bit state seeded from
 * (seed, game index), so its random choices do not depend on the thread that runs it
 * or on any other game. splitmix64 (Steele, Lea, Flood 2014): tiny state, passes
 * BigCrush, cheap to seed from a hash. */
#ifndef STRATEGO_RNG_H
#define STRATEGO_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; the bias for n <= 2^16
 * is below 2^-48, far under anything a game can show). */
static inline uint32_t rng_below(uint64_t *state, uint32_t n) {
    return (uint32_t)(((rng_next(state) >> 32) * (uint64_t)n) >> 32);
}

/* The starting state of stream `stream` of game `index` under `seed`. */
static inline uint64_t rng_seed_stream(uint64_t seed, uint64_t index, uint64_t stream) {
    uint64_t s = seed ^ 0x5851F42D4C957F2Dull;
    uint64_t h = rng_next(&s);
    s = h ^ (index * 0xD1342543DE82EF95ull) ^ (stream << 56);
    rng_next(&s);
    return s;
}

#endif
