/* types.h: every enum, count and small constant of the engine.
 *
 * Squares: sq = row * 10 + col. Row 0 is red's back row (Gravon row "1"), row 9 is
 * blue's back row (Gravon row "10", written ":"). Column 0 is Gravon's "A", column 9
 * its "K" (Gravon skips "J"). A 100-letter Gravon field string lists squares in this
 * order, so field[sq] describes square sq.
 */
#ifndef STRATEGO_TYPES_H
#define STRATEGO_TYPES_H

#include <stdint.h>

enum { BOARD_SIZE = 10, SQ_NB = 100, SQ_NONE = 0xFF };

enum { RED = 0, BLUE = 1, PLAYER_NB = 2 };

/* The rotation between absolute squares and the acting player's frame: blue sees the
 * board turned 180 degrees, so both players see their own back row as row 0. Here, not
 * in board.h, because the files behind the information wall (action.h's decoding, the
 * bots) turn squares too. */
static inline int sq_to_frame(int sq, int player) { return player == BLUE ? SQ_NB - 1 - sq : sq; }

/* Piece types in Gravon's letter order (B..M for red, N..Y for blue). For Spy..Marshal
 * the value is the rank in the new numbering (Spy 1, Scout 2, ..., Marshal 10), which
 * is the strength compared in combat. */
typedef enum {
    BOMB = 0,
    SPY = 1,
    SCOUT = 2,
    MINER = 3,
    SERGEANT = 4,
    LIEUTENANT = 5,
    CAPTAIN = 6,
    MAJOR = 7,
    COLONEL = 8,
    GENERAL = 9,
    MARSHAL = 10,
    FLAG = 11,
    PIECE_TYPE_NB = 12
} PieceType;

/* Their names, index = PieceType ("bomb" .. "flag"): observation channels, variant files'
 * [pieces] tables, _core.PIECE_NAMES. Defined in rules.c. */
extern const char *const PIECE_TYPE_NAMES[PIECE_TYPE_NB];

/* At most 40 pieces a side: the setup zone is four rows of ten. Piece ids 0..39 are
 * red's, 40..79 blue's, so the owner is id / MAX_PIECES. */
enum { MAX_PIECES = 40, PIECE_ID_NB = 2 * MAX_PIECES };

/* The 8 lake squares: rows 5-6, columns C-D and G-H in rulebook terms (board.h's
 * sq_is_lake, the views' bare board and _core.LAKE_SQUARES all read this list). They
 * are symmetric under the 180-degree turn, so the list serves both players' frames. */
#define LAKE_SQUARES(X) X(42) X(43) X(46) X(47) X(52) X(53) X(56) X(57)

/* Board cells: 0 empty, CELL_LAKE, otherwise 1 + piece id. */
enum { CELL_EMPTY = 0, CELL_LAKE = 0xFF };

/* Per-piece public facts (what the opponent has seen), kept as bit flags. */
enum {
    PIECE_MOVED = 1 << 0,    /* has moved at least once: cannot be a Bomb or Flag */
    PIECE_REVEALED = 1 << 1, /* its type was shown in a fight */
    PIECE_SCOUTED = 1 << 2,  /* moved farther than any other piece can: it can only be a Scout */
    /* Variants whose Captains move two squares (Ultimate Lightning): */
    PIECE_CAPTAIN_SHOWN = 1 << 3,     /* moved diagonally: it can only be a Captain */
    PIECE_SCOUT_OR_CAPTAIN = 1 << 4,  /* moved two squares straight: a Scout or a Captain */
    PIECE_FLAGS_ALL = PIECE_MOVED | PIECE_REVEALED | PIECE_SCOUTED | PIECE_CAPTAIN_SHOWN | PIECE_SCOUT_OR_CAPTAIN,
    /* Flags that name the piece's type to the opponent. */
    PIECE_IDENTIFIED = PIECE_REVEALED | PIECE_SCOUTED | PIECE_CAPTAIN_SHOWN,
};

/* Directions: up (towards blue's back row), down, left, right. */
enum { DIR_UP = 0, DIR_DOWN = 1, DIR_LEFT = 2, DIR_RIGHT = 3, DIR_NB = 4 };
/* The step of each direction, in rows (up = towards blue's back row) and columns. */
static const int DIR_ROW[DIR_NB] = {1, -1, 0, 0};
static const int DIR_COL[DIR_NB] = {0, 0, -1, 1};
/* ... and in squares (DIR_ROW * BOARD_SIZE + DIR_COL). */
static const int DIR_STEP[DIR_NB] = {BOARD_SIZE, -BOARD_SIZE, -1, 1};
_Static_assert(DIR_DOWN == (DIR_UP ^ 1) && DIR_RIGHT == (DIR_LEFT ^ 1), "opposite directions differ in bit 0");

/* Actions: one flat discrete space in the acting player's frame (the board turned 180
 * degrees for blue). Fixed offsets, whatever the variant; a variant uses a prefix:
 *  - line moves: from any square a move goes along its row or its column, so it has 18
 *    targets: action = from * 18 + k, k < 9 the other squares of the row left to
 *    right, k >= 9 the other squares of the column bottom to top;
 *  - diagonal moves (variants whose Captains move two squares, turning after the
 *    first): DIAG_ACTION_BASE + from * 4 + d, d = 2 * (up) + (right);
 *  - rescues (variants with the rescue rule): RESCUE_ACTION_BASE + type * 50 + h, h the
 *    square of the player's own half (frame rows 0-4) where the piece returns, and
 *    RESCUE_DECLINE to return none. */
enum {
    TARGETS_PER_SQ = 18,
    LINE_ACTION_NB = SQ_NB * TARGETS_PER_SQ,
    DIAG_ACTION_BASE = LINE_ACTION_NB,
    DIAG_ACTION_NB = SQ_NB * 4,
    RESCUE_ACTION_BASE = DIAG_ACTION_BASE + DIAG_ACTION_NB,
    RESCUE_SQ_NB = SQ_NB / 2,
    RESCUE_DECLINE = RESCUE_ACTION_BASE + PIECE_TYPE_NB * RESCUE_SQ_NB,
    ACTION_MAX = RESCUE_DECLINE + 1
};

/* A turn has a move; under the rescue rule it may go on with a rescue. Before the first
 * move of a game whose players deploy their own pieces (rules' deploy, game.h), each
 * turn is one placement: PHASE_DEPLOY, whose actions are the rescue block's "piece type x
 * square of the own half" (RESCUE_ACTION_BASE + type * RESCUE_SQ_NB + h). */
enum { PHASE_MOVE = 0, PHASE_RESCUE = 1, PHASE_DEPLOY = 2 };

/* Rescues a player may make in a game (seed rulebook, tournament rule "Rescue"). */
enum { RESCUE_LIMIT = 2 };

/* Positions a chase can hold (chasing rule, chase.h): one per move of the chaser since
 * the chase's first threat. Every attack ends a chase, and a variant with the chasing
 * rule caps the plies without an attack at 2 * CHASE_POSITIONS (rules_validate), so a
 * chase never has more; 800 bytes of the state. */
enum { CHASE_POSITIONS = 100 };

/* How a game ended. Decided once, in game.c. */
typedef enum {
    END_NONE = 0,
    END_FLAG_CAPTURED = 1,    /* the winner took the flag */
    END_NO_MOVABLE_PIECES = 2, /* a side has no piece left that could move */
    END_NO_LEGAL_MOVE = 3,    /* the player to move has no legal move and loses */
    END_NEITHER_CAN_MOVE = 4, /* neither side can move: draw */
    END_MAX_PLIES = 5,        /* total-ply cap: draw, a truncation */
    END_MAX_PLIES_WITHOUT_ATTACK = 6, /* no attack for too long: draw, a truncation */
    END_ILLEGAL_ACTION = 7,   /* batch setting: the player who sent it loses */
    /* Endings the players decide, not the position (game_concede): recorded human
     * games end so (Gravon result types 3, 4 and 10-14), and people playing do. */
    END_RESIGNED = 8,         /* a player resigned: the other wins */
    END_AGREED_DRAW = 9,      /* both players agreed to a draw */
    END_TIMEOUT = 10,         /* a player lost on time (or by absence): the other wins */
    END_REASON_NB = 11
} EndReason;

/* Winner field: RED, BLUE, or this for a draw / an unfinished game. */
enum { NO_WINNER = 2 };

/* Moves kept in the state for the observation's "last k moves" planes. */
enum { HISTORY_NB = 32 };

#define STRATEGO_UNUSED(x) ((void)(x))

#endif
