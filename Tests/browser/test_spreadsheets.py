"""A teacher brings their Kahoot quiz: Kahoot's own template, filled in and saved by a spreadsheet
program (here openpyxl, a reader and writer independent of Quizbox's), uploaded on the manage page,
previewed with its problem named by cell, then imported; and the quiz goes out again as Kahoot's
template."""

import urllib.request

import openpyxl
from test_journeys import author_signed_in, by_id, click_id, scroll_to, text

KAHOOT_HEADER = ["Question - max 120 characters", "Answer 1 - max 75 characters", "Answer 2 - max 75 characters",
                 "Answer 3 - max 75 characters", "Answer 4 - max 75 characters",
                 "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs", "Correct answer(s) - choose at least one"]


def kahoot_template(path, rows):
    """Kahoot's layout: instructions on top, the header in row 8 from column B, questions from row 9."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["B2"] = "Quiz template"
    sheet["B3"] = "Add questions, at least two answer alternatives, time limit and choose correct answers (at least one)."
    for column, title in enumerate(KAHOOT_HEADER, start=2):
        sheet.cell(row=8, column=column, value=title)
    for number, row in enumerate(rows, start=1):
        sheet.cell(row=8 + number, column=1, value=number)
        for column, value in enumerate(row, start=2):
            if value is not None:
                sheet.cell(row=8 + number, column=column, value=value)
    book.save(path)


def test_a_teacher_uploads_kahoots_template_previews_it_and_imports_it(server, browser, tmp_path):
    bank = tmp_path / "Solar system.xlsx"
    kahoot_template(bank, [
        ["Which planet is largest?", "Mars", "Jupiter", "Venus", None, 20, "2"],
        ["Which are gas giants?", "Saturn", "Earth", "Neptune", "Mercury", 30, "1,3"],
        ["The Sun is a star.", "True", "False", None, None, 10, 1],
        ["In which year did Apollo 11 land?", 1969, 1970, None, None, 20, None],
    ])
    driver, _ = author_signed_in(browser, server)

    by_id(driver, "file").send_keys(str(bank))
    click_id(driver, "preview-button")
    assert "Nothing was imported" in text(driver, "import-feedback")
    problems = text(driver, "import-problems")
    assert "row 12, column H: no correct answer" in problems, problems

    # Skip the broken row: the same upload, previewed again.
    scroll_to(driver, by_id(driver, "skip_invalid"))
    by_id(driver, "skip_invalid").click()
    click_id(driver, "preview-button")
    feedback = text(driver, "import-feedback")
    assert "Read as xlsx: 3 questions (1 multiple choice, 1 single choice, 1 true or false)" in feedback, feedback
    assert "Skipped: row 12, column H" in text(driver, "import-problems")

    click_id(driver, "import-button")
    assert "Imported 3 questions into a new quiz." in text(driver, "import-feedback")
    link = next(a for a in driver.find_elements("css selector", "#manage-quizzes li") if "Solar system" in a.text)
    assert "Kahoot" in link.text

    # Out again as Kahoot's template, read by openpyxl: the same questions in Kahoot's columns.
    export = link.find_element("link text", "Kahoot").get_attribute("href")
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    with urllib.request.urlopen(urllib.request.Request(export, headers={"Cookie": cookies}), timeout=30) as response:
        assert response.headers["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        (tmp_path / "out.xlsx").write_bytes(response.read())
    sheet = openpyxl.load_workbook(tmp_path / "out.xlsx").active
    assert [cell.value for cell in sheet[8]][1:8] == KAHOOT_HEADER
    rows = {sheet.cell(row=r, column=2).value: [sheet.cell(row=r, column=c).value for c in range(3, 9)] for r in range(9, 12)}
    assert rows["Which planet is largest?"] == ["Mars", "Jupiter", "Venus", None, 20, "2"]
    assert rows["Which are gas giants?"] == ["Saturn", "Earth", "Neptune", "Mercury", 30, "1,3"]  # its own time, kept from the upload
    assert rows["The Sun is a star."] == ["True", "False", None, None, 10, "1"]
