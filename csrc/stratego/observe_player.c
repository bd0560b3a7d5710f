#include "observe_player.h"

#include "observe_codes.h"
#include "observe_full.h"
#include "view.h"

int observe_spec_shape(const ObsSpec *spec, int64_t dims[OBS_DIMS_MAX]) {
    if (spec->codes) {
        dims[0] = (int64_t)observe_spec_bytes(spec);
        return 1;
    }
    dims[0] = observe_channels(spec);
    dims[1] = dims[2] = BOARD_SIZE;
    return 3;
}

int observe_belief_shape(int64_t dims[OBS_DIMS_MAX]) {
    dims[0] = PIECE_TYPE_NB;
    dims[1] = dims[2] = BOARD_SIZE;
    return 3;
}

int observe_full_shape(int codes, int64_t dims[OBS_DIMS_MAX]) {
    if (codes) {
        dims[0] = SQ_NB;
        return 1;
    }
    dims[0] = FULL_OBS_CHANNELS;
    dims[1] = dims[2] = BOARD_SIZE;
    return 3;
}

void observe_player_view(const GameState *s, int player, const ObsSpec *spec, uint8_t *out, float *belief) {
    PlayerView view;
    /* Only the plies the encoder shows, and the unidentified pieces' counts only for the
     * belief planes: cheaper to build. */
    if (spec->probabilities) {
        view_build_recent(s, player, spec->history_k, &view);
    } else {
        view_build_lean(s, player, spec->history_k, &view);
    }
    if (!spec->codes) {
        observe_partial(&view, spec, out);
        return;
    }
    observe_codes(&view, spec, out);
    if (spec->probabilities) observe_belief_planes(&view, belief);
}
