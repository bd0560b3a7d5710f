#include "init.h"

#include "action.h"
#include "board.h"
#include "engine/mask_bits.h"
#include "moves.h"
#include "observe.h"
#include "observe_codes.h"
#include "observe_full.h"
#include "square_geometry.h"
#include "view.h"
#include "view_codes.h"

void stratego_init(void) {
    action_init();
    board_init();
    moves_init();
    mask_bits_init();
    view_init();
    observe_init();
    observe_codes_init();
    view_codes_init();
    observe_full_init();
    square_geometry_init();
}
