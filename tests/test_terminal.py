"""`stratego play`, `stratego replay` and `stratego view` as a person uses them: play and
replay through a pseudo-terminal (pexpect), and hostile records through view and
replay: a clear error, and nothing written."""
from __future__ import annotations

import io
import os
import platform
import random
import re
import signal
import sys
import time

import pexpect
import pytest

import stratego
from stratego.cli import main
from stratego.notation import parse_move
from stratego.notation import square_name
from stratego.viewing.terminal import play_game
from stratego.records import write_jsonl
from stratego.viewing.viewer import load_game, result_text

from patience import patience
from test_records import BILLION_LAUGHS, EXTERNAL_ENTITY, FIELD, GOOD, with_moves

TIMEOUT = patience(120)  # seconds a prompt may take on a loaded machine


def _as_a_person_runs_it() -> None:
    # Ctrl-C does what it does for a person at a terminal, even when these tests run in
    # the background (nohup, `cmd &` in a script, a CI runner), where the shell started
    # them with SIGINT ignored: a child inherits that, and Python then installs no
    # KeyboardInterrupt handler, so the Ctrl-C tests would wait forever.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
    return pexpect.spawn(sys.executable, ["-m", "stratego.cli", *args], encoding="utf-8",
                         timeout=TIMEOUT, env=env, dimensions=(50, 200), preexec_fn=_as_a_person_runs_it)


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


# The number of the read system call, as /proc/PID/syscall shows it.
READ_SYSCALL = {"x86_64": 0, "aarch64": 63}.get(platform.machine())


def reading_stdin(pid: int) -> bool | None:
    """Whether process `pid` sleeps in read() on its standard input (Linux's
    /proc/PID/syscall), or None where that cannot be told."""
    try:
        with open(f"/proc/{pid}/syscall") as f:
            fields = f.read().split()
    except OSError:
        return None
    if READ_SYSCALL is None or not fields or not fields[0].isdigit():
        return None
    return int(fields[0]) == READ_SYSCALL and int(fields[1], 16) == 0


def wait_until_reading(child: pexpect.spawn) -> bool:
    """Waits until the child blocks in read() on the terminal; False where this cannot be
    told (not Linux), True once it reads."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        state = reading_stdin(child.pid)
        if state is None:
            return False
        if state:
            return True
        time.sleep(0.01)
    pytest.fail(f"the child never waited for input within {TIMEOUT} s")


def interrupt(child: pexpect.spawn, pattern) -> None:
    """Ctrl-C at a prompt, then `pattern`. CPython's input() writes its prompt before it
    starts to read, and a SIGINT that lands in between only sets a flag that the blocked
    read does not look at (a race a loaded machine widens). So Ctrl-C goes once the child
    is blocked in read(), which the signal interrupts, an event rather than a delay;
    where that cannot be seen, a person's second Ctrl-C after 5 seconds without a trace."""
    if wait_until_reading(child):
        child.sendintr()
        child.expect(pattern)
        return
    child.sendintr()
    if child.expect([pattern, pexpect.TIMEOUT], timeout=patience(5)) == 1:
        child.sendintr()
        child.expect(pattern)


# A barrage game (seed 4) that the random bot loses in 32 of the person's moves when the
# person plays random.Random(0).choice of its legal moves (found by the simulation in
# test_play_a_whole_game_against_the_random_bot).
SEED, HUMAN_MOVES = 4, 32


def simulated(seed: int) -> tuple[stratego.Game, int]:
    game, rng, moves = stratego.Game("barrage", seed=seed), random.Random(0), 0
    while not game.done:
        if game.to_move == 0:
            game.play(rng.choice(game.legal_moves()))
            moves += 1
        else:
            game.play(game.bot_move("random"))
    return game, moves


def test_play_a_whole_game_against_the_random_bot(tmp_path):
    expected, moves = simulated(SEED)
    assert moves == HUMAN_MOVES and expected.done
    saved = tmp_path / "games.jsonl"
    child = spawn("play", "--variant", "barrage", "--bot", "random", "--seed", str(SEED), "--save", str(saved))
    child.expect("You play Red against the random bot")
    rng, played, first = random.Random(0), 0, True
    while True:
        if child.expect([r"Red to move> ", r"Game over\. (.*)\.\r\n"]) == 1:
            break
        board = child.before
        # The person's own view: every blue piece it has not identified is "b?"; at the
        # first prompt none is identified.
        if first:
            blue = re.findall(r"\bb(\S+)", board)
            assert blue and set(blue) <= {"?", "?m"}, board
            child.sendline("hello")
            child.expect(r"bad move 'hello': expected two squares like 'B4-B7'\. Type 'moves'")
            child.sendline("A1-A10")
            child.expect(r"illegal move A1-A.*: ")
            child.expect("Red to move> ")
            child.sendline("help")
            child.expect("resign")
            child.expect("Red to move> ")
            first = False
        child.sendline("moves")
        child.expect(r"moves\r\n(.*)\r\n")
        legal = child.match.group(1).split()
        move = rng.choice(legal)
        child.sendline(move)
        src, dst = parse_move(move)
        child.expect(rf"You play {square_name(src)}[-x]{square_name(dst)}\r\n")
        played += 1
    assert played == HUMAN_MOVES
    assert child.match.group(1) == result_text(expected)
    child.expect("game saved to")
    assert finish(child) == 0
    # The saved record is the game played, and `stratego view` shows it.
    game = load_game(saved)
    assert game.history == expected.history and result_text(game) == result_text(expected)
    assert main(["view", str(saved), "-o", str(tmp_path / "game.html"), "--perspective", "red"]) == 0


def test_play_resign_draw_offer_and_quit():
    child = spawn("play", "--bot", "heuristic", "--seed", "3", "--color", "blue")
    child.expect("You play Blue against the heuristic bot")
    child.expect(r"Red plays [A-K]\d+-[A-K]\d+")  # red moves first: the bot
    child.expect("Blue to move> ")
    child.sendline("draw")
    child.expect("The heuristic bot declines")
    child.expect("Blue to move> ")
    child.sendline("resign")
    child.expect(r"Game over\. Blue resigned: Red wins\.")
    assert finish(child) == 0
    child = spawn("play", "--seed", "3")
    child.expect("Red to move> ")
    child.sendline("quit")
    child.expect("Game left unfinished")
    assert finish(child) == 1
    child = spawn("play", "--seed", "3")
    child.expect("Red to move> ")
    child.sendeof()
    child.expect("Input ended")
    assert finish(child) == 1


def test_the_bot_takes_a_draw_when_it_has_fewer_pieces():
    game = stratego.Game(seed=8)
    while not game.done:  # play on until red has more pieces than blue
        game.play(game.bot_move("heuristic"))
        tokens = game._tokens(None)
        if game.to_move == 0 and sum(t[0] == "r" for t in tokens) > sum(t[0] == "b" for t in tokens):
            break
    assert not game.done
    out = []
    lines = iter(["draw"])
    assert play_game(game, 0, "random", read=lambda prompt: next(lines), write=out.append) == 0
    assert "The random bot accepts the draw." in out
    assert game.end_reason == "agreed_draw" and out[-1] == "Game over. Draw: agreed."


def test_replay_through_a_terminal(tmp_path):
    path = tmp_path / "game.xml"
    path.write_text(GOOD)
    child = spawn("replay", str(path))
    child.expect(r"2 moves\. Red resigned: Blue wins\.")
    child.expect(r"Move 0 of 2\. Red to move\.")
    child.expect(r"\[full\] move 0> ")
    child.sendline("")
    child.expect(r"Move 1 of 2: Red F4-F5\. Blue to move\.")
    child.sendline("v blue")
    child.expect(r"Move 1 of 2")
    board = child.before
    assert not re.search(r"\br[^?\s]", board), board  # blue's view: no red rank
    child.sendline("e")
    child.expect(r"Move 2 of 2: Blue K7-K6\. Red resigned: Blue wins\.")
    child.sendline("9")
    child.expect("no move 9: the game has moves 0 to 2")
    child.sendline("jump")
    child.expect("unknown command 'jump'")
    child.sendline("p")
    child.expect(r"Move 1 of 2")
    child.sendline("q")
    assert finish(child) == 0


FIFO = object()
DIRECTORY = object()
HOSTILE = {
    "billion-laughs": (BILLION_LAUGHS, "DOCTYPE"),
    "external-entity": (EXTERNAL_ENTITY, "DOCTYPE"),
    "truncated": (GOOD[:150], "malformed or truncated"),
    "bad-field": (GOOD.replace(FIELD, FIELD[:99]), "100 letters, got 99"),
    "illegal-move": (with_moves('<move id="1" source="A1" target="A2"/>'), "move 1"),
    "not-utf8": (GOOD.encode("utf-16"), "UTF-8"),
    "binary": (b"\x00\x01\x02garbage", "malformed"),
    "empty": ("", "malformed"),
    "not-xml": ("hello", "malformed"),
    "jsonl-bad-json": (b'{"format": "stratego-game", "version": 1, \n', "line 1"),
    "jsonl-blank-line": (None, "line 1: a blank line"),
    "jsonl-illegal-move": (None, "illegal"),
    "fifo": (FIFO, "not a regular file"),
    "directory": (DIRECTORY, "has 0 game(s)"),  # a folder of records, empty
}


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("command", ["view", "replay"])
def test_hostile_records_give_a_clear_error_and_write_nothing(name, command, tmp_path, capsys, monkeypatch):
    content, message = HOSTILE[name]
    path = tmp_path / ("record.jsonl" if name.startswith("jsonl") else "record.xml")
    if content is None:  # JSON lines made from a real game, then spoiled
        game = stratego.Game(seed=1)
        game.play(game.legal_moves()[0])
        write_jsonl([game], path)
        line = path.read_text()
        content = "\n" + line if name == "jsonl-blank-line" else line.replace('"moves":["', '"moves":["A1-A2","')
    if content is FIFO:
        os.mkfifo(path)
    elif content is DIRECTORY:
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    out = tmp_path / "game.html"
    argv = [command, str(path)] + (["-o", str(out)] if command == "view" else [])
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("replay asked for a command"))
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert f"stratego {command}: error:" in captured.err  # under its own usage
    assert not out.exists() and captured.out == ""
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_view_writes_the_page_and_refuses_a_missing_file(tmp_path, capsys):
    path = tmp_path / "game.xml"
    path.write_text(GOOD)
    out = tmp_path / "game.html"
    assert main(["view", str(path), "-o", str(out), "--perspective", "red"]) == 0
    page = out.read_text()
    assert "Red resigned: Blue wins" in page and "b?" in page and FIELD not in page
    with pytest.raises(SystemExit):
        main(["view", str(tmp_path / "missing.xml"), "-o", str(tmp_path / "x.html")])
    assert "No such file" in capsys.readouterr().err and not (tmp_path / "x.html").exists()
    with pytest.raises(SystemExit):
        main(["view", str(path), "-o", str(out), "--index", "1"])
    assert "has 1 game(s); expected an index below that, got 1" in capsys.readouterr().err


def test_view_and_replay_a_json_lines_file_by_index(tmp_path, capsys):
    games = []
    for seed in range(3):
        game = stratego.Game("barrage", seed=seed)
        while not game.done and game.ply < 30 + seed:
            game.play(game.bot_move("random"))
        games.append(game)
    path = tmp_path / "games.jsonl"
    write_jsonl(games, path)
    for index, game in enumerate(games):
        assert load_game(path, index).history == game.history
    out = tmp_path / "game.html"
    assert main(["view", str(path), "--index", "2", "-o", str(out)]) == 0
    assert result_text(games[2]) in out.read_text()
    with pytest.raises(SystemExit):
        main(["view", str(path), "--index", "3", "-o", str(tmp_path / "no.html")])
    assert "has 3 game(s)" in capsys.readouterr().err and not (tmp_path / "no.html").exists()
    lines = iter(["e", "q"])
    from stratego.viewing.terminal import replay_game
    printed = []
    assert replay_game(load_game(path, 1), read=lambda prompt: next(lines), write=printed.append) == 0
    assert any(line.startswith(f"Move {games[1].ply} of {games[1].ply}:") for line in printed)


def test_view_a_folder_of_gravon_records_by_index(tmp_path, capsys):
    (tmp_path / "a.xml").write_text(GOOD)
    (tmp_path / "b.xml").write_text(with_moves('<move id="1" source="F4" target="F5"/>'))
    out = tmp_path / "out" / "game.html"
    out.parent.mkdir()
    assert main(["view", str(tmp_path), "--index", "1", "-o", str(out)]) == 0
    assert "Not finished after 1 plies" in out.read_text()  # b.xml: sorted by path
    assert load_game(tmp_path, 0).end_reason == "resigned"


def test_ctrl_c_leaves_play_and_replay_without_a_traceback_and_saves_the_game(tmp_path):
    saved = tmp_path / "games.jsonl"
    child = spawn("play", "--seed", "3", "--save", str(saved))
    child.expect("Red to move> ")
    child.sendline("moves")
    child.expect(r"moves\r\n(.*)\r\n")
    child.sendline(child.match.group(1).split()[0])
    # The prompt after the bot's answer (not the one after the list of moves).
    child.expect(r"Blue plays .*Red to move> ")
    interrupt(child, "Interrupted: the game is left unfinished")
    child.expect(rf"game saved to {re.escape(str(saved))} as game 0 \(stratego view .* --index 0 -o game.html\)")
    assert "Traceback" not in child.before
    assert finish(child) == 1
    game = load_game(saved)
    assert len(game.history) == 2 and not game.done  # the person's move and the bot's
    child = spawn("replay", str(saved))
    child.expect(r"\[full\] move 0> ")
    interrupt(child, pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in child.before


def test_play_saves_a_game_over_before_any_move_under_its_index(tmp_path):
    saved = tmp_path / "games.jsonl"
    for index in (0, 1):
        child = spawn("play", "--seed", "3", "--save", str(saved))
        child.expect("Red to move> ")
        child.sendline("resign")
        child.expect(rf"game saved to {re.escape(str(saved))} as game {index} \(stratego view "
                     rf"{re.escape(str(saved))} --index {index} -o game.html\)")
        assert finish(child) == 0
    game = load_game(saved, 1)
    assert game.history == () and result_text(game) == "Red resigned: Blue wins"


def test_a_random_colour_comes_from_the_seed(monkeypatch, capsys):
    def colour(seed):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(["play", "--color", "random", "--seed", str(seed)]) == 1
        return re.search(r"You play (Red|Blue)", capsys.readouterr().out).group(1)

    colours = [colour(seed) for seed in range(8)]
    assert set(colours) == {"Red", "Blue"}  # both are drawn
    assert [colour(seed) for seed in range(8)] == colours  # and a seed draws its own again
