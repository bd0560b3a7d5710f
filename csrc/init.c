#include "init.h"

#include "board.h"
#include "moves.h"
#include "observe.h"

void stratego_init(void) {
    board_init();
    moves_init();
    observe_init();
}
