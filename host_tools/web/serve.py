"""A static server for build/web on 127.0.0.1 (tests and measurements start their own),
counting the bytes it sends, and the page driven by real headless Chromium.

    with serving("build/web") as server:        # server.url, .bytes_sent, .requested
        with chromium() as browser:              # Selenium with Debian's chromedriver
            browser.get(server.url)
"""
import contextlib
import functools
import http.server
import os
import shutil
import tempfile
import threading

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# the flags every headless Chromium of the project starts with (a fresh profile each time)
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".uf2": "application/octet-stream"}

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def copyfile(self, source, outputfile):
        self.server.requested.append(self.path.split("?", 1)[0].lstrip("/") or "index.html")
        counted = _Counting(outputfile, self.server)
        super().copyfile(source, counted)


class _Counting:
    def __init__(self, stream, server):
        self.stream = stream
        self.server = server

    def write(self, data):
        self.server.bytes_sent += len(data)
        return self.stream.write(data)


@contextlib.contextmanager
def serving(folder):
    """An HTTP server for folder on 127.0.0.1 (a free port), in a thread."""
    handler = functools.partial(_Handler, directory=os.path.abspath(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.bytes_sent = 0
    server.requested = []  # the files sent, in order (paths in the folder)
    server.folder = os.path.abspath(folder)
    server.url = "http://127.0.0.1:%d/" % server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def chromium_missing():
    """Why the page cannot be driven here (one line), or None."""
    if not os.path.exists(CHROMIUM):
        return "no Chromium at %s (apt-get install chromium chromium-driver)" % CHROMIUM
    if not os.path.exists(CHROMEDRIVER):
        return "no chromedriver at %s (apt-get install chromium-driver)" % CHROMEDRIVER
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "no selenium (make venv installs it)"
    return None


@contextlib.contextmanager
def chromium(width=1200, height=900, mobile=False, language=None):
    """Headless Chromium, a fresh profile; mobile: a phone's touch screen and device pixels;
    language: the browser's language ("fr"), else Chromium's own."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="coinche-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument("--user-data-dir=" + profile)
    options.add_argument("--window-size=%d,%d" % (width, height))
    if language:
        options.add_argument("--lang=" + language)
        options.add_experimental_option("prefs", {"intl.accept_languages": language})
    if mobile:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "touch": True}})
    browser = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    browser.set_script_timeout(180)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def call(browser, expression):
    """The value a promise-returning expression on the page resolves to (JSON-like)."""
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.resolve(%s).then((value) => done({value}), (error) => done({error: String(error)}));"
        % expression)
