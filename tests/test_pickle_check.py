"""A pickled Game of either game binds its parts together (stratego.common.pickle_check): a
pickle spliced from two games' parts is refused naming the fault, a pickle made before
the check loads as before (issue 26, item 5)."""
from __future__ import annotations

import pickle

import pytest

import stratego
from stratego import castle

SPLICED = r"parts do not belong together: its check does not match"


def _classic(seed: int, plies: int) -> stratego.Game:
    game = stratego.Game(seed=seed)
    for _ in range(plies):
        game.play(game.legal_actions()[seed % len(game.legal_actions())])
    return game


def _castle(seed: int, plies: int) -> castle.Game:
    game = castle.Game(seed=seed)
    for _ in range(plies):
        game.play(game.legal_actions()[seed % len(game.legal_actions())])
    return game


class _Pickled:
    """Pickles as the given reduce tuple: a way to write a spliced pickle."""

    def __init__(self, reduced):
        self.reduced = reduced

    def __reduce__(self):
        return self.reduced


def _loads(reduced):
    return pickle.loads(pickle.dumps(_Pickled(reduced)))


@pytest.mark.parametrize("part", ["state", "start", "actions", "numbering", "variant"])
def test_a_classic_pickle_spliced_from_two_games_is_refused(part):
    a, b = _classic(1, 6), _classic(2, 4)
    b.numbering = "old"
    if part == "variant":  # the same rules under another name: the saves load, the check does not
        classic = stratego.load_variant("classic")
        b = stratego.Game(stratego.Variant("other", "", classic.piece_counts, classic.settings), seed=2)
    state_a, state_b = a.__getstate__(), b.__getstate__()
    spliced = {**state_a, part: state_b[part]}
    game = stratego.Game.__new__(stratego.Game)
    with pytest.raises(ValueError, match=SPLICED):
        game.__setstate__(spliced)
    assert not hasattr(game, "_state")  # a refused pickle sets nothing
    whole = pickle.loads(pickle.dumps(a))
    assert (whole.field, whole.history, whole.start_field) == (a.field, a.history, a.start_field)


def test_a_classic_pickle_without_a_check_loads_as_before_and_a_bad_check_is_refused():
    a = _classic(3, 5)
    state = a.__getstate__()
    old = {k: v for k, v in state.items() if k != "check"}
    game = stratego.Game.__new__(stratego.Game)
    game.__setstate__(old)
    assert (game.field, game.history) == (a.field, a.history)
    for check in ("0" * 32, 7, None):
        with pytest.raises(ValueError, match=SPLICED):
            stratego.Game.__new__(stratego.Game).__setstate__({**state, "check": check})


@pytest.mark.parametrize("part", ["settings", "state", "_start", "_moves", "_bot_rng"])
def test_a_castle_pickle_spliced_from_two_games_is_refused(part):
    a, b = _castle(1, 6), _castle(2, 3)
    b.bot_move("random")
    if part == "settings":
        b = castle.Game(seed=1, back_and_forth=9)
        for action in a._core.legal_actions()[:0]:
            b.play(action)
    fa, (settings_a, state_a), extra_a = a.__reduce__()
    _fb, (settings_b, state_b), extra_b = b.__reduce__()
    if part == "settings":
        reduced = (fa, (settings_b, state_a), extra_a)
    elif part == "state":
        reduced = (fa, (settings_a, state_b), extra_a)
    else:
        reduced = (fa, (settings_a, state_a), {**extra_a, part: extra_b[part]})
    with pytest.raises(ValueError, match=SPLICED):
        _loads(reduced)
    whole = pickle.loads(pickle.dumps(a))
    assert (whole.to_text(), whole.history, whole._bot_rng) == (a.to_text(), a.history, a._bot_rng)


def test_a_castle_pickle_without_a_check_loads_as_before_and_bad_parts_are_refused():
    a = _castle(4, 5)
    fa, args, extra = a.__reduce__()
    old = _loads((fa, args, {k: v for k, v in extra.items() if k != "check"}))
    assert (old.to_text(), old.history) == (a.to_text(), a.history)
    with pytest.raises(ValueError, match="not a pickled stratego.castle.Game"):
        _loads((fa, args, {**extra, "_colour": 1}))
    with pytest.raises(ValueError, match="its moves"):
        _loads((fa, args, {**extra, "_moves": [1, 2]}))


def test_a_pickled_variant_is_checked_as_a_new_one():
    variant = stratego.load_variant("classic")
    assert pickle.loads(pickle.dumps(variant)) == variant
    bad = _Pickled((stratego.Variant, ("mine", "", variant.piece_counts, {**variant.settings, "rescu": 1})))
    with pytest.raises(ValueError, match=r"unknown rule setting 'rescu' \(did you mean 'rescue'\?\)"):
        pickle.loads(pickle.dumps(bad))


def test_a_pickle_of_another_shape_is_refused_saying_what_was_expected():
    state = _classic(5, 2).__getstate__()
    for bad, got in (({**state, "colour": 1}, "'check', 'colour'"), ({k: v for k, v in state.items() if k != "start"},
                                                                    "'actions', 'check', 'numbering'"),
                     ([1], "got list")):
        with pytest.raises(ValueError, match=r"not a pickled stratego.Game: expected a dict of variant, state and "
                                             r"numbering.*" + got):
            stratego.Game.__new__(stratego.Game).__setstate__(bad)
    fa, args, extra = _castle(5, 2).__reduce__()
    with pytest.raises(ValueError, match=r"expected a dict of _start, _moves and _bot_rng \(and check\); "
                                         r"got \['_bot_rng', '_colour'"):
        _loads((fa, args, {**extra, "_colour": 1}))
