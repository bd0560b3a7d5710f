/* vec.c: what vec.h's batches share that is not on the per-game hot path. */
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vec_outputs_alloc(const VecShape *shape, VecOutputs *out) {
    size_t n = (size_t)shape->num_envs;
    memset(out, 0, sizeof(*out));
    /* Zeroed: a digest or a test may read final_obs rows no game has finished into yet. */
    out->mask = calloc(n, shape->mask_bytes);
    out->rewards = calloc(n * (size_t)shape->num_players, sizeof(float));
    out->reward = calloc(n, sizeof(float));
    out->terminated = calloc(n, 1);
    out->truncated = calloc(n, 1);
    out->to_play = calloc(n, 1);
    out->final_winner = calloc(n, 1);
    out->final_reason = calloc(n, 1);
    out->final_plies = calloc(n, sizeof(int32_t));
    int with_obs = shape->obs_views > 0;
    if (with_obs) {
        out->obs = calloc(n * (size_t)shape->obs_views, shape->obs_bytes);
        out->final_obs = calloc(n * (size_t)shape->final_views, shape->obs_bytes);
    }
    if (!out->mask || !out->rewards || !out->reward || !out->terminated || !out->truncated || !out->to_play ||
        !out->final_winner || !out->final_reason || !out->final_plies || (with_obs && (!out->obs || !out->final_obs))) {
        vec_outputs_free(out);
        return -1;
    }
    return 0;
}

void vec_outputs_free(VecOutputs *out) {
    free(out->mask);
    free(out->rewards);
    free(out->reward);
    free(out->terminated);
    free(out->truncated);
    free(out->to_play);
    free(out->final_winner);
    free(out->final_reason);
    free(out->final_plies);
    free(out->obs);
    free(out->final_obs);
    memset(out, 0, sizeof(*out));
}

void vec_tally_add(VecTallyShared *shared, const VecTally *t) {
    if (t->finished == 0) return;
    atomic_fetch_add(&shared->finished, t->finished);
    atomic_fetch_add(&shared->draws, t->draws);
    atomic_fetch_add(&shared->marked, t->marked);
    atomic_fetch_add(&shared->plies, t->plies);
    for (int p = 0; p < VEC_PLAYERS_MAX; p++) atomic_fetch_add(&shared->wins[p], t->wins[p]);
    atomic_fetch_add(&shared->checksum, t->checksum);
}

void vec_tally_collect(const VecTallyShared *shared, VecTally *total) {
    total->finished += atomic_load(&shared->finished);
    total->draws += atomic_load(&shared->draws);
    total->marked += atomic_load(&shared->marked);
    total->plies += atomic_load(&shared->plies);
    for (int p = 0; p < VEC_PLAYERS_MAX; p++) total->wins[p] += atomic_load(&shared->wins[p]);
    total->checksum += atomic_load(&shared->checksum);
}

/* Set (non-zero) entries of a byte mask. numpy's bool is one byte and any non-zero
 * byte reads as True (a mask written through a uint8 view may hold 255 or 2), so a
 * block counts bytes that are not zero, not their sum. 16 bytes at a time with SSE2
 * where the compiler has it (x86-64 always does): min(byte, 1), then the sum of
 * absolute differences; 8 at a time elsewhere: each non-zero byte becomes 1, then a
 * multiply gathers the byte sum of a word. */
#ifdef __SSE2__
#include <emmintrin.h>
enum { MASK_BLOCK = 16 };
static inline int block_ones(const uint8_t *m) {
    __m128i bits = _mm_min_epu8(_mm_loadu_si128((const __m128i *)m), _mm_set1_epi8(1));
    __m128i sums = _mm_sad_epu8(bits, _mm_setzero_si128());
    return _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
}
#else
enum { MASK_BLOCK = 8 };
static inline int block_ones(const uint8_t *m) {
    uint64_t word;
    memcpy(&word, m, 8);
    /* Per byte: the high bit set iff the byte is non-zero, without carries between bytes. */
    uint64_t low7 = (word & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full;
    uint64_t ones = ((low7 | word) & 0x8080808080808080ull) >> 7;
    return (int)((ones * 0x0101010101010101ull) >> 56);
}
#endif

/* Ones in mask[0..n), with the ones of each 64-byte group kept in groups[], so that
 * finding the k-th one afterwards reads at most one group of the mask again. */
enum { MASK_GROUP = 64, MASK_GROUPS_MAX = VEC_ACTIONS_MAX / MASK_GROUP };

static int mask_count(const uint8_t *mask, int n, uint16_t *groups) {
    int total = 0, a = 0, g = 0;
    for (; a + MASK_GROUP <= n; a += MASK_GROUP, g++) {
        int ones = 0;
        for (int b = 0; b < MASK_GROUP; b += MASK_BLOCK) ones += block_ones(mask + a + b);
        groups[g] = (uint16_t)ones;
        total += ones;
    }
    for (; a < n; a++) total += mask[a] != 0;
    return total;
}

/* The k-th (0-based) set entry, k below the count mask_count() gave with groups. */
static int mask_select(const uint8_t *mask, int n, const uint16_t *groups, int k) {
    int a = 0;
    for (int g = 0; a + MASK_GROUP <= n; a += MASK_GROUP, g++) {
        if (k < groups[g]) break;
        k -= groups[g];
    }
    for (; a + MASK_BLOCK <= n; a += MASK_BLOCK) {
        int ones = block_ones(mask + a);
        if (k < ones) break;
        k -= ones;
    }
    for (; a < n; a++) {
        if (mask[a] && k-- == 0) return a;
    }
    return -1;
}

int vec_mask_sample(const uint8_t *mask, int n, uint64_t *rng) {
    uint16_t groups[MASK_GROUPS_MAX];
    int count = mask_count(mask, n, groups);
    return count > 0 ? mask_select(mask, n, groups, (int)rng_below(rng, (uint32_t)count)) : -1;
}

void vec_save_frame_fill(VecSaveFrame *f, const char magic[8], uint32_t version, uint32_t kind, uint32_t state_bytes) {
    memset(f, 0, sizeof(*f));
    memcpy(f->magic, magic, sizeof(f->magic));
    f->version = version;
    f->kind = kind;
    f->byte_order = VEC_SAVE_BYTE_ORDER;
    f->state_bytes = state_bytes;
}

int vec_save_frame_check(const uint8_t *data, size_t len, size_t header_bytes, const VecSaveFrame *ours,
                         const char *name, const char *expected_kind, char *err, size_t err_len) {
    VecSaveFrame f;
    if (len < header_bytes) {
        snprintf(err, err_len, "too short for a save: %zu bytes, the header alone has %zu", len, header_bytes);
        return -1;
    }
    memcpy(&f, data, sizeof(f));
    if (memcmp(f.magic, ours->magic, sizeof(f.magic)) != 0) {
        snprintf(err, err_len, "not a %s save (it does not start with \"%.8s\")", name, ours->magic);
        return -1;
    }
    if (f.byte_order != VEC_SAVE_BYTE_ORDER) {
        snprintf(err, err_len, "the save was written on a machine of the other byte order");
        return -1;
    }
    if (f.version != ours->version) {
        snprintf(err, err_len, "the save has format version %u, this engine reads version %u", f.version,
                 ours->version);
        return -1;
    }
    if (f.kind != ours->kind) {
        snprintf(err, err_len, "the save is %s, expected %s",
                 f.kind == VEC_SAVE_GAME ? "of one game" : f.kind == VEC_SAVE_BATCH ? "of a batch of games" : "of an unknown kind",
                 expected_kind);
        return -1;
    }
    return 0;
}
