#include "observe_codes.h"

#include <string.h>

#include "engine/cpu.h"

/* x86-64 with gcc or clang: the square codes also 32 at a time with AVX2, picked at run
 * time (cpu.h). */
#ifdef CPU_AVX2_BUILD
#define CODES_AVX2 1
#endif

static uint8_t code_planes[CODE_NB][OBS_HISTORY];
/* Per view cell: its code with the flag bits clear, and which flag bits the code adds
 * (revealed and moved for own pieces, moved for unidentified ones). */
static uint8_t cell_code[256], cell_flag_bits[256];

/* The code of a square from its view cell and the flags of the piece there, without
 * branches (the portable path; the vector paths compute 16 or 32 at once below). As
 * observe.c: own_revealed when the opponent identified it (PIECE_IDENTIFIED). */
#ifndef __SSE2__
static inline uint8_t square_code(uint8_t cell, uint8_t flags) {
    _Static_assert(PIECE_MOVED == 1, "the moved flag is the low bit");
    int revealed = (flags & PIECE_IDENTIFIED) != 0;
    return (uint8_t)(cell_code[cell] + (((revealed << 1) | (flags & PIECE_MOVED)) & cell_flag_bits[cell]));
}
#endif

#ifdef __SSE2__
/* The codes of squares at..at+WIDTH-1 from comparisons (SSE2 has no byte table lookup):
 * each kind of cell selects its code, computed for every lane. Written once for any
 * vector width V (gcc and clang vector extensions): 16 bytes for SSE2, 32 for AVX2. */
#define CODES_BLOCK(NAME, V, WIDTH)                                                                    \
    static inline __attribute__((always_inline)) void NAME(const PlayerView *v, int at, uint8_t *out) { \
        V cell, flags;                                                                                 \
        memcpy(&cell, v->cell + at, WIDTH);                                                            \
        memcpy(&flags, v->flags + at, WIDTH);                                                          \
        V moved = flags & PIECE_MOVED, type = cell & VIEW_TYPE_MASK;                                   \
        /* masks of all ones: one comparison each (x == bit, not x != 0, which costs two) */          \
        V own = (V)((cell & VIEW_OWN) == VIEW_OWN), known = (V)((cell & VIEW_OPP_KNOWN) == VIEW_OPP_KNOWN); \
        V unseen = (V)((flags & PIECE_IDENTIFIED) == 0);                                               \
        /* empty and lake: the cell value is the code */                                               \
        V code = (V)((cell & (0xFF ^ VIEW_LAKE)) == 0) & cell;                                          \
        code |= own & (V)(CODE_OWN + 4 * type + (~unseen & 2) + moved);                                \
        code |= known & (V)(CODE_OPP_KNOWN + type);                                                    \
        code |= (V)(cell == VIEW_OPP_UNKNOWN) & (V)(CODE_OPP_UNKNOWN_UNMOVED + moved);                 \
        memcpy(out + at, &code, WIDTH);                                                                \
    }
_Static_assert(PIECE_MOVED == 1, "the moved flag is the low bit");

typedef uint8_t CodesV16 __attribute__((vector_size(16)));
CODES_BLOCK(codes_block16, CodesV16, 16)

/* The 100 square codes of v into out, 16 at a time; the last block starts at 84 and
 * overlaps the one before with the same bytes. 14% of a compact step as a scalar loop of
 * table lookups (perf, 4,096 games). */
static void codes_squares(const PlayerView *v, uint8_t *out) {
    static const uint8_t BLOCK_AT[] = {0, 16, 32, 48, 64, 80, SQ_NB - 16};
    for (int b = 0; b < (int)sizeof(BLOCK_AT); b++) codes_block16(v, BLOCK_AT[b], out);
}

#ifdef CODES_AVX2
typedef uint8_t CodesV32 __attribute__((vector_size(32)));
CODES_BLOCK(codes_block32, CodesV32, 32)

/* The same, 32 at a time, for CPUs with AVX2 (cpu.h): four blocks in place of seven. */
__attribute__((target("avx2"))) static void codes_squares_avx2(const PlayerView *v, uint8_t *out) {
    static const uint8_t BLOCK_AT[] = {0, 32, 64, SQ_NB - 32};
    for (int b = 0; b < (int)sizeof(BLOCK_AT); b++) codes_block32(v, BLOCK_AT[b], out);
}
#endif
#else
static void codes_squares(const PlayerView *v, uint8_t *out) {
    for (int sq = 0; sq < SQ_NB; sq++) out[sq] = square_code(v->cell[sq], v->flags[sq]);
}
#endif

/* What writes the square codes: codes_squares, or its AVX2 twin (observe_codes_init). */
static void (*write_squares)(const PlayerView *, uint8_t *) = codes_squares;

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
#ifdef CODES_AVX2
    if (cpu_avx2()) write_squares = codes_squares_avx2;
#endif
    ready = 1;
}

const uint8_t *observe_codes_table(void) { return &code_planes[0][0]; }

void observe_codes(const PlayerView *v, const ObsSpec *spec, uint8_t *out) {
    write_squares(v, out);
    memcpy(out + CODES_COUNTS, v->own_on_board, PIECE_TYPE_NB);
    memcpy(out + CODES_COUNTS + PIECE_TYPE_NB, v->opp_on_board, PIECE_TYPE_NB);
    uint64_t progress = observe_codes_progress(v->ply, v->plies_since_attack, spec);
    for (int i = 0; i < 8; i++) out[CODES_PROGRESS + i] = (uint8_t)(progress >> 8 * i);
    /* observe.c stops at the first ply the game does not have; so do the codes. */
    uint8_t valid = 0xFF; /* all ones while every ply so far is there; no branches */
    for (int k = 0; k < spec->history_k; k++) {
        const ViewMove *m = &v->last[k];
        uint8_t *h = out + CODES_HISTORY + 3 * k;
        valid &= (uint8_t)-(m->valid != 0);
        h[0] = (uint8_t)((m->from & valid) | (CODES_NO_MOVE & ~valid));
        h[1] = (uint8_t)(m->to & valid);
        h[2] = (uint8_t)((m->attack != 0) & valid);
    }
    if (spec->deploy) {
        uint8_t *d = out + CODES_BYTES(spec->history_k);
        observe_hand(v, spec, d);
        d[PIECE_TYPE_NB] = (uint8_t)(v->deploying != 0);
    }
}
