"""Screenshots of the playground's main states, for docs/ and the README.

Starts `cnl2sparql ui` over the Nolan slice of ../shared/data (or --store DIR) and drives the page
in headless Chromium: the answers to a question, the completion list after "has", an error
underlined with the parser's message, a term's tooltip. Writes PNGs to --out (default docs/).

    python scripts/playground_screenshots.py [--store DIR] [--out docs]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="an embedded store (default: the Nolan slice of ../shared/data)")
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args(argv)
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from tests.browser import (Playground, accept_completion, completion_options, start_browser, wait,
                               wait_for_answers)

    work = Path(tempfile.mkdtemp(prefix="cnl-screenshots-"))
    if args.store:
        store = Path(args.store)
    else:
        from cnl.datasets.paths import data_dir
        from tests.agent_fixtures import load_store, nolan_slice

        store = load_store(nolan_slice(data_dir()), work / "store")
    out = Path(args.out)
    server = Playground(store, work / "ui.log")
    driver = start_browser(1100, 1250)
    try:
        def shot(name):
            path = out / f"playground-{name}.png"
            driver.save_screenshot(str(path))
            print(f"wrote {path}", file=sys.stderr)

        def ready():
            wait(driver, lambda d: d.execute_script("return document.body.classList.contains('ready')"), 30)

        driver.get(server.url)
        ready()
        driver.find_element(By.ID, "question").send_keys("Who directed Inception?", Keys.ENTER)
        wait_for_answers(driver)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".cm-term-entity"), 30)
        shot("answers")

        editor = driver.find_element(By.CSS_SELECTOR, "#editor .cm-content")
        editor.click()
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
        ActionChains(driver).send_keys("which [film] has ").perform()
        wait(driver, lambda d: "<director>" in completion_options(d), 60)
        shot("completion")
        accept_completion(driver, "<director>")
        ActionChains(driver).send_keys(Keys.ESCAPE, "[Christopher Nolan]? ").perform()
        term = driver.find_element(By.CSS_SELECTOR, ".cm-term-property") if wait(
            driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".cm-term-property"), 30) else None
        ActionChains(driver).move_to_element(term).perform()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".term-card"), 30)
        shot("tooltip")

        ActionChains(driver).move_to_element(driver.find_element(By.TAG_NAME, "h1")).perform()
        editor.click()
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
        ActionChains(driver).send_keys("which [film] has has <director> [Christopher Nolan]?").perform()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".cm-lintRange-error"), 60)
        wait(driver, lambda d: d.find_element(By.ID, "cnl-error").is_displayed(), 30)
        shot("error")
    finally:
        driver.quit()
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
