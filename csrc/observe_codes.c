#include "observe_codes.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static uint8_t code_planes[CODE_NB][OBS_HISTORY];
/* Per view cell: its code with the flag bits clear, and which flag bits the code adds
 * (revealed and moved for own pieces, moved for unidentified ones). */
static uint8_t cell_code[256], cell_flag_bits[256];

void observe_codes_init(void) {
    static int ready;
    if (ready) return;
    /* The planes observe.c writes for a square holding each code (observe.h's layout). */
    code_planes[CODE_EMPTY][OBS_EMPTY] = 1;
    code_planes[CODE_LAKE][OBS_LAKE] = 1;
    code_planes[CODE_OPP_UNKNOWN_UNMOVED][OBS_OPP_UNKNOWN_UNMOVED] = 1;
    code_planes[CODE_OPP_UNKNOWN_MOVED][OBS_OPP_UNKNOWN_MOVED] = 1;
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        code_planes[CODE_OPP_KNOWN + t][OBS_OPP_KNOWN + t] = 1;
        for (int bits = 0; bits < 4; bits++) {
            uint8_t *planes = code_planes[CODE_OWN + 4 * t + bits];
            planes[OBS_OWN + t] = 1;
            planes[OBS_OWN_REVEALED] = (uint8_t)(bits >> 1);
            planes[OBS_OWN_MOVED] = (uint8_t)(bits & 1);
        }
    }
    cell_code[VIEW_EMPTY] = CODE_EMPTY;
    cell_code[VIEW_LAKE] = CODE_LAKE;
    cell_code[VIEW_OPP_UNKNOWN] = CODE_OPP_UNKNOWN_UNMOVED;
    cell_flag_bits[VIEW_OPP_UNKNOWN] = 1;
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        cell_code[VIEW_OPP_KNOWN | t] = (uint8_t)(CODE_OPP_KNOWN + t);
        cell_code[VIEW_OWN | t] = (uint8_t)(CODE_OWN + 4 * t);
        cell_flag_bits[VIEW_OWN | t] = 3;
    }
    ready = 1;
}

const uint8_t *observe_codes_table(void) { return &code_planes[0][0]; }

/* The code of a square from its view cell and the flags of the piece there, without
 * branches (the portable path; SSE2 computes 16 at once below). As observe.c: own_revealed when the opponent identified it (PIECE_IDENTIFIED). */
#ifndef __SSE2__
static inline uint8_t square_code(uint8_t cell, uint8_t flags) {
    _Static_assert(PIECE_MOVED == 1, "the moved flag is the low bit");
    int revealed = (flags & PIECE_IDENTIFIED) != 0;
    return (uint8_t)(cell_code[cell] + (((revealed << 1) | (flags & PIECE_MOVED)) & cell_flag_bits[cell]));
}
#endif

/* A count clamped to its cap (0 without one): count / cap is then observe.c's progress. */
static void put_progress(uint8_t *out, uint32_t count, uint16_t cap) {
    uint16_t shown = cap == 0 ? 0 : count >= cap ? cap : (uint16_t)count;
    out[0] = (uint8_t)(shown & 0xFF);
    out[1] = (uint8_t)(shown >> 8);
    out[2] = (uint8_t)(cap & 0xFF);
    out[3] = (uint8_t)(cap >> 8);
}

/* The 100 square codes of v into out. */
static void codes_squares(const PlayerView *v, uint8_t *out) {
#ifdef __SSE2__
    /* 16 squares at a time from comparisons (SSE2 has no byte table lookup): each kind of
     * cell selects its code, computed for all 16; the last block starts at 84 and
     * overlaps the one before with the same bytes. 14% of a compact step as a scalar
     * loop of table lookups (perf, 4,096 games). */
    enum { BLOCKS = 7 };
    static const uint8_t BLOCK_AT[BLOCKS] = {0, 16, 32, 48, 64, 80, SQ_NB - 16};
    const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    const __m128i own_bit = _mm_set1_epi8(VIEW_OWN), known_bit = _mm_set1_epi8(VIEW_OPP_KNOWN);
    for (int b = 0; b < BLOCKS; b++) {
        __m128i cell = _mm_loadu_si128((const __m128i *)(v->cell + BLOCK_AT[b]));
        __m128i flags = _mm_loadu_si128((const __m128i *)(v->flags + BLOCK_AT[b]));
        __m128i moved = _mm_and_si128(flags, one);
        __m128i revealed = _mm_andnot_si128(
            _mm_cmpeq_epi8(_mm_and_si128(flags, _mm_set1_epi8(PIECE_IDENTIFIED)), zero), one);
        __m128i type = _mm_and_si128(cell, _mm_set1_epi8(VIEW_TYPE_MASK));
        __m128i type4 = _mm_add_epi8(_mm_add_epi8(type, type), _mm_add_epi8(type, type));
        /* empty and lake: the cell value is the code */
        __m128i code = _mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(cell, _mm_set1_epi8((char)0xFE)), zero), cell);
        __m128i own = _mm_cmpeq_epi8(_mm_and_si128(cell, own_bit), own_bit);
        __m128i own_code = _mm_add_epi8(_mm_add_epi8(_mm_set1_epi8(CODE_OWN), type4),
                                        _mm_add_epi8(_mm_add_epi8(revealed, revealed), moved));
        code = _mm_or_si128(code, _mm_and_si128(own, own_code));
        __m128i known = _mm_cmpeq_epi8(_mm_and_si128(cell, known_bit), known_bit);
        code = _mm_or_si128(code, _mm_and_si128(known, _mm_add_epi8(_mm_set1_epi8(CODE_OPP_KNOWN), type)));
        __m128i unknown = _mm_cmpeq_epi8(cell, _mm_set1_epi8((char)VIEW_OPP_UNKNOWN));
        code = _mm_or_si128(code, _mm_and_si128(unknown, _mm_add_epi8(_mm_set1_epi8(CODE_OPP_UNKNOWN_UNMOVED), moved)));
        _mm_storeu_si128((__m128i *)(out + BLOCK_AT[b]), code);
    }
#else
    for (int sq = 0; sq < SQ_NB; sq++) out[sq] = square_code(v->cell[sq], v->flags[sq]);
#endif
}

void observe_codes(const PlayerView *v, const ObsSpec *spec, uint8_t *out) {
    codes_squares(v, out);
    memcpy(out + CODES_COUNTS, v->own_on_board, PIECE_TYPE_NB);
    memcpy(out + CODES_COUNTS + PIECE_TYPE_NB, v->opp_on_board, PIECE_TYPE_NB);
    put_progress(out + CODES_PROGRESS, v->ply, spec->max_plies);
    put_progress(out + CODES_PROGRESS + 4, v->plies_since_attack, spec->max_plies_without_attack);
    /* observe.c stops at the first ply the game does not have; so do the codes. */
    int valid = 1;
    for (int k = 0; k < spec->history_k; k++) {
        const ViewMove *m = &v->last[k];
        uint8_t *h = out + CODES_HISTORY + 3 * k;
        valid = valid && m->valid;
        h[0] = valid ? m->from : CODES_NO_MOVE;
        h[1] = valid ? m->to : 0;
        h[2] = (uint8_t)(valid && m->attack);
    }
    if (spec->deploy) {
        uint8_t *d = out + CODES_BYTES(spec->history_k);
        observe_hand(v, spec, d);
        d[PIECE_TYPE_NB] = (uint8_t)(v->deploying != 0);
    }
}
