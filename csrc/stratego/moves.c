/* moves.c: which path decides the legal moves (the square-set fast path where it applies,
 * the walk elsewhere, moves.h), and the rescue phase. */
#include "moves.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "engine/mask_bits.h"
#include "moves_fast.h"
#include "rays.h"
#include "walk.h"

void moves_init(void) {
    rays_init();
    moves_fast_init();
}

int moves_captured_piece(const GameState *s, int player, int type) {
    int first = player * MAX_PIECES, last = first + s->placed[player], shown = -1, narrowed = -1;
    for (int id = first; id < last; id++) {
        if (s->piece_sq[id] != SQ_NONE || s->piece_type[id] != type) continue;
        /* The piece the opponent knows least of (silent defense): never identified,
         * then only narrowed to a Scout or a Captain by its move, then any; the choice an
         * owner would make, since a returned piece keeps what the opponent knows of it. */
        uint8_t flags = s->piece_flags[id];
        if (!(flags & (PIECE_IDENTIFIED | PIECE_SCOUT_OR_CAPTAIN))) return id;
        if (!(flags & PIECE_IDENTIFIED) && narrowed < 0) narrowed = id;
        if (shown < 0) shown = id;
    }
    return narrowed >= 0 ? narrowed : shown;
}

/* The rescue phase: each captured type (no Bomb) onto each empty square of the own half,
 * or decline. */
static int rescues_walk(const GameState *s, uint16_t *list, uint8_t *mask) {
    int n_moves = 0, player = s->to_move;
    for (int type = SPY; type <= MARSHAL; type++) {
        if (moves_captured_piece(s, player, type) < 0) continue;
        for (int h = 0; h < RESCUE_SQ_NB; h++) {
            if (s->board[sq_to_frame(h, player)] != CELL_EMPTY) continue;
            int a = RESCUE_ACTION_BASE + type * RESCUE_SQ_NB + h;
            if (list) list[n_moves] = (uint16_t)a;
            if (mask) mask[a] = 1;
            n_moves++;
        }
    }
    if (list) list[n_moves] = RESCUE_DECLINE;
    if (mask) mask[RESCUE_DECLINE] = 1;
    return n_moves + 1;
}

/* The deployment phase: each type still in hand onto each empty square of the own setup
 * zone (game.h), as the rescue block's actions. */
static int placements_walk(const GameState *s, const Rules *r, uint16_t *list, uint8_t *mask) {
    int n = 0, player = s->to_move, zone = r->setup_rows * BOARD_SIZE;
    uint8_t empty[RESCUE_SQ_NB];
    for (int h = 0; h < zone; h++) empty[h] = s->board[sq_to_frame(h, player)] == CELL_EMPTY;
    for (int type = 0; type < PIECE_TYPE_NB; type++) {
        if (moves_hand(s, r, player, type) <= 0) continue;
        int base = RESCUE_ACTION_BASE + type * RESCUE_SQ_NB;
        for (int h = 0; h < zone; h++) {
            if (!empty[h]) continue;
            if (list) list[n] = (uint16_t)(base + h);
            if (mask) mask[base + h] = 1;
            n++;
        }
    }
    return n;
}

int moves_list(const GameState *s, const Rules *r, uint16_t *actions) {
    if (s->phase == PHASE_DEPLOY) return placements_walk(s, r, actions, NULL);
    if (s->phase == PHASE_RESCUE) return rescues_walk(s, actions, NULL);
    return walk_list(s, r, s->to_move, actions);
}

int moves_list_ordered(const GameState *s, const Rules *r, uint16_t *actions) {
    /* From the mask, whose fast path (whole sets of squares at once) beats the piece by
     * piece walk of moves_list; reading the mask in order gives the order for free. */
    uint8_t mask[ACTION_MAX + 16];
    int num_actions = rules_num_actions(r), count = 0;
    moves_legal_mask(s, r, mask);
    memset(mask + num_actions, 0, 16);
    for (int a = 0; a < num_actions; a += 16) {
#ifdef __SSE2__
        __m128i block = _mm_loadu_si128((const __m128i *)(mask + a));
        unsigned bits = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(block, _mm_setzero_si128()));
#else
        unsigned bits = 0;
        for (int k = 0; k < 16; k++) bits |= (unsigned)(mask[a + k] != 0) << k;
#endif
        for (; bits; bits &= bits - 1) actions[count++] = (uint16_t)(a + __builtin_ctz(bits));
    }
    return count;
}

int moves_any_legal(const GameState *s, const Rules *r, int player) {
    if (s->phase == PHASE_DEPLOY) return player == s->to_move && moves_hand_total(s, r, player) > 0;
    int any = moves_fast_any(s, r, player);
    return any >= 0 ? any : walk_any(s, r, player);
}

int moves_legal_mask(const GameState *s, const Rules *r, uint8_t *mask) {
    if (s->phase == PHASE_MOVE) {
        int n_moves = moves_fast_mask(s, r, mask);
        if (n_moves >= 0) return n_moves;
    }
    memset(mask, 0, (size_t)rules_num_actions(r));
    if (s->phase == PHASE_RESCUE) return rescues_walk(s, NULL, mask);
    if (s->phase == PHASE_DEPLOY) return placements_walk(s, r, NULL, mask);
    return walk_mask(s, r, s->to_move, mask);
}

/* The batch samples the packed mask with mask_bits_sample, whose table must hold every action. */
_Static_assert((int)ACTION_MAX <= (int)MASK_BITS_SAMPLE_MAX, "mask_bits_sample's table is smaller than the action space");

int moves_legal_bits(const GameState *s, const Rules *r, uint8_t *bits) {
    /* Straight into bits where the fast path decides; else the mask, packed (rescues,
     * placements, a setting whose reach is every piece). */
    if (s->phase == PHASE_MOVE) {
        int count = moves_fast_bits(s, r, bits);
        if (count >= 0) return count;
    }
    uint8_t mask[ACTION_MAX];
    int count = moves_legal_mask(s, r, mask);
    mask_bits_pack(mask, rules_num_actions(r), bits);
    return count;
}
