"""The audit report in a real browser: headless Chromium (Debian's chromium and
chromium-driver, driven by selenium, which never downloads one) opens the page made from
real answers and is used as a reviewer would use it; a 10,000-answer page must open at
once. Skipped only where Chromium or its driver is not installed."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from affidavit import Memory
from affidavit.report.page import write_report

if TYPE_CHECKING:
    from selenium import webdriver

# Whether selenium is installed, asked without importing it: nothing a test module imports
# at collection is loaded into the process the other tests run in.
pytestmark = pytest.mark.skipif(
    find_spec("selenium") is None, reason="selenium (the test extra) is not installed"
)

DEMO = Path(__file__).resolve().parents[2] / "corpora" / "demo"
MPL = Path(__file__).resolve().parents[2] / "corpora" / "licences" / "mpl-2.0.txt"
QUESTIONS = [
    "Who conquered England in 1066?",
    "What is the price of a hot meal?",
    "What is the percentage change in Other in 2019 from 2018?",
    "Who was the first president of the Galactic Senate?",  # refused: weak_evidence
    "Which regulation requires a harness for work at height?",
]
# An input error whose message would run script if the page ever wrote it as HTML.
HOSTILE = '<script>window.pwned = 1</script><img src="data:," onerror="window.pwned = 2">'


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        pytest.skip("no Chromium: install Debian's chromium and chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
    ):
        options.add_argument(argument)
    chrome = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    yield chrome
    chrome.quit()


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """A store of the demo corpus, and its answers to QUESTIONS as a batch writes them,
    with one input error last."""
    store = tmp_path_factory.mktemp("browser-report") / "demo.sqlite"
    with Memory(store) as memory:
        memory.ingest([file.resolve() for file in sorted(DEMO.iterdir())])
        rows: list[dict[str, Any]] = [
            {"id": f"q{n}", "line": n, **memory.ask(question).to_dict()}
            for n, question in enumerate(QUESTIONS, start=1)
        ]
    rows.append({"id": None, "line": len(rows) + 1, "error": HOSTILE})
    return store, rows


def written(folder: Path, store: Path, rows: list[dict[str, Any]]) -> Path:
    answers = folder / "answers.jsonl"
    answers.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with Memory(store, read_only=True, dense=False) as memory:  # as `affidavit report`
        return write_report(answers, memory, folder / "report.html").out


def opened(browser: webdriver.Chrome, page: Path) -> int:
    """Opens ``page`` and returns the ms from navigation to its first screen drawn."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    browser.get(page.as_uri())
    html = browser.find_element(By.TAG_NAME, "html")
    WebDriverWait(browser, 30).until(lambda _: html.get_attribute("data-render-ms"))
    return int(html.get_attribute("data-render-ms") or 0)


def shown(browser: webdriver.Chrome) -> int:
    from selenium.webdriver.common.by import By

    return int(browser.find_element(By.ID, "shown").get_attribute("data-shown") or -1)


def drawn(browser: webdriver.Chrome) -> list[Any]:
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, "#questions .item")


def keys(browser: webdriver.Chrome, *typed: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(*typed).perform()  # to whatever has the focus


def test_a_reviewer_counts_filters_checks_and_moves_through_answers(
    browser: webdriver.Chrome, asked: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    store, rows = asked
    opened(browser, written(tmp_path, store, rows))

    def count(key: str) -> int:
        return int(browser.find_element(By.CSS_SELECTOR, f'[data-count="{key}"] .n').text)

    questions = [row for row in rows if "question" in row]
    assert count("answered") == sum(not row["refused"] for row in questions) == 4
    assert count("refused") == sum(row["refused"] for row in questions) == 1
    assert (count("errors"), count("changed")) == (1, 0)
    assert shown(browser) == len(drawn(browser)) == len(rows) == 6
    assert browser.find_element(By.ID, "shown").text == "6 of 6 shown"

    # The hostile input error is shown as the text it is, and ran nothing.
    error = browser.find_element(By.CSS_SELECTOR, '.item[data-outcome="input error"]')
    assert HOSTILE in error.get_property("textContent")
    assert browser.execute_script("return window.pwned") is None

    # Filtering by a refusal reason hides every other question.
    Select(browser.find_element(By.ID, "outcome")).select_by_value("weak_evidence")
    (refusal,) = drawn(browser)
    assert refusal.get_attribute("data-outcome") == "weak_evidence" and shown(browser) == 1
    assert QUESTIONS[3] in refusal.text
    Select(browser.find_element(By.ID, "outcome")).select_by_value("")
    assert shown(browser) == len(drawn(browser)) == 6

    # A citation shows the stored line, with the answer's words marked in it.
    first = drawn(browser)[0]
    cited = first.find_element(By.CSS_SELECTOR, ".citation blockquote.cited")
    citation = rows[0]["citations"][0]
    with Memory(store, read_only=True, dense=False) as memory:
        line = memory.line(citation["document"], citation["position"])
    assert line is not None and cited.get_property("textContent") == line.text
    marked = [m.get_property("textContent") for m in cited.find_elements(By.TAG_NAME, "mark")]
    assert marked == [rows[0]["text"]] and rows[0]["text"] in line.text  # "Duke William II"
    assert not first.find_elements(By.CSS_SELECTOR, ".flag-text")

    # j and k (and the arrows) move between the shown questions.
    browser.find_element(By.TAG_NAME, "h1").click()  # out of the filter just used
    keys(browser, "j")
    assert browser.switch_to.active_element.get_attribute("data-index") == "0"
    keys(browser, "j", "j")
    assert browser.switch_to.active_element.get_attribute("data-index") == "2"
    keys(browser, "k")
    assert browser.switch_to.active_element.get_attribute("data-index") == "1"
    keys(browser, Keys.ARROW_DOWN)
    assert "current" in browser.switch_to.active_element.get_attribute("class")
    assert browser.switch_to.active_element.get_attribute("data-index") == "2"

    # / goes to the search box; the count follows the search; Escape clears it.
    keys(browser, "/")
    assert browser.switch_to.active_element.get_attribute("id") == "search"
    keys(browser, "hot meal")
    WebDriverWait(browser, 5).until(lambda b: shown(b) == 1)
    assert QUESTIONS[1] in drawn(browser)[0].text
    keys(browser, Keys.ESCAPE)
    WebDriverWait(browser, 5).until(lambda b: shown(b) == 6)
    assert browser.find_element(By.ID, "search").get_property("value") == ""

    browser.save_screenshot(str(tmp_path / "report.png"))
    assert (tmp_path / "report.png").stat().st_size > 10_000

    # Printed: no controls, every shown question expanded.
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert browser.find_element(By.ID, "controls").value_of_css_property("display") == "none"
    more = browser.find_elements(By.CSS_SELECTOR, ".item .more")
    assert len(more) == len(browser.find_elements(By.CSS_SELECTOR, ".item .toggle")) > 0
    assert all(box.value_of_css_property("display") == "block" for box in more)


def test_a_page_of_claims_alone_shows_them_without_the_question_filters(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    store = tmp_path / "mpl.sqlite"
    with Memory(store, dense=False) as memory:
        memory.ingest(MPL)
        rows = list(
            memory.batch(
                [
                    {
                        "id": "kept",
                        "claim": "You must not remove the substance of any license notices.",
                    },
                    {
                        "id": "broken",
                        "claim": "You may remove the substance of any license notices.",
                    },
                ],
                workers=1,
                progress=False,
            )
        )
    opened(browser, written(tmp_path, store, rows))
    for hidden in ("controls", "questions", "empty"):
        assert not browser.find_element(By.ID, hidden).is_displayed()
    claims = browser.find_elements(By.CSS_SELECTOR, "#claims article.claim")
    assert [claim.get_attribute("id") for claim in claims] == ["claim-1", "claim-2"]
    assert all(claim.is_displayed() for claim in claims)
    count = browser.find_element(By.CSS_SELECTOR, '[data-count="claims-contradicted"]')
    assert count.text == "1 claim contradicted" and "warn" in count.get_attribute("class")
    # The summary's contradicted claim leads to it, its line that says otherwise shown.
    browser.find_element(By.CSS_SELECTOR, ".contradicted a[href='#claim-2']").click()
    WebDriverWait(browser, 5).until(
        lambda b: b.execute_script("return location.hash") == "#claim-2"
    )
    cited = claims[1].find_element(By.CSS_SELECTOR, ".citation blockquote.cited")
    assert cited.text.startswith("You may not remove or alter the substance")


@pytest.mark.slow
def test_ten_thousand_answers_open_at_once(
    browser: webdriver.Chrome,
    asked: tuple[Path, list[dict[str, Any]]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    store, rows = asked
    real = [row for row in rows if "question" in row]
    many = [{**real[n % len(real)], "id": f"s{n}", "line": n + 1} for n in range(10_000)]
    started = time.perf_counter()
    page = written(tmp_path, store, many)
    writing = time.perf_counter() - started

    render_ms = opened(browser, page)
    assert shown(browser) == 10_000
    first_screen = browser.execute_script("return document.querySelectorAll('.item').length")
    assert 0 < first_screen < 10_000  # drawn in chunks: the first screen before the rest
    assert QUESTIONS[0] in drawn(browser)[0].text
    html = browser.find_element(By.TAG_NAME, "html")
    WebDriverWait(browser, 30).until(lambda _: html.get_attribute("data-drawn-all-ms"))
    assert browser.execute_script("return document.querySelectorAll('.item').length") == 10_000

    Select(browser.find_element(By.ID, "outcome")).select_by_value("weak_evidence")
    assert shown(browser) == sum(row["reason"] == "weak_evidence" for row in many) == 2_000
    with capsys.disabled():
        print(
            f"\n10,000 answers: report written in {writing:.2f} s "
            f"({page.stat().st_size / 1e6:.1f} MB); first screen drawn {render_ms} ms after "
            f"navigation, all drawn at {html.get_attribute('data-drawn-all-ms')} ms"
        )
