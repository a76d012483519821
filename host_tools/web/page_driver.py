"""The page driven as a player drives it, through Selenium: on-screen buttons clicked or
held, keys pressed or held, key-planner scripts (host_tools/calculator/keys.py) typed; and what
window.scoreboard says (state, frame, figures).

    page = Page(browser, server.url)
    page.open("pico_oled", fresh=True)       # a new device: this browser's stored flash forgotten
    page.play(lines)                         # "up", "ok", "hold ok 700", "wait 500", ...
    page.state()                             # the simulator's --state-out document
"""
import base64
import time

from host_tools.web.serve import call

KEYS = {"UP": "\ue013", "DOWN": "\ue015", "OK": "\ue007", "BACK": "\ue003"}  # arrows, Enter, Backspace


class PageError(RuntimeError):
    """The page answered with an error, or not at all."""


class Page:
    def __init__(self, browser, url):
        self.browser = browser
        self.url = url

    def call(self, expression):
        answer = call(self.browser, expression)
        if answer is None or "error" in answer:
            raise PageError("%s: %s" % (expression, answer and answer["error"]))
        return answer.get("value")

    def open(self, board, fresh=False):
        """The page on board; fresh: IndexedDB and the page's settings forgotten first."""
        if fresh:
            self.browser.get(self.url + "config.json")  # same origin, without starting a device
            self.browser.execute_async_script(
                "const done = arguments[0]; localStorage.clear();"
                "const request = indexedDB.deleteDatabase('coinche-scoreboard');"
                "request.onsuccess = request.onerror = request.onblocked = () => done();")
        started = time.monotonic()
        self.browser.get("%s?board=%s" % (self.url, board))
        self.ready()
        return time.monotonic() - started

    def ready(self):
        self.call("window.scoreboard.ready()")

    def reload(self):
        self.browser.refresh()
        self.ready()

    def idle(self):
        self.call("window.scoreboard.idle()")

    def saved(self):
        self.call("window.scoreboard.saved()")

    def state(self):
        return self.call("window.scoreboard.state()")

    def stats(self):
        return self.call("window.scoreboard.stats()")

    def frame(self):
        """(fmt, w, h, data): the glass as the controller holds it, as the simulator's frames."""
        f = self.browser.execute_script("return window.scoreboard.frame()")
        return f["fmt"], f["w"], f["h"], base64.b64decode(f["data"])

    def element(self, button):
        from selenium.webdriver.common.by import By

        return self.browser.find_element(By.CSS_SELECTOR, '[data-button="%s"]' % button)

    def press(self, button, by_key=False):
        from selenium.webdriver.common.action_chains import ActionChains

        if by_key:
            ActionChains(self.browser).key_down(KEYS[button]).key_up(KEYS[button]).perform()
        else:
            self.element(button).click()

    def hold(self, button, ms, by_key=False):
        from selenium.webdriver.common.action_chains import ActionChains

        chain = ActionChains(self.browser, duration=0)
        if by_key:
            chain.key_down(KEYS[button]).pause(ms / 1000).key_up(KEYS[button])
        else:
            chain.click_and_hold(self.element(button)).pause(ms / 1000).release()
        chain.perform()

    def play(self, lines, by_key=lambda index: index % 2 == 1):
        """A simulator script's lines, each press or hold through a button or a key
        (by_key(index) says which), then waits until the device is idle."""
        index = 0
        for raw in lines:
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "wait":
                time.sleep(int(words[1]) / 1000)
                continue
            if words[0] == "hold":
                self.hold(words[1].upper(), int(words[2]), by_key(index))
            else:
                self.press(words[0].upper(), by_key(index))
            index += 1
        self.idle()
