#include "observe.h"

#include <stdio.h>
#include <stdlib.h>

#include "engine/cpu.h"

/* x86-64 with gcc or clang: an AVX2 encoder besides the SSE2 one, picked at run time
 * (cpu.h). STRATEGO_NO_SIMD (with -U__SSE2__: csrc/Makefile PORTABLE=1) builds the
 * portable code paths only, so the tests can hold them to the same bytes. */
#ifdef CPU_AVX2_BUILD
#include <immintrin.h>
#define OBSERVE_AVX2 1
#endif
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static int obs_counts_offset(const ObsSpec *spec) { return OBS_HISTORY + 3 * spec->history_k; }
static int obs_progress_offset(const ObsSpec *spec) { return obs_counts_offset(spec) + 2 * PIECE_TYPE_NB; }
static int obs_deploy_offset(const ObsSpec *spec) { return obs_progress_offset(spec) + 2; }
enum { OBS_DEPLOY_NB = PIECE_TYPE_NB + 1 }; /* hand_<type>, deploying */
static int obs_belief_offset(const ObsSpec *spec) {
    return obs_deploy_offset(spec) + (spec->deploy ? OBS_DEPLOY_NB : 0);
}

int observe_channels(const ObsSpec *spec) {
    return obs_belief_offset(spec) + (spec->probabilities ? PIECE_TYPE_NB : 0);
}

size_t observe_bytes(const ObsSpec *spec) {
    return (size_t)observe_channels(spec) * SQ_NB * (spec->as_float ? sizeof(float) : 1);
}

void observe_channel_name(const ObsSpec *spec, int c, char *buf, size_t len) {
    static const char *const FIXED[] = {"opp_unknown_moved", "opp_unknown_unmoved", "own_revealed",
                                        "own_moved", "lake", "empty"};
    static const char *const MOVE_PART[] = {"from", "to", "attack"};
    int counts = obs_counts_offset(spec), progress = obs_progress_offset(spec);
    if (c < OBS_OPP_KNOWN) snprintf(buf, len, "own_%s", PIECE_TYPE_NAMES[c]);
    else if (c < OBS_OPP_UNKNOWN_MOVED) snprintf(buf, len, "opp_%s", PIECE_TYPE_NAMES[c - OBS_OPP_KNOWN]);
    else if (c < OBS_HISTORY) snprintf(buf, len, "%s", FIXED[c - OBS_OPP_UNKNOWN_MOVED]);
    else if (c < counts)
        snprintf(buf, len, "move_%d_%s", (c - OBS_HISTORY) / 3, MOVE_PART[(c - OBS_HISTORY) % 3]);
    else if (c < counts + PIECE_TYPE_NB) snprintf(buf, len, "own_count_%s", PIECE_TYPE_NAMES[c - counts]);
    else if (c < progress) snprintf(buf, len, "opp_count_%s", PIECE_TYPE_NAMES[c - counts - PIECE_TYPE_NB]);
    else if (c == progress) snprintf(buf, len, "ply_progress");
    else if (c == progress + 1) snprintf(buf, len, "no_attack_progress");
    else if (c < obs_belief_offset(spec) && c < progress + 2 + PIECE_TYPE_NB)
        snprintf(buf, len, "hand_%s", PIECE_TYPE_NAMES[c - progress - 2]);
    else if (c < obs_belief_offset(spec)) snprintf(buf, len, "deploying");
    else snprintf(buf, len, "belief_%s", PIECE_TYPE_NAMES[c - obs_belief_offset(spec)]);
}

/* Fraction of a cap reached: a float in [0, 1], 0 without a cap. */
static float progress(uint32_t value, uint16_t cap) {
    if (cap == 0) return 0.0f;
    return value >= cap ? 1.0f : (float)value / (float)cap;
}

/* The plane a view code marks: empty, lake, own or identified type, or unknown unmoved
 * (one plane below it, OBS_OPP_UNKNOWN_MOVED, when the piece has moved). For the
 * portable encoder; with SSE2 the planes come from comparisons instead. */
static uint8_t cell_plane[256];


static void pick_fixed_planes_writer(void);

void observe_init(void) {
    static int ready;
    if (ready) return;
    pick_fixed_planes_writer();
    cell_plane[VIEW_EMPTY] = OBS_EMPTY;
    cell_plane[VIEW_LAKE] = OBS_LAKE;
    cell_plane[VIEW_OPP_UNKNOWN] = OBS_OPP_UNKNOWN_UNMOVED;
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        cell_plane[VIEW_OWN | t] = (uint8_t)(OBS_OWN + t);
        cell_plane[VIEW_OPP_KNOWN | t] = (uint8_t)(OBS_OPP_KNOWN + t);
    }
    ready = 1;
}

_Static_assert(OBS_OPP_UNKNOWN_MOVED + 1 == OBS_OPP_UNKNOWN_UNMOVED, "unknown planes are adjacent");

/* The board planes, OBS_OWN..OBS_EMPTY, of view v into p: every byte written. */
static void observe_board_planes(const PlayerView *v, uint8_t *p) {
#ifdef __SSE2__
    /* Each plane in 16-byte blocks computed from 16 squares' codes and flags at once, in
     * place of zeroing the planes and storing a 1 a square: fewer stores, no branches.
     * The last block starts at 84 and overlaps the one before, so no store leaves the
     * plane and the same square gets the same byte twice. Plane by plane, in the order
     * of the output, so that its lines are fetched as a stream. */
    enum { BLOCKS = 7 };
    static const uint8_t BLOCK_AT[BLOCKS] = {0, 16, 32, 48, 64, 80, SQ_NB - 16};
    const __m128i one = _mm_set1_epi8(1), zero = _mm_setzero_si128();
    _Static_assert(PIECE_MOVED == 1, "the moved flag is the low bit, a 0/1 byte after a mask");
    __m128i cell[BLOCKS], unknown[BLOCKS], moved[BLOCKS], own[BLOCKS], unseen[BLOCKS];
    for (int b = 0; b < BLOCKS; b++) {
        cell[b] = _mm_loadu_si128((const __m128i *)(v->cell + BLOCK_AT[b]));
        __m128i flags = _mm_loadu_si128((const __m128i *)(v->flags + BLOCK_AT[b]));
        /* 0/1 bytes: an unidentified opponent piece, a piece that moved, an own piece. */
        unknown[b] = _mm_and_si128(_mm_cmpeq_epi8(cell[b], _mm_set1_epi8((char)VIEW_OPP_UNKNOWN)), one);
        moved[b] = _mm_and_si128(flags, one);
        __m128i own_bit = _mm_set1_epi8(VIEW_OWN);
        own[b] = _mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(cell[b], own_bit), own_bit), one);
        /* 0xFF where the opponent has not identified it (no fight, no move only one type makes). */
        unseen[b] = _mm_cmpeq_epi8(_mm_and_si128(flags, _mm_set1_epi8(PIECE_IDENTIFIED)), zero);
    }
#define PLANE_STORE(plane, expr)                                                                 \
    for (int b = 0; b < BLOCKS; b++) _mm_storeu_si128((__m128i *)(p + (plane) * SQ_NB + BLOCK_AT[b]), (expr))
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        __m128i code = _mm_set1_epi8((char)(VIEW_OWN | t));
        PLANE_STORE(OBS_OWN + t, _mm_and_si128(_mm_cmpeq_epi8(cell[b], code), one));
    }
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        __m128i code = _mm_set1_epi8((char)(VIEW_OPP_KNOWN | t));
        PLANE_STORE(OBS_OPP_KNOWN + t, _mm_and_si128(_mm_cmpeq_epi8(cell[b], code), one));
    }
    PLANE_STORE(OBS_OPP_UNKNOWN_MOVED, _mm_and_si128(unknown[b], moved[b]));
    PLANE_STORE(OBS_OPP_UNKNOWN_UNMOVED, _mm_andnot_si128(moved[b], unknown[b]));
    PLANE_STORE(OBS_OWN_REVEALED, _mm_andnot_si128(unseen[b], own[b]));
    PLANE_STORE(OBS_OWN_MOVED, _mm_and_si128(own[b], moved[b]));
    PLANE_STORE(OBS_LAKE, _mm_and_si128(_mm_cmpeq_epi8(cell[b], _mm_set1_epi8(VIEW_LAKE)), one));
    PLANE_STORE(OBS_EMPTY, _mm_and_si128(_mm_cmpeq_epi8(cell[b], zero), one));
#undef PLANE_STORE
#else
    /* One plane per square from its view code, and the own-piece flags, with stores in
     * place of branches (the planes are zeroed first). */
    memset(p, 0, OBS_HISTORY * SQ_NB);
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = v->cell[sq], flags = v->flags[sq];
        int own = (cell & VIEW_OWN) != 0;
        int unknown_moved = cell == VIEW_OPP_UNKNOWN && (flags & PIECE_MOVED);
        p[(cell_plane[cell] - unknown_moved) * SQ_NB + sq] = 1;
        p[OBS_OWN_REVEALED * SQ_NB + sq] = (uint8_t)(own & ((flags & PIECE_IDENTIFIED) != 0));
        p[OBS_OWN_MOVED * SQ_NB + sq] = (uint8_t)(own & (flags & PIECE_MOVED));
    }
#endif
}

#ifdef OBSERVE_AVX2
/* observe_board_planes and the count planes with 32-byte stores, for CPUs that have
 * AVX2 (chosen at run time by observe_init): 4 stores a plane in place of 7, and the
 * encoder is bound by its stores. The same planes, byte for byte (tests hold the two
 * paths against each other, STRATEGO_NO_AVX2=1 selects the 16-byte one). */
__attribute__((target("avx2"))) static void observe_fixed_planes_avx2(const PlayerView *v, uint8_t *p,
                                                                      int counts) {
    enum { BLOCKS = 4 };
    static const uint8_t BLOCK_AT[BLOCKS] = {0, 32, 64, SQ_NB - 32};
    const __m256i one = _mm256_set1_epi8(1), zero = _mm256_setzero_si256();
    __m256i cell[BLOCKS], unknown[BLOCKS], moved[BLOCKS], own[BLOCKS], unseen[BLOCKS];
    for (int b = 0; b < BLOCKS; b++) {
        cell[b] = _mm256_loadu_si256((const __m256i *)(v->cell + BLOCK_AT[b]));
        __m256i flags = _mm256_loadu_si256((const __m256i *)(v->flags + BLOCK_AT[b]));
        unknown[b] = _mm256_and_si256(_mm256_cmpeq_epi8(cell[b], _mm256_set1_epi8((char)VIEW_OPP_UNKNOWN)), one);
        moved[b] = _mm256_and_si256(flags, one);
        __m256i own_bit = _mm256_set1_epi8(VIEW_OWN);
        own[b] = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(cell[b], own_bit), own_bit), one);
        unseen[b] = _mm256_cmpeq_epi8(_mm256_and_si256(flags, _mm256_set1_epi8(PIECE_IDENTIFIED)), zero);
    }
#define PLANE_STORE(plane, expr)                                                                 \
    for (int b = 0; b < BLOCKS; b++) _mm256_storeu_si256((__m256i *)(p + (plane) * SQ_NB + BLOCK_AT[b]), (expr))
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        __m256i code = _mm256_set1_epi8((char)(VIEW_OWN | t));
        PLANE_STORE(OBS_OWN + t, _mm256_and_si256(_mm256_cmpeq_epi8(cell[b], code), one));
    }
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        __m256i code = _mm256_set1_epi8((char)(VIEW_OPP_KNOWN | t));
        PLANE_STORE(OBS_OPP_KNOWN + t, _mm256_and_si256(_mm256_cmpeq_epi8(cell[b], code), one));
    }
    PLANE_STORE(OBS_OPP_UNKNOWN_MOVED, _mm256_and_si256(unknown[b], moved[b]));
    PLANE_STORE(OBS_OPP_UNKNOWN_UNMOVED, _mm256_andnot_si256(moved[b], unknown[b]));
    PLANE_STORE(OBS_OWN_REVEALED, _mm256_andnot_si256(unseen[b], own[b]));
    PLANE_STORE(OBS_OWN_MOVED, _mm256_and_si256(own[b], moved[b]));
    PLANE_STORE(OBS_LAKE, _mm256_and_si256(_mm256_cmpeq_epi8(cell[b], _mm256_set1_epi8(VIEW_LAKE)), one));
    PLANE_STORE(OBS_EMPTY, _mm256_and_si256(_mm256_cmpeq_epi8(cell[b], zero), one));
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        PLANE_STORE(counts + t, _mm256_set1_epi8((char)v->own_on_board[t]));
        PLANE_STORE(counts + PIECE_TYPE_NB + t, _mm256_set1_epi8((char)v->opp_on_board[t]));
    }
#undef PLANE_STORE
}
#endif

/* The board planes and the count planes (from plane `counts` on), 16 bytes a store. */
static void observe_fixed_planes(const PlayerView *v, uint8_t *p, int counts) {
    observe_board_planes(v, p);
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        memset(p + (counts + t) * SQ_NB, v->own_on_board[t], SQ_NB);
        memset(p + (counts + PIECE_TYPE_NB + t) * SQ_NB, v->opp_on_board[t], SQ_NB);
    }
}

/* What writes those planes: observe_fixed_planes, or its AVX2 twin (observe_init). */
static void (*write_fixed_planes)(const PlayerView *, uint8_t *, int) = observe_fixed_planes;

static void pick_fixed_planes_writer(void) {
#ifdef OBSERVE_AVX2
    if (cpu_avx2()) write_fixed_planes = observe_fixed_planes_avx2;
#endif
}

void observe_hand(const PlayerView *v, const ObsSpec *spec, uint8_t hand[PIECE_TYPE_NB]) {
    for (int t = 0; t < PIECE_TYPE_NB; t++)
        hand[t] = (uint8_t)(v->deploying ? spec->piece_counts[t] - v->own_on_board[t] : 0);
}

/* The deployment planes (observe.h): the pieces in hand and the phase. */
static void observe_deploy_planes(const PlayerView *v, const ObsSpec *spec, uint8_t *p) {
    uint8_t hand[PIECE_TYPE_NB];
    observe_hand(v, spec, hand);
    for (int t = 0; t < PIECE_TYPE_NB; t++) memset(p + t * SQ_NB, hand[t], SQ_NB);
    memset(p + PIECE_TYPE_NB * SQ_NB, v->deploying ? 1 : 0, SQ_NB);
}

/* The planes every dtype shares, as small integers, into p (channels x 100 bytes). With
 * SSE2 only the history planes are zeroed before their few ones are stored; every other
 * plane is written once, whole (in a large batch the output is not in the caches, and a
 * byte written twice costs its store twice). */
static void observe_planes(const PlayerView *v, const ObsSpec *spec, uint8_t *p) {
    write_fixed_planes(v, p, obs_counts_offset(spec));
    memset(p + OBS_HISTORY * SQ_NB, 0, (size_t)(3 * spec->history_k * SQ_NB));
    for (int k = 0; k < spec->history_k; k++) {
        const ViewMove *m = &v->last[k];
        if (!m->valid) break;
        uint8_t *planes = p + (OBS_HISTORY + 3 * k) * SQ_NB;
        planes[m->from] = 1;
        planes[SQ_NB + m->to] = 1;
        if (m->attack) planes[2 * SQ_NB + m->to] = 1;
    }
    int prog = obs_progress_offset(spec);
    memset(p + prog * SQ_NB, (int)(255.0f * progress(v->ply, spec->max_plies)), SQ_NB);
    memset(p + (prog + 1) * SQ_NB, (int)(255.0f * progress(v->plies_since_attack, spec->max_plies_without_attack)),
           SQ_NB);
    if (spec->deploy) observe_deploy_planes(v, spec, p + obs_deploy_offset(spec) * SQ_NB);
}

/* Belief planes (see observe.h). Under a uniform prior over the assignments of the
 * unidentified types to the unidentified pieces that agree with what was seen (a piece
 * that moved is no Bomb or Flag; a captured piece is not the Flag), the Flag is spread
 * evenly over the u unmoved pieces on the board, the Bombs over the other unmoved
 * pieces (uc of them captured, unseen under silent defense), and the movable types over
 * the rest. So, with c_t unidentified pieces of type t and M unidentified movable-type
 * pieces in all: a moved piece is t with chance c_t / M; an unmoved one is the Flag with
 * chance c_flag / u, a Bomb with (1 - c_flag / u) * c_bomb / (u + uc - c_flag), and t
 * with the rest times c_t / M. Pieces whose move showed a Scout or a Captain narrow
 * this further (below).
 * Only a finished game can have a Flag off the board: one taken unseen under silent
 * defense, in a position from a field with two Flags a side (fuzz finding F5). Then at
 * most u of the c_flag Flags stand on the board, so an unmoved piece there is a Flag with
 * chance min(c_flag, u) / u, which stays a probability. */
void observe_belief_planes(const PlayerView *v, float *out) {
    float moved_p[PIECE_TYPE_NB] = {0}, unmoved_p[PIECE_TYPE_NB] = {0};
    int c_flag = v->opp_unknown[FLAG], c_bomb = v->opp_unknown[BOMB];
    int u = v->opp_unknown_unmoved, uc = v->opp_captured_unknown_unmoved;
    int slots = u + uc + v->opp_unknown_moved + v->opp_captured_unknown_moved;
    int movable = slots - c_flag - c_bomb;
    int flags_on_board = c_flag < u ? c_flag : u;
    float p_flag = u > 0 ? (float)flags_on_board / (float)u : 0.0f;
    /* The unmoved pieces that are no Flag hold the Bombs and, in the rest of the slots,
     * movable types. The rest's share comes from its own integer count, not as
     * 1 - p_flag - p_bomb, which rounds to -6e-8 when Bombs fill every slot (fuzz finding
     * F6). */
    int bomb_slots = u + uc - c_flag, rest_slots = bomb_slots - c_bomb;
    float not_flag = 1.0f - p_flag;
    float p_bomb = bomb_slots > 0 ? not_flag * (float)c_bomb / (float)bomb_slots : 0.0f;
    float p_rest = bomb_slots > 0 && rest_slots > 0 ? not_flag * (float)rest_slots / (float)bomb_slots : 0.0f;
    unmoved_p[FLAG] = p_flag;
    unmoved_p[BOMB] = p_bomb;
    /* Pieces whose move showed a Scout or a Captain (n of them, board and captured):
     * the Scouts among them follow a hypergeometric law, as if they drew n of the
     * c_scout + c_captain unidentified Scouts and Captains (the other constraints do not
     * tell those two types apart). So each is a Scout with chance c_scout / (c_scout +
     * c_captain), and the other movable-type pieces (M - n of them) share the types
     * left: c_t of each other type, c_scout * (1 - n / (c_scout + c_captain)) Scouts,
     * and so for Captains. */
    float narrowed_p[PIECE_TYPE_NB] = {0}, left[PIECE_TYPE_NB];
    int n = (int)v->opp_scout_or_captain, pair = v->opp_unknown[SCOUT] + v->opp_unknown[CAPTAIN];
    for (int t = SPY; t <= MARSHAL; t++) left[t] = (float)v->opp_unknown[t];
    if (n > 0 && pair > 0) {
        int undrawn = n < pair ? pair - n : 0;
        narrowed_p[SCOUT] = (float)v->opp_unknown[SCOUT] / (float)pair;
        narrowed_p[CAPTAIN] = (float)v->opp_unknown[CAPTAIN] / (float)pair;
        left[SCOUT] = (float)(v->opp_unknown[SCOUT] * undrawn) / (float)pair;
        left[CAPTAIN] = (float)(v->opp_unknown[CAPTAIN] * undrawn) / (float)pair;
    }
    int others = movable - (n < pair ? n : pair);
    for (int t = SPY; t <= MARSHAL; t++) {
        if (others <= 0) break;
        moved_p[t] = left[t] / (float)others;
        unmoved_p[t] = p_rest * moved_p[t];
    }
    memset(out, 0, PIECE_TYPE_NB * SQ_NB * sizeof(float));
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = v->cell[sq], flags = v->flags[sq];
        if (cell & VIEW_OPP_KNOWN) {
            out[(cell & VIEW_TYPE_MASK) * SQ_NB + sq] = 1.0f;
        } else if (cell & VIEW_OPP_UNKNOWN) {
            const float *probs = flags & PIECE_SCOUT_OR_CAPTAIN ? narrowed_p : flags & PIECE_MOVED ? moved_p : unmoved_p;
            for (int t = 0; t < PIECE_TYPE_NB; t++) out[t * SQ_NB + sq] = probs[t];
        }
    }
}

void observe_prefetch(const ObsSpec *spec, const void *out, int count) {
#ifdef __SSE2__
    /* Every 64-byte line: the planes are written in 16-byte pieces, and a piece that
     * finds its line missing waits for it (measured: all lines beat every other line, or
     * the first 32 lines, which leave the rest to the hardware's own prefetch). */
    size_t bytes = (size_t)count * observe_bytes(spec);
    for (size_t at = 0; at < bytes; at += 64) _mm_prefetch((const char *)out + at, _MM_HINT_T0);
#else
    STRATEGO_UNUSED(spec);
    STRATEGO_UNUSED(out);
    STRATEGO_UNUSED(count);
#endif
}

void observe_partial(const PlayerView *v, const ObsSpec *spec, void *out) {
    if (!spec->as_float) {
        observe_planes(v, spec, out);
        return;
    }
    uint8_t planes[(OBS_HISTORY + 3 * HISTORY_NB + 2 * PIECE_TYPE_NB + 2 + OBS_DEPLOY_NB) * SQ_NB];
    float *f = out;
    int channels_u8 = obs_belief_offset(spec), prog = obs_progress_offset(spec);
    observe_planes(v, spec, planes);
    for (int i = 0; i < channels_u8 * SQ_NB; i++) f[i] = (float)planes[i];
    /* Progress planes keep full precision in float. */
    float a = progress(v->ply, spec->max_plies);
    float b = progress(v->plies_since_attack, spec->max_plies_without_attack);
    for (int i = 0; i < SQ_NB; i++) {
        f[prog * SQ_NB + i] = a;
        f[(prog + 1) * SQ_NB + i] = b;
    }
    if (spec->probabilities) observe_belief_planes(v, f + channels_u8 * SQ_NB);
}
