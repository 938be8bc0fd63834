"""A live game survives `kill -9`: after a restart the host and the players reconnect, the game
carries on from the question in progress, and every acknowledged answer is counted once."""

import json
import re
import sqlite3
import urllib.parse
import urllib.request

import websocket
from conftest import Server


def ws_url(server):
    return f"ws://{server.host}:{server.port}/live/socket"


def send(socket, **message):
    socket.send(json.dumps({"v": 1, **message}))


def receive(socket, wanted):
    """The next message of type `wanted`, skipping the others; fails on an error message."""
    while True:
        message = json.loads(socket.recv())
        assert message["type"] != "error" or wanted == "error", message
        if message["type"] == wanted:
            return message


def create_game(server, token):
    """Sets up a game of quiz 1 through the settings form, as the host's browser does."""
    cookie = f"quizbox_session={token}"
    with urllib.request.urlopen(urllib.request.Request(server.url + "/live/new?quiz=1", headers={"Cookie": cookie}), timeout=30) as page:
        html = page.read().decode()
        csrf_cookie = next(value.split(";")[0] for name, value in page.headers.items()
                           if name.lower() == "set-cookie" and value.startswith("quizbox_csrf="))
    csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    form = urllib.parse.urlencode({"csrf": csrf, "quiz": "1", "secondsPerQuestion": "120", "teams": "0",
                                   "leaderboardAfterEach": "true", "streakBonus": "true"}).encode()
    request = urllib.request.Request(server.url + "/live", data=form, method="POST",
                                     headers={"Cookie": f"{cookie}; {csrf_cookie}", "Sec-Fetch-Site": "same-origin",
                                              "Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(re.search(r"/live/(\d+)/host", response.url).group(1)), cookie


def answers_stored(database, game_id):
    connection = sqlite3.connect(database)
    try:
        return connection.execute("SELECT player_id, question_index, COUNT(*) FROM live_answers WHERE game_id = ? "
                                  "GROUP BY player_id, question_index", (game_id,)).fetchall()
    finally:
        connection.close()


def test_a_live_game_carries_on_after_kill_9(tmp_path):
    server = Server(tmp_path)
    sockets = []
    try:
        token = server.user("live-host")
        game_id, cookie = create_game(server, token)
        host = websocket.create_connection(ws_url(server), timeout=15, cookie=cookie)
        sockets.append(host)
        send(host, type="host", game=game_id)
        pin = receive(host, "hosting")["game"]["pin"]
        players = {}
        for name in ["Ada", "Linus", "Grace", "Alan"]:
            socket = websocket.create_connection(ws_url(server), timeout=15)
            sockets.append(socket)
            send(socket, type="join", pin=pin, nickname=name)
            joined = receive(socket, "joined")
            players[name] = {"socket": socket, "id": joined["player"]["id"], "secret": joined["secret"]}
        send(host, type="start")
        question = receive(players["Ada"]["socket"], "question")
        assert question["index"] == 0
        acknowledged = set()
        # Two of four answer and are acknowledged; the question stays open.
        for name in ["Ada", "Linus"]:
            player = players[name]
            choices = question["choices"]
            answer = {"choice": choices[0]["id"]} if question["kind"] == "singleChoice" else \
                {"choices": [choices[0]["id"]]} if question["kind"] == "multipleChoice" else \
                {"value": True} if question["kind"] == "trueFalse" else {"text": "8"}
            send(player["socket"], type="answer", question=0, answer=answer)
            receive(player["socket"], "ack")
            acknowledged.add((player["id"], 0))
            player["answer"] = answer

        server.kill()
        for socket in sockets:
            socket.close()
        sockets.clear()
        assert {(row[0], row[1]) for row in answers_stored(server.database, game_id)} == acknowledged
        server.start()

        # Everyone comes back: the host with the session, the players with their secrets.
        host = websocket.create_connection(ws_url(server), timeout=15, cookie=cookie)
        sockets.append(host)
        send(host, type="host", game=game_id)
        hosting = receive(host, "hosting")
        assert hosting["game"]["phase"] == "question" and hosting["game"]["index"] == 0
        for name, player in players.items():
            socket = websocket.create_connection(ws_url(server), timeout=15)
            sockets.append(socket)
            send(socket, type="resume", pin=pin, player=player["id"], secret=player["secret"])
            assert receive(socket, "joined")["player"]["nickname"] == name
            again = receive(socket, "question")
            assert again["index"] == 0 and again["deadline"] == question["deadline"]
            player["socket"] = socket
        # An answer acknowledged before the kill still counts as the first.
        send(players["Ada"]["socket"], type="answer", question=0, answer=players["Ada"]["answer"])
        assert receive(players["Ada"]["socket"], "error")["code"] == "already-answered"
        for name in ["Grace", "Alan"]:
            send(players[name]["socket"], type="answer", question=0, answer=players["Ada"]["answer"])
            receive(players[name]["socket"], "ack")
            acknowledged.add((players[name]["id"], 0))
        reveal = receive(host, "reveal")
        assert reveal["answered"] == 4
        rows = answers_stored(server.database, game_id)
        assert {(row[0], row[1]) for row in rows} == acknowledged
        assert all(row[2] == 1 for row in rows)
    finally:
        for socket in sockets:
            try:
                socket.close()
            except Exception:
                pass
        server.stop()
