#include "moves.h"

#include <string.h>

#include "repetition.h"

/* ray[sq][dir] lists the squares reached from sq going in dir, stopping at the board's
 * edge or a lake (lakes never move, so this is fixed); ray_action[player][sq][dir][i]
 * is that player's action for the move to the i-th of them. */
static uint8_t ray_len[SQ_NB][DIR_NB];
static uint8_t ray_sq[SQ_NB][DIR_NB][BOARD_SIZE - 1];
static uint16_t ray_action[PLAYER_NB][SQ_NB][DIR_NB][BOARD_SIZE - 1];
static int tables_ready;

void moves_init(void) {
    static const int DROW[DIR_NB] = {1, -1, 0, 0};
    static const int DCOL[DIR_NB] = {0, 0, -1, 1};
    if (tables_ready) return;
    for (int sq = 0; sq < SQ_NB; sq++) {
        for (int d = 0; d < DIR_NB; d++) {
            int n = 0, row = sq_row(sq), col = sq_col(sq);
            for (;;) {
                row += DROW[d];
                col += DCOL[d];
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
        }
    }
    tables_ready = 1;
}

int action_encode(int player, int from, int to) {
    int f = sq_to_frame(from, player), t = sq_to_frame(to, player);
    int fr = sq_row(f), fc = sq_col(f), tr = sq_row(t), tc = sq_col(t);
    if (f == t) return -1;
    if (fr == tr) return f * TARGETS_PER_SQ + (tc < fc ? tc : tc - 1);
    if (fc == tc) return f * TARGETS_PER_SQ + 9 + (tr < fr ? tr : tr - 1);
    return -1;
}

void action_decode(int player, int action, int *from, int *to) {
    int f = action / TARGETS_PER_SQ, k = action % TARGETS_PER_SQ;
    int fr = sq_row(f), fc = sq_col(f), t;
    if (k < 9) {
        int tc = k < fc ? k : k + 1;
        t = fr * BOARD_SIZE + tc;
    } else {
        int tr = (k - 9) < fr ? (k - 9) : (k - 9) + 1;
        t = tr * BOARD_SIZE + fc;
    }
    *from = sq_to_frame(f, player);
    *to = sq_to_frame(t, player);
}

/* One walk over the legal moves serves listing, masking and "is there any move?"; the
 * mode is a constant at each call, so the compiler makes three loops without branches
 * on it. */
enum { WALK_LIST, WALK_MASK, WALK_ANY };

static inline __attribute__((always_inline)) int moves_walk(const GameState *s, const Rules *r,
                                                            int player, int mode, uint16_t *list,
                                                            uint8_t *mask) {
    int n_moves = 0;
    int first = player * MAX_PIECES, last = first + s->placed[player];
    const Streak *st = &s->streak[player];
    /* Only the piece of a run that reached the limit can have a forbidden move. */
    int limited = r->two_square_limit && st->count >= r->two_square_limit ? st->piece : -1;
    /* Cells 1 + id hold the player's pieces for ids first..first + 39. */
    unsigned own_first_cell = (unsigned)first + 1;
    for (int id = first; id < last; id++) {
        int from = s->piece_sq[id];
        if (from == SQ_NONE) continue;
        int type = s->piece_type[id];
        if (!piece_type_is_movable(type)) continue;
        /* Scouts go any number of empty squares; everyone else one square. */
        int reach = type == SCOUT ? BOARD_SIZE - 1 : 1;
        for (int d = 0; d < DIR_NB; d++) {
            int n = ray_len[from][d] < reach ? ray_len[from][d] : reach;
            const uint8_t *ray = ray_sq[from][d];
            const uint16_t *acts = ray_action[player][from][d];
            for (int i = 0; i < n; i++) {
                unsigned cell = s->board[ray[i]];
                /* Never onto an own piece; an enemy piece ends the line with an attack. */
                if (cell - own_first_cell < MAX_PIECES) break;
                if (id != limited || !repetition_forbids(s, r->two_square_limit, id, from, ray[i])) {
                    if (mode == WALK_ANY) return 1;
                    if (mode == WALK_LIST) list[n_moves] = acts[i];
                    if (mode == WALK_MASK) mask[acts[i]] = 1;
                    n_moves++;
                }
                if (cell != CELL_EMPTY) break;
            }
        }
    }
    return n_moves;
}

int moves_list(const GameState *s, const Rules *r, int player, uint16_t *actions) {
    return moves_walk(s, r, player, WALK_LIST, actions, NULL);
}

int moves_any_legal(const GameState *s, const Rules *r, int player) {
    return moves_walk(s, r, player, WALK_ANY, NULL, NULL);
}

int moves_legal_mask(const GameState *s, const Rules *r, uint8_t *mask) {
    memset(mask, 0, ACTION_NB);
    return moves_walk(s, r, s->to_move, WALK_MASK, NULL, mask);
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
    default: return "legal";
    }
}

int moves_check(const GameState *s, const Rules *r, int player, int from, int to) {
    if (from < 0 || from >= SQ_NB || to < 0 || to >= SQ_NB) return ILLEGAL_OFF_BOARD;
    uint8_t cell = s->board[from];
    if (cell == CELL_EMPTY || cell == CELL_LAKE || piece_owner(cell - 1) != player)
        return ILLEGAL_NO_OWN_PIECE;
    int id = cell - 1, type = s->piece_type[id];
    if (!piece_type_is_movable(type)) return ILLEGAL_IMMOBILE;
    if (action_encode(player, from, to) < 0) return ILLEGAL_NOT_ON_LINE;
    if (s->board[to] == CELL_LAKE) return ILLEGAL_LAKE;
    if (s->board[to] != CELL_EMPTY && piece_owner(s->board[to] - 1) == player)
        return ILLEGAL_OWN_TARGET;
    /* Walk the ray in the move's direction: every square before `to` must be empty. */
    int d = sq_row(to) > sq_row(from) ? DIR_UP
          : sq_row(to) < sq_row(from) ? DIR_DOWN
          : sq_col(to) < sq_col(from) ? DIR_LEFT
                                      : DIR_RIGHT;
    int i = 0, n = ray_len[from][d];
    while (i < n && ray_sq[from][d][i] != to) {
        if (s->board[ray_sq[from][d][i]] != CELL_EMPTY) {
            return type == SCOUT ? ILLEGAL_BLOCKED : ILLEGAL_TOO_FAR;
        }
        i++;
    }
    if (i == n) return type == SCOUT ? ILLEGAL_BLOCKED : ILLEGAL_TOO_FAR;
    if (i > 0 && type != SCOUT) return ILLEGAL_TOO_FAR;
    if (repetition_forbids(s, r->two_square_limit, id, from, to)) return ILLEGAL_REPETITION;
    return 0;
}
