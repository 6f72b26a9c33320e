"""The JSON-lines command protocol: scripted conversations over tic-tac-toe and Hare and Hedgehog."""

import io
import json
import subprocess
import sys

import pytest

from gamesuite.protocols import json as proto


def talk(*requests, seed=1):
    """Send the requests (dicts, or raw strings) and return the replies as dicts (without the ``loading``
    lines a ``new`` sends while its engine compiles, as on a first run)."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    out = io.StringIO()
    assert proto.main(["--seed", str(seed)], stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out) == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    return [r for r in replies if r.get("type") != "loading"]


def test_tictactoe_conversation():
    r = talk({"cmd": "new", "game": "tictactoe", "id": 1},
             {"cmd": "move", "move": "b2", "id": 2},
             {"cmd": "legal", "id": 3},
             {"cmd": "move", "move": "b2", "id": 4},
             {"cmd": "think", "depth": 9, "play": True, "wait": True, "id": 5},
             {"cmd": "legal", "id": 6},
             {"cmd": "quit", "id": 7},
             {"cmd": "legal", "id": 8})
    assert r[0] == {"type": "position", "game": "tictactoe(m=3,n=3,k=3)", "engine": "solver", "players": 2,
                    "position": ".........", "to_move": 0,
                    "legal": ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"], "id": 1}
    assert r[1]["position"] == "....x...." and r[1]["to_move"] == 1 and r[1]["events"] == [{"player": 0, "move": "b2"}]
    assert r[2]["legal"] == ["a3", "b3", "c3", "a2", "c2", "a1", "b1", "c1"] and r[2]["id"] == 3
    assert r[3]["type"] == "error" and "b2" in r[3]["error"] and r[3]["id"] == 4
    infos = [x for x in r if x["type"] == "info"]
    assert infos and all(x["id"] == 5 for x in infos)
    assert [x["depth"] for x in infos] == sorted(x["depth"] for x in infos)
    best = next(x for x in r if x["type"] == "bestmove")
    assert best["id"] == 5 and best["score"]["kind"] == "draw" and best["bestmove"] in ("a3", "c3", "a1", "c1")
    assert r.index(best) > r.index(infos[-1])
    after = next(x for x in r if x.get("id") == 6)
    assert after["position"] == best["position"] and after["position"].count("o") == 1
    assert r[-1] == {"type": "bye", "id": 7}  # nothing is read after quit


def test_hare_conversation_with_cards():
    r = talk({"cmd": "new", "game": "hare(players=3)", "id": "a"},
             {"cmd": "move", "move": "1", "id": "b"},  # onto a hare square: the server draws the card
             {"cmd": "move", "move": "3", "draw": "manual", "id": "c"},  # the next player, onto square 3 (hare)
             {"cmd": "move", "move": "card:halve", "id": "d"},
             {"cmd": "think", "depth": 2, "id": "e"},
             seed=3)  # the end of input waits for a search with limits
    assert r[0]["legal"] == [str(n) for n in range(1, 11)] and r[0]["to_move"] == 0
    ev = r[1]["events"]
    assert ev[0] == {"player": 0, "move": "1", "text": "forward 1 for 1 carrots"}
    assert ev[1]["player"] == "chance" and ev[1]["move"].startswith("card:") and ev[1]["text"]
    assert r[2]["to_move"] == "chance" and r[2]["legal"] == []
    assert sum(c["p"] for c in r[2]["chance"]) == pytest.approx(1.0)
    assert r[2]["position"].endswith("draw=1,6")
    assert r[3]["events"] == [{"player": "chance", "move": "card:halve", "text": "Lose half your carrots"}]
    infos = [x for x in r if x["type"] == "info"]
    assert [x["depth"] for x in infos] == [1, 2] and infos[0]["score"]["kind"] == "vector"
    best = r[-1]
    assert best["type"] == "bestmove" and best["bestmove"] in r[3]["legal"] and best["id"] == "e"


def test_stateless_use_with_positions():
    r = talk({"cmd": "new", "game": "hare(players=2,pieces=1)"},
             {"cmd": "legal", "position": "21:0:3/19:68:3 1 deck=-"},
             {"cmd": "move", "position": "21:20:3/0:68:3 1 deck=-", "move": "-2"})
    assert r[1]["legal"] == ["1001"]
    assert r[2]["position"] == "19:40:3/0:68:3 2 deck=-"


@pytest.mark.parametrize("request_line,fragment", [
    ("garbage", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"cmd": "fly"}', "unknown cmd"),
    ('{"cmd": "legal"}', "no game yet"),
    ('{"cmd": "new"}', 'needs "game"'),
    ('{"cmd": "new", "game": "chess"}', "unknown game"),
    ('{"cmd": "new", "game": "hare(players=9)"}', "players"),
    ('{"cmd": "new", "game": "hare", "engine": "maxn,rule=best"}', "rule"),
    ('{"cmd": "new", "game": "hare", "position": "1:2:3"}', "position"),
])
def test_bad_requests_get_error_replies_and_the_session_goes_on(request_line, fragment):
    r = talk(request_line, {"cmd": "new", "game": "tictactoe", "id": 9})
    assert r[0]["type"] == "error" and fragment in r[0]["error"]
    assert r[1]["type"] == "position" and r[1]["id"] == 9


@pytest.mark.parametrize("req,fragment", [
    ({"cmd": "move"}, "needs \"move\""),
    ({"cmd": "move", "move": "z9"}, "z9"),
    ({"cmd": "move", "move": "a1", "draw": "later"}, "draw"),
    ({"cmd": "think", "depth": 0}, "depth"),
    ({"cmd": "think", "movetime": "soon"}, "movetime"),
    ({"cmd": "think", "infinite": "yes"}, "infinite"),
    ({"cmd": "legal", "position": 5}, "position must be a string"),
    ({"cmd": "legal", "position": "xxx......"}, "xxx"),
])
def test_bad_commands_in_a_game(req, fragment):
    r = talk({"cmd": "new", "game": "tictactoe"}, {**req, "id": 2}, {"cmd": "legal", "id": 3})
    err = next(x for x in r if x.get("id") == 2)
    assert err["type"] == "error" and fragment in err["error"]
    assert next(x for x in r if x.get("id") == 3)["type"] == "position"


def test_stop_ends_an_infinite_think_and_busy_commands_are_refused():
    r = talk({"cmd": "new", "game": "hare(players=3)"},
             {"cmd": "think", "infinite": True, "id": 1},
             {"cmd": "legal", "id": 2},
             {"cmd": "stop", "id": 3},
             {"cmd": "stop", "id": 4},
             {"cmd": "legal", "id": 5})
    busy = next(x for x in r if x.get("id") == 2)
    assert busy["type"] == "error" and "busy" in busy["error"]
    best = next(x for x in r if x["type"] == "bestmove")
    assert best["id"] == 1 and best["bestmove"] in [str(n) for n in range(1, 11)]
    assert r.index(best) < r.index(next(x for x in r if x.get("id") == 4))
    assert next(x for x in r if x.get("id") == 4) == {"type": "idle", "id": 4}
    assert next(x for x in r if x.get("id") == 5)["type"] == "position"


def test_think_refuses_chance_and_finished_positions():
    r = talk({"cmd": "new", "game": "hare(players=3)", "position": "1:67:3/0:68:3/0:68:3 1 deck=- draw=1,1"},
             {"cmd": "think", "depth": 1, "id": 1},
             {"cmd": "new", "game": "tictactoe", "position": "xxxoo...."},
             {"cmd": "think", "depth": 1, "id": 2})
    assert r[1]["type"] == "error" and "chance" in r[1]["error"]
    assert r[3]["type"] == "error" and "over" in r[3]["error"]


def test_the_cli_speaks_json():
    lines = '{"cmd": "new", "game": "tictactoe"}\n{"cmd": "move", "move": "a1"}\n{"cmd": "quit"}\n'
    p = subprocess.run([sys.executable, "-m", "gamesuite", "engine", "json"], input=lines, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert [x["type"] for x in out] == ["position", "position", "bye"]
    assert out[1]["position"] == "......x.."
