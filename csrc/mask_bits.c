#include "mask_bits.h"

#include <string.h>

#include "moves.h"
#include "squareset.h"

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

int mask_bits_legal(const GameState *s, const Rules *r, uint8_t *bits) {
    int count = moves_legal_bits_fast(s, r, bits);
    if (count >= 0) return count;
    uint8_t mask[ACTION_MAX];
    count = moves_legal_mask(s, r, mask);
    mask_bits_pack(mask, rules_num_actions(r), bits);
    return count;
}

/* Bits of the partial last byte past n are not actions: a caller that narrows the mask
 * may have set them. */
static unsigned tail_byte(const uint8_t *bits, int n) { return bits[n / 8] & ((1u << (n % 8)) - 1u); }

int mask_bits_count(const uint8_t *bits, int n) {
    int full = n / 8, total = 0, at = 0;
    for (; at + 8 <= full; at += 8) {
        uint64_t word;
        memcpy(&word, bits + at, 8);
        total += word_count(word);
    }
    for (; at < full; at++) total += word_count(bits[at]);
    if (n % 8) total += word_count(tail_byte(bits, n));
    return total;
}

int mask_bits_select(const uint8_t *bits, int n, int k) {
    int full = n / 8, at = 0;
    for (; at + 8 <= full; at += 8) {
        uint64_t word;
        memcpy(&word, bits + at, 8);
        int ones = word_count(word);
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
