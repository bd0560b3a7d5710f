/* mask_bits.h: the legal mask packed 8 actions a byte, action a in bit (a % 8) of byte
 * a / 8: the order of np.unpackbits(..., bitorder="little"). MASK_BITS_BYTES(n) bytes
 * for n actions, the bits past n zero. A learner that moves masks to a GPU moves an
 * eighth of the bytes and unpacks them there (stratego.unpack_mask).
 */
#ifndef STRATEGO_MASK_BITS_H
#define STRATEGO_MASK_BITS_H

#include <stdint.h>


#define MASK_BITS_BYTES(num_actions) (((num_actions) + 7) / 8)

/* The most actions mask_bits_sample takes (its word counts live on the stack): above
 * the classic game's 2,801; a game with more counts and selects (castle_vec.c). */
enum { MASK_BITS_SAMPLE_MAX = 4096 };

/* Chooses the sampler's word count for this CPU. Idempotent; stratego_init calls it. */
void mask_bits_init(void);

/* Packs the 0/1 bytes mask[0..n) into bits (MASK_BITS_BYTES(n) bytes). */
void mask_bits_pack(const uint8_t *mask, int n, uint8_t *bits);

/* Set bits of actions 0..n-1 (bits past n are ignored), and the action of the k-th
 * (0-based) set bit, k below that count (-1 if none): count and select for a
 * game whose actions outnumber the classic sampler's table (the castle batch counts at
 * write time and selects when it samples, castle_vec.c); popcnt where the CPU has it. */
int mask_bits_count(const uint8_t *bits, int n);
int mask_bits_select(const uint8_t *bits, int n, int k);

/* A uniformly random set bit of bits[] among actions 0..n-1 (bits past n are ignored),
 * drawn from *rng, or -1 (nothing drawn) if none is set; n <= MASK_BITS_SAMPLE_MAX: the random agent of the packed
 * mask. The k-th set bit in action order for k = rng_below(rng, count), so it picks what
 * the bool mask's sampler (vec_mask_sample) picks from the same actions. */
int mask_bits_sample(const uint8_t *bits, int n, uint64_t *rng);

#endif
