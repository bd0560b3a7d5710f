#include "view_codes.h"

#include <stddef.h>
#include <string.h>

#include "board.h"
#include "engine/cpu.h"
#include "view.h"

#ifdef CPU_AVX2_BUILD
#include <immintrin.h>
#endif

/* The way through the PlayerView: what every build can run, and what the AVX2 path hands
 * the games it leaves (view_codes.h). Apart, so that the AVX2 path's callers do not set
 * up the view's stack frame. */
static __attribute__((noinline)) void codes_through_view(const GameState *s, int player, const ObsSpec *spec, uint8_t *out) {
    PlayerView view;
    view_build_lean(s, player, spec->history_k, &view);
    observe_codes(&view, spec, out);
}

#ifdef CPU_AVX2_BUILD
/* The square codes as a function of a piece's public flags (the low four: moved,
 * revealed, scouted, Captain shown), one byte lookup each (vpshufb): an own piece's code
 * less its type's share, 4 * type; an opponent piece's code less its type where a fight
 * revealed it; and which opponent pieces add their type (0xFF: revealed). The same for
 * 16 entries, twice (vpshufb looks up within each half of the register). */
_Static_assert(PIECE_MOVED == 1 && PIECE_REVEALED == 2 && PIECE_SCOUTED == 4 && PIECE_CAPTAIN_SHOWN == 8,
               "the code tables are indexed by the four low flags");
#define FLAGS16(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
/* As observe_codes.h: own_revealed when the opponent identified the piece. */
#define OWN_BITS(f) (uint8_t)(CODE_OWN + ((f) & PIECE_MOVED) + (((f) & PIECE_IDENTIFIED) ? 2 : 0)),
/* A fight shows the type; a move only one type can make shows that type (a long move a
 * Scout, rulebook "Movement"; a variant Captain's diagonal a Captain); else unidentified. */
#define OPP_BASE(f)                                                                            \
    (uint8_t)((f) & PIECE_REVEALED        ? CODE_OPP_KNOWN                                     \
              : (f) & PIECE_CAPTAIN_SHOWN ? CODE_OPP_KNOWN + CAPTAIN                           \
              : (f) & PIECE_SCOUTED       ? CODE_OPP_KNOWN + SCOUT                             \
                                          : CODE_OPP_UNKNOWN_UNMOVED + ((f) & PIECE_MOVED)),
#define OPP_ADDS_TYPE(f) (uint8_t)((f) & PIECE_REVEALED ? 0xFF : 0),
static const uint8_t OWN_BITS_TABLE[32] = {FLAGS16(OWN_BITS) FLAGS16(OWN_BITS)};
static const uint8_t OPP_BASE_TABLE[32] = {FLAGS16(OPP_BASE) FLAGS16(OPP_BASE)};
static const uint8_t OPP_TYPE_TABLE[32] = {FLAGS16(OPP_ADDS_TYPE) FLAGS16(OPP_ADDS_TYPE)};

/* Which of the piece ids 0..95 (three blocks of 32; 80..95 are no pieces) are the
 * observer's, for each observer; and id minus the side's first id, for the opponent's
 * ids of each observer (127 elsewhere, above any count of placed ids), to compare with
 * the ids it placed. */
static uint8_t own_lanes[PLAYER_NB][96], opp_index[PLAYER_NB][96];

/* The frame's 32-byte blocks, and the board's block each comes from: for red the same,
 * unchanged; for blue the block at 68 - a, its bytes reversed (within each 4-byte word
 * by vpshufb, then the words' order by vpermd). A table, not a branch on the player:
 * the players alternate unpredictably from game to game. */
enum { FRAME_BLOCKS = 4 };
static const uint8_t FRAME_BLOCK_AT[FRAME_BLOCKS] = {0, 32, 64, SQ_NB - 32};
static const uint8_t BOARD_BLOCK_AT[PLAYER_NB][FRAME_BLOCKS] = {{0, 32, 64, SQ_NB - 32},
                                                                {SQ_NB - 32, SQ_NB - 64, SQ_NB - 96, 0}};
static uint8_t frame_bytes[PLAYER_NB][32];
static uint32_t frame_words[PLAYER_NB][8];

/* The words of GameState.on_board (red's 12 counts, then blue's) in the observer's
 * order, then two words the progress takes. */
static const uint32_t count_words[PLAYER_NB][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {3, 4, 5, 0, 1, 2, 6, 7}};
_Static_assert(PIECE_TYPE_NB == 12 && CODES_PROGRESS == CODES_COUNTS + 24 && CODES_HISTORY == CODES_PROGRESS + 8,
               "counts and progress: 32 bytes, 8 words");
_Static_assert(offsetof(GameState, on_board) % 4 == 0 && offsetof(GameState, on_board) + 32 <= sizeof(GameState),
               "the counts' words");

/* The lakes' codes in the frame (they are symmetric under the turn, types.h). */
static const uint8_t LAKE_CODES[SQ_NB] = {
#define CODE_LAKE_AT(sq) [sq] = CODE_LAKE,
    LAKE_SQUARES(CODE_LAKE_AT)
#undef CODE_LAKE_AT
};

static void codes_avx2_tables(void) {
    for (int p = 0; p < PLAYER_NB; p++) {
        for (int id = 0; id < 96; id++) {
            int side = id < PIECE_ID_NB ? id / MAX_PIECES : -1;
            own_lanes[p][id] = side == p ? 0xFF : 0;
            opp_index[p][id] = side == 1 - p ? (uint8_t)(id % MAX_PIECES) : 127;
        }
        for (int i = 0; i < 32; i++) frame_bytes[p][i] = (uint8_t)(p == BLUE ? (i & ~3) + 3 - (i & 3) : i);
        for (int w = 0; w < 8; w++) frame_words[p][w] = (uint32_t)(p == BLUE ? 7 - w : w);
    }
}

/* Reads 32 bytes of s at `offset` (the three piece arrays are read in blocks of 32 ids,
 * the last block running into the next array: 16 bytes that no lane uses). */
static inline __attribute__((always_inline, target("avx2"))) __m256i state_load(const GameState *s, size_t offset) {
    return _mm256_loadu_si256((const __m256i *)((const uint8_t *)s + offset));
}
_Static_assert(offsetof(GameState, piece_flags) + 96 <= sizeof(GameState), "the last block stays in the state");

/* Four plies of the history, 3 bytes each as the codes hold them (from, to, attack),
 * from four 4-byte entries of its ring (board.h's HistoryEntry), the latest first, with
 * one byte shuffle: out byte 3m + j is byte j (j = 2: byte 3, attack) of entry m. */
static const uint8_t PLY_BYTES[16] = {0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 0x80, 0x80, 0x80, 0x80};
_Static_assert(offsetof(HistoryEntry, from) == 0 && offsetof(HistoryEntry, to) == 1 &&
                   offsetof(HistoryEntry, attack) == 3 && sizeof(HistoryEntry) == 4,
               "PLY_BYTES reads from, to and attack of 4-byte entries");
/* Per out byte: the squares' turn for blue, 99 - sq = (sq ^ 0xFF) + 100 (XOR and add, by
 * observer); the largest value it may take (the attack 1); which of the block's plies it
 * shows; and its value where the game has no such ply. */
static const uint8_t PLY_FLIP[PLAYER_NB][16] = {{0}, {0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0}};
static const uint8_t PLY_ADD[PLAYER_NB][16] = {{0}, {SQ_NB, SQ_NB, 0, SQ_NB, SQ_NB, 0, SQ_NB, SQ_NB, 0, SQ_NB, SQ_NB, 0}};
static const uint8_t PLY_BYTE_MAX[16] = {0xFF, 0xFF, 1, 0xFF, 0xFF, 1, 0xFF, 0xFF, 1, 0xFF, 0xFF, 1};
static const uint8_t PLY_OF_BYTE[16] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 127, 127, 127, 127};
static const uint8_t PLY_NO_MOVE[16] = {CODES_NO_MOVE, 0, 0, CODES_NO_MOVE, 0, 0, CODES_NO_MOVE, 0, 0, CODES_NO_MOVE,
                                        0, 0};

/* The ring's entry of the ply `back` plies before the latest, as 4 bytes. */
static inline uint32_t history_word(const GameState *s, uint32_t back) {
    uint32_t word;
    memcpy(&word, &s->history[(s->ply - 1 - back) % HISTORY_NB], sizeof(word));
    return word;
}

/* The `history_k` latest plies into m, in the frame; observe.c stops at the first ply
 * the game does not have, and the codes mark the rest as no move. Four at a time, the
 * last four overlapping the ones before (a store past the codes would reach the next
 * game's row); fewer than four ply by ply. */
static inline __attribute__((always_inline, target("avx2"))) void codes_history(const GameState *s, int player,
                                                                                  int history_k, uint8_t *m) {
    uint32_t ply = s->ply;
    if (history_k < 4) {
        unsigned blue = -(unsigned)(player == BLUE);
        for (int k = 0; k < history_k; k++, m += 3) {
            const HistoryEntry *h = &s->history[(ply - 1 - (uint32_t)k) % HISTORY_NB];
            int there = (uint32_t)k < ply;
            /* sq_to_frame without a branch: 99 - sq = ~sq + 100 */
            m[0] = there ? (uint8_t)((h->from ^ blue) + (blue & SQ_NB)) : CODES_NO_MOVE;
            m[1] = there ? (uint8_t)((h->to ^ blue) + (blue & SQ_NB)) : 0;
            m[2] = there && h->attack != 0;
        }
        return;
    }
    const __m128i pick = _mm_loadu_si128((const __m128i *)PLY_BYTES);
    const __m128i flip = _mm_loadu_si128((const __m128i *)PLY_FLIP[player]);
    const __m128i add = _mm_loadu_si128((const __m128i *)PLY_ADD[player]);
    const __m128i max = _mm_loadu_si128((const __m128i *)PLY_BYTE_MAX);
    for (int next = 0; next < history_k; next += 4) {
        uint32_t k = (uint32_t)(next + 4 <= history_k ? next : history_k - 4);
        __m128i v = _mm_cvtsi32_si128((int)history_word(s, k));
        v = _mm_insert_epi32(v, (int)history_word(s, k + 1), 1);
        v = _mm_insert_epi32(v, (int)history_word(s, k + 2), 2);
        v = _mm_insert_epi32(v, (int)history_word(s, k + 3), 3);
        v = _mm_min_epu8(_mm_add_epi8(_mm_xor_si128(_mm_shuffle_epi8(v, pick), flip), add), max);
        /* Plies the game does not have (k + m >= ply): only in a game's first plies. */
        if (ply < k + 4) {
            __m128i plies = _mm_set1_epi8((char)(ply < 127 ? ply : 127));
            __m128i ply_of = _mm_add_epi8(_mm_loadu_si128((const __m128i *)PLY_OF_BYTE), _mm_set1_epi8((char)k));
            v = _mm_blendv_epi8(_mm_loadu_si128((const __m128i *)PLY_NO_MOVE), v, _mm_cmpgt_epi8(plies, ply_of));
        }
        _mm_storel_epi64((__m128i *)(m + 3 * k), v);
        uint32_t last = (uint32_t)_mm_extract_epi32(v, 2);
        memcpy(m + 3 * k + 8, &last, 4);
    }
}

/* 0xFF in the lanes of the opponent's placed ids (index below placed, both below 128)
 * that are off the board (square 0xFF) and unidentified (no flag of PIECE_IDENTIFIED):
 * the square XOR those flags is 0xFF for these alone (a board square is below 128). */
static inline __attribute__((always_inline, target("avx2"))) __m256i captured_unseen_block(__m256i sq, __m256i flags,
                                                                                          __m256i index,
                                                                                          __m256i opp_placed) {
    __m256i placed = _mm256_cmpgt_epi8(opp_placed, index);
    __m256i unseen_off = _mm256_xor_si256(sq, _mm256_and_si256(flags, _mm256_set1_epi8(PIECE_IDENTIFIED)));
    return _mm256_cmpeq_epi8(_mm256_and_si256(placed, unseen_off), _mm256_set1_epi8(-1));
}

/* Adds to the opponent's counts (opp_counts, 12 bytes) its captured pieces never
 * identified: under silent defense a captured defender is not shown, the observer does not
 * know it left the board, and it still counts among the pieces of its type (only the
 * sum is shown; view_build_lean's weights). Apart: only silent defense needs it. */
__attribute__((target("avx2"), noinline)) static void codes_count_captured_unseen(const GameState *s, int player,
                                                                                  uint8_t *opp_counts) {
    const __m256i opp_placed = _mm256_set1_epi8((char)s->placed[1 - player]);
    for (int b = 0; b < 3; b++) {
        __m256i index = _mm256_loadu_si256((const __m256i *)(opp_index[player] + 32 * b));
        __m256i sq = state_load(s, offsetof(GameState, piece_sq) + 32 * (size_t)b);
        __m256i flags = state_load(s, offsetof(GameState, piece_flags) + 32 * (size_t)b);
        uint32_t ids = (uint32_t)_mm256_movemask_epi8(captured_unseen_block(sq, flags, index, opp_placed));
        for (; ids != 0; ids &= ids - 1) opp_counts[s->piece_type[32 * b + __builtin_ctz(ids)]]++;
    }
}

/* The codes of s for `player`, 32 squares at a time (view_codes.h); through the view
 * while deploying (a screen hides the opponent's half, game.h). */
__attribute__((target("avx2"))) static void codes_avx2(const GameState *s, int player, const ObsSpec *spec,
                                                        uint8_t *out) {
    if (s->phase == PHASE_DEPLOY) {
        codes_through_view(s, player, spec, out);
        return;
    }
    /* Each piece's code, by id, three blocks of 32 ids: the own formula where the id is
     * the observer's, the opponent's elsewhere. */
    const __m256i low_flags = _mm256_set1_epi8(15);
    const __m256i own_bits = _mm256_loadu_si256((const __m256i *)OWN_BITS_TABLE);
    const __m256i opp_base = _mm256_loadu_si256((const __m256i *)OPP_BASE_TABLE);
    const __m256i opp_type = _mm256_loadu_si256((const __m256i *)OPP_TYPE_TABLE);
    const __m256i opp_placed = _mm256_set1_epi8((char)s->placed[1 - player]);
    __m256i code[3], captured_unseen = _mm256_setzero_si256(); /* 0xFF in a lane: one is */
    for (int b = 0; b < 3; b++) {
        __m256i type = state_load(s, offsetof(GameState, piece_type) + 32 * (size_t)b);
        __m256i sq = state_load(s, offsetof(GameState, piece_sq) + 32 * (size_t)b);
        __m256i flags = state_load(s, offsetof(GameState, piece_flags) + 32 * (size_t)b);
        __m256i own = _mm256_loadu_si256((const __m256i *)(own_lanes[player] + 32 * b));
        __m256i index = _mm256_loadu_si256((const __m256i *)(opp_index[player] + 32 * b));
        __m256i f = _mm256_and_si256(flags, low_flags);
        __m256i type4 = _mm256_add_epi8(type, type);
        type4 = _mm256_add_epi8(type4, type4);
        __m256i own_code = _mm256_add_epi8(_mm256_shuffle_epi8(own_bits, f), type4);
        __m256i opp_code = _mm256_add_epi8(_mm256_shuffle_epi8(opp_base, f),
                                           _mm256_and_si256(_mm256_shuffle_epi8(opp_type, f), type));
        code[b] = _mm256_blendv_epi8(opp_code, own_code, own);
        captured_unseen = _mm256_max_epu8(captured_unseen, captured_unseen_block(sq, flags, index, opp_placed));
    }
    int any_captured_unseen = _mm256_movemask_epi8(_mm256_cmpeq_epi8(captured_unseen, _mm256_set1_epi8(-1))) != 0;
    /* Look-up tables of 16 ids each, for a square's cell (1 + id) minus 1: table c holds
     * ids 16c..16c+15. vpshufb gives table[index & 15] for an index below 128 and 0 from
     * 128 up; looking up index - 16c in table c for every c, an id in table j reads its
     * own entry in tables 0..j and 0 in the others (a negative index). Table c therefore
     * holds its codes XOR those of table c - 1, and the XOR of the lookups is the code.
     * Empty squares (index 0xFF) and lakes (0xFE) read 0 everywhere: CODE_EMPTY, and
     * the lakes' code is added below. */
    __m256i delta0 = _mm256_xor_si256(code[0], _mm256_permute2x128_si256(code[0], code[0], 0x08));
    __m256i delta1 = _mm256_xor_si256(code[1], _mm256_permute2x128_si256(code[0], code[1], 0x21));
    __m256i delta2 = _mm256_xor_si256(code[2], _mm256_permute2x128_si256(code[1], code[2], 0x21));
    __m256i table[5] = {
        _mm256_permute2x128_si256(delta0, delta0, 0x00), _mm256_permute2x128_si256(delta0, delta0, 0x11),
        _mm256_permute2x128_si256(delta1, delta1, 0x00), _mm256_permute2x128_si256(delta1, delta1, 0x11),
        _mm256_permute2x128_si256(delta2, delta2, 0x00),
    };
    _Static_assert(PIECE_ID_NB <= 5 * 16, "five tables of 16 ids");
    const __m256i bytes = _mm256_loadu_si256((const __m256i *)frame_bytes[player]);
    const __m256i words = _mm256_loadu_si256((const __m256i *)frame_words[player]);
    const __m256i sixteen = _mm256_set1_epi8(16), one = _mm256_set1_epi8(1);
    for (int b = 0; b < FRAME_BLOCKS; b++) {
        int at = FRAME_BLOCK_AT[b];
        __m256i index = _mm256_sub_epi8(state_load(s, offsetof(GameState, board) + BOARD_BLOCK_AT[player][b]), one);
        __m256i c = _mm256_shuffle_epi8(table[0], index);
        for (int t = 1; t < 5; t++) {
            index = _mm256_sub_epi8(index, sixteen);
            c = _mm256_xor_si256(c, _mm256_shuffle_epi8(table[t], index));
        }
        c = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(c, bytes), words);
        c = _mm256_or_si256(c, _mm256_loadu_si256((const __m256i *)(LAKE_CODES + at)));
        _mm256_storeu_si256((__m256i *)(out + at), c);
    }
    /* The counts and the progress, 32 bytes: the pieces on the board (the state's
     * counts), the observer's first (12 bytes, 3 words each). */
    __m256i counts = _mm256_permutevar8x32_epi32(state_load(s, offsetof(GameState, on_board)),
                                                 _mm256_loadu_si256((const __m256i *)count_words[player]));
    counts = _mm256_insert_epi64(counts, (long long)observe_codes_progress(s->ply, s->plies_since_attack, spec), 3);
    _mm256_storeu_si256((__m256i *)(out + CODES_COUNTS), counts);
    if (any_captured_unseen) codes_count_captured_unseen(s, player, out + CODES_COUNTS + PIECE_TYPE_NB);
    codes_history(s, player, spec->history_k, out + CODES_HISTORY);
    /* Not deploying: nothing in hand. */
    if (spec->deploy) memset(out + CODES_BYTES(spec->history_k), 0, CODES_DEPLOY_NB);
}
#endif

/* What writes the codes: the way through the view, or the AVX2 path (view_codes_init). */
static void (*write_codes)(const GameState *, int, const ObsSpec *, uint8_t *) = codes_through_view;

void view_codes_init(void) {
#ifdef CPU_AVX2_BUILD
    static int ready;
    if (ready) return;
    codes_avx2_tables();
    if (cpu_avx2()) write_codes = codes_avx2;
    ready = 1;
#endif
}

void view_codes_write(const GameState *s, int player, const ObsSpec *spec, uint8_t *out) {
    write_codes(s, player, spec, out);
}
