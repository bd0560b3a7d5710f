/* moves_fast.c: the square-set fast path of the move phase (moves_fast.h). */
#include "moves_fast.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "action.h"
#include "move_rules.h"
#include "squareset.h"
#include "walk.h"

static Bits lake_bits, open_bits;
static uint16_t step_action[PLAYER_NB][DIR_NB][SQ_NB]; /* the one-square move going in dir onto sq */
/* The same move in the packed mask: its byte (low 8 bits; line moves lie in the first 225
 * bytes) and that byte's bit (high 8 bits), so a one-square move is one load and an or. */
static uint16_t step_bit[PLAYER_NB][DIR_NB][SQ_NB];
_Static_assert(LINE_ACTION_NB / 8 <= 256, "a line move's byte fits in 8 bits");
/* A move one square longer in the same direction onto the same square starts one square
 * farther back: its action differs by this (types.h: from * 18 plus the target's index on
 * its line, which a longer move along the line does not change). */
static int hop_delta[PLAYER_NB][DIR_NB];
static int fast_ready;

void moves_fast_init(void) {
    if (fast_ready) return;
    lake_bits = 0;
    for (int sq = 0; sq < SQ_NB; sq++) {
        if (sq_is_lake(sq)) lake_bits |= bit_of(sq);
    }
    open_bits = bits_board() & ~lake_bits;
    for (int sq = 0; sq < SQ_NB; sq++) {
        for (int d = 0; d < DIR_NB; d++) {
            int from_row = sq_row(sq) - DIR_ROW[d], from_col = sq_col(sq) - DIR_COL[d];
            if (from_row >= 0 && from_row < BOARD_SIZE && from_col >= 0 && from_col < BOARD_SIZE) {
                for (int p = 0; p < PLAYER_NB; p++) {
                    int a = action_encode(p, from_row * BOARD_SIZE + from_col, sq);
                    step_action[p][d][sq] = (uint16_t)a;
                    step_bit[p][d][sq] = (uint16_t)((1u << (a & 7)) << 8 | (unsigned)(a >> 3));
                }
            }
        }
    }
    /* The start moves back by DIR_STEP[d] squares, which in blue's frame (the board
     * turned) is forward. */
    for (int d = 0; d < DIR_NB; d++) {
        hop_delta[RED][d] = -TARGETS_PER_SQ * DIR_STEP[d];
        hop_delta[BLUE][d] = TARGETS_PER_SQ * DIR_STEP[d];
    }
    fast_ready = 1;
}

/* The squares in `open` that the pieces on `from` reach with one step, by direction
 * (absolute: up is towards blue's back row); to[d] shifted back gives the pieces. */
static inline void step_targets(Bits from, Bits open, Bits to[DIR_NB]) {
    for (int d = 0; d < DIR_NB; d++) to[d] = bits_step(from, d) & open;
}

/* Marks action a in the byte mask or the packed one. */
static inline __attribute__((always_inline)) void set_action(uint8_t *out, int a, int packed) {
    if (packed) {
        out[a >> 3] |= (uint8_t)(1u << (a & 7));
    } else {
        out[a] = 1;
    }
}

/* Marks the moves onto the squares of `to`, acts[square] + offset each; returns their
 * number. Each half on its own: a 64-bit loop of find-lowest, store, clear-lowest. */
static inline __attribute__((always_inline)) int set_targets(uint8_t *out, Bits to, const uint16_t *acts, int offset,
                                                             int packed) {
    int n = 0;
    for (uint64_t w = (uint64_t)to; w; w &= w - 1, n++) set_action(out, acts[__builtin_ctzll(w)] + offset, packed);
    for (uint64_t w = (uint64_t)(to >> 64); w; w &= w - 1, n++)
        set_action(out, acts[64 + __builtin_ctzll(w)] + offset, packed);
    return n;
}

/* Marks the one-square moves onto the squares of `to` in the packed mask from their
 * (byte, bit) in `steps`; returns their number. */
static inline __attribute__((always_inline)) int set_step_bits(uint8_t *out, Bits to, const uint16_t *steps) {
    int n = 0;
    for (uint64_t w = (uint64_t)to; w; w &= w - 1, n++) {
        unsigned e = steps[__builtin_ctzll(w)];
        out[e & 0xff] |= (uint8_t)(e >> 8);
    }
    for (uint64_t w = (uint64_t)(to >> 64); w; w &= w - 1, n++) {
        unsigned e = steps[64 + __builtin_ctzll(w)];
        out[e & 0xff] |= (uint8_t)(e >> 8);
    }
    return n;
}

/* One writer for both outputs: `packed` is a constant at each call, so the compiler
 * makes a loop for each without a branch on it. Every direction at once for all pieces:
 * every mover's first square (empty or enemy), then the Scouts' lines hop by hop, all
 * Scouts together, while the squares they passed were empty (rulebook "Movement": a
 * Scout moves any number of empty squares in a straight line and may attack the piece
 * at its end). A per-Scout walk of its four lines was half of the mask's cost. */
static inline __attribute__((always_inline)) int fast_write(const GameState *s, int player, int left_out,
                                                            uint8_t *out, int packed) {
    Bits skip = left_out < 0 ? 0 : bit_of(s->piece_sq[left_out]);
    Bits own = bits_load(s->occupied[player]), enemy = bits_load(s->occupied[1 - player]);
    Bits scouts = bits_load(s->scouts[player]) & ~skip;
    Bits movers = own & ~bits_load(s->fixed[player]) & ~skip;
    Bits target = open_bits & ~own, empty = target & ~enemy;
    int n_moves = 0;
    /* Unrolled: each direction's shift is then a constant (bits_step). */
#pragma GCC unroll 4
    for (int d = 0; d < DIR_NB; d++) {
        const uint16_t *acts = step_action[player][d];
        Bits steps = bits_step(movers, d) & target;
        n_moves += packed ? set_step_bits(out, steps, step_bit[player][d]) : set_targets(out, steps, acts, 0, 0);
        /* The Scouts still running: on an empty square after each hop. */
        Bits run = bits_step(scouts, d) & empty;
        for (int offset = hop_delta[player][d]; run; offset += hop_delta[player][d]) {
            Bits next = bits_step(run, d);
            n_moves += set_targets(out, next & target, acts, offset, packed);
            run = next & empty;
        }
    }
    return n_moves;
}

/* Clears a packed row of `bytes` bytes (at least 16: every variant has 1,800 actions or
 * more) with 16-byte stores, the last one ending at the row's end: a memset of a size the
 * compiler does not know is a rep stos, whose start-up was 8% of the mask's time (perf). */
static inline void bits_clear(uint8_t *bits, int bytes) {
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    uint8_t *last = bits + bytes - 16, *at = bits;
    /* 64 bytes an iteration, then 16: the loop's own count and compare were half of the
     * clear's instructions. The empty asm hides the address from gcc, which would turn
     * the loops back into a memset (rep stos). */
    for (; at + 48 < last; at += 64) {
        __asm__("" : "+r"(at));
        _mm_storeu_si128((__m128i *)at, zero);
        _mm_storeu_si128((__m128i *)(at + 16), zero);
        _mm_storeu_si128((__m128i *)(at + 32), zero);
        _mm_storeu_si128((__m128i *)(at + 48), zero);
    }
    for (; at < last; at += 16) {
        __asm__("" : "+r"(at));
        _mm_storeu_si128((__m128i *)at, zero);
    }
    _mm_storeu_si128((__m128i *)last, zero);
#else
    memset(bits, 0, (size_t)bytes);
#endif
}

/* The piece the fast path leaves to the walk (-1 if none), or MOVE_RULES_ALL where it
 * does not decide `player`'s moves at all: what the settings of RULE_SETTINGS' `moves`
 * column touch now (move_rules_reach). A piece off the board or immobile has no moves
 * for a rule to change. */
static inline int left_out_piece(const GameState *s, const Rules *r, int player) {
    int reach = move_rules_reach(s, r, player);
    if (reach == MOVE_RULES_ALL) return MOVE_RULES_ALL;
    if (reach < 0 || piece_owner(reach) != player || s->piece_sq[reach] == SQ_NONE ||
        !piece_type_is_movable(s->piece_type[reach]))
        return -1;
    return reach;
}

int moves_fast_mask(const GameState *s, const Rules *r, uint8_t *mask) {
    int player = s->to_move;
    int left_out = left_out_piece(s, r, player);
    if (left_out == MOVE_RULES_ALL) return -1;
    memset(mask, 0, (size_t)rules_num_actions(r));
    int n_moves = fast_write(s, player, left_out, mask, 0);
    if (left_out >= 0) n_moves += walk_piece_mask(s, r, left_out, mask);
    return n_moves;
}

int moves_fast_bits(const GameState *s, const Rules *r, uint8_t *bits) {
    int player = s->to_move;
    int left_out = left_out_piece(s, r, player);
    if (left_out == MOVE_RULES_ALL) return -1;
    /* Straight into bits: no 1,800-byte mask to clear and pack (15% of a compact step). */
    bits_clear(bits, (rules_num_actions(r) + 7) / 8);
    int n_moves = fast_write(s, player, left_out, bits, 1);
    if (left_out >= 0) {
        uint16_t list[ACTION_MAX];
        int k = walk_piece_list(s, r, left_out, list);
        for (int i = 0; i < k; i++) bits[list[i] >> 3] |= (uint8_t)(1u << (list[i] & 7));
        n_moves += k;
    }
    return n_moves;
}

int moves_fast_any(const GameState *s, const Rules *r, int player) {
    int left_out = left_out_piece(s, r, player);
    if (left_out == MOVE_RULES_ALL) return -1;
    Bits skip = left_out < 0 ? 0 : bit_of(s->piece_sq[left_out]);
    Bits own = bits_load(s->occupied[player]);
    /* A Scout's first square is a one-square move: any move at all is one of these. */
    Bits movers = own & ~bits_load(s->fixed[player]) & ~skip;
    Bits to[DIR_NB];
    step_targets(movers, open_bits & ~own, to);
    if (to[DIR_UP] | to[DIR_DOWN] | to[DIR_LEFT] | to[DIR_RIGHT]) return 1;
    uint16_t list[ACTION_MAX];
    return left_out >= 0 && walk_piece_list(s, r, left_out, list) > 0;
}
