/* castle_view.h: what one seat of a castle game may know, written as the codes of castle_observe.h.
 * The only reader of a CastleState for observations (docs/castle.md "Observation"). */
#ifndef CASTLE_VIEW_H
#define CASTLE_VIEW_H

#include "castle.h"
#include "castle_observe.h"

/* Builds the frames once (and the geometry): call before threads start. */
void castle_view_init(void);

/* Writes seat's view of s as CASTLE_CODES_BYTES codes (castle_observe.h): its own ranks, the
 * ranks it knows of others' pieces (A12, castle_known), and what is public: positions,
 * flags and carriers, sliders, removed piles, the phase and who decides. castle_view_init
 * must have run. */
void castle_view_codes(const CastleState *s, const CastleSettings *cfg, int seat, uint8_t *codes);

/* A seat's place seen from `observer` (0 self, 1 left, 2 across, 3 right): 3-player
 * seats keep their compass places (N, E, W). */
int castle_view_place(int mode, int observer, int seat);

#endif
