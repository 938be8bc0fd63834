"""An assignment's acknowledged answers and finishes survive `kill -9`: players without accounts
keep playing through the JSON API while the server is killed, and after the restart the
teacher's report and each player's own standing hold everything the server said it took."""

import http.client
import threading
from datetime import datetime, timedelta, timezone

from conftest import Server, print_log_on_failure
from test_durability import GUESSES, integrity, quizzes_with_questions

PLAYERS = 8
ROUNDS = 2
# Kill once this many more answers were acknowledged, with every player still sending: more
# than a whole attempt each (the starter quizzes have about 20 questions), so finishes are killed into too.
KILL_AFTER_ANSWERS = 220


def guess(question):
    """An answer of the right shape for the kinds the durability test knows; None for others."""
    kind = question["kind"]
    if kind in GUESSES and (kind not in ("singleChoice", "multipleChoice") or question.get("choices")):
        return GUESSES[kind](question)
    return None


def test_acknowledged_assignment_answers_survive_kill_9(tmp_path):
    server = Server(tmp_path)
    try:
        teacher = server.user("durable-teacher")
        quizzes = quizzes_with_questions(server, teacher)
        quiz_id = max(quizzes, key=lambda q: len(quizzes[q]))
        closes = (datetime.now(timezone.utc) + timedelta(days=1)).isoformat(timespec="seconds").replace("+00:00", "Z")
        status, assignment = server.api("POST", "/assignments", {
            "quizId": quiz_id, "closesAt": closes, "settings": {"attemptsAllowed": 10}}, token=teacher)
        assert status == 201, assignment
        players = []
        for n in range(PLAYERS):
            status, joined = server.api("POST", "/assignments/join", {"code": assignment["code"], "nickname": f"Player {n}"})
            assert status == 201, joined
            players.append({"id": joined["playerId"], "header": {"X-Assignment-Player": joined["playerHeader"]},
                            "nickname": joined["nickname"]})
        answered = set()   # (nickname, attempt number, position) acknowledged with a 2xx
        finished = set()   # (nickname, attempt number) whose finish was acknowledged
        for round_ in range(ROUNDS):
            play_and_kill(server, assignment["id"], players, answered, finished)
            assert integrity(server.database) == [("ok",)], f"after kill -9 number {round_ + 1}"
            server.start()
            check_acknowledged(server, teacher, assignment["id"], players, answered, finished)
        print(f"{ROUNDS} kills: {len(answered)} assignment answers and {len(finished)} finishes acknowledged, "
              "all in the report and the players' standings after each restart")
        server.stop()
        assert integrity(server.database) == [("ok",)]
    finally:
        server.stop()
        print_log_on_failure(server)


def play_and_kill(server, assignment_id, players, answered, finished):
    """Every player plays attempts until KILL_AFTER_ANSWERS more answers were acknowledged; then
    the server gets SIGKILL while they are all still sending."""
    lock = threading.Lock()
    target = len(answered) + KILL_AFTER_ANSWERS
    enough = threading.Event()
    failures = []
    base = f"/assignments/{assignment_id}/play"

    def play(player):
        headers = player["header"]
        try:
            while True:
                status, attempt = server.api("POST", base + "/attempts", headers=headers)
                if status not in (200, 201):
                    failures.append(("start", player["nickname"], status, attempt))
                    return
                number = attempt["number"]
                while True:
                    status, shown = server.api("GET", base + "/question", headers=headers)
                    if status != 200:
                        failures.append(("question", player["nickname"], status, shown))
                        return
                    if shown.get("done"):
                        break
                    answer = guess(shown["question"]) or {"text": "a guess"}
                    status, taken = server.api("POST", base + "/answers", {"position": shown["position"], "answer": answer},
                                               headers=headers)
                    if not 200 <= status < 300:
                        failures.append(("answer", player["nickname"], number, shown["position"], status, taken))
                        return
                    with lock:
                        answered.add((player["nickname"], number, shown["position"]))
                        if len(answered) >= target:
                            enough.set()
                status, _ = server.api("POST", base + "/finish", headers=headers)
                if 200 <= status < 300:
                    with lock:
                        finished.add((player["nickname"], number))
                elif status == 409:
                    return  # every attempt allowed was made: this player is done
        except (OSError, http.client.HTTPException):
            return  # the server was killed under this request: it was not acknowledged

    threads = [threading.Thread(target=play, args=(p,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    assert enough.wait(timeout=120), f"only {len(answered)} answers acknowledged in 2 minutes: {failures}"
    server.kill()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, f"requests failed before the kill: {failures}"


def check_acknowledged(server, teacher, assignment_id, players, answered, finished):
    """The report's count of answers to each question is at least the acknowledged; then, with the
    attempt the kill cut into finished, each acknowledged answer is in the player's own result."""
    status, report = server.api("GET", f"/assignments/{assignment_id}/report", token=teacher)
    assert status == 200, report
    counted = {row["position"]: row["answered"] for row in report["questions"]}
    for position in sorted({p for (_, _, p) in answered}):
        acknowledged = sum(1 for (_, _, p) in answered if p == position)
        assert counted.get(position, 0) >= acknowledged, \
            f"question {position}: the report counts {counted.get(position)} answers, {acknowledged} were acknowledged"
    base = f"/assignments/{assignment_id}/play"
    lost_answers, lost_finishes = [], []
    for player in players:
        status, standing = server.api("GET", base, headers=player["header"])
        assert status == 200, standing
        if standing.get("current") is not None:
            # Results come once no attempt is being played.
            status, body = server.api("POST", base + "/finish", headers=player["header"])
            assert status == 200, body
            status, standing = server.api("GET", base, headers=player["header"])
            assert status == 200, standing
        over = {a["number"] for a in standing["attempts"] if a.get("finishedAt")}
        lost_finishes += [(n, a) for (n, a) in sorted(finished) if n == player["nickname"] and a not in over]
        for number in sorted(over):
            status, result = server.api("GET", f"{base}/result?attempt={number}", headers=player["header"])
            assert status == 200, result
            given = {line["position"] for line in result["lines"] if line.get("given") is not None}
            lost_answers += [(n, a, p) for (n, a, p) in sorted(answered)
                             if n == player["nickname"] and a == number and p not in given]
    assert not lost_answers, f"acknowledged answers (player, attempt, position) missing after kill -9: {lost_answers}"
    assert not lost_finishes, f"acknowledged finishes (player, attempt) missing after kill -9: {lost_finishes}"
