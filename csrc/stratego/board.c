#include "board.h"

#include <stdio.h>
#include <string.h>

#include "engine/rng.h"

static uint64_t zobrist[PLAYER_NB][PIECE_TYPE_NB][SQ_NB];
static int zobrist_ready;

/* The empty board, built once by board_init: every reset starts from a copy of it. */
static GameState empty_board;

static void empty_board_init(GameState *s) {
    memset(s, 0, sizeof(*s));
    for (int sq = 0; sq < SQ_NB; sq++) s->board[sq] = sq_is_lake(sq) ? CELL_LAKE : CELL_EMPTY;
    memset(s->piece_sq, SQ_NONE, sizeof(s->piece_sq));
    for (int p = 0; p < PLAYER_NB; p++) {
        s->streak[p].piece = SQ_NONE;
        s->first_rescuer[p] = SQ_NONE;
    }
    s->rescuer = SQ_NONE;
    s->winner = NO_WINNER;
}

void board_init(void) {
    if (zobrist_ready) return;
    /* Fixed keys from a fixed seed: hashes are the same in every run. */
    uint64_t state = 0x5354524154454730ull;
    for (int p = 0; p < PLAYER_NB; p++)
        for (int t = 0; t < PIECE_TYPE_NB; t++)
            for (int sq = 0; sq < SQ_NB; sq++) zobrist[p][t][sq] = rng_next(&state);
    empty_board_init(&empty_board);
    zobrist_ready = 1;
}

uint64_t board_zobrist(int player, int type, int sq) { return zobrist[player][type][sq]; }

int sq_is_lake(int sq) {
    switch (sq) {
#define BOARD_LAKE_CASE(sq) case sq:
        LAKE_SQUARES(BOARD_LAKE_CASE)
#undef BOARD_LAKE_CASE
        return 1;
    default:
        return 0;
    }
}

/* memcpy, not an assignment: the padding bytes, which to_bytes() exports, stay zero too. */
void board_clear(GameState *s) { memcpy(s, &empty_board, sizeof(*s)); }

/* Flips square set `squares` in the sets of a piece of `player` and `type`: a piece
 * arriving on or leaving a square flips that square's bit, a move flips two. */
static inline void sets_flip(GameState *s, int player, int type, Bits squares) {
    /* On the two 64-bit halves: the 128-bit masks cost twice the instructions. */
    uint64_t lo = (uint64_t)squares, hi = (uint64_t)(squares >> 64);
    uint64_t scout = -(uint64_t)(type == SCOUT), fixed = -(uint64_t)(type == BOMB || type == FLAG);
    s->occupied[player].lo ^= lo;
    s->occupied[player].hi ^= hi;
    s->scouts[player].lo ^= lo & scout;
    s->scouts[player].hi ^= hi & scout;
    s->fixed[player].lo ^= lo & fixed;
    s->fixed[player].hi ^= hi & fixed;
}

int board_place(GameState *s, int player, int type, int sq) {
    if (s->board[sq] != CELL_EMPTY) return -1;
    if (s->placed[player] >= MAX_PIECES) return -1;
    int id = player * MAX_PIECES + s->placed[player]++;
    s->piece_type[id] = (uint8_t)type;
    s->piece_sq[id] = (uint8_t)sq;
    s->board[sq] = (uint8_t)(1 + id);
    s->on_board[player][type]++;
    if (type != BOMB && type != FLAG) s->movable[player]++;
    s->hash ^= zobrist[player][type][sq];
    sets_flip(s, player, type, bit_of(sq));
    return id;
}

void board_move(GameState *s, int id, int to) {
    int from = s->piece_sq[id], player = piece_owner(id), type = s->piece_type[id];
    s->board[from] = CELL_EMPTY;
    s->board[to] = (uint8_t)(1 + id);
    s->piece_sq[id] = (uint8_t)to;
    s->hash ^= zobrist[player][type][from] ^ zobrist[player][type][to];
    /* A piece that moves is no Bomb or Flag (moves_check): told so, the compiler drops
     * the flip of the fixed set. */
    if (type == BOMB || type == FLAG) __builtin_unreachable();
    sets_flip(s, player, type, bit_of(from) | bit_of(to));
}

void board_return(GameState *s, int id, int sq) {
    int player = piece_owner(id), type = s->piece_type[id];
    s->board[sq] = (uint8_t)(1 + id);
    s->piece_sq[id] = (uint8_t)sq;
    s->on_board[player][type]++;
    if (type != BOMB && type != FLAG) s->movable[player]++;
    s->hash ^= zobrist[player][type][sq];
    sets_flip(s, player, type, bit_of(sq));
}

void board_remove(GameState *s, int id) {
    int sq = s->piece_sq[id];
    int player = piece_owner(id), type = s->piece_type[id];
    s->hash ^= zobrist[player][type][sq];
    s->board[sq] = CELL_EMPTY;
    s->piece_sq[id] = SQ_NONE;
    s->on_board[player][type]--;
    if (type != BOMB && type != FLAG) s->movable[player]--;
    sets_flip(s, player, type, bit_of(sq));
}

/* A letter of a field as a message shows it: 'X' when printable, else its byte value
 * (a NUL or control byte would cut or garble the message). */
static void field_letter_text(char c, char *out, size_t len) {
    unsigned char u = (unsigned char)c;
    if (u >= 0x20 && u < 0x7f) {
        snprintf(out, len, "'%c'", c);
    } else {
        snprintf(out, len, "byte 0x%02x", u);
    }
}

int board_from_field(GameState *s, const char *field, size_t len, char *err, size_t err_len) {
    static const char COLS[] = "ABCDEFGHIK";
    if (len != SQ_NB) {
        snprintf(err, err_len, "a field has 100 letters, got %zu", len);
        return -1;
    }
    board_clear(s);
    for (int sq = 0; sq < SQ_NB; sq++) {
        char c = field[sq];
        int lake = sq_is_lake(sq);
        char name[4], letter[16];
        snprintf(name, sizeof(name), "%c%c", COLS[sq_col(sq)], "123456789:"[sq_row(sq)]);
        field_letter_text(c, letter, sizeof(letter));
        if (lake != (c == '_')) {
            snprintf(err, err_len, "square %s (letter %d) must be %s, got %s", name, sq + 1,
                     lake ? "a lake '_'" : "a piece or 'A'", letter);
            return -1;
        }
        if (c == '_' || c == 'A') continue;
        if (c < 'B' || c > 'Y') {
            snprintf(err, err_len, "square %s (letter %d) has %s, expected A, _, B-Y", name,
                     sq + 1, letter);
            return -1;
        }
        int player = c <= 'M' ? RED : BLUE;
        int type = c - (player == RED ? 'B' : 'N');
        if (board_place(s, player, type, sq) < 0) {
            snprintf(err, err_len, "more than %d pieces for %s", MAX_PIECES,
                     player == RED ? "red" : "blue");
            return -1;
        }
    }
    return 0;
}

void board_to_field(const GameState *s, char *out) {
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = s->board[sq];
        if (cell == CELL_LAKE) {
            out[sq] = '_';
        } else if (cell == CELL_EMPTY) {
            out[sq] = 'A';
        } else {
            int id = cell - 1;
            out[sq] = (char)((piece_owner(id) == RED ? 'B' : 'N') + s->piece_type[id]);
        }
    }
}

int board_sets_match(const GameState *s) {
    GameState sets;
    memset(&sets, 0, sizeof(sets));
    for (int id = 0; id < PIECE_ID_NB; id++) {
        if (s->piece_sq[id] != SQ_NONE) sets_flip(&sets, piece_owner(id), s->piece_type[id], bit_of(s->piece_sq[id]));
    }
    return memcmp(sets.occupied, s->occupied, sizeof(sets.occupied)) == 0 &&
           memcmp(sets.scouts, s->scouts, sizeof(sets.scouts)) == 0 &&
           memcmp(sets.fixed, s->fixed, sizeof(sets.fixed)) == 0;
}

int board_validate(const GameState *s, char *err, size_t err_len) {
    uint8_t on_board[PLAYER_NB][PIECE_TYPE_NB] = {{0}};
    uint8_t movable[PLAYER_NB] = {0};
    for (int p = 0; p < PLAYER_NB; p++) {
        if (s->placed[p] > MAX_PIECES) {
            snprintf(err, err_len, "player %d has %d pieces, at most %d", p, s->placed[p], MAX_PIECES);
            return -1;
        }
    }
    for (int id = 0; id < PIECE_ID_NB; id++) {
        int p = piece_owner(id), used = id - p * MAX_PIECES < s->placed[p];
        int sq = s->piece_sq[id], type = s->piece_type[id];
        if (!used) {
            if (sq != SQ_NONE || type != 0 || s->piece_flags[id] != 0) {
                snprintf(err, err_len, "piece %d was never placed but has data", id);
                return -1;
            }
            continue;
        }
        if (type >= PIECE_TYPE_NB || (s->piece_flags[id] & ~PIECE_FLAGS_ALL)) {
            snprintf(err, err_len, "piece %d has type %d or flags %d out of range", id, type,
                     s->piece_flags[id]);
            return -1;
        }
        /* Flags play can give: only movable pieces move, and a move shows only what the
         * piece is (a Scout, a Captain, or one of the two), so a state never shows a
         * piece as something it is not. */
        uint8_t flags = s->piece_flags[id];
        int moved = (flags & PIECE_MOVED) != 0;
        if ((moved && (type == BOMB || type == FLAG)) ||
            ((flags & PIECE_SCOUTED) && (type != SCOUT || !moved)) ||
            ((flags & PIECE_CAPTAIN_SHOWN) && (type != CAPTAIN || !moved)) ||
            ((flags & PIECE_SCOUT_OR_CAPTAIN) && ((type != SCOUT && type != CAPTAIN) || !moved))) {
            snprintf(err, err_len, "piece %d has flags %d that its type %d cannot have", id, flags, type);
            return -1;
        }
        if (sq == SQ_NONE) continue;
        if (sq >= SQ_NB || s->board[sq] != id + 1) {
            snprintf(err, err_len, "piece %d claims square %d, which does not hold it", id, sq);
            return -1;
        }
        on_board[p][type]++;
        if (type != BOMB && type != FLAG) movable[p]++;
    }
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = s->board[sq];
        if ((cell == CELL_LAKE) != sq_is_lake(sq)) {
            snprintf(err, err_len, "square %d: lakes must be exactly the 8 lake squares", sq);
            return -1;
        }
        if (cell == CELL_EMPTY || cell == CELL_LAKE) continue;
        if (cell > PIECE_ID_NB || s->piece_sq[cell - 1] != sq) {
            snprintf(err, err_len, "square %d holds cell %d, which is not a piece standing there", sq, cell);
            return -1;
        }
    }
    if (memcmp(on_board, s->on_board, sizeof(on_board)) != 0 || memcmp(movable, s->movable, sizeof(movable)) != 0) {
        snprintf(err, err_len, "piece counts do not match the board");
        return -1;
    }
    if (s->to_move > 1 || s->done > 1 || s->winner > NO_WINNER || s->end_reason >= END_REASON_NB ||
        (!s->done && (s->winner != NO_WINNER || s->end_reason != END_NONE))) {
        snprintf(err, err_len, "turn or result fields out of range");
        return -1;
    }
    for (int p = 0; p < PLAYER_NB; p++) {
        const Streak *st = &s->streak[p];
        /* A line move's counts sit on the 9 boundaries of its row or column; a turning
         * move's count in crossed[0], its two squares in line < other. The run is the
         * largest count. */
        int turning = st->axis == 2, largest = 0, stray = 0;
        for (int b = 0; b < BOARD_SIZE - 1; b++) {
            if (st->crossed[b] > largest) largest = st->crossed[b];
            if (turning && b > 0 && st->crossed[b]) stray = 1;
        }
        int bad = st->axis > 2 || st->run != largest || stray ||
                  (turning ? st->line >= st->other || st->other >= SQ_NB : st->line >= BOARD_SIZE || st->other);
        if (st->piece == SQ_NONE ? st->run != 0 || largest != 0 : st->piece >= PIECE_ID_NB || bad) {
            snprintf(err, err_len, "two-square run of player %d out of range", p);
            return -1;
        }
    }
    uint64_t hash = 0;
    for (int id = 0; id < PIECE_ID_NB; id++) {
        if (s->piece_sq[id] != SQ_NONE) hash ^= zobrist[piece_owner(id)][s->piece_type[id]][s->piece_sq[id]];
    }
    if (hash != s->hash) {
        snprintf(err, err_len, "position hash does not match the board");
        return -1;
    }
    if (!board_sets_match(s)) {
        snprintf(err, err_len, "square sets do not match the board");
        return -1;
    }
    if (s->phase > PHASE_DEPLOY || (s->phase == PHASE_RESCUE && (s->rescuer >= PIECE_ID_NB ||
                                                                 piece_owner(s->rescuer) != s->to_move))) {
        snprintf(err, err_len, "phase or rescue phase fields out of range");
        return -1;
    }
    for (int p = 0; p < PLAYER_NB; p++) {
        if (s->rescues[p] > RESCUE_LIMIT ||
            (s->first_rescuer[p] != SQ_NONE && (s->first_rescuer[p] >= PIECE_ID_NB ||
                                                piece_owner(s->first_rescuer[p]) != p))) {
            snprintf(err, err_len, "rescue counts of player %d out of range", p);
            return -1;
        }
    }
    const Chase *c = &s->chase;
    /* Bits name the pieces a side has placed; squares and ids are in range. */
    int chased_side = 1 - c->chaser;
    uint64_t chased_placed = c->chaser > 1 ? 0 : s->placed[chased_side] >= 64 ? ~0ull : (1ull << s->placed[chased_side]) - 1;
    int bad_chase = c->active > 1 || c->count > CHASE_POSITIONS ||
                    (c->active && (c->chaser > 1 || c->last_piece >= PIECE_ID_NB ||
                                   piece_owner(c->last_piece) != c->chaser || c->last_from >= SQ_NB ||
                                   c->count == 0 || c->evaders == 0 || (c->evaders & ~chased_placed)));
    for (int p = 0; p < PLAYER_NB; p++) {
        uint64_t placed_bits = s->placed[1 - p] >= 64 ? ~0ull : (1ull << s->placed[1 - p]) - 1;
        if ((c->threatened[p] & ~placed_bits) ||
            (c->threatened[p] && (c->threat_piece[p] >= PIECE_ID_NB || piece_owner(c->threat_piece[p]) != p ||
                                  c->threat_from[p] >= SQ_NB)))
            bad_chase = 1;
    }
    if (bad_chase) {
        snprintf(err, err_len, "chase fields out of range");
        return -1;
    }
    uint32_t known = s->ply < HISTORY_NB ? s->ply : HISTORY_NB;
    for (uint32_t k = 0; k < known; k++) {
        const HistoryEntry *h = &s->history[(s->ply - 1 - k) % HISTORY_NB];
        if (h->from >= SQ_NB || h->to >= SQ_NB || h->player > 1 || h->attack > 1) {
            snprintf(err, err_len, "move history out of range");
            return -1;
        }
    }
    return 0;
}
