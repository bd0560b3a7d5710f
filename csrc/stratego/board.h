/* board.h: the state of one game, as fixed-size plain data (no pointers, no malloc),
 * so a batch is one array of these and a clone is a memcpy. */
#ifndef STRATEGO_BOARD_H
#define STRATEGO_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "squareset.h"
#include "types.h"

/* The two-square rule's memory for one player (repetition.h): the piece that moved
 * last, the line of its move, and for each boundary of that line how many of the
 * player's latest moves in a row (by that piece, along that line) crossed it. The run
 * is the largest of these counts: the longest tail of moves sharing a boundary. */
typedef struct {
    uint8_t piece; /* piece id, or SQ_NONE when no run is open */
    uint8_t axis;  /* 0: moves along a row, 1: along a column, 2: a turning move */
    uint8_t line;  /* which row or column; axis 2: the lower of the move's two squares */
    uint8_t other; /* axis 2: the higher square; 0 otherwise */
    uint8_t run;   /* the largest of crossed[] */
    uint8_t crossed[BOARD_SIZE - 1]; /* boundary b lies between cells b and b+1; axis 2: [0] */
} Streak;

/* The chasing rule's memory (chase.h). Each player's latest move, if it threatened
 * (ended next to enemy pieces without attacking), is kept as a possible first threat of
 * a chase; the chase in progress keeps every position after its chaser's moves since
 * its first threat. An attack ends any chase, and a game with the chasing rule has a
 * no-attack cap of at most 2 * CHASE_POSITIONS plies (rules_validate), so a chase has
 * at most CHASE_POSITIONS positions: nothing is forgotten. */
typedef struct {
    uint64_t threatened[PLAYER_NB]; /* bit i: the opponent's piece first id + i stands next to the piece */
    uint64_t threat_hash[PLAYER_NB]; /* the position after that move */
    uint8_t threat_piece[PLAYER_NB]; /* the piece that made it */
    uint8_t threat_from[PLAYER_NB];  /* and the square it came from */
    uint8_t active;
    uint8_t chaser;        /* player who chases */
    uint8_t last_piece;    /* the chaser's piece that moved last in the chase */
    uint8_t last_from;     /* the square it came from */
    uint8_t count;         /* positions stored */
    uint64_t evaders;      /* bit i: the chased side's piece first id + i evaded in this chase */
    uint64_t positions[CHASE_POSITIONS];
} Chase;

/* One recorded ply, in absolute squares. */
typedef struct {
    uint8_t from;
    uint8_t to;
    uint8_t player;
    uint8_t attack; /* 1 if the move attacked a piece */
} HistoryEntry;

typedef struct GameState {
    uint8_t board[SQ_NB];                 /* CELL_EMPTY, CELL_LAKE or 1 + piece id */
    uint8_t piece_type[PIECE_ID_NB];      /* PieceType of each piece id */
    uint8_t piece_sq[PIECE_ID_NB];        /* its square, SQ_NONE once captured or unused */
    uint8_t piece_flags[PIECE_ID_NB];     /* PIECE_MOVED, PIECE_REVEALED, ... (types.h) */
    uint8_t on_board[PLAYER_NB][PIECE_TYPE_NB]; /* pieces of each type still on the board */
    uint8_t movable[PLAYER_NB];           /* pieces on the board that can move */
    uint8_t placed[PLAYER_NB];            /* piece ids handed out so far */
    uint8_t to_move;
    uint8_t done;
    uint8_t winner;                       /* RED, BLUE or NO_WINNER */
    uint8_t end_reason;                   /* EndReason */
    uint8_t phase;                        /* PHASE_MOVE, or PHASE_RESCUE: to_move places a piece */
    uint8_t rescuer;                      /* piece whose move opened the rescue phase */
    uint8_t rescues[PLAYER_NB];           /* rescues made by each player */
    uint8_t first_rescuer[PLAYER_NB];     /* piece that made a player's first rescue, or SQ_NONE */
    uint32_t ply;                         /* plies played (no cap may mean many) */
    uint32_t plies_since_attack;
    Streak streak[PLAYER_NB];
    HistoryEntry history[HISTORY_NB];     /* ring: ply k is at k % HISTORY_NB */
    uint64_t hash;                        /* Zobrist hash of the pieces (owner, type, square) */
    uint64_t rng;                         /* this game's stream for new setups */
    /* The board again as sets of squares, kept in step with board[] by the board_*
     * functions below, so moves_fast.c finds the moves of all pieces of a kind at once. */
    SquareSet occupied[PLAYER_NB];        /* each player's pieces */
    SquareSet scouts[PLAYER_NB];          /* each player's Scouts */
    SquareSet fixed[PLAYER_NB];           /* each player's Bombs and Flags: never move */
    /* Last: only games under the chasing rule read it, and the hot fields above stay
     * in the same cache lines. */
    Chase chase;
} GameState;

_Static_assert(sizeof(GameState) == 1512, "GameState layout changed: update the docs and the fuzz state corpus");
_Static_assert(sizeof(GameState) <= 2048, "a game's state must stay within 2 KB");

static inline int piece_owner(int id) { return id / MAX_PIECES; }
static inline int sq_row(int sq) { return sq / BOARD_SIZE; }
static inline int sq_col(int sq) { return sq % BOARD_SIZE; }

/* Builds the Zobrist keys and the empty board. Idempotent; call once before any thread
 * plays (stratego_init does). */
void board_init(void);

/* The Zobrist key of a piece of `player` and `type` on `sq`. */
uint64_t board_zobrist(int player, int type, int sq);

/* Moves piece `id`, a movable one (no Bomb or Flag), to the empty square `to` (no
 * combat). */
void board_move(GameState *s, int id, int to);

/* 1 on a lake (types.h, LAKE_SQUARES). */
int sq_is_lake(int sq);

/* An empty board with lakes and no pieces; to_move RED, ply 0. A copy of one that
 * board_init builds: call board_init (stratego_init) first. */
void board_clear(GameState *s);

/* Puts a new piece of `type` for `player` on the empty square `sq`. Returns the piece
 * id, or -1 if the square is not empty or the player has 40 pieces already. */
int board_place(GameState *s, int player, int type, int sq);

/* Reads a 100-letter Gravon field string ('A' empty, '_' lake, 'B'..'M' red,
 * 'N'..'Y' blue). Returns 0, or -1 with a message naming the bad square in err. */
int board_from_field(GameState *s, const char *field, size_t len, char *err, size_t err_len);

/* Writes the 100 letters of the current board (no terminator). */
void board_to_field(const GameState *s, char *out);

/* Puts captured piece `id` back on the empty square `sq` (a rescue). */
void board_return(GameState *s, int id, int sq);

/* Takes a piece off the board (captured). */
void board_remove(GameState *s, int id);

/* 1 if the square sets (occupied, scouts, fixed) equal a recount of the pieces on the
 * board; every piece_sq must be a square or SQ_NONE. */
int board_sets_match(const GameState *s);

/* 0 if s is a consistent state (every index in range, board and piece table agree,
 * counts match): what a state read from outside must pass before any game code runs
 * on it. Otherwise -1 with the first problem in err. */
int board_validate(const GameState *s, char *err, size_t err_len);


#endif
