/* castle_binding.h: what the castle game's binding files (castle_game.c, castle_batch.c)
 * share: the settings as Python sees them, a tuple of ints in CASTLE_SETTINGS order. */
#ifndef STRATEGO_CASTLE_BINDING_H
#define STRATEGO_CASTLE_BINDING_H

#include "binding.h"
#include "castle/castle.h"

/* 0, or -1 with ValueError / TypeError naming the setting and its range. */
int castle_settings_parse(PyObject *obj, CastleSettings *cfg);
/* A new tuple, or NULL with an exception. */
PyObject *castle_settings_build(const CastleSettings *cfg);

#endif
