#include "view.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "board.h"
#include "engine/cpu.h"

/* The view codes of a board without pieces: the lakes at the lake squares (types.h),
 * where board_validate holds every state to them, and empty elsewhere. The lakes are
 * symmetric under the 180-degree turn, so this serves both frames. */
static const uint16_t BARE_BOARD[SQ_NB] = {
#define VIEW_LAKE_AT(sq) [sq] = VIEW_LAKE,
    LAKE_SQUARES(VIEW_LAKE_AT)
#undef VIEW_LAKE_AT
};

void view_build(const GameState *s, int player, PlayerView *v) {
    view_build_recent(s, player, HISTORY_NB, v);
}

/* What the pieces of one side show the observer, piece by piece (index i = id minus
 * the side's first id), in whole blocks of 16. */
typedef struct {
    uint16_t code_flags[48]; /* view code | public flags << 8 */
    /* Frame square; past the board for a captured piece (square SQ_NONE: 255 in red's
     * frame, 99 - 255 = 100 modulo 256 in blue's) or an id not placed (255), so the
     * board is drawn without a branch. */
    uint8_t at[48];
    /* The opponent's side only, what each piece adds to the counts of the view, as
     * weights 1 and 64: one sum of bytes then yields two counts, the first below 64 (at
     * most 40 pieces) and the second above it. */
    uint8_t type_weight[48];     /* 1: not known to be captured; 64: unidentified */
    uint8_t on_board_weight[48]; /* unidentified on the board: 1 moved, 64 unmoved */
    uint8_t captured_weight[48]; /* unidentified and captured: 1 moved, 64 unmoved */
    uint8_t narrowed_weight[48]; /* 1: unidentified, shown to be a Scout or a Captain */
} SideCodes;
_Static_assert(MAX_PIECES <= 48, "a side's pieces fit three blocks of 16");
_Static_assert(MAX_PIECES < 64, "a count below 64 leaves the weight 64 to the other");

#ifdef __SSE2__
/* Pieces 16b..16b+15 of a side; the last block (b = 2) holds pieces 32..39 and zeros. */
static inline __m128i side_block(const uint8_t *side, int b) {
    return b < 2 ? _mm_loadu_si128((const __m128i *)(side + 16 * b)) : _mm_loadl_epi64((const __m128i *)(side + 32));
}
_Static_assert(MAX_PIECES == 40, "side_block reads 16 + 16 + 8 pieces");

static inline void block_store(uint8_t *dst, int b, __m128i x) { _mm_storeu_si128((__m128i *)(dst + 16 * b), x); }

/* Sum of the 16 bytes of x. */
static inline int bytes_sum(__m128i x) {
    __m128i sums = _mm_sad_epu8(x, _mm_setzero_si128());
    return _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
}
#endif

/* The codes of `side`'s first `shown` pieces for `observer` (the others are not drawn),
 * and with `weights` (a constant at each use) the opponent's weights for view_counts.
 * Each is a function of one piece's type, square and flags, so 16 pieces go at once.
 * Returns 1 if a captured opponent piece was never identified (silent defense). */
static inline __attribute__((always_inline)) int view_side(const GameState *s, int side, int observer, int shown,
                                                           SideCodes *out, int weights) {
    const uint8_t *types = s->piece_type + side * MAX_PIECES, *squares = s->piece_sq + side * MAX_PIECES,
                  *flags = s->piece_flags + side * MAX_PIECES;
    int own = side == observer, blue = observer == BLUE;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128(), all = _mm_set1_epi8(-1);
    const __m128i one = _mm_set1_epi8(1), sixty_four = _mm_set1_epi8(64);
    __m128i captured_unknown = zero;
    for (int b = 0; b < 3; b++) {
        __m128i type = side_block(types, b), sq = side_block(squares, b), f = side_block(flags, b);
        /* 0xFF masks below. */
        __m128i lane = _mm_add_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                    _mm_set1_epi8((char)(16 * b)));
        __m128i placed = _mm_cmplt_epi8(lane, _mm_set1_epi8((char)shown));
        __m128i at = blue ? _mm_sub_epi8(_mm_set1_epi8(SQ_NB - 1), sq) : sq;
        block_store(out->at, b, _mm_or_si128(at, _mm_andnot_si128(placed, all)));
        __m128i code;
        if (own) {
            code = _mm_or_si128(type, _mm_set1_epi8(VIEW_OWN));
        } else {
            /* A fight shows the type; a move only one type can make shows that type (a
             * long move a Scout, rulebook "Movement"; a variant Captain's diagonal a
             * Captain); the type stays in the state otherwise. */
            __m128i revealed_bit = _mm_set1_epi8(PIECE_REVEALED), captain_bit = _mm_set1_epi8(PIECE_CAPTAIN_SHOWN);
            __m128i revealed = _mm_cmpeq_epi8(_mm_and_si128(f, revealed_bit), revealed_bit);
            __m128i captain = _mm_cmpeq_epi8(_mm_and_si128(f, captain_bit), captain_bit);
            __m128i unknown = _mm_cmpeq_epi8(_mm_and_si128(f, _mm_set1_epi8(PIECE_IDENTIFIED)), zero);
            __m128i shown_type = _mm_or_si128(_mm_and_si128(captain, _mm_set1_epi8(CAPTAIN)),
                                              _mm_andnot_si128(captain, _mm_set1_epi8(SCOUT)));
            __m128i known_type = _mm_or_si128(_mm_and_si128(revealed, type), _mm_andnot_si128(revealed, shown_type));
            code = _mm_or_si128(_mm_andnot_si128(unknown, _mm_or_si128(known_type, _mm_set1_epi8(VIEW_OPP_KNOWN))),
                                _mm_and_si128(unknown, _mm_set1_epi8((char)VIEW_OPP_UNKNOWN)));
            unknown = _mm_and_si128(unknown, placed);
            __m128i captured = _mm_cmpeq_epi8(sq, _mm_set1_epi8((char)SQ_NONE));
            captured_unknown = _mm_or_si128(captured_unknown, _mm_and_si128(captured, unknown));
            if (weights) {
                __m128i moved = _mm_cmpeq_epi8(_mm_and_si128(f, _mm_set1_epi8(PIECE_MOVED)), _mm_set1_epi8(PIECE_MOVED));
                /* Not known to be captured: on the board, or never identified (a known
                 * piece's type is its true type: board_validate holds the flags to it). */
                __m128i not_captured = _mm_andnot_si128(_mm_andnot_si128(unknown, captured), placed);
                __m128i moved_weight = _mm_or_si128(_mm_and_si128(moved, one), _mm_andnot_si128(moved, sixty_four));
                block_store(out->type_weight, b,
                            _mm_or_si128(_mm_and_si128(not_captured, one), _mm_and_si128(unknown, sixty_four)));
                block_store(out->on_board_weight, b, _mm_and_si128(_mm_andnot_si128(captured, unknown), moved_weight));
                block_store(out->captured_weight, b, _mm_and_si128(_mm_and_si128(captured, unknown), moved_weight));
                __m128i narrowed_bit = _mm_set1_epi8(PIECE_SCOUT_OR_CAPTAIN);
                __m128i narrowed = _mm_cmpeq_epi8(_mm_and_si128(f, narrowed_bit), narrowed_bit);
                block_store(out->narrowed_weight, b, _mm_and_si128(_mm_and_si128(narrowed, unknown), one));
            }
        }
        _mm_storeu_si128((__m128i *)(out->code_flags + 16 * b), _mm_unpacklo_epi8(code, f));
        _mm_storeu_si128((__m128i *)(out->code_flags + 16 * b + 8), _mm_unpackhi_epi8(code, f));
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(captured_unknown, zero)) != 0xFFFF;
#else
    int captured_unknown = 0;
    for (int i = 0; i < MAX_PIECES; i++) {
        int type = types[i], sq = squares[i], f = flags[i], placed = i < shown;
        out->at[i] = (uint8_t)(!placed ? 0xFF : blue ? SQ_NB - 1 - sq : sq);
        if (own) {
            out->code_flags[i] = (uint16_t)((VIEW_OWN | type) | f << 8);
            continue;
        }
        /* A fight shows the type; a move only one type can make shows that type (a long
         * move a Scout, rulebook "Movement"; a variant Captain's diagonal a Captain);
         * the type stays in the state otherwise. */
        int revealed = (f & PIECE_REVEALED) != 0, known = (f & PIECE_IDENTIFIED) != 0;
        int shown = f & PIECE_CAPTAIN_SHOWN ? CAPTAIN : SCOUT;
        int code = known ? VIEW_OPP_KNOWN | (revealed ? type : shown) : VIEW_OPP_UNKNOWN;
        out->code_flags[i] = (uint16_t)(code | f << 8);
        int unknown = placed && !known, captured = sq == SQ_NONE, moved_weight = f & PIECE_MOVED ? 1 : 64;
        /* Not known to be captured: on the board, or never identified (a known piece's
         * type is its true type: board_validate holds the flags to it). */
        int not_captured = placed && (!captured || unknown);
        captured_unknown |= unknown && captured;
        if (!weights) continue;
        out->type_weight[i] = (uint8_t)(not_captured + 64 * unknown);
        out->on_board_weight[i] = (uint8_t)(unknown && !captured ? moved_weight : 0);
        out->captured_weight[i] = (uint8_t)(unknown && captured ? moved_weight : 0);
        out->narrowed_weight[i] = (uint8_t)(unknown && (f & PIECE_SCOUT_OR_CAPTAIN));
    }
    return captured_unknown;
#endif
}

/* Draws a side's pieces into `board` (view_build_recent's), each at its frame square.
 * Unrolled: a load, a load and a store a piece, no loop counter (the two sides' drawing
 * was a quarter of the view, callgrind). */
static inline void view_draw(uint16_t board[256], const SideCodes *side) {
#pragma GCC unroll 40
    for (int i = 0; i < MAX_PIECES; i++) board[side->at[i]] = side->code_flags[i];
}

/* The opponent's counts in v from its pieces' weights (SideCodes). Only these sums of
 * types are read, never the type of a particular unidentified piece. */
static void view_counts(const uint8_t *types, const SideCodes *opp, PlayerView *v) {
    int by_type[PIECE_TYPE_NB], on_board = 0, captured = 0, narrowed = 0;
#ifdef __SSE2__
    __m128i type_of[3], weight_of[3], on_board_sum = _mm_setzero_si128(), captured_sum = _mm_setzero_si128();
    __m128i narrowed_sum = _mm_setzero_si128();
    /* Byte sums of three blocks: at most 3 * 65. */
    for (int b = 0; b < 3; b++) {
        type_of[b] = side_block(types, b);
        weight_of[b] = _mm_loadu_si128((const __m128i *)(opp->type_weight + 16 * b));
        on_board_sum = _mm_add_epi8(on_board_sum, _mm_loadu_si128((const __m128i *)(opp->on_board_weight + 16 * b)));
        captured_sum = _mm_add_epi8(captured_sum, _mm_loadu_si128((const __m128i *)(opp->captured_weight + 16 * b)));
        narrowed_sum = _mm_add_epi8(narrowed_sum, _mm_loadu_si128((const __m128i *)(opp->narrowed_weight + 16 * b)));
    }
    narrowed = bytes_sum(narrowed_sum);
    on_board = bytes_sum(on_board_sum);
    captured = bytes_sum(captured_sum);
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        __m128i sum = _mm_setzero_si128();
        for (int b = 0; b < 3; b++)
            sum = _mm_add_epi8(sum, _mm_and_si128(_mm_cmpeq_epi8(type_of[b], _mm_set1_epi8((char)t)), weight_of[b]));
        by_type[t] = bytes_sum(sum);
    }
#else
    memset(by_type, 0, sizeof(by_type));
    for (int i = 0; i < MAX_PIECES; i++) {
        /* An id not placed weighs nothing (and its type may be anything). */
        if (opp->type_weight[i]) by_type[types[i]] += opp->type_weight[i];
        on_board += opp->on_board_weight[i];
        captured += opp->captured_weight[i];
        narrowed += opp->narrowed_weight[i];
    }
#endif
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        v->opp_on_board[t] = (uint8_t)(by_type[t] & 63);
        v->opp_unknown[t] = (uint8_t)(by_type[t] >> 6);
    }
    v->opp_unknown_moved = (uint8_t)(on_board & 63);
    v->opp_unknown_unmoved = (uint8_t)(on_board >> 6);
    v->opp_captured_unknown_moved = (uint8_t)(captured & 63);
    v->opp_captured_unknown_unmoved = (uint8_t)(captured >> 6);
    v->opp_scout_or_captain = (uint32_t)narrowed;
}

/* view_build_recent's body; `lean` (a constant at each use) leaves out the counts of the
 * opponent's unidentified pieces (view_build_lean). */
static inline __attribute__((always_inline)) void view_fill(const GameState *s, int player, int plies, PlayerView *v,
                                                            int lean) {
    /* The board is drawn piece by piece into this, code and flags of a square together,
     * by frame square; a captured piece lands past the board (SideCodes). Every field of
     * the view is written below: no memset of the whole view first. */
    uint16_t board[256];
    memcpy(board, BARE_BOARD, sizeof(BARE_BOARD));
    SideCodes own, opp;
    view_side(s, player, player, s->placed[player], &own, 0);
    view_draw(board, &own);
    /* While deploying, a screen hides the opponent's half: none of its pieces is drawn
     * or counted (game.h). */
    int deploying = s->phase == PHASE_DEPLOY;
    int captured_unknown = view_side(s, 1 - player, player, deploying ? 0 : s->placed[1 - player], &opp, !lean);
    view_draw(board, &opp);
    /* The opponent's piece set is public (the variant's counts); of a captured piece the
     * observer knows the type only if it was ever shown. */
    /* The lean view: with no captured piece left unidentified, the pieces not known to
     * be captured are those on the board, which the state counts (GameState.on_board,
     * the numbers view_counts sums from the pieces' weights, a quarter of the view by
     * callgrind); while deploying none (nothing of the opponent is shown); else the
     * weights are computed after all. */
    const uint8_t *opp_types = s->piece_type + (1 - player) * MAX_PIECES;
    if (!lean) {
        view_counts(opp_types, &opp, v);
    } else if (deploying) {
        memset(v->opp_on_board, 0, PIECE_TYPE_NB);
    } else if (!captured_unknown) {
        memcpy(v->opp_on_board, s->on_board[1 - player], PIECE_TYPE_NB);
    } else {
        SideCodes weighed;
        view_side(s, 1 - player, player, s->placed[1 - player], &weighed, 1);
        view_counts(opp_types, &weighed, v);
    }
    if (lean) {
        memset(v->opp_unknown, 0, PIECE_TYPE_NB);
        v->opp_unknown_moved = v->opp_unknown_unmoved = 0;
        v->opp_captured_unknown_moved = v->opp_captured_unknown_unmoved = 0;
        v->opp_scout_or_captain = 0;
    }
    memcpy(v->own_on_board, s->on_board[player], PIECE_TYPE_NB);
    /* The latest plies the caller asked for; older entries stay zero (valid 0). Zeros
     * copied from a constant: compilers inline the copy as vector moves, where a memset
     * of this size may become a rep stos, slow to start. */
    static const ViewMove NO_MOVES[HISTORY_NB];
    memcpy(v->last, NO_MOVES, sizeof(v->last));
    plies = plies < 0 ? 0 : plies > HISTORY_NB ? HISTORY_NB : plies;
    int remembered = s->ply < (uint32_t)plies ? (int)s->ply : plies;
    for (int k = 0; k < remembered; k++) {
        const HistoryEntry *h = &s->history[(s->ply - 1 - k) % HISTORY_NB];
        v->last[k].from = (uint8_t)sq_to_frame(h->from, player);
        v->last[k].to = (uint8_t)sq_to_frame(h->to, player);
        v->last[k].attack = h->attack;
        v->last[k].valid = 1;
    }
    v->ply = s->ply;
    v->plies_since_attack = s->plies_since_attack;
    v->deploying = (uint32_t)deploying;
    /* Last, so that the board's many small stores have left the store buffer when these
     * wide loads read them back (a load that spans several pending stores waits; a few
     * percent of the view measured). */
#ifdef __SSE2__
    /* 16 squares a block, the last one overlapping the one before. */
    static const uint8_t BLOCK_AT[] = {0, 16, 32, 48, 64, 80, SQ_NB - 16};
    const __m128i low_byte = _mm_set1_epi16(0xFF);
    for (int b = 0; b < (int)sizeof(BLOCK_AT); b++) {
        int at = BLOCK_AT[b];
        __m128i lo = _mm_loadu_si128((const __m128i *)(board + at)), hi = _mm_loadu_si128((const __m128i *)(board + at + 8));
        _mm_storeu_si128((__m128i *)(v->cell + at), _mm_packus_epi16(_mm_and_si128(lo, low_byte), _mm_and_si128(hi, low_byte)));
        _mm_storeu_si128((__m128i *)(v->flags + at), _mm_packus_epi16(_mm_srli_epi16(lo, 8), _mm_srli_epi16(hi, 8)));
    }
#else
    for (int sq = 0; sq < SQ_NB; sq++) {
        v->cell[sq] = (uint8_t)board[sq];
        v->flags[sq] = (uint8_t)(board[sq] >> 8);
    }
#endif
}

void view_build_recent(const GameState *s, int player, int plies, PlayerView *v) { view_fill(s, player, plies, v, 0); }

/* The lean view, the one the encoders build at every step, also compiled for AVX2 (cpu.h):
 * the same SSE2 code with VEX's three operands, without its register copies (about a
 * tenth of the view's instructions, callgrind). */
static void view_build_lean_sse2(const GameState *s, int player, int plies, PlayerView *v) {
    view_fill(s, player, plies, v, 1);
}

#ifdef CPU_AVX2_BUILD
__attribute__((target("avx2"))) static void view_build_lean_avx2(const GameState *s, int player, int plies,
                                                                 PlayerView *v) {
    view_fill(s, player, plies, v, 1);
}
#endif

static void (*build_lean)(const GameState *, int, int, PlayerView *) = view_build_lean_sse2;

void view_init(void) {
#ifdef CPU_AVX2_BUILD
    if (cpu_avx2()) build_lean = view_build_lean_avx2;
#endif
}

void view_build_lean(const GameState *s, int player, int plies, PlayerView *v) { build_lean(s, player, plies, v); }
