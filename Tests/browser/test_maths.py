"""Maths in questions (issue 34) in real Chromium: a Moodle XML bank whose texts carry TeX is
imported from the manage page and played on a phone; every formula is MathML that Chromium lays
out (no raw TeX on the page), and axe-core finds no serious problem, light or dark."""

from conftest import PHONE
from selenium.webdriver.common.by import By
from test_journeys import author_signed_in, by_id, click_id, new_username, open_browser, register
from test_play_finished import axe

# Our own bank, in Moodle's export format: TeX as teachers write it, delimited as Moodle's filter reads it.
BANK = r"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/Algebra</text></category></question>
  <question type="multichoice">
    <name><text>Quadratic</text></name>
    <questiontext format="html"><text><![CDATA[<p>The roots of $$x^2 + 3x - 28 = 0$$ are given by \( x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a} \). Which are they?</p>]]></text></questiontext>
    <generalfeedback format="html"><text><![CDATA[<p>\( \sqrt{9 + 112} = 11 \), so \( x = \frac{-3 \pm 11}{2} \).</p>]]></text></generalfeedback>
    <single>true</single>
    <answer fraction="100"><text>\( x = 4 \) or \( x = -7 \)</text></answer>
    <answer fraction="0"><text>\( x = -4 \) or \( x = 7 \)</text></answer>
    <answer fraction="0"><text>\( x = \frac{3}{2} \)</text></answer>
  </question>
  <question type="numerical">
    <name><text>Integral</text></name>
    <questiontext format="html"><text><![CDATA[<p>What is $$\int_0^3 x^2 \, dx$$?</p>]]></text></questiontext>
    <answer fraction="100"><text>9</text><tolerance>0</tolerance></answer>
  </question>
</quiz>
"""


def test_a_maths_bank_from_moodle_is_played_with_its_formulas_laid_out(server, browser, tmp_path, screenshot):
    bank = tmp_path / "algebra.xml"
    bank.write_text(BANK)
    author, _ = author_signed_in(browser, server)
    by_id(author, "file").send_keys(str(bank))
    click_id(author, "preview-button")
    click_id(author, "import-button")
    quiz_link = next(link for link in author.find_elements(By.CSS_SELECTOR, "#manage-quizzes .quiz-link") if link.text == "algebra")
    quiz_id = int(quiz_link.get_attribute("href").rstrip("/").split("/")[-1])

    player = open_browser(browser, server, size=PHONE)
    register(player, new_username("maths"))
    player.get(server.url + f"/quizzes/{quiz_id}")
    click_id(player, "start-quiz")
    found = []

    formulas = player.find_elements(By.CSS_SELECTOR, "#question-text math")
    assert len(formulas) == 2
    assert formulas[0].get_attribute("display") == "block"
    # Chromium lays MathML out itself: a fraction has height, a block formula width.
    assert all(formula.size["width"] > 20 and formula.size["height"] > 10 for formula in formulas)
    fraction = player.find_element(By.CSS_SELECTOR, "#question-text mfrac")
    assert fraction.size["height"] > 25, "numerator over denominator"
    choices = player.find_elements(By.CSS_SELECTOR, ".answer-tile .answer-text math")
    assert len(choices) >= 4
    shown = player.find_element(By.TAG_NAME, "main").text
    assert "$$" not in shown and "\\frac" not in shown and "\\(" not in shown
    axe(player, "maths question", found)
    screenshot(player, "question-maths")

    # The right tile, found by the TeX its formulas keep for screen readers.
    right = next(tile for tile in player.find_elements(By.CSS_SELECTOR, ".answer-tile")
                 if [a.get_attribute("textContent").strip() for a in tile.find_elements(By.TAG_NAME, "annotation")] == ["x = 4", "x = -7"])
    right.click()
    click_id(player, "submit-answer")
    explanation = by_id(player, "explanation")
    assert len(explanation.find_elements(By.TAG_NAME, "math")) == 2
    assert "\\sqrt" not in explanation.text
    axe(player, "maths answered", found)
    assert not found, "\n".join(found)
