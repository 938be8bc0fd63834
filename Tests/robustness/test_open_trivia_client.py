"""A published Open Trivia DB client, opentdb-py (module `trivia`, on PyPI), pointed at a running
Quizbox by its one setting, `trivia.API_BASE`, plays through the starter bank: a session token,
the categories and counts, every question once until the token is empty, a reset, and the base64
and URL encodings. What it is served is checked against Quizbox's own JSON API."""

import asyncio
import base64
import html
import json
import urllib.parse
import urllib.request

import pytest
import trivia

from conftest import Server, print_log_on_failure

KEYS = {"type", "difficulty", "category", "question", "correct_answer", "incorrect_answers"}


@pytest.fixture
def quizbox(tmp_path):
    # No pause between requests here: the 5 s limit has its own test below and in Swift.
    running = Server(tmp_path, env={"QUIZBOX_TRIVIA_API": "true", "QUIZBOX_TRIVIA_REQUEST_INTERVAL_SECONDS": "0"})
    trivia.API_BASE = running.url + "/"
    yield running
    running.stop()
    print_log_on_failure(running)


def published_choices(server):
    """Every published quiz question as Quizbox's JSON API shows it: text -> its choices' texts
    (true/false as True/False)."""
    found = {}
    for subject in server.api("GET", "/subjects")[1]["subjects"]:
        for topic in server.api("GET", f"/subjects/{subject['id']}/topics")[1]["topics"]:
            for quiz in server.api("GET", f"/topics/{topic['id']}/quizzes")[1]["quizzes"]:
                for question in server.api("GET", f"/quizzes/{quiz['id']}/questions")[1]["questions"]:
                    if question["kind"] == "trueFalse":
                        found[question["text"]] = {"True", "False"}
                    elif question["kind"] == "singleChoice":
                        found[question["text"]] = {choice["text"] for choice in question["choices"]}
    return found


async def play_through(server):
    token = await trivia.Client.get_session_token()
    assert isinstance(token, str) and len(token) == 64
    async with trivia.Client(token) as client:
        categories = (await client.get_categories())["trivia_categories"]
        assert categories and all(category["id"] >= 9 for category in categories)
        assert len({category["id"] for category in categories}) == len(categories)
        first = categories[0]
        counted = await client.get_category_questions_count(trivia.Category(first["id"]))
        assert counted["category_id"] == first["id"]
        per_category = counted["category_question_count"]
        assert per_category["total_question_count"] == (per_category["total_easy_question_count"]
                                                        + per_category["total_medium_question_count"]
                                                        + per_category["total_hard_question_count"]) > 0
        overall = (await client.get_global_questions_count())["overall"]["total_num_of_questions"]

        # Code 4 means fewer unseen questions than asked for: ask for fewer, down to one.
        served, amount = [], 50
        while True:
            try:
                served += await client.get_questions(amount=amount)
            except trivia.TokenEmpty:
                if amount == 1:
                    break
                amount = max(1, amount // 2)
        assert len(served) == overall, "the token served every question once, then was empty"
        texts = [html.unescape(result["question"]) for result in served]
        assert len(set(texts)) == len(texts)

        choices = published_choices(server)
        names = {category["name"] for category in categories}
        for result in served:
            assert set(result) == KEYS
            text = html.unescape(result["question"])
            offered = {html.unescape(result["correct_answer"])} | {html.unescape(a) for a in result["incorrect_answers"]}
            assert choices[text] == offered, f"{text!r} is served as Quizbox shows it"
            assert html.unescape(result["category"]) in names
            assert result["difficulty"] in {"easy", "medium", "hard"}
            assert result["type"] == ("boolean" if offered == {"True", "False"} else "multiple")

        # Fewer questions than asked is "no results", whatever the token has seen.
        assert per_category["total_question_count"] < 50
        with pytest.raises(trivia.NoResults):
            await client.get_questions(amount=50, category=trivia.Category(first["id"]))

        # The library stores reset's whole reply as its token; the reset itself is what counts here.
        await client.reset_session_token()
        client.session_token = token
        again = await client.get_questions(amount=5, category=trivia.Category(first["id"]),
                                           encoding=trivia.ResponseEncoding.base64)
        assert len(again) == 5
        for result in again:
            decoded = {key: base64.b64decode(value).decode() for key, value in result.items() if key != "incorrect_answers"}
            assert decoded["type"] in {"multiple", "boolean"}
            assert decoded["category"] == first["name"]
            assert decoded["question"] in choices
        url_encoded = await client.get_questions(amount=5, encoding=trivia.ResponseEncoding.url)
        for result in url_encoded:
            assert urllib.parse.unquote(result["question"]) in choices
            assert " " not in result["question"]
    return len(served)


def test_opentdb_py_plays_through_quizbox(quizbox):
    assert asyncio.run(play_through(quizbox)) > 100


def test_a_second_request_within_five_seconds_is_429_with_code_5(tmp_path):
    server = Server(tmp_path, env={"QUIZBOX_TRIVIA_API": "true"})
    try:
        def get(path):
            try:
                with urllib.request.urlopen(server.url + path, timeout=10) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as error:
                return error.code, json.loads(error.read())

        assert get("/api.php?amount=1")[1]["response_code"] == 0
        assert get("/api.php?amount=1") == (429, {"response_code": 5, "results": []})
        assert get("/api_category.php")[0] == 200, "only questions are limited"
    finally:
        server.stop()
        print_log_on_failure(server)
