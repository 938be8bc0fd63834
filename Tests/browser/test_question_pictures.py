"""Pictures in questions, in a real browser: an author adds one with the question form, a player
sees it loaded, with its alt text and its size set, on a phone; a real Moodle file's picture is
imported, shown and exported back."""

import struct
import urllib.request
import zlib
from pathlib import Path

import pytest
from conftest import PHONE
from selenium.webdriver.common.by import By
from test_journeys import PASSWORD, author_signed_in, by_id, click_id, new_username, open_browser, register, text, type_into


def png(width, height, rgb=(200, 120, 30)):
    """A real PNG of one colour: Chromium must decode it, so its CRCs and pixels are right."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_an_author_adds_a_picture_and_a_player_sees_it_with_its_alt_text(server, browser, tmp_path, screenshot):
    # The starter bank's first quiz and its first question, as the API lists them.
    _, subjects = server.api("GET", "/subjects")
    _, topics = server.api("GET", f"/subjects/{subjects['subjects'][0]['id']}/topics")
    _, quizzes = server.api("GET", f"/topics/{topics['topics'][0]['id']}/quizzes")
    quiz_id = quizzes["quizzes"][0]["id"]
    _, listing = server.api("GET", f"/quizzes/{quiz_id}/questions")
    question_id = listing["questions"][0]["id"]

    author, _ = author_signed_in(browser, server, f"/manage/questions/{question_id}?quiz={quiz_id}")
    picture = tmp_path / "picture.png"
    picture.write_bytes(png(120, 80))

    # Without alt text the form says so next to the field, and asks for the file again.
    by_id(author, "picture").send_keys(str(picture))
    click_id(author, "save-question")
    assert "describe the picture" in text(author, "error-picture-alt")
    assert "Choose the picture again" in text(author, "error-picture")

    by_id(author, "picture").send_keys(str(picture))
    type_into(author, picture_alt="An orange rectangle")
    screenshot(author, "manage-question-picture")
    click_id(author, "save-question")
    preview = author.find_element(By.CSS_SELECTOR, "#preview img.question-picture")
    assert preview.get_attribute("alt") == "An orange rectangle"

    player = open_browser(browser, server, size=PHONE)
    register(player, new_username())
    player.get(player.base_url + f"/quizzes/{quiz_id}")
    click_id(player, "start-quiz")
    image = by_id(player, "question-picture")
    assert image.get_attribute("alt") == "An orange rectangle"
    assert (image.get_attribute("width"), image.get_attribute("height")) == ("120", "80")
    assert image.get_attribute("loading") == "lazy"
    assert "/images/" in image.get_attribute("src") and "picture" not in image.get_attribute("src")
    # Loaded (the page's Content-Security-Policy lets it in) and no wider than the phone.
    player.execute_script("arguments[0].scrollIntoView()", image)
    loaded = player.execute_async_script(
        "var img = arguments[0], done = arguments[1];"
        "if (img.complete) done(img.naturalWidth); else img.addEventListener('load', () => done(img.naturalWidth));", image)
    assert loaded == 120
    assert player.execute_script("return arguments[0].getBoundingClientRect().right", image) <= PHONE[0]
    screenshot(player, "question-picture")


# shared/ sits beside the checkout (third-party files, never copied into the repository).
MOODLE_FILE = Path(__file__).resolve().parents[3] / "shared/testdata/formats/moodlexml/qas-multichoice.xml"


@pytest.mark.skipif(not MOODLE_FILE.exists(), reason="the shared Moodle test files are not on this machine")
def test_a_real_moodle_file_with_a_picture_is_imported_shown_and_exported_with_it(server, browser):
    author, author_name = author_signed_in(browser, server)
    # Used where it is (GPL-3.0, see its SOURCES.md), never copied into the repository.
    by_id(author, "file").send_keys(str(MOODLE_FILE))
    click_id(author, "preview-button")
    assert "images other than the question's picture were not imported" in text(author, "import-problems")
    click_id(author, "import-button")
    quiz_link = next(link for link in author.find_elements(By.CSS_SELECTOR, "#manage-quizzes .quiz-link")
                     if link.text == "qas-multichoice")
    quiz_id = int(quiz_link.get_attribute("href").rstrip("/").split("/")[-1])

    author.get(author.base_url + f"/manage/quizzes/{quiz_id}")
    picture = author.find_element(By.CSS_SELECTOR, "#preview img.question-picture")
    assert picture.get_attribute("alt") == "Picture for this question", "Moodle's alt=\"\" gets the fallback"
    assert (picture.get_attribute("width"), picture.get_attribute("height")) == ("43", "51")

    _, session = server.api("POST", "/sessions", {"username": author_name, "password": PASSWORD})
    request = urllib.request.Request(server.url + f"/api/v1/quizzes/{quiz_id}/export?format=moodle-xml",
                                     headers={"Authorization": "Bearer " + session["token"]})
    with urllib.request.urlopen(request, timeout=30) as response:
        exported = response.read().decode()
    assert '<img src="@@PLUGINFILE@@/picture.png" alt="Picture for this question" width="43" height="51">' in exported
    assert '<file name="picture.png" path="/" encoding="base64">iVBORw0KGgo' in exported


def test_an_author_gives_a_subject_a_cover_and_a_player_sees_it_on_its_tile(server, browser, tmp_path, screenshot):
    author, _ = author_signed_in(browser, server, "/manage/subjects/1")
    # Before: the cover drawn from the name.
    assert author.find_element(By.ID, "cover-drawn").text == "S"
    picture = tmp_path / "cover.png"
    picture.write_bytes(png(320, 120, (40, 90, 200)))
    by_id(author, "cover").send_keys(str(picture))
    click_id(author, "set-cover")
    assert "The cover is set" in text(author, "notice")
    assert by_id(author, "cover-picture").get_attribute("src").split("/images/")[1].endswith(".png")

    player = open_browser(browser, server, size=PHONE)
    register(player, new_username())
    player.get(player.base_url + "/home")
    tile = player.find_element(By.CSS_SELECTOR, "#subjects img.cover-picture")
    assert (tile.get_dom_attribute("width"), tile.get_dom_attribute("height"), tile.get_dom_attribute("alt")) == ("320", "120", "")
    loaded = player.execute_async_script(
        "var img = arguments[0], done = arguments[1];"
        "if (img.complete) done(img.naturalWidth); else img.addEventListener('load', () => done(img.naturalWidth));", tile)
    assert loaded == 320
    screenshot(player, "home-cover")

    # Removed: the drawn cover is back.
    author.get(author.base_url + "/manage/subjects/1")
    click_id(author, "remove-cover")
    assert "The cover is removed" in text(author, "notice")
    player.get(player.base_url + "/home")
    assert not player.find_elements(By.CSS_SELECTOR, "#subjects img.cover-picture")
