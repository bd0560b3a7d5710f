"""Training pairs (stratego.records.pairs) and `stratego pairs`: each recorded decision with the
decider's observation and mask, tested on the Gravon archive and random games."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego import cli
from stratego.history import make_record
from stratego.records.pairs import save_pairs, training_pairs
from stratego.records import RecordError, iter_records, write_jsonl

from conftest import GRAVON, GRAVON_DIR, needs_gravon

# The archive's games with the classic action space (Ultimate Lightning has its own).
CLASSIC = [r for r in iter_records(GRAVON_DIR) if r.game_type != "ultimate lightning"] if GRAVON_DIR.is_dir() else []


@needs_gravon
def test_archive_pairs_are_legal_decisions_seen_by_their_player():
    records = CLASSIC[:40]
    pairs = training_pairs(records)
    n = len(pairs["action"])
    assert n == sum(len(r.moves) for r in records)
    assert pairs["obs"].shape == (n,) + stratego.Game(seed=0).observation().shape
    assert pairs["mask"].shape == (n, 1800) and pairs["mask"].dtype == np.bool_
    # The recorded action is legal in the mask of every pair.
    assert pairs["mask"][np.arange(n), pairs["action"]].all()
    # Red and blue alternate in these records, red first.
    assert (pairs["player"] == pairs["step"] % 2).all()
    # The observation is Game.observation of the decider at that point of the game.
    from stratego.records import replay
    for i in range(0, n, 97):
        game = replay(records[pairs["game"][i]]).replay(int(pairs["step"][i]))
        assert game.to_move == pairs["player"][i]
        assert (game.observation(int(pairs["player"][i])) == pairs["obs"][i]).all()
        assert (game.action_mask() == pairs["mask"][i]).all()


@needs_gravon
def test_archive_ultimate_lightning_pairs_hold_rescues():
    records = [r for r in iter_records(GRAVON_DIR) if r.game_type == "ultimate lightning"]
    pairs = training_pairs(records, players=(0,))
    assert (pairs["player"] == 0).all() and pairs["mask"].shape[1] == 2801
    assert (pairs["action"] >= stratego.actions.RESCUE_ACTION_BASE).sum() >= 1
    assert pairs["mask"][np.arange(len(pairs["action"])), pairs["action"]].all()


def test_either_players_view_and_observation_settings():
    game = stratego.Game("barrage", seed=4)
    while not game.done:
        game.play(game.bot_move("random"))
    record = game.record()
    blue = training_pairs([record], players=(1,), history_k=2, dtype="float32")
    red = training_pairs([record], players=(0,))
    both = training_pairs([record])
    assert len(blue["action"]) + len(red["action"]) == len(both["action"]) == len(record.actions)
    assert (blue["player"] == 1).all() and blue["obs"].dtype == np.float32
    i = 3
    at = game.replay(int(blue["step"][i]))
    assert (at.observation(1, history_k=2, dtype="float32") == blue["obs"][i]).all()
    codes = training_pairs([record], obs_format="codes", belief=True, mask_format="bits")
    assert codes["obs"].dtype == np.uint8 and codes["belief"].dtype == np.float32
    assert codes["mask"].shape[1] == stratego.mask_bytes(game.variant.num_actions)
    assert (stratego.unpack_mask(codes["mask"], game.variant.num_actions) == both["mask"]).all()


def test_a_player_without_decisions_gives_empty_arrays_of_the_right_shape():
    record = make_record("classic", stratego.Game(seed=1).field, [], winner=1, reason="resigned")
    pairs = training_pairs([record], players=(1,))
    assert pairs["obs"].shape == (0,) + stratego.Game(seed=0).observation().shape
    assert pairs["mask"].shape == (0, 1800) and pairs["action"].shape == (0,)


def test_bad_requests_are_refused():
    classic = stratego.Game(seed=1).record()
    with pytest.raises(ValueError, match="players must hold 0"):
        training_pairs([classic], players=(2,))
    with pytest.raises(ValueError, match="no records"):
        training_pairs([])
    with pytest.raises(TypeError, match="Records or Gravon"):
        training_pairs(["game.xml"])
    ul = stratego.Game("ultimate-lightning", seed=1).record()
    with pytest.raises(RecordError, match="record 1 .ultimate-lightning. has 2801 actions"):
        training_pairs([classic, ul])
    game = stratego.Game(seed=2)
    game.play(game.legal_actions()[0])
    illegal = next(a for a in range(1800) if a not in game.legal_actions())
    bad = make_record("classic", game.start_field, [game.history[0].action, illegal])
    with pytest.raises(RecordError, match=r"record 0: action 2 \(.*\): illegal move"):
        training_pairs([bad])


def test_cli_writes_pairs(tmp_path, capsys):
    games = []
    for seed in range(3):
        game = stratego.Game("barrage", seed=seed)
        while not game.done:
            game.play(game.bot_move("random"))
        games.append(game)
    source, out = tmp_path / "games.jsonl", tmp_path / "pairs.npz"
    write_jsonl(games, source)
    assert cli.main(["pairs", str(source), "-o", str(out), "--players", "blue"]) == 0
    assert "pairs of blue from 3 games" in capsys.readouterr().out
    with np.load(out) as data:
        assert (data["player"] == 1).all()
        assert len(data["action"]) == sum(len(g.history) // 2 for g in games)
    raw = training_pairs([games[0].record()])
    save_pairs(tmp_path / "raw.npz", raw, compress=False)
    with np.load(tmp_path / "raw.npz") as data:  # loads back the same arrays, by name
        assert set(data.files) == set(raw)
        for name, array in raw.items():
            assert data[name].dtype == array.dtype and (data[name] == array).all(), name
    with pytest.raises(SystemExit):
        cli.main(["pairs", str(tmp_path / "missing.jsonl"), "-o", str(out)])
    assert "not a regular file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["pairs", str(source), "-o", str(out), "--history-k", "99"])
    assert "history_k" in capsys.readouterr().err


@needs_gravon
def test_cli_reads_a_folder_of_gravon_records(tmp_path, capsys):
    out = tmp_path / "p.npz"
    assert cli.main(["pairs", str(GRAVON_DIR / "barrage"), "-o", str(out), "--obs-format", "codes"]) == 0
    assert f"from {GRAVON['by_type']['barrage']} games" in capsys.readouterr().out


def _count_plays(monkeypatch) -> list[int]:
    """Counts Game.play calls (every replay plays each action through it)."""
    calls = [0]
    play = stratego.Game.play

    def counted(self, move):
        calls[0] += 1
        return play(self, move)

    monkeypatch.setattr(stratego.Game, "play", counted)
    return calls


@needs_gravon
def test_a_folder_of_gravon_records_is_replayed_once(tmp_path, monkeypatch, capsys):
    """stratego pairs replays each record once; load_game replays only the game asked for."""
    folder = tmp_path / "games"
    folder.mkdir()
    chosen = CLASSIC[:3]
    for i, record in enumerate(chosen):
        (folder / f"{i}.xml").write_bytes(open(record.path, "rb").read())
    calls = _count_plays(monkeypatch)
    assert cli.main(["pairs", str(folder), "-o", str(tmp_path / "p.npz")]) == 0
    assert calls[0] == sum(len(r.moves) for r in chosen)
    from stratego.viewing.viewer import load_game
    calls[0] = 0
    game = load_game(folder, 2)
    assert calls[0] == len(chosen[2].moves) == len(game.history)


def test_the_arrays_are_made_once_not_stacked_from_copies():
    """Peak memory stays near the arrays' own size: no list of per-decision arrays
    copied into a second, stacked one (docs/records.md "Training pairs")."""
    import tracemalloc

    games = []
    for seed in range(6):
        game = stratego.Game("barrage", seed=seed)
        while not game.done and game.ply < 400:
            game.play(game.bot_move("random"))
        games.append(game.record())
    tracemalloc.start()
    try:
        pairs = training_pairs(games)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size = sum(a.nbytes for a in pairs.values())
    assert size > 5_000_000  # large enough that the arrays dominate
    assert peak < 1.3 * size, (peak, size)
