"""`stratego serve` over HTTP (Starlette's test client and httpx): whole games against
the bots, the information wall (two games that differ only in what the person cannot
see give byte-identical answers), fifty games at once, bad and hostile requests, hand
placement, a bot over its time limit, records.

Heavy: needs the web extra (starlette, uvicorn, httpx). Outside CI a missing extra
skips with the reason; in CI (CI=true) it fails.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
import warnings

import pytest

import stratego
from stratego.cli import main
from stratego.records import iter_jsonl
from stratego.notation import square_name
from stratego.viewing.svg import COLORS

pytestmark = pytest.mark.heavy

try:
    import httpx
    with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works as well
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from stratego.web.app import MAX_BODY_BYTES, create_app
except ImportError as exc:  # the web extra is missing
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"CI: the web extra is not installed (pip install -e '.[web]'): {exc}") from None
    pytest.skip(f"the web extra is not installed (pip install -e '.[web]'): {exc}", allow_module_level=True)


@pytest.fixture
def app(tmp_path):
    return create_app(save=tmp_path / "games.jsonl", move_seconds=30)


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


def new_game(client, **options) -> tuple[str, dict]:
    r = client.post("/api/games", json={"opponent": "random", **options})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], data["state"]


def pick(state: dict, rng: random.Random) -> str:
    """A legal move of the state: an attack when there is one, else mostly a step towards
    the nearest piece of the other side (games end sooner than at random)."""
    legal, board, you = state["legal"], state["board"], state["you"]
    moves = [m for m in legal if isinstance(m[0], int)]
    attacks = [m for m in moves if board[m[1]][0] not in ".~" + you]
    if attacks or not moves or rng.random() < 0.2:
        return rng.choice(attacks or legal)[2]
    theirs = [sq for sq, t in enumerate(board) if t[0] not in ".~" + you]

    def gain(m):  # how much nearer the move takes the piece to the closest of theirs
        near = lambda sq: min(abs(sq // 10 - t // 10) + abs(sq % 10 - t % 10) for t in theirs)
        return near(m[0]) - near(m[1])
    best = max(gain(m) for m in moves)
    return rng.choice([m for m in moves if gain(m) == best])[2]


def play_to_end(client, game_id: str, state: dict, rng: random.Random, limit: int = 3000) -> dict:
    for _ in range(limit):
        if state["phase"] == "over":
            return state
        assert state["your_turn"]
        r = client.post(f"/api/games/{game_id}/move", json={"move": pick(state, rng)})
        assert r.status_code == 200, r.text
        state = r.json()["state"]
    raise AssertionError("the game did not end")


def test_a_classic_game_against_the_random_bot_to_its_end_and_its_record(client, app, tmp_path):
    game_id, state = new_game(client, seed=5)
    assert len(game_id) >= 32 and state["phase"] == "play" and state["you"] == "r"
    # The person's view: no blue rank it has not identified.
    assert all(t in (".", "~~") or t[0] == "r" or t in ("b?", "b?m") for t in state["board"])
    assert client.get(f"/api/games/{game_id}/record").status_code == 409  # it would show both setups
    state = play_to_end(client, game_id, state, random.Random(1))
    assert state["result"] and state["reason"] and state["record"]
    assert any(t[1] != "?" for t in state["board"] if t[0] == "b")  # the full board, now
    full = client.get(f"/api/games/{game_id}").json()
    assert full["move_count"] == len(full["moves"]) == len(state["moves"]) + 0 or full["move_count"] > 0
    r = client.get(f"/api/games/{game_id}/record")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    saved = (tmp_path / "games.jsonl").read_text()
    assert saved == r.text  # the finished game was appended to the save file, whole
    (record,) = list(iter_jsonl(tmp_path / "games.jsonl"))
    replayed = stratego.Game.from_record(record)  # it replays to the same end
    assert (replayed.end_reason, replayed.winner) == (state["reason"], {"r": 0, "b": 1, None: None}[state["winner"]])
    assert len(replayed.history) == full["move_count"]
    # ... and `stratego view` opens it.
    assert main(["view", str(tmp_path / "games.jsonl"), "-o", str(tmp_path / "g.html")]) == 0
    page = client.get(f"/api/games/{game_id}/viewer")
    assert page.status_code == 200 and "game-data" in page.text


def _swap_bomb_and_flag(field: str) -> tuple[str, int, int]:
    """`field` with blue's flag and one of blue's bombs changing places (neither ever
    moves: the random bot's moves are the same in both games)."""
    flag = field.index("Y")
    bomb = field.index("N")
    letters = list(field)
    letters[flag], letters[bomb] = "N", "Y"
    return "".join(letters), flag, bomb


def test_two_games_differing_only_in_hidden_identities_give_identical_bytes(client, app):
    """The information wall over HTTP: red plays two games whose blue setups differ only
    in where blue's flag and a bomb stand; every answer is the same to the byte (the
    move lists, fights, captured pieces and legal moves included) until the game ends
    and the full board is shown."""
    store = app.state.store
    seed = 17
    start = stratego.Game(seed=seed)
    swapped, flag, bomb = _swap_bomb_and_flag(start.field)
    ids = []
    for field in (start.field, swapped):
        game_id, _ = new_game(client, seed=seed)
        store.games[game_id].game = stratego.Game.from_field(field, 0, seed=seed)
        ids.append(game_id)
    a, b = ids
    rng = random.Random(3)
    answers = 0
    for ply in range(150):
        ra, rb = client.get(f"/api/games/{a}"), client.get(f"/api/games/{b}")
        assert ra.content == rb.content, f"ply {ply}"
        state = ra.json()
        if state["phase"] == "over":
            break
        # Never at the two swapped squares: a fight there shows the rank, as it should.
        legal = [m for m in state["legal"] if m[1] not in (flag, bomb)]
        if not legal:
            break
        move = rng.choice(legal)[2]
        ra = client.post(f"/api/games/{a}/move?since={ply}", json={"move": move})
        rb = client.post(f"/api/games/{b}/move?since={ply}", json={"move": move})
        assert ra.status_code == rb.status_code == 200
        assert ra.content == rb.content, f"after move {move} at ply {ply}"
        answers += 1
    assert answers > 50
    # The test can tell them apart: once over, the full board differs.
    ra, rb = client.post(f"/api/games/{a}/resign"), client.post(f"/api/games/{b}/resign")
    if ra.status_code == 200:
        assert ra.json()["state"]["board"] != rb.json()["state"]["board"]


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def _play_async(client: "httpx.AsyncClient", seed: int) -> tuple[str, list[str], dict]:
    rng = random.Random(seed)
    r = await client.post("/api/games", json={"opponent": "random", "seed": seed,
                                              "color": "red" if seed % 2 else "blue"})
    assert r.status_code == 201, r.text
    game_id, state = r.json()["id"], r.json()["state"]
    mine = []  # the moves this client made, in order
    seen = list(state["moves"])
    while state["phase"] != "over":
        move = pick(state, rng)
        r = await client.post(f"/api/games/{game_id}/move?since={len(seen)}", json={"move": move})
        assert r.status_code == 200, r.text
        state = r.json()["state"]
        seen += state["moves"]
        mine.append(move)
    mover = state["you"]
    assert [m["move"].replace("x", "-") for m in seen if m["mover"] == mover] == mine  # nothing of another game
    return game_id, mine, state


@pytest.mark.deep  # the load test, 11 s: the deep layer (.ci/run)
def test_fifty_games_at_once_each_to_its_end(tmp_path):
    """Fifty clients at once, each its own classic game against the random bot on one
    server, all to their end: every game holds exactly its own moves, its record is a
    whole game that replays, and the server's memory is flat afterwards (a few games
    first, so that what every server loads once is loaded)."""
    app = create_app(save=tmp_path / "games.jsonl", move_seconds=30, max_games=55)
    store = app.state.store

    async def round_of(seeds):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await asyncio.gather(*(_play_async(client, s) for s in seeds))

    asyncio.run(round_of(range(1000, 1005)))
    rss = _rss_bytes()
    games = asyncio.run(round_of(range(50)))
    grown = _rss_bytes() - rss
    assert grown < 40 * 2**20, f"the server grew by {grown / 2**20:.1f} MiB over 50 games"
    assert len(store.games) <= 55  # finished games made room for new ones
    assert len({game_id for game_id, _, _ in games}) == 50
    records = list(iter_jsonl(tmp_path / "games.jsonl"))[5:]
    assert len(records) == 50 and all(state["phase"] == "over" for _, _, state in games)
    # Each record is one client's game: its moves and its end.
    ends = sorted((state["move_count"], state["reason"]) for _, _, state in games)
    assert sorted((len(r.actions), r.reason) for r in records) == ends
    for record in records:
        stratego.Game.from_record(record)


def test_hand_placement_then_fill_the_rest_at_random(client):
    game_id, state = new_game(client, setup="hand", color="blue", seed=2)
    assert state["phase"] == "deploy" and state["your_turn"] and state["hand"]["F"] == 1
    zone = {m[1] for m in state["legal"]}
    assert zone == set(range(60, 100)) - {42, 43, 46, 47, 52, 53, 56, 57}  # blue's four rows
    assert all(m[0] in state["hand"] for m in state["legal"])
    r = client.post(f"/api/games/{game_id}/move", json={"move": "F@A10"})
    assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert state["board"][90] == "bF" and "F" not in state["hand"]
    # A piece outside the own zone, and one not in hand: refused, nothing changes.
    for bad in ("S@A1", "F@B10"):
        r = client.post(f"/api/games/{game_id}/move", json={"move": bad})
        assert r.status_code == 400 and "illegal" in r.json()["error"]
    assert client.get(f"/api/games/{game_id}").json() == state
    assert client.post(f"/api/games/{game_id}/draw").status_code == 409
    r = client.post(f"/api/games/{game_id}/fill")
    state = r.json()["state"]
    assert state["phase"] == "play" and state["board"][90] == "bF"
    # Red (the bot) moved first once the pieces stood; it is blue's turn.
    assert state["your_turn"] and state["move_count"] == 1 and state["moves"][0]["mover"] == "r"
    assert client.post(f"/api/games/{game_id}/fill").status_code == 409


def test_bad_and_hostile_requests_get_4xx_and_change_nothing(client, app):
    game_id, state = new_game(client, seed=9)
    other_id, other = new_game(client, seed=10)
    before = client.get(f"/api/games/{other_id}").content

    def refused(method, path, status, text, **kw):
        r = client.request(method, path, **kw)
        assert r.status_code == status, (path, r.status_code, r.text)
        assert text in r.json()["error"], r.json()
        assert client.get(f"/api/games/{game_id}").json() == state  # nothing changed

    refused("GET", "/api/games/nope", 404, "no game with id")
    refused("GET", "/api/games/" + "x" * 5000, 404, "no game with id")
    refused("POST", f"/api/games/{game_id[:-1]}/move", 404, "no game", json={"move": "A4-A5"})
    refused("POST", f"/api/games/{game_id}/move", 400, "not JSON", content=b"{move")
    refused("POST", f"/api/games/{game_id}/move", 400, '{"move"', json=["A4-A5"])
    refused("POST", f"/api/games/{game_id}/move", 400, '{"move"', json={"move": "A4-A5", "x": 1})
    refused("POST", f"/api/games/{game_id}/move", 400, "move must be a str", json={"move": 1234})
    refused("POST", f"/api/games/{game_id}/move", 400, "move must be a str", json={"move": "A4-A5" * 10})
    refused("POST", f"/api/games/{game_id}/move", 400, "illegal move", json={"move": "A4-A9"})
    blue_piece = next(square_name(sq) for sq, t in enumerate(state["board"]) if t.startswith("b"))
    refused("POST", f"/api/games/{game_id}/move", 400, "", json={"move": f"{blue_piece}-A5"})
    refused("POST", f"/api/games/{game_id}/move", 400, "", json={"move": "zz"})
    refused("POST", f"/api/games/{game_id}/move", 413, "at most",
            content=b'{"move": "' + b"A" * (MAX_BODY_BYTES * 4) + b'"}')
    refused("POST", f"/api/games/{game_id}/move", 413, "at most", content=b"x" * 10,
            headers={"content-length": "99999999999"})
    refused("GET", f"/api/games/{game_id}?since=-1", 400, "since")
    refused("GET", f"/api/games/{game_id}/record", 409, "once the game is over")
    refused("POST", "/api/games", 400, "variant must be one of", json={"variant": "../../etc/passwd"})
    refused("POST", "/api/games", 400, "opponent must be one of", json={"opponent": "stockfish"})
    refused("POST", "/api/games", 400, "unknown field", json={"field": "A" * 100})
    refused("POST", "/api/games", 400, "seed", json={"seed": -1})
    refused("POST", "/api/games", 400, "no human setups", json={"variant": "duel", "setup": "human"})
    assert client.get(f"/api/games/{game_id}/move").status_code == 405
    assert client.get(f"/api/games/{other_id}").content == before  # the other game never changed
    # Not the person's turn: the bot (blue) to move.
    store = app.state.store
    store.games[game_id].game = stratego.Game.from_field(store.games[game_id].game.field, 1)
    r = client.post(f"/api/games/{game_id}/move", json={"move": "A4-A5"})
    assert r.status_code == 409 and "not your turn" in r.json()["error"]
    # Over: moves, resigning and draws are refused.
    assert client.post(f"/api/games/{other_id}/resign").json()["state"]["reason"] == "resigned"
    for action in ("move", "resign", "draw", "fill"):
        r = client.post(f"/api/games/{other_id}/{action}", json={"move": "A4-A5"} if action == "move" else None)
        assert r.status_code == 409 and "over" in r.json()["error"], action


def test_a_bot_over_its_time_limit_loses_on_time_and_the_server_goes_on(tmp_path):
    def slow(obs, mask):
        time.sleep(1.5)
        return mask.argmax(axis=1)

    app = create_app(policies={"slow": slow}, move_seconds=0.2)
    with TestClient(app) as client:
        t = time.monotonic()
        game_id, state = new_game(client, opponent="slow", color="blue")
        assert time.monotonic() - t < 1.4  # the answer did not wait for the bot
        assert state["phase"] == "over" and state["reason"] == "timeout" and state["winner"] == "b"
        assert client.get("/api/options").json()["opponents"] == [*stratego.BOTS, "slow"]


def test_a_draw_offer_the_bot_declines_then_one_it_takes(client, app):
    game_id, state = new_game(client, seed=4)
    r = client.post(f"/api/games/{game_id}/draw")
    assert r.status_code == 200 and r.json()["accepted"] is False
    assert r.json()["state"]["draw_offer"] == "declined" and r.json()["state"]["phase"] == "play"
    # The bot (blue) with fewer pieces than red: it takes the draw.
    field = list(app.state.store.games[game_id].game.field)
    blue = [i for i, ch in enumerate(field) if "N" <= ch <= "X" and ch not in "NY"]
    field[blue[0]] = "A"
    app.state.store.games[game_id].game = stratego.Game.from_field("".join(field), 0)
    r = client.post(f"/api/games/{game_id}/draw")
    assert r.json()["accepted"] is True and r.json()["state"]["reason"] == "agreed_draw"


def test_the_page_and_its_files_come_from_the_server_only(client):
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    for path in ("/static/play.js", "/board.css"):
        r = client.get(path)
        assert r.status_code == 200 and "://" not in r.text, path  # nothing names another host
    css = client.get("/board.css").text
    assert not re.search(r"__(LIGHT|DARK|LAKE|RED|BLUE|LAST|ATTACK)__", css) and COLORS["r"] in css
    assert client.get("/static/../app.py").status_code == 404


def test_stratego_serve_binds_to_this_machine_by_default(monkeypatch):
    import uvicorn
    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw))
    assert main(["serve", "--save", ""]) == 0
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8000
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123", "--save", ""]) == 0
    assert seen["host"] == "0.0.0.0" and seen["port"] == 8123
    with pytest.raises(SystemExit):
        main(["serve", "--port", "70000"])


def test_a_saved_policy_from_the_command_line_plays_its_own_variant_only(tmp_path):
    torch = pytest.importorskip("torch")
    from stratego.agents.nets import ConvPolicyNet
    from stratego.agents.policy_file import save_policy
    from stratego.web import load_policies

    torch.manual_seed(0)
    net = ConvPolicyNet(num_actions=stratego.load_variant("classic").num_actions, channels=8, blocks=1)
    path = save_policy(tmp_path / "tiny.pt", net, "classic")
    app = create_app(policies=load_policies([str(path)]))
    with TestClient(app) as client:
        assert "tiny" in client.get("/api/options").json()["opponents"]
        game_id, state = new_game(client, opponent="tiny", color="blue", seed=3)
        assert state["moves"][0]["mover"] == "r" and state["your_turn"]  # the policy moved first
        state = play_to_end(client, game_id, state, random.Random(0))
        assert state["reason"] != "illegal_action"
        for options in ({"variant": "barrage"}, {"setup": "hand"}):  # other pieces; deployment planes
            r = client.post("/api/games", json={"opponent": "tiny", **options})
            assert r.status_code == 400 and "saved for variant 'classic'" in r.json()["error"]


def test_a_rescue_in_ultimate_lightning(client, app):
    """The rescue rule over HTTP: red's Sergeant reaches blue's back row; red is offered the
    captured pieces to return (and "pass"), picks one, and the piece stands."""
    game_id, state = new_game(client, variant="ultimate-lightning", seed=1)
    played = app.state.store.games[game_id]
    # Red: flag A1, Sergeants on B9 and K9. Blue: flag A10, a bomb at B10, a Marshal at E10.
    field = ["A"] * 100
    for sq in (42, 43, 46, 47, 52, 53, 56, 57):
        field[sq] = "_"
    field[0], field[81], field[89] = "M", "F", "F"
    field[90], field[91], field[94] = "Y", "N", "X"
    played.game = stratego.Game.from_field("".join(field), 0, "ultimate-lightning")
    played.frames = None
    played._begin_play()
    # The Sergeant on B9 dies on the bomb (which goes too: one-time bombs): a piece to rescue.
    state = client.post(f"/api/games/{game_id}/move", json={"move": "B9-B10"}).json()["state"]
    assert state["moves"][0]["fight"] == {"attacker": "4", "defender": "B", "winner": "both"}
    assert state["captured"]["r"]["ranks"] == ["4"]
    state = client.post(f"/api/games/{game_id}/move", json={"move": "K9-K10"}).json()["state"]
    assert state["phase"] == "rescue" and state["your_turn"]
    options = sorted(m[2] for m in state["legal"])
    assert "pass" in options and all(m == "pass" or m.split("@")[0] in state["captured"]["r"]["ranks"]
                                     for m in options)
    rescue = next(m for m in options if m != "pass")
    state = client.post(f"/api/games/{game_id}/move", json={"move": rescue}).json()["state"]
    assert state["rescues"] == [1, 0] and state["moves"][3]["move"] == rescue and state["moves"][3]["mover"] == "r"
    rank, square = rescue.split("@")
    assert state["board"][[square_name(sq) for sq in range(100)].index(square)] == "r" + rank


@pytest.mark.parametrize("variant,seat", [("ffa4", "s"), ("ffa3", "w"), ("teams4", "e")])
def test_a_castle_game_against_bots_to_its_end(tmp_path, variant, seat):
    """The castle game (stratego.castle): a person in one seat, heuristic bots in the
    others; each answer shows the person's seat's knowledge only (the engine's text board
    of that seat); the finished game is saved apart from the two-player games and opens
    in `stratego view`."""
    from stratego.castle.game import Game as CastleGame
    from stratego.castle.viewer import frame_of

    app = create_app(save=tmp_path / "games.jsonl", move_seconds=30)
    with TestClient(app) as client:
        game_id, state = new_game(client, game="castle", variant=variant, opponent="heuristic", color=seat, seed=3)
        played = app.state.store.games[game_id]
        assert isinstance(played.game, CastleGame) and state["you"] == seat and state["your_turn"]
        rng = random.Random(0)
        checked = 0
        for _ in range(3000):
            if state["phase"] == "over":
                break
            me = played.game.seat_letters.index(seat)
            assert state["frame"] == frame_of(played.game, me)  # the seat's view, nothing more
            # Every piece of another seat whose rank this seat does not know shows "?".
            rows = [row.split() for row in state["frame"]["grid"]]
            for n in range(len(played.game._geometry["node_names"])):
                piece = played.game.piece(n)
                if piece is None or piece[0] == seat or played.game.known(me, n):
                    continue
                name = played.game.node_name(n)
                token = state["frame"][name] if name in ("ring", "turret") else \
                    rows[int(name[1:]) - 1]["ABCDEFGHIJKLMNO".index(name[0])]
                assert token[1] == "?", (name, token, piece)
                checked += 1
            assert all(m[2] in played.game.legal_moves() for m in state["legal"])
            move = rng.choice(state["legal"])[2]
            r = client.post(f"/api/games/{game_id}/move", json={"move": move})
            assert r.status_code == 200, r.text
            state = r.json()["state"]
        assert state["phase"] == "over" and state["result"] and checked > 100
        for action in ("resign", "draw", "fill"):
            assert client.post(f"/api/games/{game_id}/{action}").status_code == 409
        r = client.post(f"/api/games/{game_id}/move", json={"move": "H3-H4"})
        assert r.status_code == 409 and "over" in r.json()["error"]
    saved = tmp_path / "games-castle.jsonl"
    assert not (tmp_path / "games.jsonl").exists() and saved.read_text().count("\n") == 1
    assert main(["view", str(saved), "-o", str(tmp_path / "castle.html")]) == 0


def test_castle_requests_are_checked(client):
    for body, text in (({"game": "castle", "variant": "classic"}, "variant must be one of"),
                       ({"game": "castle", "opponent": "pimc"}, "opponent must be one of"),
                       ({"game": "castle", "variant": "ffa3", "color": "s"}, "seat of this ffa3 game"),
                       ({"game": "castle", "setup": "hand"}, "setup must be one of"),
                       ({"game": "go"}, "game must be one of")):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and text in r.json()["error"], (body, r.text)
    game_id, state = new_game(client, game="castle", opponent="heuristic", color="n", seed=1)
    legal = state["legal"][0][2]
    # A legal move with a NUL and more after it: C would read it up to the NUL.
    for move in ("A1-A2", "recruit 9", "x" * 30, 5, legal + "\x00", legal + "\x00x9", "\ud800"):
        r = client.post(f"/api/games/{game_id}/move", content=json.dumps({"move": move}).encode())
        assert r.status_code == 400, (move, r.text)
    assert client.get(f"/api/games/{game_id}").json() == state


def test_a_castle_game_of_two_people_in_two_tabs_and_a_bot(client, app):
    """Another person's seat: its own id (from the maker's answer), answers from that
    seat's view, moves only on that seat's turn; the bot plays the third seat."""
    from stratego.castle.game import Game as CastleGame
    from stratego.castle.viewer import frame_of

    r = client.post("/api/games", json={"game": "castle", "variant": "ffa3", "color": "n", "people": ["w"],
                                        "opponent": "heuristic"})
    assert r.status_code == 201, r.text
    # A seed of its own (a request may not choose one: it would tell every setup); n decides first.
    played = app.state.store.games[r.json()["id"]]
    assert played.movers == []
    played.game = CastleGame(variant="ffa3", seed=8)
    invite = r.json()["invites"]["w"]
    assert set(r.json()["invites"]) == {"w"} and invite != r.json()["id"]
    joined = client.post(f"/api/games/{invite}/join")
    assert joined.status_code == 201 and joined.json()["state"]["you"] == "w"
    ids = {"n": r.json()["id"], "w": joined.json()["id"]}
    assert len({invite, *ids.values()}) == 3
    game = app.state.store.games[ids["n"]].game
    rng = random.Random(1)
    turns = {"n": 0, "w": 0}
    for _ in range(3000):
        states = {seat: client.get(f"/api/games/{i}").json() for seat, i in ids.items()}
        if states["n"]["phase"] == "over":
            break
        # Recruitment is public in ffa3 (recruit_public): both see the same decisions.
        assert states["n"]["people"] == ["n", "w"] and states["n"]["moves"] == states["w"]["moves"]
        for seat, state in states.items():
            assert state["you"] == seat and state["frame"] == frame_of(game, "new".index(seat))
        seat = next(s for s, state in states.items() if state["your_turn"])  # the bot (e) never waits
        other = "w" if seat == "n" else "n"
        move = rng.choice(states[seat]["legal"])[2]
        refused = client.post(f"/api/games/{ids[other]}/move", json={"move": move})
        assert refused.status_code == 409 and "not your turn" in refused.json()["error"]
        assert client.post(f"/api/games/{ids[seat]}/move", json={"move": move}).status_code == 200
        turns[seat] += 1
        game = app.state.store.games[ids["n"]].game
    assert states["n"]["phase"] == "over" and turns["n"] > 3 and turns["w"] > 3
    record = client.get(f"/api/games/{ids['w']}/record")
    assert record.status_code == 200 and '"players":{"n":"person","e":"heuristic","w":"person"}' in record.text
    for body in ({"game": "castle", "variant": "ffa3", "color": "n", "people": ["s"]},
                 {"game": "castle", "color": "n", "people": ["n"]},
                 {"game": "castle", "people": "e"},
                 {"people": ["e"]},
                 {"game": "castle", "color": "n", "people": ["e"], "seed": 8}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and "people" in r.json()["error"], (body, r.text)


def test_counts_in_other_digits_are_refused_not_a_crash(client, app):
    """`since` and Content-Length take ASCII digits only: "²" and "١" pass str.isdigit,
    and int() refuses the one (a 500) and reads the other."""
    game_id, state = new_game(client, seed=9)
    for text in ("²", "١", "𝟗", " 1", "1e3", "0x1"):
        r = client.get(f"/api/games/{game_id}", params={"since": text})
        assert r.status_code == 400 and "since must be" in r.json()["error"], (text, r.status_code, r.text)

    async def raw_post(length: bytes) -> list[dict]:  # a header httpx would not send
        sent = []

        async def receive():
            return {"type": "http.request", "body": b'{"move": "zz"}', "more_body": False}

        async def send(message):
            sent.append(message)
        scope = {"type": "http", "method": "POST", "path": f"/api/games/{game_id}/move", "query_string": b"",
                 "raw_path": f"/api/games/{game_id}/move".encode(), "headers": [(b"content-length", length)],
                 "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "http", "root_path": "",
                 "server": ("test", 80), "client": ("test", 1)}
        await app(scope, receive, send)
        return sent
    for length in ("²".encode("latin-1"), b"-1", b"+13"):
        sent = asyncio.run(raw_post(length))
        assert sent[0]["status"] == 413 and b"at most" in sent[1]["body"], (length, sent)
    assert client.get(f"/api/games/{game_id}").json() == state


def test_late_bot_threads_are_bounded_new_games_wait_until_they_end(tmp_path):
    """A bot thread cannot be stopped: past its time limit it plays on, on a copy. Games
    against a slow bot would pile such threads up without bound; at max_late_bots new
    games and moves get 503 (changing nothing) until the late threads end."""
    release = __import__("threading").Event()

    def slow(obs, mask):
        release.wait(10)
        return mask.argmax(axis=1)

    app = create_app(policies={"slow": slow}, move_seconds=0.1, max_late_bots=2)
    with TestClient(app) as client:
        waiting_id, waiting = new_game(client, opponent="random", seed=1)  # the person to move
        for _ in range(2):
            game_id, state = new_game(client, opponent="slow", color="blue")
            assert state["reason"] == "timeout"
        assert app.state.store.late_bots == 2
        r = client.post("/api/games", json={"opponent": "slow", "color": "blue"})
        assert r.status_code == 503 and "past their time limit" in r.json()["error"]
        move = waiting["legal"][0][2]
        r = client.post(f"/api/games/{waiting_id}/move", json={"move": move})
        assert r.status_code == 503 and client.get(f"/api/games/{waiting_id}").json() == waiting
        assert client.post(f"/api/games/{waiting_id}/resign").status_code == 200  # no bot move: allowed
        release.set()
        for _ in range(100):
            if app.state.store.late_bots == 0:
                break
            time.sleep(0.05)
        assert app.state.store.late_bots == 0
        assert client.post("/api/games", json={"opponent": "random"}).status_code == 201


def test_a_castle_invitation_joins_once_so_its_maker_cannot_watch_that_seat(client, app):
    """The game's maker hands the other seats' links out, so a link is an invitation, not
    the seat: it shows nothing of the seat's view and joins once, giving the seat an id of
    its own. A maker who joined a seat to watch its hidden pieces leaves the invited
    person a dead link, and the person sees why."""
    r = client.post("/api/games", json={"game": "castle", "variant": "ffa3", "color": "n", "people": ["w"],
                                        "opponent": "heuristic"})
    maker, invite = r.json()["id"], r.json()["invites"]["w"]
    for method, path in (("GET", ""), ("GET", "/record"), ("POST", "/move")):
        refused = client.request(method, f"/api/games/{invite}{path}", json={"move": "H3-H4"})
        assert refused.status_code == 409 and "invitation" in refused.json()["error"], (path, refused.text)
    assert "frame" not in refused.json()
    seat = client.post(f"/api/games/{invite}/join").json()["id"]
    again = client.post(f"/api/games/{invite}/join")
    assert again.status_code == 404 and "joins its seat once" in again.json()["error"]
    assert client.get(f"/api/games/{invite}").status_code == 404
    assert client.get(f"/api/games/{seat}").json()["you"] == "w"
    assert client.get(f"/api/games/{maker}").json()["you"] == "n"
    for bad in ("nope", "x" * 100, maker):  # no invitation: unknown, too long, a game's own id
        assert client.post(f"/api/games/{bad}/join").status_code == 404
    # A game closed to make room takes its unjoined invitations with it.
    store = app.state.store
    r = client.post("/api/games", json={"game": "castle", "color": "n", "people": ["e", "s"]})
    invites = set(r.json()["invites"].values())
    assert invites <= set(store.invites)
    store.games[r.json()["id"]].touched -= 10**6
    store.max_games = len(store.games)
    new_game(client, seed=2)
    assert not invites & set(store.invites) and not invites & set(store.locks)


def _answers_around_a_back_row_step(blue: str) -> tuple[bytes, ...]:
    """Red's answers in an Ultimate Lightning game where red's Marshal takes a blue Miner
    and the bot answers by stepping `blue` (a piece letter) from D2 onto red's back row,
    declining a rescue if it may make one: the move's answer, a state request sent while
    the bot thinks, and one after."""
    import threading

    from stratego.actions import squares_to_action

    def passer(obs, mask):  # steps D2-D1, then declines the rescue (the last action)
        if mask[0, -1]:
            return [mask.shape[1] - 1]
        time.sleep(0.3)
        return [squares_to_action(13, 3, 1)]

    app = create_app(policies={"passer": passer}, move_seconds=30)
    with TestClient(app) as client:
        game_id, _ = new_game(client, opponent="passer", variant="ultimate-lightning", seed=1)
        played = app.state.store.games[game_id]
        field = ["A"] * 100
        for sq in (42, 43, 46, 47, 52, 53, 56, 57):
            field[sq] = "_"
        field[0], field[49] = "M", "L"  # red: flag A1, Marshal K5
        field[90], field[91], field[59], field[13] = "Y", "N", "Q", blue  # blue: flag, bomb, Miner K6, D2
        played.game = stratego.Game.from_field("".join(field), 0, "ultimate-lightning")
        played.frames = None
        played._begin_play()
        polled = []
        poll = threading.Thread(target=lambda: (time.sleep(0.1), polled.append(client.get(f"/api/games/{game_id}"))))
        poll.start()
        moved = client.post(f"/api/games/{game_id}/move", json={"move": "K5-K6"})
        poll.join()
        assert moved.status_code == 200 and moved.json()["state"]["moves"][-1]["move"] == "D2-D1"
        assert polled[0].json()["your_turn"]  # it waited for the bot's turn to end
        declined = played.game.history[-1].action == played.game.variant.num_actions - 1
        assert declined == (blue == "R")  # the Sergeant may rescue, the Scout not
        return moved.content, polled[0].content, client.get(f"/api/games/{game_id}").content


def test_a_bots_declined_rescue_is_not_shown():
    """Under the rescue rule a piece on the back row may rescue unless it is a Scout; a
    declined rescue changes nothing on the board, so shown ("pass", or a rescue pending
    while the bot decides) it would tell a Scout from a Sergeant. The person's answers are
    the same to the byte for both."""
    assert _answers_around_a_back_row_step("P") == _answers_around_a_back_row_step("R")


def test_a_random_castle_seat_is_never_one_another_person_plays(client):
    """Your seat drawn at random ("color": "random", as the page sends it) with seats
    for other people: always a seat of your own, never a 400 by the draw."""
    for _ in range(40):
        r = client.post("/api/games", json={"game": "castle", "variant": "ffa4", "color": "random",
                                            "people": ["w", "e"], "opponent": "random"})
        assert r.status_code == 201, r.text
        assert r.json()["state"]["you"] in "ns" and set(r.json()["invites"]) == {"w", "e"}


def test_a_bot_kept_waiting_by_other_games_bots_does_not_lose_on_time(tmp_path):
    """Forty-one games whose slow bot moves first, at once: the server thinks for forty at
    a time (BOT_THREADS), so one move waits for a thread; its clock starts when it has
    one, and no bot loses on time (each takes 0.8 s of the 1.2 s it has)."""
    from stratego.web.app import BOT_THREADS

    def slow(obs, mask):
        time.sleep(0.8)
        return mask.argmax(axis=1)

    app = create_app(policies={"slow": slow}, move_seconds=1.2)

    async def many():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=60) as client:
            return await asyncio.gather(*(client.post("/api/games", json={"opponent": "slow", "color": "blue"})
                                          for _ in range(BOT_THREADS + 1)))
    answers = asyncio.run(many())
    assert all(r.status_code == 201 for r in answers)
    assert [r.json()["state"]["phase"] for r in answers] == ["play"] * (BOT_THREADS + 1)
