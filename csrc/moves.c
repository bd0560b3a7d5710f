#include "moves.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "chase.h"
#include "repetition.h"

/* ray[sq][dir] lists the squares reached from sq going in dir, stopping at the board's
 * edge or a lake (lakes never move, so this is fixed); ray_action[player][sq][dir][i]
 * is that player's action for the move to the i-th of them. */
static uint8_t ray_len[SQ_NB][DIR_NB];
static uint8_t ray_sq[SQ_NB][DIR_NB][BOARD_SIZE - 1];
static uint16_t ray_action[PLAYER_NB][SQ_NB][DIR_NB][BOARD_SIZE - 1];
/* The same for one-square moves: the neighbours of sq that are on the board and no lake. */
static uint8_t nbr_len[SQ_NB];
static uint8_t nbr_sq[SQ_NB][DIR_NB];
static uint16_t nbr_action[PLAYER_NB][SQ_NB][DIR_NB];
static int tables_ready;
static void fast_tables_init(void);

void moves_init(void) {
    if (tables_ready) return;
    for (int sq = 0; sq < SQ_NB; sq++) {
        for (int d = 0; d < DIR_NB; d++) {
            int n = 0, row = sq_row(sq), col = sq_col(sq);
            for (;;) {
                row += DIR_ROW[d];
                col += DIR_COL[d];
                if (row < 0 || row >= BOARD_SIZE || col < 0 || col >= BOARD_SIZE) break;
                int t = row * BOARD_SIZE + col;
                if (sq_is_lake(t)) break;
                ray_sq[sq][d][n] = (uint8_t)t;
                for (int p = 0; p < PLAYER_NB; p++) {
                    ray_action[p][sq][d][n] = (uint16_t)action_encode(p, sq, t);
                }
                n++;
            }
            ray_len[sq][d] = (uint8_t)n;
            if (n > 0) {
                int k = nbr_len[sq]++;
                nbr_sq[sq][k] = ray_sq[sq][d][0];
                for (int p = 0; p < PLAYER_NB; p++) nbr_action[p][sq][k] = ray_action[p][sq][d][0];
            }
        }
    }
    fast_tables_init();
    tables_ready = 1;
}

int action_encode(int player, int from, int to) {
    int f = sq_to_frame(from, player), t = sq_to_frame(to, player);
    int fr = sq_row(f), fc = sq_col(f), tr = sq_row(t), tc = sq_col(t);
    if (f == t) return -1;
    if (fr == tr) return f * TARGETS_PER_SQ + (tc < fc ? tc : tc - 1);
    if (fc == tc) return f * TARGETS_PER_SQ + 9 + (tr < fr ? tr : tr - 1);
    if ((tr - fr == 1 || fr - tr == 1) && (tc - fc == 1 || fc - tc == 1))
        return DIAG_ACTION_BASE + f * 4 + 2 * (tr > fr) + (tc > fc);
    return -1;
}

int action_encode_rescue(int player, int type, int sq) {
    int h = sq_to_frame(sq, player);
    if (type < 0 || type >= PIECE_TYPE_NB || h >= RESCUE_SQ_NB) return -1;
    return RESCUE_ACTION_BASE + type * RESCUE_SQ_NB + h;
}

ActionKind action_decode(int player, int action, int *a, int *b) {
    if (action >= RESCUE_DECLINE) {
        *a = *b = 0;
        return ACTION_DECLINE;
    }
    if (action >= RESCUE_ACTION_BASE) {
        int k = action - RESCUE_ACTION_BASE;
        *a = k / RESCUE_SQ_NB;
        *b = sq_to_frame(k % RESCUE_SQ_NB, player);
        return ACTION_RESCUE;
    }
    int f, t;
    if (action >= DIAG_ACTION_BASE) {
        int k = action - DIAG_ACTION_BASE;
        f = k / 4;
        int up = (k % 4) / 2, right = k % 2;
        int tr = sq_row(f) + (up ? 1 : -1), tc = sq_col(f) + (right ? 1 : -1);
        /* Off-board diagonals decode to the from square itself: never legal. */
        t = (tr < 0 || tr >= BOARD_SIZE || tc < 0 || tc >= BOARD_SIZE) ? f : tr * BOARD_SIZE + tc;
    } else {
        f = action / TARGETS_PER_SQ;
        int k = action % TARGETS_PER_SQ, fr = sq_row(f), fc = sq_col(f);
        if (k < 9) {
            t = fr * BOARD_SIZE + (k < fc ? k : k + 1);
        } else {
            t = ((k - 9) < fr ? (k - 9) : (k - 9) + 1) * BOARD_SIZE + fc;
        }
    }
    *a = sq_to_frame(f, player);
    *b = sq_to_frame(t, player);
    return ACTION_MOVE;
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

/* One walk over the legal moves serves listing, masking and "is there any move?"; the
 * mode is a constant at each call, so the compiler makes three loops without branches
 * on it. */
enum { WALK_LIST, WALK_MASK, WALK_ANY };

#define EMIT(action)                                       \
    do {                                                   \
        if (mode == WALK_ANY) return 1;                    \
        if (mode == WALK_LIST) list[n_moves] = (action);   \
        if (mode == WALK_MASK) mask[(action)] = 1;         \
        n_moves++;                                         \
    } while (0)

/* 1 if the repetition rules forbid piece id's move: the two-square rule, for the piece
 * whose run reached the limit (`limited`), and the chasing rule, while the player
 * chases (`chasing`) and only for moves to empty squares. */
static inline int moves_repeat(const GameState *s, const Rules *r, int id, int limited, int chasing,
                               int from, int to, int empty) {
    if (id == limited && repetition_forbids(s, r->two_square_limit, id, from, to)) return 1;
    return chasing && empty && chase_forbids(s, id, from, to);
}

/* Captains (Ultimate Lightning): a second square after an empty first one, straight on
 * or turned; an enemy there is attacked (RULES.md "Other variants"). */
static int captain_second_squares(const GameState *s, int from, uint8_t *targets) {
    int n = 0;
    for (int d = 0; d < DIR_NB; d++) {
        if (ray_len[from][d] == 0) continue;
        int mid = ray_sq[from][d][0];
        if (s->board[mid] != CELL_EMPTY) continue;
        for (int e = 0; e < DIR_NB; e++) {
            /* not back to from */
            if ((d ^ e) == 1) continue;
            if (ray_len[mid][e] == 0) continue;
            int t = ray_sq[mid][e][0];
            /* a diagonal target reached both ways is listed once */
            int seen = 0;
            for (int k = 0; k < n; k++) seen |= targets[k] == t;
            if (!seen) targets[n++] = (uint8_t)t;
        }
    }
    return n;
}

/* The moves of one piece `id` of `player` (movable, on the board). */
static inline __attribute__((always_inline)) int piece_walk(const GameState *s, const Rules *r, int player,
                                                            int id, int limited, int chasing, int mode,
                                                            uint16_t *list, uint8_t *mask) {
    int n_moves = 0;
    /* Cells 1 + id hold the player's pieces for ids first..first + 39. */
    unsigned own_first_cell = (unsigned)player * MAX_PIECES + 1;
    int from = s->piece_sq[id], type = s->piece_type[id];
    if (type != SCOUT) {
        /* One square: to a neighbour that holds no own piece. */
        const uint8_t *nb = nbr_sq[from];
        const uint16_t *acts = nbr_action[player][from];
        if (mode == WALK_MASK && id != limited && !chasing) {
            /* No repetition rule can bite: store every neighbour's verdict, no
             * branches (each action belongs to this piece alone). */
            for (int k = 0; k < nbr_len[from]; k++) {
                int legal = s->board[nb[k]] - own_first_cell >= MAX_PIECES;
                mask[acts[k]] = (uint8_t)legal;
                n_moves += legal;
            }
        } else {
            for (int k = 0; k < nbr_len[from]; k++) {
                unsigned cell = s->board[nb[k]];
                if (cell - own_first_cell < MAX_PIECES) continue;
                if (!moves_repeat(s, r, id, limited, chasing, from, nb[k], cell == CELL_EMPTY)) EMIT(acts[k]);
            }
        }
    } else {
        /* Scouts go any number of empty squares; an enemy ends the line with an attack. */
        for (int d = 0; d < DIR_NB; d++) {
            const uint8_t *ray = ray_sq[from][d];
            const uint16_t *acts = ray_action[player][from][d];
            for (int i = 0; i < ray_len[from][d]; i++) {
                unsigned cell = s->board[ray[i]];
                if (cell - own_first_cell < MAX_PIECES) break;
                if (!moves_repeat(s, r, id, limited, chasing, from, ray[i], cell == CELL_EMPTY)) EMIT(acts[i]);
                if (cell != CELL_EMPTY) break;
            }
        }
    }
    if (type == CAPTAIN && r->captain_two_squares) {
        uint8_t targets[8];
        int n = captain_second_squares(s, from, targets);
        for (int k = 0; k < n; k++) {
            unsigned cell = s->board[targets[k]];
            if (cell - own_first_cell < MAX_PIECES) continue;
            if (!moves_repeat(s, r, id, limited, chasing, from, targets[k], cell == CELL_EMPTY))
                EMIT(action_encode(player, from, targets[k]));
        }
    }
    return n_moves;
}

/* The piece of `player` whose two-square run reached the limit: the only piece that
 * rule can stop (repetition.h), or -1. */
static inline int limited_piece(const GameState *s, const Rules *r, int player) {
    const Streak *st = &s->streak[player];
    return r->two_square_limit && st->run >= r->two_square_limit ? st->piece : -1;
}

/* 1 while `player` chases under the chasing rule (chase.h): then moves to empty squares
 * are checked against the chase's positions. */
static inline int chasing_now(const GameState *s, const Rules *r, int player) {
    return r->chasing_rule && s->chase.active && s->chase.chaser == player;
}

static inline __attribute__((always_inline)) int moves_walk(const GameState *s, const Rules *r,
                                                            int player, int mode, uint16_t *list,
                                                            uint8_t *mask) {
    int n_moves = 0;
    int first = player * MAX_PIECES, last = first + s->placed[player];
    int limited = limited_piece(s, r, player), chasing = chasing_now(s, r, player);
    for (int id = first; id < last; id++) {
        if (s->piece_sq[id] == SQ_NONE || !piece_type_is_movable(s->piece_type[id])) continue;
        int n = piece_walk(s, r, player, id, limited, chasing, mode, list ? list + n_moves : NULL, mask);
        if (mode == WALK_ANY && n) return 1;
        n_moves += n;
    }
    return n_moves;
}

/* The square-set path (squareset.h): every piece that moves one square is shifted at
 * once, in each direction, onto the squares it may enter; each Scout's four lines end
 * at the nearest occupied square or lake. It covers the rules whose legality depends on
 * the board alone; the walk above decides the pieces and variants it does not (the
 * piece a repetition rule may stop, a chase, Captains that move two squares). */
static Bits lake_bits, open_bits, col_a_bits, col_k_bits;
static SquareSet ray_bits[SQ_NB][DIR_NB];        /* squares from sq to the edge going in dir */
static uint8_t edge_len[SQ_NB][DIR_NB];          /* how many */
static uint16_t step_action[PLAYER_NB][DIR_NB][SQ_NB]; /* the one-square move going in dir onto sq */
static uint8_t spread8[256][8];                  /* byte i = bit i of the index */

static void fast_tables_init(void) {
    lake_bits = col_a_bits = col_k_bits = 0;
    for (int sq = 0; sq < SQ_NB; sq++) {
        if (sq_is_lake(sq)) lake_bits |= bit_of(sq);
        if (sq_col(sq) == 0) col_a_bits |= bit_of(sq);
        if (sq_col(sq) == BOARD_SIZE - 1) col_k_bits |= bit_of(sq);
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
}

/* The squares in `open` that the pieces on `from` reach with one step, by direction
 * (absolute: up is towards blue's back row); to[d] shifted back gives the pieces. */
static inline void step_targets(Bits from, Bits open, Bits to[DIR_NB]) {
    to[DIR_UP] = (from << BOARD_SIZE) & open;
    to[DIR_DOWN] = (from >> BOARD_SIZE) & open;
    to[DIR_LEFT] = ((from & ~col_a_bits) >> 1) & open;
    to[DIR_RIGHT] = ((from & ~col_k_bits) << 1) & open;
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

/* Writes the mask of the move phase for `player`, leaving out the piece on `skip` (a
 * square set of at most one square); the mask was zeroed. Returns the moves written. */
/* The one-square targets of `player`'s steppers (all but Scouts and the pieces in
 * skip), by direction, and the Scouts outside skip: what both mask writers start from. */
static inline Bits fast_targets(const GameState *s, int player, Bits skip, Bits to[DIR_NB]) {
    Bits own = bits_load(s->occupied[player]), scouts = bits_load(s->scouts[player]);
    Bits steppers = own & ~bits_load(s->fixed[player]) & ~scouts & ~skip;
    step_targets(steppers, open_bits & ~own, to);
    return scouts & ~skip;
}

/* The 18 action slots of the Scout on `from` (moves.h: its row's targets, then its
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

static int mask_fast(const GameState *s, int player, Bits skip, uint8_t *mask) {
    Bits to[DIR_NB];
    Bits scouts = fast_targets(s, player, skip, to);
    int n_moves = 0;
    for (int d = 0; d < DIR_NB; d++) {
        /* Each half on its own: a 64-bit loop of find-lowest, store, clear-lowest. */
        const uint16_t *acts = step_action[player][d];
        for (uint64_t w = (uint64_t)to[d]; w; w &= w - 1, n_moves++) mask[acts[__builtin_ctzll(w)]] = 1;
        for (uint64_t w = (uint64_t)(to[d] >> 64); w; w &= w - 1, n_moves++) mask[acts[64 + __builtin_ctzll(w)]] = 1;
    }
    /* Each Scout owns the 18 actions of its square: its row's targets are one run of
     * them and its column's another (moves.h), written whole from the four reaches. */
    for (; scouts; scouts &= scouts - 1) {
        int f, moves;
        uint32_t slot = scout_slot(s, player, bits_lowest(scouts), &f, &moves);
        uint8_t *row = mask + f * TARGETS_PER_SQ;
        memcpy(row, spread8[slot & 0xFF], 8);
        memcpy(row + 8, spread8[(slot >> 8) & 0xFF], 8);
        row[16] = (uint8_t)((slot >> 16) & 1);
        row[17] = (uint8_t)(slot >> 17);
        n_moves += moves;
    }
    return n_moves;
}

/* The square of the limited piece as a set: empty when there is none, or it is not
 * `player`'s, is captured, or cannot move (then the rule has nothing to stop). */
static inline Bits limited_square(const GameState *s, int player, int limited) {
    if (limited < 0 || piece_owner(limited) != player || s->piece_sq[limited] == SQ_NONE ||
        !piece_type_is_movable(s->piece_type[limited]))
        return 0;
    return bit_of(s->piece_sq[limited]);
}

/* Whether the square-set path decides this player's moves (see mask_fast). */
static inline int fast_path_applies(const GameState *s, const Rules *r, int player) {
    return !r->captain_two_squares && !chasing_now(s, r, player);
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

int moves_list(const GameState *s, const Rules *r, uint16_t *actions) {
    if (s->phase == PHASE_RESCUE) return rescues_walk(s, actions, NULL);
    return moves_walk(s, r, s->to_move, WALK_LIST, actions, NULL);
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
    if (!fast_path_applies(s, r, player)) return moves_walk(s, r, player, WALK_ANY, NULL, NULL);
    int limited = limited_piece(s, r, player);
    Bits skip = limited_square(s, player, limited);
    Bits own = bits_load(s->occupied[player]);
    /* A Scout's first square is a one-square move: any move at all is one of these. */
    Bits movers = own & ~bits_load(s->fixed[player]) & ~skip;
    Bits to[DIR_NB];
    step_targets(movers, open_bits & ~own, to);
    if (to[DIR_UP] | to[DIR_DOWN] | to[DIR_LEFT] | to[DIR_RIGHT]) return 1;
    return skip && piece_walk(s, r, player, limited, limited, 0, WALK_ANY, NULL, NULL);
}

int moves_legal_mask(const GameState *s, const Rules *r, uint8_t *mask) {
    memset(mask, 0, (size_t)rules_num_actions(r));
    if (s->phase == PHASE_RESCUE) return rescues_walk(s, NULL, mask);
    int player = s->to_move;
    if (!fast_path_applies(s, r, player)) return moves_walk(s, r, player, WALK_MASK, NULL, mask);
    int limited = limited_piece(s, r, player);
    Bits skip = limited_square(s, player, limited);
    int n_moves = mask_fast(s, player, skip, mask);
    if (skip) n_moves += piece_walk(s, r, player, limited, limited, 0, WALK_MASK, NULL, mask);
    return n_moves;
}

/* mask_fast writing bits (mask_bits.h's order) into `bits`, zeroed by the caller and 4
 * bytes longer than the mask: a Scout's 18 actions are ORed in as one 32-bit window,
 * read and written as little-endian bytes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mask_fast_bits ORs a little-endian 32-bit window into the packed mask"
#endif
static int mask_fast_bits(const GameState *s, int player, Bits skip, uint8_t *bits) {
    Bits to[DIR_NB];
    Bits scouts = fast_targets(s, player, skip, to);
    int n_moves = 0;
    for (int d = 0; d < DIR_NB; d++) {
        const uint16_t *acts = step_action[player][d];
        for (uint64_t w = (uint64_t)to[d]; w; w &= w - 1, n_moves++) {
            int a = acts[__builtin_ctzll(w)];
            bits[a >> 3] |= (uint8_t)(1u << (a & 7));
        }
        for (uint64_t w = (uint64_t)(to[d] >> 64); w; w &= w - 1, n_moves++) {
            int a = acts[64 + __builtin_ctzll(w)];
            bits[a >> 3] |= (uint8_t)(1u << (a & 7));
        }
    }
    for (; scouts; scouts &= scouts - 1) {
        int f, moves;
        uint32_t slot = scout_slot(s, player, bits_lowest(scouts), &f, &moves);
        int at = f * TARGETS_PER_SQ;
        uint32_t window;
        memcpy(&window, bits + (at >> 3), 4);
        window |= slot << (at & 7);
        memcpy(bits + (at >> 3), &window, 4);
        n_moves += moves;
    }
    return n_moves;
}

int moves_legal_bits_fast(const GameState *s, const Rules *r, uint8_t *bits) {
    int player = s->to_move;
    if (s->phase == PHASE_RESCUE || !fast_path_applies(s, r, player)) return -1;
    /* Straight into bits: no 1,800-byte mask to clear and pack (15% of a compact step). */
    int bytes = (rules_num_actions(r) + 7) / 8;
    uint8_t local[(ACTION_MAX + 7) / 8 + 4];
    memset(local, 0, (size_t)bytes + 4);
    int limited = limited_piece(s, r, player);
    Bits skip = limited_square(s, player, limited);
    int n_moves = mask_fast_bits(s, player, skip, local);
    if (skip) {
        uint16_t list[ACTION_MAX];
        int k = piece_walk(s, r, player, limited, limited, 0, WALK_LIST, list, NULL);
        for (int i = 0; i < k; i++) local[list[i] >> 3] |= (uint8_t)(1u << (list[i] & 7));
        n_moves += k;
    }
    memcpy(bits, local, (size_t)bytes);
    return n_moves;
}

enum {
    ILLEGAL_NOT_ON_LINE = -1,
    ILLEGAL_NO_OWN_PIECE = -2,
    ILLEGAL_IMMOBILE = -3,
    ILLEGAL_TOO_FAR = -4,
    ILLEGAL_BLOCKED = -5,
    ILLEGAL_OWN_TARGET = -6,
    ILLEGAL_LAKE = -7,
    ILLEGAL_REPETITION = -8,
    ILLEGAL_OFF_BOARD = -9,
    ILLEGAL_CHASE = -10,
    ILLEGAL_NOT_IN_VARIANT = -11,
    ILLEGAL_RESCUE_PENDING = -12,
    ILLEGAL_NO_RESCUE_PENDING = -13,
    ILLEGAL_RESCUE_NO_PIECE = -14,
    ILLEGAL_RESCUE_SQUARE = -15,
    ILLEGAL_GAME_OVER = -16,
    ILLEGAL_CAPTAIN_BLOCKED = -17,
};

const char *moves_illegal_reason(int code) {
    switch (code) {
    case ILLEGAL_NOT_ON_LINE: return "pieces move along a row or a column, not diagonally or in place";
    case ILLEGAL_NO_OWN_PIECE: return "there is no piece of the player to move on the source square";
    case ILLEGAL_IMMOBILE: return "bombs and the flag never move";
    case ILLEGAL_TOO_FAR: return "only a scout moves more than one square";
    case ILLEGAL_BLOCKED: return "a scout cannot pass a piece or a lake";
    case ILLEGAL_OWN_TARGET: return "the target square holds an own piece";
    case ILLEGAL_LAKE: return "no piece may enter a lake";
    case ILLEGAL_REPETITION: return "the two-square rule forbids this move";
    case ILLEGAL_OFF_BOARD: return "the square is off the board";
    case ILLEGAL_CHASE: return "the chasing rule forbids recreating a position of this chase";
    case ILLEGAL_NOT_IN_VARIANT: return "this action does not exist in this variant";
    case ILLEGAL_RESCUE_PENDING: return "a rescue is pending: return a captured piece or decline";
    case ILLEGAL_NO_RESCUE_PENDING: return "no rescue is pending";
    case ILLEGAL_RESCUE_NO_PIECE: return "no captured piece of that type can be rescued";
    case ILLEGAL_RESCUE_SQUARE: return "a rescued piece goes on an empty square of the own half";
    case ILLEGAL_GAME_OVER: return "the game is over";
    case ILLEGAL_CAPTAIN_BLOCKED: return "a Captain's two-square move needs an empty square on the way";
    default: return "legal";
    }
}

/* A Captain's two-square move (variant): an empty square between, straight or turned. */
static int captain_reaches(const GameState *s, int from, int to) {
    uint8_t targets[8];
    int n = captain_second_squares(s, from, targets);
    for (int k = 0; k < n; k++) {
        if (targets[k] == to) return 1;
    }
    return 0;
}

int moves_check(const GameState *s, const Rules *r, int player, int from, int to) {
    if (from < 0 || from >= SQ_NB || to < 0 || to >= SQ_NB) return ILLEGAL_OFF_BOARD;
    uint8_t cell = s->board[from];
    if (cell == CELL_EMPTY || cell == CELL_LAKE || piece_owner(cell - 1) != player)
        return ILLEGAL_NO_OWN_PIECE;
    int id = cell - 1, type = s->piece_type[id];
    if (!piece_type_is_movable(type)) return ILLEGAL_IMMOBILE;
    if (from == to) return ILLEGAL_NOT_ON_LINE;
    if (s->board[to] == CELL_LAKE) return ILLEGAL_LAKE;
    if (s->board[to] != CELL_EMPTY && piece_owner(s->board[to] - 1) == player)
        return ILLEGAL_OWN_TARGET;
    int captain = type == CAPTAIN && r->captain_two_squares;
    int dr = sq_row(to) - sq_row(from), dc = sq_col(to) - sq_col(from);
    int dist = (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
    if (captain && dist == 2) {
        if (!captain_reaches(s, from, to)) return ILLEGAL_CAPTAIN_BLOCKED;
    } else {
        if (dr != 0 && dc != 0) return ILLEGAL_NOT_ON_LINE;
        if (dist == 0) return ILLEGAL_NOT_ON_LINE;
        /* Walk the ray in the move's direction: every square before `to` must be empty. */
        int d = dr > 0 ? DIR_UP : dr < 0 ? DIR_DOWN : dc < 0 ? DIR_LEFT : DIR_RIGHT;
        int i = 0, n = ray_len[from][d];
        while (i < n && ray_sq[from][d][i] != to) {
            if (s->board[ray_sq[from][d][i]] != CELL_EMPTY) {
                return type == SCOUT ? ILLEGAL_BLOCKED : ILLEGAL_TOO_FAR;
            }
            i++;
        }
        if (i == n) return type == SCOUT ? ILLEGAL_BLOCKED : ILLEGAL_TOO_FAR;
        if (i > 0 && type != SCOUT) return ILLEGAL_TOO_FAR;
    }
    if (repetition_forbids(s, r->two_square_limit, id, from, to)) return ILLEGAL_REPETITION;
    if (r->chasing_rule && s->board[to] == CELL_EMPTY && chase_forbids(s, id, from, to)) return ILLEGAL_CHASE;
    return 0;
}

int moves_check_rescue(const GameState *s, int type, int sq) {
    if (s->phase != PHASE_RESCUE) return ILLEGAL_NO_RESCUE_PENDING;
    if (type == BOMB || type == FLAG || moves_captured_piece(s, s->to_move, type) < 0)
        return ILLEGAL_RESCUE_NO_PIECE;
    if (sq < 0 || sq >= SQ_NB || sq_to_frame(sq, s->to_move) >= RESCUE_SQ_NB || s->board[sq] != CELL_EMPTY)
        return ILLEGAL_RESCUE_SQUARE;
    return 0;
}

int moves_check_action(const GameState *s, const Rules *r, int action) {
    if (s->done) return ILLEGAL_GAME_OVER;
    /* Diagonal steps exist only for Captains of some variants. */
    if (action >= DIAG_ACTION_BASE && action < RESCUE_ACTION_BASE && !r->captain_two_squares)
        return ILLEGAL_NOT_ON_LINE;
    if (action < 0 || action >= rules_num_actions(r)) return ILLEGAL_NOT_IN_VARIANT;
    int a, b;
    switch (action_decode(s->to_move, action, &a, &b)) {
    case ACTION_MOVE:
        if (s->phase == PHASE_RESCUE) return ILLEGAL_RESCUE_PENDING;
        return moves_check(s, r, s->to_move, a, b);
    case ACTION_RESCUE:
        return moves_check_rescue(s, a, b);
    case ACTION_DECLINE:
        return s->phase == PHASE_RESCUE ? 0 : ILLEGAL_NO_RESCUE_PENDING;
    }
    return ILLEGAL_NOT_IN_VARIANT;
}
