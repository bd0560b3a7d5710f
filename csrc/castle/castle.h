/* castle.h: the 3/4-player castle game (Jumbo's Stratego 4, 1995), its public C API.
 * The rules are docs/castle-rules.md (cited as "CASTLE.md" 1.x and A1-A12, its sections and
 * assumptions); docs/castle.md is the spec of
 * everything this file names: geometry and node numbering, notation, text board, the
 * flat action layout, the settings and what was chosen where the rules are silent.
 *
 * Plain C11, libc only. A game is fixed-size plain data (CastleState, no pointer, no
 * malloc in a step; its size is asserted in castle.c), played under read-only settings
 * (CastleSettings) that every game of a batch may share. The board of a mode is data:
 * castle_geometry(mode) returns tables built once from the drawings of CASTLE.md A1/A2.
 *
 * A turn is one to three decisions (plies), each one action of one flat space:
 *   MOVE     the seat to move moves a piece (a step, a Scout line, a Captain's two-step
 *            move, with or without an attack), moves a carrier leaving its flag
 *            behind (DROP), or fires a cannon (SHOT);
 *   TAKE     if the moved piece ends, carrying no flag, where lone flags lie, the same
 *            seat takes one of them or leaves them (A8);
 *   RECRUIT  if the turn earned a recruitment chance that can be used (A9), the seat
 *            that earned it (the mover, or a winning defender) recruits a rank of its
 *            removed pile or declines.
 * Then play passes clockwise from the mover to the next seat with a legal move (A11).
 */
#ifndef CASTLE_H
#define CASTLE_H

#include <stddef.h>
#include <stdint.h>

enum {
    CASTLE_SEATS_MAX = 4,
    CASTLE_PIECES = 20,                              /* a seat's pieces (A3) */
    CASTLE_SLOTS = CASTLE_SEATS_MAX * CASTLE_PIECES, /* piece ids: seat * 20 + k */
    CASTLE_RANK_MAX = 9,                             /* ranks 1 (Cannon) .. 9 (Marshal) */
    CASTLE_COLS = 15,                                /* columns A..O */
    CASTLE_ROWS_MAX = 15,                            /* rows 1..15, row 1 north */
    CASTLE_CELLS = CASTLE_COLS * CASTLE_ROWS_MAX,    /* cell = (row - 1) * 15 + column */
    CASTLE_NODES_MAX = 146,                          /* 144 spaces + ring + turret (A1) */
    CASTLE_NEIGHBOURS_MAX = 13,                      /* the ring: 12 spaces + the turret */
    CASTLE_LINE_MAX = 14,
    CASTLE_ACTIONS_MAX = 3456, /* >= every mode's action count (4p: 3443); a multiple of 64 */
    CASTLE_NONE = 0xFF,        /* no piece, no seat, no node */
    CASTLE_TEXT_MAX = 4096,    /* castle_to_text's longest output, NUL included */
};

/* The ranks (A3): 9 Marshal x1, 8 General x1, 7 Major x2, 6 Captain x3, 5 Lieutenant x3,
 * 4 Sergeant x3, 3 Scout x4, 2 Spy x1, 1 Cannon x2. Piece k of a seat (k = slot % 20)
 * always has rank CASTLE_SLOT_RANK[k]; a setup chooses where each slot stands. */
enum { CASTLE_CANNON = 1, CASTLE_SPY = 2, CASTLE_SCOUT = 3, CASTLE_CAPTAIN = 6, CASTLE_MARSHAL = 9 };
extern const uint8_t CASTLE_SLOT_RANK[CASTLE_PIECES];
extern const uint8_t CASTLE_RANK_COUNT[CASTLE_RANK_MAX + 1];

typedef enum { CASTLE_FFA4, CASTLE_TEAMS4, CASTLE_FFA3, CASTLE_MODE_NB } CastleMode;
typedef enum { CASTLE_PHASE_MOVE, CASTLE_PHASE_TAKE, CASTLE_PHASE_RECRUIT, CASTLE_PHASE_NB } CastlePhase;

/* Why a game ended; 0 while it runs. */
typedef enum {
    CASTLE_END_NONE,
    CASTLE_END_TURRET, /* a piece carried its own flag onto the turret (A4, A11) */
    CASTLE_END_STUCK,  /* no seat has a legal move: a draw (A11) */
    CASTLE_END_CAP,    /* the ply cap (setting max_plies): a draw, terminated by rule */
    CASTLE_END_NB
} CastleEnd;

/* The settings: every assumption of CASTLE.md that is a choice. One list; the struct,
 * the defaults, the range checks and the Python metadata (_core.CASTLE_SETTINGS) derive
 * from it. X(name, min, max, default, meaning). */
#define CASTLE_SETTINGS(X)                                                                             \
    X(mode, 0, 2, 0, "0 ffa4 (4 seats alone), 1 teams4 (N+S v E+W), 2 ffa3 (A2's board, 3 seats)")     \
    X(first_seat, 0, 3, 0, "the seat that moves first (the youngest player; below the seat count)")    \
    X(cannon_over_lakes, 0, 1, 1, "A7: a cannon's shot may pass over lakes")                           \
    X(flag_recruit_owner, 0, 1, 0, "A9 case 2: 0 the capturer recruits, 1 the captured flag's owner") \
    X(scout_line_attack, 0, 1, 1, "A5: a Scout may attack at the end of a line")                       \
    X(recruit_public, 0, 1, 1, "A9: a recruited piece's rank is shown to every seat")                  \
    X(back_and_forth, 1, 50, 5, "A10: most moves in a row of one piece between the same two nodes")    \
    X(abandon, 0, 1, 1, "A8: a carrier may move leaving its flag behind (DROP actions)")               \
    X(max_plies, 0, 1000000, 3000, "a draw after this many plies (decisions); 0: no cap")

typedef struct {
#define CASTLE_SETTING_FIELD(name, lo, hi, def, doc) int32_t name;
    CASTLE_SETTINGS(CASTLE_SETTING_FIELD)
#undef CASTLE_SETTING_FIELD
} CastleSettings;

typedef struct {
    const char *name, *doc;
    int32_t lo, hi, def;
} CastleSettingInfo;

enum {
#define CASTLE_SETTING_COUNT(name, lo, hi, def, doc) +1
    CASTLE_SETTING_NB = 0 CASTLE_SETTINGS(CASTLE_SETTING_COUNT)
#undef CASTLE_SETTING_COUNT
};
extern const CastleSettingInfo CASTLE_SETTING_INFO[CASTLE_SETTING_NB];

CastleSettings castle_settings_default(void);
/* 0, or -1 with the first problem in err ("back_and_forth must be in [1, 50], got 0"). */
int castle_settings_check(const CastleSettings *cfg, char *err, size_t err_len);

/* ------------------------------------------------------------------ geometry (data) */

/* Action kinds, in the order of their blocks in the flat space (docs/castle.md). */
typedef enum {
    CASTLE_ACT_MOVE,    /* from -> to: a step, a Scout line, a Captain's two steps; may attack */
    CASTLE_ACT_DROP,    /* a carrier's step to an empty neighbour, leaving its flag (A8) */
    CASTLE_ACT_SHOT,    /* a cannon's shot, from -> to exactly 3 cells away (A7) */
    CASTLE_ACT_TAKE,    /* take the lone flag of seat `to` (A8) */
    CASTLE_ACT_LEAVE,   /* leave the lone flags where they lie */
    CASTLE_ACT_RECRUIT, /* recruit a piece of rank `to` (A9) */
    CASTLE_ACT_NO_RECRUIT,
    CASTLE_ACT_NB
} CastleActionKind;

typedef struct {
    uint8_t kind, from, to; /* TAKE: to = seat; RECRUIT: to = rank */
    uint8_t between[2];     /* SHOT: the two cells passed over (cell indices) */
    uint8_t over_lake;      /* SHOT: 1 if a cell passed over is a lake */
    uint8_t dir;            /* SHOT: the direction, 0..3 = N E S W */
} CastleAction;

typedef struct {
    int mode, seats, rows;     /* rows: 15 (4p) or 12 (3p) */
    int spaces;                /* ordinary spaces: nodes 0 .. spaces-1, row-major */
    int ring, turret, nodes;   /* ring = spaces, turret = spaces + 1, nodes = spaces + 2 */
    char cell_kind[CASTLE_CELLS];     /* ' ' off board, '.' space, '~' lake, 'O' ring, 'T' turret */
    uint8_t cell_node[CASTLE_CELLS];  /* node of a cell (ring cells: ring), or NONE */
    uint8_t node_cell[CASTLE_NODES_MAX]; /* a space's cell; ring: H7... its north-west cell; turret: its cell */
    uint8_t zone[CASTLE_NODES_MAX];   /* the seat whose start zone holds the node, or NONE */
    uint8_t degree[CASTLE_NODES_MAX];
    uint8_t neighbour[CASTLE_NODES_MAX][CASTLE_NEIGHBOURS_MAX]; /* ascending node order */
    uint8_t line_len[CASTLE_NODES_MAX][4];                  /* N E S W, ordinary spaces only */
    uint8_t line[CASTLE_NODES_MAX][4][CASTLE_LINE_MAX];
    uint8_t recruit_node[CASTLE_SEATS_MAX]; /* the middle space of each seat's zone (R) */
    uint8_t flag_node[CASTLE_SEATS_MAX];    /* the flag start space (F) */
    uint8_t zone_nodes[CASTLE_SEATS_MAX][CASTLE_PIECES]; /* a zone's spaces but R, node order */
    /* The flat action space (docs/castle.md "Actions"). */
    int actions;
    int move_base, drop_base, shot_base, take_base, leave_action, recruit_base, no_recruit_action;
    CastleAction action[CASTLE_ACTIONS_MAX];
    int16_t move_index[CASTLE_NODES_MAX][CASTLE_NODES_MAX]; /* (from, to) -> MOVE action, or -1 */
    int16_t drop_index[CASTLE_NODES_MAX][CASTLE_NEIGHBOURS_MAX]; /* (from, k-th neighbour) -> DROP */
    int16_t shot_index[CASTLE_NODES_MAX][4];                 /* (from, direction) -> SHOT, or -1 */
} CastleGeometry;

/* The tables of a mode (ffa4 and teams4 share A1's board), built on first use; call
 * castle_init() once before threads start. */
void castle_init(void);
const CastleGeometry *castle_geometry(int mode);

/* ------------------------------------------------------------------ the state */

typedef struct {
    uint64_t rng;                            /* the game's own stream (rng.h): random setups */
    uint8_t board[CASTLE_NODES_MAX];         /* slot on the node, or NONE */
    uint8_t node[CASTLE_SLOTS];              /* node of a slot, NONE if removed or unused */
    uint8_t carry[CASTLE_SLOTS];             /* seat whose flag the slot carries, or NONE */
    uint8_t known[CASTLE_SLOTS];             /* bit s: seat s knows the slot's rank (A12) */
    uint8_t flag_node[CASTLE_SEATS_MAX];     /* where each flag is (with its carrier, or alone) */
    uint8_t flag_carrier[CASTLE_SEATS_MAX];  /* slot carrying it, or NONE: a lone flag */
    uint8_t flag_abandoned[CASTLE_SEATS_MAX];/* lone because its carrier left it on purpose (A8) */
    uint8_t slider[CASTLE_SEATS_MAX];        /* 0..5 between turns (A9) */
    uint8_t removed[CASTLE_SEATS_MAX][CASTLE_RANK_MAX + 1]; /* removed pieces by rank (public) */
    /* A10: the last piece each seat moved, the two nodes it went between, how often. */
    uint8_t rep_slot[CASTLE_SEATS_MAX], rep_a[CASTLE_SEATS_MAX], rep_b[CASTLE_SEATS_MAX];
    uint8_t rep_count[CASTLE_SEATS_MAX];
    uint8_t mode, seats, phase;
    uint8_t to_move;     /* the seat that decides now */
    uint8_t mover;       /* the seat whose turn it is (play goes on clockwise from it) */
    uint8_t take_node;   /* TAKE: where the moved piece stands */
    uint8_t chance_seat; /* a recruitment chance earned this turn, or NONE */
    uint8_t done, winner, end_reason; /* winner: the seat that crowned, NONE for a draw */
    uint8_t last_action_kind;
    uint8_t reserved[2];
    uint32_t ply;        /* decisions played */
    uint32_t turn;       /* MOVE decisions played */
} CastleState;

/* A new game of cfg's mode: random setups drawn from s->rng (which the caller seeds with
 * rng_seed_stream; it is kept and advanced), sliders 0, cfg->first_seat to move. */
void castle_reset(CastleState *s, const CastleSettings *cfg);
/* An empty board of cfg's mode (no piece anywhere, flags nowhere): the start of a
 * position built piece by piece (castle_setup_seat, castle_text_parse). */
void castle_clear(CastleState *s, const CastleSettings *cfg);
/* Places `seat`'s 20 pieces: ranks[k] on geometry zone_nodes[seat][k]; the piece on the
 * flag start space carries the seat's flag (CASTLE.md 1.3). 0, or -1 with err when ranks
 * are not A3's pieces. */
int castle_setup_seat(CastleState *s, int seat, const uint8_t ranks[CASTLE_PIECES], char *err, size_t err_len);
/* A random setup of one seat from s->rng. */
void castle_setup_random(CastleState *s, int seat);
/* After pieces were placed by hand: the seat to move (cfg->first_seat if it can move,
 * else the next that can), or the game's end when nobody can. */
void castle_start(CastleState *s, const CastleSettings *cfg);

/* 0 if every field agrees with every other and with cfg (a state from a pickle or a
 * save is checked before any rule reads it); -1 with the first problem in err. */
int castle_state_check(const CastleState *s, const CastleSettings *cfg, char *err, size_t err_len);

static inline int castle_rank(int slot) { return CASTLE_SLOT_RANK[slot % CASTLE_PIECES]; }
static inline int castle_seat_of(int slot) { return slot / CASTLE_PIECES; }
/* Partners (teams4): opposite seats. A seat is its own partner in no mode. */
static inline int castle_partners(const CastleState *s, int a, int b) {
    return s->mode == CASTLE_TEAMS4 && a != b && (a & 1) == (b & 1);
}
/* A rival: any other seat but a partner (A6: teammates are never targets). */
static inline int castle_rivals(const CastleState *s, int a, int b) { return a != b && !castle_partners(s, a, b); }
/* Whether `seat` knows the rank of the piece `slot` (A12). */
static inline int castle_known(const CastleState *s, int seat, int slot) { return (s->known[slot] >> seat) & 1; }

/* ------------------------------------------------------------------ play */

/* The legal actions of the seat to decide (none once the game is over): ascending into
 * out (CASTLE_ACTIONS_MAX entries); returns their number. */
int castle_legal_list(const CastleState *s, const CastleSettings *cfg, int16_t *out);
/* The same as a byte mask of geometry->actions entries (1 legal, 0 not). */
void castle_legal_mask(const CastleState *s, const CastleSettings *cfg, uint8_t *mask);
/* The same packed 8 actions a byte, action a in bit a % 8 of byte a / 8 (mask_bits.h's
 * order), (geometry->actions + 7) / 8 bytes, the bits past the last action zero. */
void castle_legal_bits(const CastleState *s, const CastleSettings *cfg, uint8_t *bits);
/* Whether `seat` has a legal MOVE-phase action (a move or a shot) now. */
int castle_has_move(const CastleState *s, const CastleSettings *cfg, int seat);
/* 0 if `action` is legal now; else why not, in err ("F8-F9: the Captain on F8 carries a
 * flag and moves one space"), and -1. */
int castle_check(const CastleState *s, const CastleSettings *cfg, int action, char *err, size_t err_len);
/* Plays a legal action (castle_check first when unsure: an illegal one is undefined). */
void castle_apply(CastleState *s, const CastleSettings *cfg, int action);

/* Team of a seat in teams4 (0: N+S, 1: E+W); in the free-for-all modes the seat itself. */
static inline int castle_team(const CastleState *s, int seat) { return s->mode == CASTLE_TEAMS4 ? (seat & 1) : seat; }
/* Whether `seat` won a finished game (its own crowning, or in teams4 its partner's). */
static inline int castle_seat_won(const CastleState *s, int seat) {
    return s->done && s->winner != CASTLE_NONE && castle_team(s, s->winner) == castle_team(s, seat);
}

/* ------------------------------------------------------------------ notation and text */

/* Names: seat letters n e s w (3p: n e w), nodes "F8", "ring", "turret". */
char castle_seat_letter(int mode, int seat);
int castle_seat_from_letter(int mode, char letter); /* or -1 */
void castle_node_name(const CastleGeometry *g, int node, char out[8]);
int castle_node_parse(const CastleGeometry *g, const char *text, size_t len); /* or -1 */
/* An action in the notation (docs/castle.md): "D4-D8", "D4xD5", "F8-ring", "F8-F9 drop",
 * "D8*ring", "take e", "leave", "recruit 7", "recruit none". The attack mark x depends on
 * the position: it is written when the destination holds a piece now. */
void castle_action_name(const CastleState *s, int action, char out[24]);
/* The action a notation names (x and - are both accepted for a MOVE), or -1 with err. */
int castle_action_parse(const CastleState *s, const char *text, char *err, size_t err_len);

/* The text board (docs/castle.md "Text board"): the full board (viewer = -1) or what
 * `viewer` may know; returns the length written (< CASTLE_TEXT_MAX). */
int castle_to_text(const CastleState *s, int viewer, char *out, size_t out_len);
/* A position from a full text board; cfg->mode and the header's mode must agree. 0, or
 * -1 with the line and what was wrong in err. */
int castle_from_text(CastleState *s, const CastleSettings *cfg, const char *text, char *err, size_t err_len);

const char *castle_end_name(int reason);
const char *castle_phase_name(int phase);
const char *castle_mode_name(int mode);

#endif
