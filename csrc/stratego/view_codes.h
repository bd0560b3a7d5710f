/* view_codes.h: a player's compact codes (observe_codes.h) written straight from a game.
 *
 * The codes are a function of the player's view; view_codes_write writes the same bytes
 * as building the lean view (view.h) and encoding it (observe_codes), without the
 * PlayerView in between: with AVX2 (cpu.h) each piece's code is computed from its public
 * flags 32 pieces at a time, and each square looks its piece's code up from the board,
 * 32 squares at a time. Like view.c it reads the game behind the information wall's
 * gate: an opponent piece's type is read only where a fight revealed it (the leak tests
 * cover it with the other encoders). The deployment phase and CPUs without AVX2 go
 * through the view.
 */
#ifndef STRATEGO_VIEW_CODES_H
#define STRATEGO_VIEW_CODES_H

#include <stdint.h>

#include "observe_codes.h"

struct GameState;

/* Builds the tables and chooses the AVX2 path where the CPU has it. Idempotent;
 * stratego_init calls it. */
void view_codes_init(void);

/* Writes `player`'s codes of s under spec (spec->codes; no belief planes) into out:
 * observe_spec_bytes(spec) bytes, the same as observe_codes of view_build_lean's view. */
void view_codes_write(const struct GameState *s, int player, const ObsSpec *spec, uint8_t *out);

#endif
