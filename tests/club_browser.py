"""The club's pages in a real browser: `serve` started on 127.0.0.1 (any free port) and
Debian's headless Chromium through its chromedriver; the tests that need them skip with
the reason when either is missing."""
import io
import json
import os
import re
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from host_tools.club.cli import main

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PASSWORD = "tapis vert 2026"


def club(db, *argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(["--db", str(db)] + [str(a) for a in argv], out, err)
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


def need_chromium():
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        pytest.skip("Debian's chromium and chromium-driver are not installed (%s, %s)" % (CHROMIUM, CHROMEDRIVER))


def pdf_info(path):
    """What pdfinfo says of the PDF at path (Debian's poppler-utils; the test skips without it)."""
    import shutil
    if shutil.which("pdfinfo") is None:
        pytest.skip("Debian's poppler-utils is not installed (pdfinfo)")
    return subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout


class Server:
    """`python -m host_tools.club --db DB serve` as the organiser starts it."""

    def __init__(self, db, refresh, port=0, password=PASSWORD, broker=None):
        self.db, self.refresh = db, refresh
        env = dict(os.environ, CLUB_PASSWORD=password)
        self.proc = subprocess.Popen([sys.executable, "-m", "host_tools.club", "--db", str(db), "serve", "--host",
                                      "127.0.0.1", "--port", str(port), "--refresh", str(refresh)]
                                     + (["--broker", broker] if broker else []), cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.base = None
        deadline = time.monotonic() + 30
        while self.base is None and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            found = re.match(r"projector: (http://127\.0\.0\.1:(\d+))/projector", line)
            if found:
                self.base, self.port = found.group(1), int(found.group(2))
        if self.base is None:
            self.proc.kill()
            pytest.fail("the server did not start: %s" % self.proc.stderr.read())

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()
        self.proc.stderr.close()


def chromium(profile, width=1280, height=720):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--hide-scrollbars", "--window-size=%d,%d" % (width, height), "--user-data-dir=%s" % profile):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    return driver


def screen(browser, width, height, mobile=False):
    """The page's viewport exactly width x height CSS pixels (the window's frame aside)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def wait_for(condition, seconds=10):
    """condition()'s first true value; a page replaced under it (a reload, a form sent)
    counts as not yet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition()
        except (NoSuchElementException, StaleElementReferenceException):
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("not within %d s" % seconds)


def text(browser, css):
    from selenium.webdriver.common.by import By
    return browser.find_element(By.CSS_SELECTOR, css).text


def shown(browser, css):
    """The text of css once the page shows it (after a form was sent)."""
    return wait_for(lambda: text(browser, css))


def sign_in(browser, base, password=PASSWORD):
    from selenium.webdriver.common.by import By
    browser.get(base + "/admin/login")
    field = browser.find_element(By.ID, "password")
    field.clear()
    field.send_keys(password)
    browser.execute_script("window.signingIn = true")
    browser.find_element(By.ID, "sign-in").click()
    # the click only starts the answer's navigation: wait for the page it brings (whether
    # the admin page or the login page again), or a loaded machine's next look sees the old
    # one.  A mark on the old page's window, gone on the new one: asking an element of the
    # old page whether it is stale can itself fail while Chromium swaps the documents.
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    def the_new_page(driver):
        try:
            return driver.execute_script("return window.signingIn === undefined && document.readyState === 'complete'")
        except WebDriverException:  # between the two documents
            return False
    WebDriverWait(browser, 30).until(the_new_page)


def print_pdf(browser, path):
    """The page printed as Chromium prints it (its CSS page size), written to path."""
    import base64
    answer = browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": True})
    with open(path, "wb") as f:
        f.write(base64.b64decode(answer["data"]))
    return path
