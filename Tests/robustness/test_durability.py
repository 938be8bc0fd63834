"""What the server acknowledged survives `kill -9`, and the SQLite file stays sound."""

import http.client
import sqlite3
import threading

from conftest import Server, print_log_on_failure

PLAYERS = 8
ROUNDS = 3
# Kill once this many more answers were acknowledged, with every player still sending.
KILL_AFTER_ANSWERS = 400

GUESSES = {
    "singleChoice": lambda q: {"choiceId": q["choices"][0]["id"]},
    "multipleChoice": lambda q: {"choiceIds": [q["choices"][0]["id"]]},
    "trueFalse": lambda q: {"value": True},
    "typedAnswer": lambda q: {"text": "a guess"},
    "numeric": lambda q: {"number": 1},
}


def integrity(database):
    connection = sqlite3.connect(database)
    try:
        return connection.execute("PRAGMA integrity_check").fetchall()
    finally:
        connection.close()


def quizzes_with_questions(server, token):
    """Quiz id → its questions that an attempt can answer, walking the catalog like a client."""
    found = {}
    _, subjects = server.api("GET", "/subjects", token=token)
    for subject in subjects["subjects"]:
        _, topics = server.api("GET", f"/subjects/{subject['id']}/topics", token=token)
        for topic in topics["topics"]:
            _, quizzes = server.api("GET", f"/topics/{topic['id']}/quizzes", token=token)
            for quiz in quizzes["quizzes"]:
                _, listing = server.api("GET", f"/quizzes/{quiz['id']}/questions", token=token)
                answerable = [q for q in listing["questions"] if q["kind"] in GUESSES]
                if answerable:
                    found[quiz["id"]] = answerable
    return found


def test_acknowledged_answers_survive_kill_9(tmp_path):
    server = Server(tmp_path)
    try:
        tokens = [server.user(f"durable-{n}") for n in range(PLAYERS)]
        quizzes = quizzes_with_questions(server, tokens[0])
        assert len(quizzes) >= PLAYERS, quizzes.keys()
        attempts = {}      # attempt id → the token of its player
        answered = set()   # (attempt id, question id), acknowledged with a 2xx
        finished = set()   # attempt ids whose finish was acknowledged
        for round_ in range(ROUNDS):
            play_and_kill(server, tokens, quizzes, attempts, answered, finished)
            assert integrity(server.database) == [("ok",)], f"after kill -9 number {round_ + 1}"
            server.start()
            check_acknowledged(server, attempts, answered, finished)
        print(f"{ROUNDS} kills: {len(attempts)} attempts, {len(answered)} answers and {len(finished)} finishes "
              "acknowledged, all there after each restart")
        server.stop()
        assert integrity(server.database) == [("ok",)]
    finally:
        server.stop()
        print_log_on_failure(server)


def play_and_kill(server, tokens, quizzes, attempts, answered, finished):
    """Every player plays quizzes through the API until KILL_AFTER_ANSWERS more answers were
    acknowledged; then the server gets SIGKILL while they are all still sending."""
    lock = threading.Lock()
    target = len(answered) + KILL_AFTER_ANSWERS
    enough = threading.Event()
    failures = []

    def play(player):
        token = tokens[player]
        order = list(quizzes)[player:] + list(quizzes)[:player]
        try:
            for round_ in range(1000):
                quiz_id = order[round_ % len(order)]
                status, attempt = server.api("POST", f"/quizzes/{quiz_id}/attempts", token=token)
                if status != 201:
                    failures.append(("start", quiz_id, status, attempt))
                    return
                with lock:
                    attempts[attempt["id"]] = token
                for question in quizzes[quiz_id]:
                    status, verdict = server.api(
                        "POST", f"/attempts/{attempt['id']}/answers",
                        {"questionId": question["id"], "answer": GUESSES[question["kind"]](question)}, token=token)
                    if not 200 <= status < 300:
                        failures.append(("answer", attempt["id"], question["id"], status, verdict))
                        return
                    with lock:
                        answered.add((attempt["id"], question["id"]))
                        if len(answered) >= target:
                            enough.set()
                status, _ = server.api("POST", f"/attempts/{attempt['id']}/finish", token=token)
                if 200 <= status < 300:
                    with lock:
                        finished.add(attempt["id"])
        except (OSError, http.client.HTTPException):
            return  # the server was killed under this request: it was not acknowledged

    players = [threading.Thread(target=play, args=(n,), daemon=True) for n in range(len(tokens))]
    for thread in players:
        thread.start()
    assert enough.wait(timeout=120), f"only {len(answered)} answers acknowledged in 2 minutes: {failures}"
    assert all(thread.is_alive() for thread in players), f"a player stopped before the kill: {failures}"
    server.kill()
    for thread in players:
        thread.join(timeout=60)
    assert not failures, f"requests failed before the kill: {failures}"


def check_acknowledged(server, attempts, answered, finished):
    lost_answers, lost_attempts, lost_finishes = [], [], []
    for attempt_id, token in sorted(attempts.items()):
        status, attempt = server.api("GET", f"/attempts/{attempt_id}", token=token)
        if status != 200:
            lost_attempts.append((attempt_id, status, attempt))
            continue
        stored = {answer["questionId"] for answer in attempt["answers"]}
        lost_answers += [(attempt_id, q) for (a, q) in sorted(answered) if a == attempt_id and q not in stored]
        if attempt_id in finished and "finishedAt" not in attempt:
            lost_finishes.append(attempt_id)
    assert not lost_attempts, f"acknowledged attempts missing after kill -9: {lost_attempts}"
    assert not lost_answers, f"acknowledged answers (attempt, question) missing after kill -9: {lost_answers}"
    assert not lost_finishes, f"acknowledged finishes missing after kill -9: {lost_finishes}"
