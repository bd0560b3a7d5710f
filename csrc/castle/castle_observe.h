/* castle_observe.h: a seat's observation of the castle game (docs/castle.md "Observation"):
 * the compact codes and the planes they expand to, their layout and channel names.
 *
 * The information wall. Only castle_view.c reads a CastleState (castle_view_codes): it writes
 * the codes, which hold exactly what the seat may know (A12: ranks through
 * castle_known only). This header does not include castle.h, and castle_observe.c, which turns
 * codes into planes, sees codes only: the planes cannot reach a hidden rank.
 *
 * The frame. Each seat sees the 15x15 grid turned so that its own zone is at the bottom
 * (N turned 180 degrees, E a quarter turn clockwise, W a quarter turn anticlockwise, S as
 * drawn). Seats are named by where they sit from the observer: self, left (the next
 * seat clockwise), across, right. The 3-player board is the 4-player grid without the
 * south zone (rows 13-15 off the board, G10 H10 I10 lakes), so its seats keep their
 * compass places: the absent south seat is one relative place ("missing") whose planes
 * stay empty. The castle (ring and turret) is the grid's centre, the same in every turn.
 *
 * Codes (CASTLE_CODES_BYTES a view):
 *   0..224  a code per frame cell: 0 off the board, 1 lake, 2 an empty node cell (a
 *           space, a ring cell, the turret), 3 + 2 * (rank - 1) + revealed an own piece
 *           (revealed: every seat knows its rank), 21 + 10 * (place - 1) + rank another
 *           seat's piece (rank 0 while the observer does not know it). A piece on the
 *           ring shows on the ring's 8 cells.
 *   then    the values CASTLE_CODE_* below (places relative to the observer, positions
 *           a frame cell, CASTLE_POS_RING for the ring's cells, CASTLE_POS_NONE).
 */
#ifndef CASTLE_OBSERVE_H
#define CASTLE_OBSERVE_H

#include <stdint.h>

enum {
    CASTLE_OBS_SIDE = 15,
    CASTLE_OBS_CELLS = CASTLE_OBS_SIDE * CASTLE_OBS_SIDE,
    CASTLE_OBS_PLACES = 4, /* self, left, across, right */
    CASTLE_OBS_RANKS = 9,
    CASTLE_OBS_VERSION = 1,
    CASTLE_POS_RING = 254, /* a position: the ring's 8 cells */
    CASTLE_POS_NONE = 255,
};

/* Cell codes. */
enum {
    CASTLE_CELL_OFF = 0,
    CASTLE_CELL_LAKE = 1,
    CASTLE_CELL_EMPTY = 2,
    CASTLE_CELL_OWN = 3,    /* + 2 * (rank - 1) + revealed */
    CASTLE_CELL_OTHER = 21, /* + 10 * (place - 1) + rank (0 unknown) */
    CASTLE_CELL_CODES = 51,
};

/* The values after the cells: offsets into a view's codes. */
enum {
    CASTLE_CODE_MISSING = CASTLE_OBS_CELLS, /* the absent seat's place (3p), 0 in 4p */
    CASTLE_CODE_TEAMS,                      /* 1 in teams4 (the partner sits across) */
    CASTLE_CODE_PHASE,                      /* 0 move, 1 take, 2 recruit */
    CASTLE_CODE_TO_MOVE,                    /* the place of the seat deciding now */
    CASTLE_CODE_MOVER,                      /* the place of the seat whose turn it is */
    CASTLE_CODE_TAKE,                       /* TAKE: the moved piece's position, else NONE */
    CASTLE_CODE_PROGRESS,                   /* 255 * ply / max_plies (0 without a cap) */
    CASTLE_CODE_FLAG_POS,                   /* 4: each place's flag's position */
    CASTLE_CODE_FLAG_STATE = CASTLE_CODE_FLAG_POS + 4, /* 4: CASTLE_FLAG_* */
    CASTLE_CODE_SLIDER = CASTLE_CODE_FLAG_STATE + 4,   /* 4: sliders 0..5 */
    CASTLE_CODE_REMOVED = CASTLE_CODE_SLIDER + 4,      /* 4 x 9: removed pieces by rank */
    CASTLE_CODES_BYTES = CASTLE_CODE_REMOVED + CASTLE_OBS_PLACES * CASTLE_OBS_RANKS,
};

/* A flag's state in the codes. */
enum { CASTLE_FLAG_ABSENT, CASTLE_FLAG_CARRIED, CASTLE_FLAG_LONE, CASTLE_FLAG_ABANDONED };

/* Planes: channel numbers (names in CASTLE_OBS_CHANNEL_NAMES). */
enum {
    CASTLE_CH_OWN = 0,            /* 9: own pieces by rank 1..9 */
    CASTLE_CH_OWN_REVEALED = 9,   /* own piece whose rank every seat knows */
    CASTLE_CH_OTHER = 10,         /* 3 x 10: left, across, right: unknown, then ranks 1..9 */
    CASTLE_CH_EMPTY = 40,
    CASTLE_CH_LAKE,
    CASTLE_CH_RING,
    CASTLE_CH_TURRET,
    CASTLE_CH_ZONE,               /* 4: each place's start zone */
    CASTLE_CH_RECRUIT = CASTLE_CH_ZONE + 4,   /* 4: each place's recruitment space */
    CASTLE_CH_CARRIED = CASTLE_CH_RECRUIT + 4, /* 4: where each place's flag is carried */
    CASTLE_CH_LONE = CASTLE_CH_CARRIED + 4,   /* 4: where each place's flag lies alone */
    CASTLE_CH_ABANDONED = CASTLE_CH_LONE + 4, /* a lone flag there was left on purpose (A8) */
    CASTLE_CH_TAKE,                           /* TAKE: where the moved piece stands */
    CASTLE_CH_SLIDER,                         /* 4: sliders (0..5, every cell) */
    CASTLE_CH_REMOVED = CASTLE_CH_SLIDER + 4, /* 4 x 9: removed counts (every cell) */
    CASTLE_CH_PHASE = CASTLE_CH_REMOVED + 36, /* 3: move, take, recruit (one-hot) */
    CASTLE_CH_TO_MOVE = CASTLE_CH_PHASE + 3,  /* 4: the place deciding now (one-hot) */
    CASTLE_CH_MOVER = CASTLE_CH_TO_MOVE + 4,  /* 4: the place whose turn it is */
    CASTLE_CH_TEAMS = CASTLE_CH_MOVER + 4,    /* 1 in every cell in teams4 */
    CASTLE_CH_PROGRESS,                       /* ply progress 0..255 */
    CASTLE_OBS_CHANNELS,
};
enum { CASTLE_PLANES_BYTES = CASTLE_OBS_CHANNELS * CASTLE_OBS_CELLS };

extern const char *const CASTLE_OBS_CHANNEL_NAMES[CASTLE_OBS_CHANNELS];

/* The board planes of a cell code: CASTLE_CELL_PLANES[code] lists the channels (below
 * CASTLE_CH_RING) the code sets, 255-terminated (at most 2). */
extern const uint8_t CASTLE_CELL_PLANES[CASTLE_CELL_CODES][3];

/* What the frame looks like apart from the pieces, for each value of the codes'
 * `missing` (0: the 4-player board; 1..3: the 3-player board with the absent seat at
 * that place): built from the geometry once (castle_view.c: geometry is public). */
typedef struct {
    uint8_t zone[CASTLE_OBS_CELLS];    /* the place whose zone holds the cell, or NONE */
    uint8_t recruit[CASTLE_OBS_CELLS]; /* the place whose recruitment space it is, or NONE */
} CastleObsFrame;

/* The frames, indexed by `missing`; castle_init() must have run. */
const CastleObsFrame *castle_obs_frames(void);

/* The ring's 8 frame cells and the turret's (the grid's centre in every frame). */
extern const uint8_t CASTLE_RING_CELLS[8];
enum { CASTLE_TURRET_CELL = 7 * CASTLE_OBS_SIDE + 7 };

/* The planes (CASTLE_PLANES_BYTES, channels first, uint8) of a view's codes. */
void castle_obs_expand(const uint8_t *codes, uint8_t *planes);

#endif
