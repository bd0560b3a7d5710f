#include "mask_bits.h"

#include <string.h>

#include "popcount.h"
#include "rng.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Count and select read the bytes 8 at a time as a word whose bit j is action 8 * byte + j. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mask_bits.c reads the packed mask as little-endian words"
#endif

void mask_bits_pack(const uint8_t *mask, int n, uint8_t *bits) {
    int a = 0;
#ifdef __SSE2__
    /* 64 actions a word from four movemasks (bit i of a movemask is byte i's sign, so
     * the bytes are compared to zero first): byte i becomes bit i, the little bit order,
     * and the word is stored whole (byte stores were 15% of a compact step, perf). */
    const __m128i zero = _mm_setzero_si128();
    for (; a + 64 <= n; a += 64) {
        uint64_t word = 0;
        for (int q = 0; q < 4; q++) {
            __m128i set = _mm_cmpgt_epi8(_mm_loadu_si128((const __m128i *)(mask + a + 16 * q)), zero);
            word |= (uint64_t)(uint16_t)_mm_movemask_epi8(set) << (16 * q);
        }
        memcpy(bits + a / 8, &word, 8);
    }
#endif
    for (; a + 8 <= n; a += 8) {
        uint8_t byte = 0;
        for (int i = 0; i < 8; i++) byte |= (uint8_t)((mask[a + i] != 0) << i);
        bits[a / 8] = byte;
    }
    if (a < n) {
        uint8_t byte = 0;
        for (int i = 0; a + i < n; i++) byte |= (uint8_t)((mask[a + i] != 0) << i);
        bits[a / 8] = byte;
    }
}

/* Set bits of each byte of x, as bytes (the SWAR count, 16 bytes at once). */
#ifdef __SSE2__
static inline __m128i byte_ones(__m128i x) {
    const __m128i m1 = _mm_set1_epi8(0x55), m2 = _mm_set1_epi8(0x33), m4 = _mm_set1_epi8(0x0F);
    x = _mm_sub_epi8(x, _mm_and_si128(_mm_srli_epi16(x, 1), m1));
    x = _mm_add_epi8(_mm_and_si128(x, m2), _mm_and_si128(_mm_srli_epi16(x, 2), m2));
    return _mm_and_si128(_mm_add_epi8(x, _mm_srli_epi16(x, 4)), m4);
}
#endif

/* CPUs with the popcnt instruction (every x86-64 CPU since about 2008, though not the
 * x86-64 baseline the engine is compiled for) count a word in one instruction: chosen
 * at run time (mask_bits_init), as observe.c chooses its AVX2 encoder. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(STRATEGO_NO_SIMD)
#define MASK_BITS_POPCNT 1
static int use_popcnt;
#endif

void mask_bits_init(void) {
#ifdef MASK_BITS_POPCNT
    use_popcnt = __builtin_cpu_supports("popcnt");
#endif
}

/* mask_bits_sample's body; `popcnt` (a constant at each use) counts words with the
 * instruction, in a function compiled for it. */
static inline __attribute__((always_inline)) int sample_bits(const uint8_t *bits, int n, uint64_t *rng, int popcnt) {
    /* One pass counts the set bits of each 64-bit word (action 64 w + j is bit j of word
     * w), so that finding the k-th bit afterwards reads counts, not the mask: a count and
     * a select over the mask were 18% of a compact step (callgrind). */
    uint64_t ones[MASK_BITS_SAMPLE_MAX / 64];
    int full = n / 64, w = 0;
    uint64_t total = 0;
    if (popcnt) {
#pragma GCC unroll 4
        for (; w < full; w++) {
            uint64_t word;
            memcpy(&word, bits + 8 * w, 8);
            total += ones[w] = (uint64_t)__builtin_popcountll(word);
        }
    }
#ifdef __SSE2__
    /* Two words a block: the byte counts' sums of absolute differences from zero are the
     * two words' counts. */
    __m128i sum = _mm_setzero_si128();
    for (; w + 2 <= full; w += 2) {
        __m128i counts = _mm_sad_epu8(byte_ones(_mm_loadu_si128((const __m128i *)(bits + 8 * w))), _mm_setzero_si128());
        _mm_storeu_si128((__m128i *)(ones + w), counts);
        sum = _mm_add_epi64(sum, counts);
    }
    uint64_t halves[2];
    _mm_storeu_si128((__m128i *)halves, sum);
    total += halves[0] + halves[1];
#endif
    for (; w < full; w++) {
        uint64_t word;
        memcpy(&word, bits + 8 * w, 8);
        total += ones[w] = (uint64_t)word_count(word);
    }
    /* The partial last word: its bytes, and of them only the bits below n (a caller
     * that narrows the mask may have set the others). */
    uint64_t last = 0;
    if (n % 64) {
        for (int byte = 0; 8 * byte < n % 64; byte++) last |= (uint64_t)bits[8 * full + byte] << (8 * byte);
        last &= (1ull << (n % 64)) - 1;
        total += ones[full] = (uint64_t)(popcnt ? __builtin_popcountll(last) : word_count(last));
    }
    if (total == 0) return -1;
    uint64_t k = rng_below(rng, (uint32_t)total);
    for (w = 0; k >= ones[w]; w++) k -= ones[w];
    uint64_t word = last;
    if (w < full) memcpy(&word, bits + 8 * w, 8);
    /* Clear the k lowest set bits; the lowest left is the action. */
    for (; k > 0; k--) word &= word - 1;
    return 64 * w + __builtin_ctzll(word);
}

#ifdef MASK_BITS_POPCNT
__attribute__((target("popcnt"))) static int sample_bits_popcnt(const uint8_t *bits, int n, uint64_t *rng) {
    return sample_bits(bits, n, rng, 1);
}
#endif

/* The last byte of n actions (n % 8 != 0) with the bits at and past n cleared. */
static inline unsigned tail_byte(const uint8_t *bits, int n) { return bits[n / 8] & ((1u << (n % 8)) - 1u); }

/* Set bits of a 64-bit word: the instruction where the caller is compiled for it. */
static inline __attribute__((always_inline)) int ones_of(uint64_t word, int popcnt) {
    return popcnt ? __builtin_popcountll(word) : word_count(word);
}

static inline __attribute__((always_inline)) int count_bits(const uint8_t *bits, int n, int popcnt) {
    int full = n / 8, total = 0, at = 0;
    for (; at + 8 <= full; at += 8) {
        uint64_t word;
        memcpy(&word, bits + at, 8);
        total += ones_of(word, popcnt);
    }
    for (; at < full; at++) total += word_count(bits[at]);
    if (n % 8) total += word_count(tail_byte(bits, n));
    return total;
}

static inline __attribute__((always_inline)) int select_bits(const uint8_t *bits, int n, int k, int popcnt) {
    int full = n / 8, at = 0;
    for (; at + 8 <= full; at += 8) {
        uint64_t word;
        memcpy(&word, bits + at, 8);
        int ones = ones_of(word, popcnt);
        if (k >= ones) {
            k -= ones;
            continue;
        }
        /* Bit j of the word is action 8 * at + j: clear the k lowest set bits. */
        for (; k > 0; k--) word &= word - 1;
        return 8 * at + __builtin_ctzll(word);
    }
    for (; at <= full; at++) {
        unsigned byte = at < full ? bits[at] : n % 8 ? tail_byte(bits, n) : 0u;
        int ones = word_count(byte);
        if (k >= ones) {
            k -= ones;
            continue;
        }
        for (; k > 0; k--) byte &= byte - 1;
        return 8 * at + __builtin_ctz(byte);
    }
    return -1;
}

#ifdef MASK_BITS_POPCNT
__attribute__((target("popcnt"))) static int count_bits_popcnt(const uint8_t *bits, int n) {
    return count_bits(bits, n, 1);
}
__attribute__((target("popcnt"))) static int select_bits_popcnt(const uint8_t *bits, int n, int k) {
    return select_bits(bits, n, k, 1);
}
#endif

int mask_bits_count(const uint8_t *bits, int n) {
#ifdef MASK_BITS_POPCNT
    if (use_popcnt) return count_bits_popcnt(bits, n);
#endif
    return count_bits(bits, n, 0);
}

int mask_bits_select(const uint8_t *bits, int n, int k) {
#ifdef MASK_BITS_POPCNT
    if (use_popcnt) return select_bits_popcnt(bits, n, k);
#endif
    return select_bits(bits, n, k, 0);
}

int mask_bits_sample(const uint8_t *bits, int n, uint64_t *rng) {
#ifdef MASK_BITS_POPCNT
    if (use_popcnt) return sample_bits_popcnt(bits, n, rng);
#endif
    return sample_bits(bits, n, rng, 0);
}
