/* moves_fast.c: the square-set fast path of the move phase (moves_fast.h). */
#include "moves_fast.h"

#include <string.h>

#include "action.h"
#include "squareset.h"
#include "walk.h"

static Bits lake_bits, open_bits;
static SquareSet ray_bits[SQ_NB][DIR_NB];              /* squares from sq to the edge going in dir */
static uint8_t edge_len[SQ_NB][DIR_NB];                /* how many */
static uint16_t step_action[PLAYER_NB][DIR_NB][SQ_NB]; /* the one-square move going in dir onto sq */
static uint8_t spread8[256][8];                        /* byte i = bit i of the index */
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
            Bits ray = 0;
            int n = 0, row = sq_row(sq) + DIR_ROW[d], col = sq_col(sq) + DIR_COL[d];
            for (; row >= 0 && row < BOARD_SIZE && col >= 0 && col < BOARD_SIZE; row += DIR_ROW[d], col += DIR_COL[d]) {
                ray |= bit_of(row * BOARD_SIZE + col);
                n++;
            }
            ray_bits[sq][d] = bits_store(ray);
            edge_len[sq][d] = (uint8_t)n;
            int from_row = sq_row(sq) - DIR_ROW[d], from_col = sq_col(sq) - DIR_COL[d];
            if (from_row >= 0 && from_row < BOARD_SIZE && from_col >= 0 && from_col < BOARD_SIZE) {
                for (int p = 0; p < PLAYER_NB; p++)
                    step_action[p][d][sq] = (uint16_t)action_encode(p, from_row * BOARD_SIZE + from_col, sq);
            }
        }
    }
    for (int v = 0; v < 256; v++)
        for (int i = 0; i < 8; i++) spread8[v][i] = (uint8_t)((v >> i) & 1);
    fast_ready = 1;
}

/* The squares in `open` that the pieces on `from` reach with one step, by direction
 * (absolute: up is towards blue's back row); to[d] shifted back gives the pieces. */
static inline void step_targets(Bits from, Bits open, Bits to[DIR_NB]) {
    for (int d = 0; d < DIR_NB; d++) to[d] = bits_step(from, d) & open;
}

/* Legal moves of a Scout on `from` along direction d: the empty squares up to the
 * nearest occupied square or lake, plus that square if it holds an enemy. */
static inline int scout_reach(int from, int d, Bits blocked, Bits enemy) {
    Bits hits = blocked & bits_load(ray_bits[from][d]);
    if (!hits) return edge_len[from][d];
    int at = d == DIR_UP || d == DIR_RIGHT ? bits_lowest(hits) : bits_highest(hits);
    int dist = d == DIR_UP || d == DIR_DOWN ? (at > from ? at - from : from - at) / BOARD_SIZE
                                            : (at > from ? at - from : from - at);
    return dist - 1 + (int)((enemy >> at) & 1);
}

/* The 18 action slots of the Scout on `from` (types.h: its row's targets, then its
 * column's), in its player's frame, as bits; *frame gets its square there, *moves the
 * number of moves. */
static inline uint32_t scout_slot(const GameState *s, int player, int from, int *frame, int *moves) {
    Bits own = bits_load(s->occupied[player]), enemy = bits_load(s->occupied[1 - player]);
    Bits blocked = own | enemy | lake_bits;
    int up = scout_reach(from, DIR_UP, blocked, enemy), down = scout_reach(from, DIR_DOWN, blocked, enemy);
    int left = scout_reach(from, DIR_LEFT, blocked, enemy), right = scout_reach(from, DIR_RIGHT, blocked, enemy);
    if (player == BLUE) { /* blue's frame is the board turned: up is down, left is right */
        int t = up; up = down; down = t;
        t = left; left = right; right = t;
    }
    int f = sq_to_frame(from, player), fr = sq_row(f), fc = sq_col(f);
    *frame = f;
    *moves = up + down + left + right;
    return ((1u << (fc + right)) - (1u << (fc - left))) | (((1u << (fr + up)) - (1u << (fr - down))) << 9);
}

/* A Scout's 18 actions are ORed into the packed mask as one 32-bit window, read and
 * written as little-endian bytes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "moves_fast_bits ORs a little-endian 32-bit window into the packed mask"
#endif

/* Marks action a in the byte mask or the packed one. */
static inline __attribute__((always_inline)) void set_action(uint8_t *out, int a, int packed) {
    if (packed) {
        out[a >> 3] |= (uint8_t)(1u << (a & 7));
    } else {
        out[a] = 1;
    }
}

/* One writer for both outputs: `packed` is a constant at each call, so the compiler
 * makes a loop for each without a branch on it. */
static inline __attribute__((always_inline)) int fast_write(const GameState *s, int player, int left_out,
                                                            uint8_t *out, int packed) {
    Bits skip = left_out < 0 ? 0 : bit_of(s->piece_sq[left_out]);
    Bits own = bits_load(s->occupied[player]), scouts = bits_load(s->scouts[player]);
    Bits steppers = own & ~bits_load(s->fixed[player]) & ~scouts & ~skip;
    Bits to[DIR_NB];
    step_targets(steppers, open_bits & ~own, to);
    scouts &= ~skip;
    int n_moves = 0;
    for (int d = 0; d < DIR_NB; d++) {
        /* Each half on its own: a 64-bit loop of find-lowest, store, clear-lowest. */
        const uint16_t *acts = step_action[player][d];
        for (uint64_t w = (uint64_t)to[d]; w; w &= w - 1, n_moves++) set_action(out, acts[__builtin_ctzll(w)], packed);
        for (uint64_t w = (uint64_t)(to[d] >> 64); w; w &= w - 1, n_moves++)
            set_action(out, acts[64 + __builtin_ctzll(w)], packed);
    }
    /* Each Scout owns the 18 actions of its square: its row's targets are one run of
     * them and its column's another (types.h), written whole from the four reaches. */
    for (; scouts; scouts &= scouts - 1) {
        int f, moves;
        uint32_t slot = scout_slot(s, player, bits_lowest(scouts), &f, &moves);
        int first = f * TARGETS_PER_SQ;
        if (packed) {
            uint32_t window;
            memcpy(&window, out + (first >> 3), 4);
            window |= slot << (first & 7);
            memcpy(out + (first >> 3), &window, 4);
        } else {
            uint8_t *row = out + first;
            memcpy(row, spread8[slot & 0xFF], 8);
            memcpy(row + 8, spread8[(slot >> 8) & 0xFF], 8);
            row[16] = (uint8_t)((slot >> 16) & 1);
            row[17] = (uint8_t)(slot >> 17);
        }
        n_moves += moves;
    }
    return n_moves;
}

/* Whether the fast path decides `player`'s moves under these rules now. */
static inline int fast_applies(const GameState *s, const Rules *r, int player) {
    return !r->captain_two_squares && !walk_chasing(s, r, player);
}

/* The piece the fast path leaves to the walk: the one whose two-square run reached the
 * limit, if it is `player`'s, on the board and movable (else the rule has nothing to
 * stop); -1 if none. */
static inline int left_out_piece(const GameState *s, const Rules *r, int player) {
    int limited = walk_limited_piece(s, r, player);
    if (limited < 0 || piece_owner(limited) != player || s->piece_sq[limited] == SQ_NONE ||
        !piece_type_is_movable(s->piece_type[limited]))
        return -1;
    return limited;
}

int moves_fast_mask(const GameState *s, const Rules *r, uint8_t *mask) {
    int player = s->to_move;
    if (!fast_applies(s, r, player)) return -1;
    memset(mask, 0, (size_t)rules_num_actions(r));
    int left_out = left_out_piece(s, r, player);
    int n_moves = fast_write(s, player, left_out, mask, 0);
    if (left_out >= 0) n_moves += walk_piece_mask(s, r, left_out, mask);
    return n_moves;
}

int moves_fast_bits(const GameState *s, const Rules *r, uint8_t *bits) {
    int player = s->to_move;
    if (!fast_applies(s, r, player)) return -1;
    /* Straight into bits: no 1,800-byte mask to clear and pack (15% of a compact step).
     * Into a local copy first, since a Scout's window may reach 4 bytes past the mask. */
    int bytes = (rules_num_actions(r) + 7) / 8;
    uint8_t local[(ACTION_MAX + 7) / 8 + 4];
    memset(local, 0, (size_t)bytes + 4);
    int left_out = left_out_piece(s, r, player);
    int n_moves = fast_write(s, player, left_out, local, 1);
    if (left_out >= 0) {
        uint16_t list[ACTION_MAX];
        int k = walk_piece_list(s, r, left_out, list);
        for (int i = 0; i < k; i++) local[list[i] >> 3] |= (uint8_t)(1u << (list[i] & 7));
        n_moves += k;
    }
    memcpy(bits, local, (size_t)bytes);
    return n_moves;
}

int moves_fast_any(const GameState *s, const Rules *r, int player) {
    if (!fast_applies(s, r, player)) return -1;
    int left_out = left_out_piece(s, r, player);
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
