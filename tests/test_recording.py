"""Recording from the batch (issue 16, docs/recording.md): VecEnv(record=True) keeps each
game's start and actions in C and hands the finished games out with pop_records().

Every record is replayed through Game, each action checked legal, and must end where
the batch's game ended (result, length and, where the batch shows it, the last field).
Recording changes no game: the checksums with and without it agree, and the records are
the same for 1 and 2 threads."""
from __future__ import annotations

import struct

import numpy as np
import pytest

import stratego
from stratego.records.recording import IncompleteRecordError

# Short games, so that many end within a few hundred steps.
SHORT = dict(max_plies=150)
VARIANTS = ["classic", "barrage", "seed-tournament", "ultimate-lightning"]  # rescue in the last two


def play(env: stratego.VecEnv, steps: int, check=None) -> list[stratego.records.recording.RecordedGames]:
    """Steps env with random legal actions; after each step pops the records and hands
    (env, records) to check. Returns every RecordedGames popped."""
    popped = []
    for _ in range(steps):
        env.step(env.sample_actions())
        records = env.pop_records()
        if check is not None:
            check(env, records)
        if len(records):
            popped.append(records)
    return popped


def columns(popped) -> dict:
    """Every column of a run's records, joined (offsets made relative to each pop)."""
    names = ["game", "fields", "to_move", "winner", "reason", "plies", "count", "actions"]
    out = {name: np.concatenate([getattr(r, name) for r in popped]) for name in names}
    out["lengths"] = np.concatenate([np.diff(r.offsets) for r in popped])
    return out


def check_same_step(env, records):
    """SAME_STEP: the records of a step are the games that ended in it, in index order,
    with the results the outputs show; each replays to that result and length."""
    ended = np.flatnonzero(env.terminated)
    assert records.game.tolist() == ended.tolist()
    assert (records.winner == env.final_winner[ended]).all()
    assert (records.reason == env.final_reason[ended]).all()
    assert (records.plies == env.final_plies[ended]).all()
    assert records.complete.all()
    for j in range(len(records)):
        game = records.replay(j)
        winner, reason = records.result(j)
        assert game.done and (game.winner, game.end_reason, game.ply) == (winner, reason, records.plies[j])
        assert game.record() == records.record(j)  # the Game's own record of it: the same


@pytest.mark.parametrize("variant", VARIANTS)
def test_records_replay_to_the_batch_results(variant):
    env = stratego.VecEnv(24, variant, seed=7, observations=False, record=True, **SHORT)
    popped = play(env, 260, check_same_step)
    assert sum(len(r) for r in popped) >= 24  # every slot ended a game at least once
    assert env.stats()["games_finished"] == sum(len(r) for r in popped)


def test_rescues_are_recorded_and_replayed():
    """Under the rescue rule rescues and declines are actions of the record: a game that
    has some replays through them (check_same_step replays every game)."""
    env = stratego.VecEnv(32, "seed-tournament", seed=11, observations=False, record=True, **SHORT)
    popped = play(env, 300, check_same_step)
    actions = columns(popped)["actions"]
    assert ((actions >= stratego._core.RESCUE_ACTION_BASE)).any()


@pytest.mark.parametrize("mode", ["next_step", "disabled"])
def test_records_end_on_the_field_the_batch_shows(mode):
    """NEXT_STEP and DISABLED keep a finished game on view: its record replays to that
    very field. DISABLED games are started again with reset_mask."""
    env = stratego.VecEnv(16, seed=3, observations=False, record=True, autoreset_mode=mode, **SHORT)
    seen = 0
    for _ in range(400):
        env.step(env.sample_actions())
        records = env.pop_records()
        assert records.game.tolist() == np.flatnonzero(env.terminated).tolist()
        for j in range(len(records)):
            game = records.replay(j)
            assert game.field == env.game_field(int(records.game[j]))
            assert game.done and game.ply == records.plies[j]
        seen += len(records)
        if mode == "disabled" and env.over.any():
            env.reset(options={"reset_mask": env.over})
    assert seen >= 16


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_bot_replies_are_plies_of_the_record(opponent):
    env = stratego.VecEnv(16, seed=5, observations=False, record=True, opponent=opponent, **SHORT)
    popped = play(env, 120, check_same_step)
    cols = columns(popped)
    # Both colours move in the records (the learner alternates colours by slot).
    assert len(cols["game"]) > 0 and (cols["count"] == cols["plies"]).all()


def test_an_illegal_action_ends_the_record_unplayed():
    env = stratego.VecEnv(4, seed=2, observations=False, record=True, illegal_action="lose", **SHORT)
    env.step(env.sample_actions())
    actions = env.sample_actions().copy()
    mask = env.action_mask[1]
    actions[1] = int(np.flatnonzero(~mask)[0])  # illegal in game 1
    mover = int(env.to_play[1])
    before = env.game_field(1)
    env.step(actions)
    records = env.pop_records()
    assert records.game.tolist() == [1]
    assert records.result(0) == (1 - mover, "illegal_action") and records.count[0] == 1
    game = records.replay(0)  # the first ply only: the illegal one was not played
    assert (game.winner, game.end_reason, game.field) == (1 - mover, "illegal_action", before)


@pytest.mark.parametrize("opponent", [None, "heuristic"])
def test_records_are_the_same_for_one_and_two_threads(opponent):
    runs = []
    for threads in (1, 2):
        env = stratego.VecEnv(64, seed=9, observations=False, record=True, num_threads=threads, opponent=opponent,
                              **SHORT)
        runs.append((columns(play(env, 200)), env.stats()["checksum"]))
    (a, sum_a), (b, sum_b) = runs
    assert sum_a == sum_b
    for name in a:
        assert np.array_equal(a[name], b[name]), name


@pytest.mark.parametrize("variant", ["classic", "seed-tournament"])
def test_recording_changes_no_game(variant):
    stats = []
    for record in (False, True):
        env = stratego.VecEnv(64, variant, seed=4, record=record, **SHORT)
        env.reset(seed=4)
        for _ in range(200):
            env.step(env.sample_actions())
        stats.append(env.stats())
    assert stats[0] == stats[1] and stats[0]["games_finished"] > 0


def test_against_a_bot_recording_changes_no_game():
    stats = []
    for record in (False, True):
        env = stratego.VecEnv(32, seed=4, observations=False, opponent="heuristic", record=record, **SHORT)
        for _ in range(120):
            env.step(env.sample_actions())
        stats.append(env.stats())
    assert stats[0] == stats[1]


def test_reset_abandons_the_games_in_progress():
    env = stratego.VecEnv(8, seed=1, observations=False, record=True, **SHORT)
    for _ in range(20):
        env.step(env.sample_actions())
    assert env.records_waiting == 0  # no game of 150 plies ended in 20 steps
    env.reset(seed=2)
    popped = play(env, 200, check_same_step)
    assert all(r.plies.min() > 0 for r in popped)
    assert env.records_waiting == 0


def test_records_wait_until_popped():
    env = stratego.VecEnv(16, seed=6, observations=False, record=True, **SHORT)
    ended = []
    for _ in range(200):
        env.step(env.sample_actions())
        ended += np.flatnonzero(env.terminated).tolist()
    assert env.records_waiting == len(ended) > 0
    records = env.pop_records()
    assert records.game.tolist() == ended and env.records_waiting == 0
    assert len(env.pop_records()) == 0


def test_a_variant_without_max_plies_needs_a_capacity():
    with pytest.raises(ValueError, match=r"variant 'gravon' has no max_plies.*pass record_plies"):
        stratego.VecEnv(2, "gravon", record=True)
    env = stratego.VecEnv(2, "gravon", record=True, record_plies=5000)
    assert env.record_plies == 5000


def test_a_game_longer_than_its_record_is_flagged_not_cut_silently():
    """gravon has no caps: with a record of 40 actions, longer games go on unchanged
    (the same checksum as without records) and their records say they are incomplete."""
    stats, popped = [], []
    for record in (False, True):
        env = stratego.VecEnv(8, "gravon", seed=2, observations=False, record=record,
                              record_plies=40 if record else None)
        for _ in range(400):
            env.step(env.sample_actions())
            if record:
                r = env.pop_records()
                popped += [r] if len(r) else []
        stats.append(env.stats())
    assert stats[0] == stats[1]
    cols = columns(popped)
    long_games = cols["count"] > 40
    assert long_games.any()
    assert (cols["lengths"] == np.minimum(cols["count"], 40)).all()
    records = next(r for r in popped if not r.complete.all())
    j = int(np.flatnonzero(~records.complete)[0])
    with pytest.raises(IncompleteRecordError, match=r"incomplete: the game played \d+ actions, the record holds 40"):
        records.replay(j)


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(record_plies=100), ValueError, "needs record=True"),
    (dict(record=True, record_plies=0), ValueError, r"record_plies must be in \[1, 1048576\], got 0"),
    (dict(record=True, record_plies=2**20 + 1), ValueError, "record_plies must be in"),
    (dict(record=True, record_plies="100"), TypeError, "record_plies must be an int, got str"),
    (dict(record=True, record_plies=True), TypeError, "record_plies must be an int, got bool"),
    (dict(record=1), TypeError, "record must be a bool, got int"),
])
def test_bad_record_settings(kwargs, error, match):
    with pytest.raises(error, match=match):
        stratego.VecEnv(2, **kwargs)


def test_pop_records_needs_recording():
    env = stratego.VecEnv(2, seed=0)
    with pytest.raises(ValueError, match="does not record its games: make it with record=True"):
        env.pop_records()
    assert env.records_waiting == 0


def test_save_and_load_keep_the_records_of_games_in_progress():
    """A save holds the records of the games in progress: the loaded env hands out the
    same records as the original from then on."""
    a = stratego.VecEnv(16, seed=8, observations=False, record=True, **SHORT)
    play(a, 60)
    blob = a.save_state()
    b = stratego.VecEnv(16, seed=99, observations=False, record=True, **SHORT)
    b.load_state(blob)
    runs = []
    for env in (a, b):
        runs.append(columns(play(env, 200, check_same_step)))
    for name in runs[0]:
        assert np.array_equal(runs[0][name], runs[1][name]), name


def test_save_refused_while_finished_games_wait():
    env = stratego.VecEnv(16, seed=6, observations=False, record=True, **SHORT)
    while env.records_waiting == 0:
        env.step(env.sample_actions())
    with pytest.raises(ValueError, match=r"cannot save: \d+ finished game\(s\) wait to be handed out; "
                                         r"call pop_records\(\) first"):
        env.save_state()
    blob = stratego.VecEnv(16, seed=6, observations=False, record=True, **SHORT).save_state()
    with pytest.raises(ValueError, match="cannot load a save: .* wait to be handed out"):
        env.load_state(blob)
    env.pop_records()
    env.load_state(blob)


@pytest.mark.parametrize("saved,loaded,match", [
    (dict(record=True), dict(), "made with recording, this env does not record"),
    (dict(), dict(record=True), "made without recording, this env records its games"),
    (dict(record=True), dict(record=True, record_plies=300), "records 150 actions a game, this env 300"),
])
def test_save_and_env_must_agree_on_recording(saved, loaded, match):
    blob = stratego.VecEnv(4, seed=1, **SHORT, **saved).save_state()
    env = stratego.VecEnv(4, seed=1, **SHORT, **loaded)
    with pytest.raises(ValueError, match=match):
        env.load_state(blob)


def test_a_record_that_does_not_replay_to_its_game_is_refused():
    env = stratego.VecEnv(4, seed=1, observations=False, record=True, **SHORT)
    for _ in range(10):
        env.step(env.sample_actions())
    blob = bytearray(env.save_state())
    # The actions follow the four sheets at the end: change game 0's first action.
    row = 2 * env.record_plies
    first = len(blob) - 4 * row
    (action,) = struct.unpack_from("=H", blob, first)
    struct.pack_into("=H", blob, first, (action + 1) % stratego._core.LINE_ACTION_NB)
    before = [env.game_field(i) for i in range(4)]
    with pytest.raises(ValueError, match=r"game 0 is corrupt: (the record's action \d+ \(\d+\) is illegal|its record does not replay)"):
        env.load_state(bytes(blob))
    assert [env.game_field(i) for i in range(4)] == before


def test_save_version_names_recording():
    blob = stratego.VecEnv(2, seed=1, record=True, **SHORT).save_state()
    assert struct.unpack_from("=I", blob, 8)[0] == stratego.SAVE_VERSION == 4
    assert struct.unpack_from("=I", blob, 52)[0] == 150  # SaveHeader.record_capacity


# -- datasets: write_dataset and `stratego record` ---------------------------------------
def read_lines(path) -> list[str]:
    import gzip
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return f.read().splitlines()


def test_a_dataset_replays_and_is_the_same_for_any_thread_count(tmp_path):
    from stratego.records.jsonl import iter_jsonl
    from stratego.records.dataset import write_dataset

    files = []
    for threads in (1, 2):
        path = tmp_path / f"games{threads}.jsonl"
        run = write_dataset(path, 30, num_envs=8, num_threads=threads, seed=3, max_plies=120)
        assert run.games == 30 and run.bytes == path.stat().st_size
        files.append(path.read_bytes())
    assert files[0] == files[1]
    records = list(iter_jsonl(tmp_path / "games1.jsonl"))
    assert len(records) == 30
    for record in records:
        game = stratego.Game.from_record(record)  # every move legal, the result as written
        assert game.done and game.record() == record
    assert all(r.variant.rules["max_plies"] == 120 for r in records)


def test_a_dataset_counts_games_by_slot_not_by_speed(tmp_path):
    """Each slot writes its first games: 10 games of 4 slots are 3, 3, 2 and 2 games, the
    first of each slot, whatever their lengths."""
    from stratego.records.dataset import write_dataset

    path = tmp_path / "games.jsonl"
    write_dataset(path, 10, num_envs=4, seed=5, max_plies=120)
    env = stratego.VecEnv(4, seed=5, observations=False, record=True, max_plies=120)
    firsts = {slot: [] for slot in range(4)}
    while any(len(firsts[s]) < (3 if s < 2 else 2) for s in firsts):
        env.step(env.sample_actions())
        records = env.pop_records()
        for j in range(len(records)):
            firsts[int(records.game[j])].append(records.field(j))
    expected = {f for s, fields in firsts.items() for f in fields[:3 if s < 2 else 2]}
    written = {line.split('"field":"')[1][:100] for line in read_lines(path)}
    assert written == expected


def test_cli_record_writes_gzip_and_bot_games(tmp_path, capsys):
    from stratego import cli
    from stratego.records.jsonl import iter_jsonl

    path = tmp_path / "games.jsonl.gz"
    assert cli.main(["record", "--games", "12", "--num-envs", "6", "--variant", "barrage", "--red", "heuristic",
                     "-o", str(path), "--no-progress", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "stratego record: variant barrage, heuristic (red) vs random (blue)" in out and "12 games" in out
    import gzip
    with gzip.open(path, "rb") as f:
        records = list(iter_jsonl(f))
    assert len(records) == 12 and all(stratego.Game.from_record(r).done for r in records)


@pytest.mark.parametrize("argv,message", [
    (["--games", "0"], "argument --games: must be in"),
    (["--games", "5", "--red", "alphago"], "argument --red: invalid choice"),
    (["--games", "5", "--variant", "gravon"], "variant 'gravon' has no max_plies"),
    (["--games", "5", "--variant", "gravon", "--record-plies", "0"], "record_plies must be in"),
])
def test_cli_record_bad_settings(argv, message, tmp_path, capsys):
    from stratego import cli

    path = tmp_path / "games.jsonl"
    with pytest.raises(SystemExit) as exc:
        cli.main(["record", "-o", str(path), "--no-progress", *argv])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_write_dataset_refuses_bad_players_and_counts(tmp_path):
    from stratego.records.dataset import write_dataset

    with pytest.raises(ValueError, match=r"games must be an int >= 1, got 0"):
        write_dataset(tmp_path / "a.jsonl", 0)
    with pytest.raises(ValueError, match=r"blue must be 'random' or one of the bots \['random', 'heuristic', 'pimc'\]"):
        write_dataset(tmp_path / "a.jsonl", 3, blue="minimax")
    assert not (tmp_path / "a.jsonl").exists()


@pytest.mark.parametrize("name", ["games.jsonl", "games.jsonl.gz"])
def test_an_incomplete_record_leaves_no_file_and_names_the_option(name, tmp_path, capsys):
    # gravon has no ply cap: with a record of 20 actions the first game outlives it.
    from stratego import cli
    from stratego.records.dataset import write_dataset

    path = tmp_path / name
    with pytest.raises(IncompleteRecordError, match=r"game 1 of env slot \d+ played \d+ actions, more than the "
                                                    r"record keeps \(record_plies=20\).*--record-plies"):
        write_dataset(path, 3, "gravon", num_envs=2, record_plies=20)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(SystemExit) as exc:
        cli.main(["record", "--games", "3", "--num-envs", "2", "--variant", "gravon", "--record-plies", "20",
                  "-o", str(path), "--no-progress"])
    assert exc.value.code == 2 and "--record-plies" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    write_dataset(path, 3, "gravon", num_envs=2, record_plies=5000, max_plies=300)
    assert [p.name for p in tmp_path.iterdir()] == [name]
