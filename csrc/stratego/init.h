/* init.h: one call that builds every table of the engine (move rays, Zobrist keys, the
 * observation encoder's lookups). Idempotent; call it once before any thread plays. */
#ifndef STRATEGO_INIT_H
#define STRATEGO_INIT_H

void stratego_init(void);

#endif
