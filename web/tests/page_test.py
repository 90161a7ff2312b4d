#!/usr/bin/env python3
"""The page in a real browser (issue 40): Debian's headless Chromium, driven over its DevTools
protocol (python3-websocket), loads build-web/site from a local server at a phone's 390x844.

  1. One share link per game (an NT attack, an SS siege, an AR attack, a GL battle with a fort and
     leaders) opens the page, which answers by itself; the DOM's headline is the native CLI's
     (the table's first paragraph for the same words) and every outcome bar reads the percentage of
     the native CLI's JSON for the same inputs.
  2. A bad input shows the native CLI's one-line error, beside the field it names.
  3. With the server stopped, a new load still answers (the service worker's cache).
  4. A sweep's share link draws the sweep's JSON as a chart: a mark per row, each reading the CLI's
     value, its axes and lines named as the CLI's own chart (`--plot`) names them.
  5. Great Lakes units filled in through their fields (name, type, SP, max, morale, dice, crossing)
     and the fort's dice, SP and morale give the text, share link and answer of the CLI, and the type list is the one the CLI allows;
     so does an American Revolution force filled in by type letter.
  6. The Great Lakes leaders are choice lists, each side's leaders those the CLI allows it, and a
     leader chosen there gives the CLI's answer.
With --screenshots DIR, each game's answer is saved as DIR/web-<game>.png, the sweep's as
DIR/web-gl-sweep.png and the filled-in units as DIR/web-gl-units.png.

usage: web/tests/page_test.py SITE_DIR NATIVE_MUSKET SOURCE_DIR [--screenshots DIR]
"""
import base64
import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import websocket  # python3-websocket

LINKS = {
    "nt": ["nt", "battle", "--attacker", "crown", "--terrain", "city", "--att-units", "6", "--att-leaders", "1",
           "--att-war", "5", "--def-units", "4", "--def-leaders", "1", "--def-war", "3"],
    "ss": ["ss", "siege", "--food", "3", "--resupply", "1/6", "--turns", "10"],
    "ar": ["ar", "battle", "--attacker", "15M,8C", "--defender", "3T,8B"],
    # README's worked battle: Brown's Americans against the 104th and Lincoln militia in a fort, Riall with them.
    "gl": ["gl", "battle", "--att", "11th Infantry:regular:4/4:5:3", "--att", "Towson:artillery:3/3:5:5",
           "--att", "NY Militia:militia:2/3:3:2:river", "--def", "104th Foot:regular:4/4:5:4",
           "--def", "Lincoln Militia:militia:3/3:3:3", "--fort", "2:2:4", "--att-leader", "Brown",
           "--def-leader", "Riall"],
}
# A sweep over the Great Lakes fort's SP, two metrics (README's example, widened).
SWEEP = ["gl", "sweep", "battle", "--att", "11th Infantry:regular:4/4:5:3", "--def", "104th Foot:regular:4/4:5:4",
         "--fort", "2:2:4", "--method", "exact", "--vary", "fort.sp=0..4", "--metric", "outcomes.attacker_wins",
         "--metric", "outcomes.defender_holds"]
BAD = ["nt", "battle", "--attacker", "crown", "--terrain", "city", "--att-units", "0", "--att-war", "5", "--def-units", "4",
       "--def-war", "3"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def link(base, words):
    """The page's share link for `musket <words>` (app.js's hash: #game/command?name=value&...); a
    sweep's command (`gl sweep battle ...`) is its `command` value."""
    query = []
    rest = words[2:]
    if words[1] == "sweep":
        query.append(("command", rest[0]))
        rest = rest[1:]
    i = 0
    while i < len(rest):
        name = rest[i][2:]
        if i + 1 < len(rest) and not rest[i + 1].startswith("--"):
            query.append((name, rest[i + 1]))
            i += 2
        else:
            query.append((name, ""))
            i += 1
    return f"{base}#{words[0]}/{words[1]}?{urllib.parse.urlencode(query)}"


def percent(p):
    """A probability as the CLI's table and the page print it (cli/number_text.cpp)."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    if p < 1e-6:
        return "<0.0001%"
    if p > 1 - 1e-6:
        return ">99.9999%"
    for d in range(1, 5):
        t = f"{p * 100:.{d}f}"
        if float(t) not in (0.0, 100.0):
            return t + "%"
    return f"{p * 100:.4f}%"


class Browser:
    def __init__(self, profile):
        self.port = free_port()
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", f"--remote-debugging-port={self.port}", f"--user-data-dir={profile}",
             "--window-size=390,844", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=1))
                page = next(t for t in targets if t["type"] == "page")
                break
            except Exception:
                time.sleep(0.1)
        else:
            raise RuntimeError("chromium did not start")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=120)
        self.next_id = 0
        self.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url):
        self.call("Page.navigate", url="about:blank")
        self.call("Page.navigate", url=url)

    def wait_for(self, expression, seconds=120):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
                if value:
                    return value
            except RuntimeError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {expression}")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        finally:
            self.process.terminate()
            self.process.wait(10)


def native(musket, source, words, fmt):
    done = subprocess.run([musket] + words + ["--format", fmt], cwd=source, capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "72"})
    return done.returncode, done.stdout, done.stderr


SHOWN = """(() => ({
  state: document.body.dataset.state || '',
  headline: (document.getElementById('headline') || {}).textContent || '',
  outcomes: [...document.querySelectorAll('#answer .section:first-of-type .row, #answer .section .row')]
    .filter((r) => r.closest('.section').dataset.key === OUTCOME_KEY)
    .map((r) => [r.dataset.key, r.querySelector('.value').textContent]),
  error: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,
}))()"""


def timeless(text):
    """The words of a headline, its line breaks aside, with a solve's own time taken out."""
    return re.sub(r"\b\d+(\.\d+)?(e-?\d+)? s\b", "N s", " ".join(text.split()))


def verdict(problems, line):
    """Prints a check's line, ok or FAILS, and each of its problems; true when it failed."""
    print(f"{'FAILS' if problems else 'ok'}: {line}")
    for p in problems:
        print(f"  {p}")
    return bool(problems)


def editor_verdict(problems, what, offered, allowed, line):
    """The end of an editor's check: the words the page offers (`what`: unit types, type letters)
    are those the CLI allows, in its order; then the check's line."""
    if offered != allowed:
        problems.append(f"{what} {offered}, the CLI allows {allowed}")
    return verdict(problems, line)


def check_answer(browser, musket, source, words, screenshots, name):
    code, out, err = native(musket, source, words, "json")
    assert code == 0, err
    doc = json.loads(out)
    # The first section of probabilities by name (outcomes, or the command's first such key).
    key = next(k for k, v in doc.items() if isinstance(v, dict) and v and k not in ("inputs", "method", "exact", "stats")
               and all(isinstance(x, (int, float)) and 0 <= x <= 1 for x in v.values()))
    browser.wait_for("document.body.dataset.state === 'headlined'")
    shown = browser.evaluate(SHOWN.replace("OUTCOME_KEY", json.dumps(key)))
    _, table, _ = native(musket, source, words, "table")
    expected_headline = table.split("\n\n")[0]
    problems = []
    # A solve's own time ("exact over 133 states in 0.0005 s") differs run to run; all else must not.
    if timeless(shown["headline"]) != timeless(expected_headline):
        problems.append(f"headline {shown['headline']!r}, the CLI's {expected_headline!r}")
    expected = [[k, "-" if v == 0 else percent(v)] for k, v in doc[key].items()]
    if shown["outcomes"] != expected:
        problems.append(f"{key} {shown['outcomes']}, the CLI's {expected}")
    if screenshots:
        browser.evaluate("window.scrollTo(0, document.getElementById('answer').offsetTop - 8)")
        browser.screenshot(os.path.join(screenshots, f"web-{name}.png"))
    return problems, shown


def check_sweep(browser, base, musket, source, screenshots):
    """A sweep's share link: the page draws the sweep's JSON as a chart, a mark per row of its
    points, each mark's value the CLI's."""
    browser.open(link(base, SWEEP))
    browser.wait_for("document.body.dataset.state === 'headlined'")
    code, out, err = native(musket, source, SWEEP, "json")
    assert code == 0, err
    rows = json.loads(out)["points"]
    shown = browser.evaluate("""[...document.querySelectorAll('#answer svg.sweep-chart .point')]
      .map((p) => [p.dataset.x, p.dataset.series, p.dataset.value || null])""")
    names = browser.evaluate("""(() => {
      const text = (cls) => [...document.querySelectorAll(`#answer svg.sweep-chart .${cls}`)].map((t) => t.textContent);
      return {x: text('x-label'), y: text('y-label'),
              lines: [...document.querySelectorAll('#answer .sweep .legend li')].map((li) => li.textContent)};
    })()""")
    problems = []
    if len(shown) != len(rows):
        problems.append(f"{len(shown)} marks for the JSON's {len(rows)} rows")
    axis = SWEEP[SWEEP.index("--vary") + 1].split("=")[0]
    for row in rows:
        text = percent(row["value"]) if isinstance(row["value"], (int, float)) else None
        if not any(x == str(row[axis]) and v == text for x, _, v in shown):
            problems.append(f"no mark at {axis}={row[axis]} reading {text} (the CLI's {row['value']})")
    # The names the CLI's own chart of the same sweep gives its axes and lines (cli/chart.cpp's SVG).
    with tempfile.TemporaryDirectory() as folder:
        plot = os.path.join(folder, "sweep.svg")
        code, _, err = native(musket, source, SWEEP + ["--plot", plot], "json")
        assert code == 0, err
        with open(plot, encoding="utf-8") as f:
            cli_svg = f.read()
    cli_names = {key: [html.unescape(t) for t in re.findall(rf'<text class="{cls}"[^>]*>([^<]*)</text>', cli_svg)]
                 for key, cls in (("x", "x-label"), ("y", "y-label"), ("lines", "legend-entry"))}
    if names != cli_names:
        problems.append(f"the chart's names {names}, the CLI's chart's {cli_names}")
    if browser.evaluate("!!document.querySelector('#answer .section[data-key=\"labels\"]')"):
        problems.append("the sweep's labels are shown as a section of their own, not only as the chart's names")
    if screenshots:
        browser.evaluate("window.scrollTo(0, document.getElementById('answer').offsetTop - 8)")
        browser.screenshot(os.path.join(screenshots, "web-gl-sweep.png"))
    return verdict(problems, f"a sweep's share link draws {len(shown)} marks for the JSON's {len(rows)} rows, each "
                   f"reading the CLI's value, axes and lines named as the CLI's chart names them ({names['x'][0]!r} "
                   f"by {names['y'][0]!r})" if names["x"] and names["y"] else "a sweep's chart has no axis names")


FILL_UNIT = """(async () => {
  const set = (input, value) => {
    if (input.type === 'checkbox') input.checked = value; else input.value = value;
    input.dispatchEvent(new Event(input.tagName === 'SELECT' || input.type === 'checkbox' ? 'change' : 'input',
                                  {bubbles: true}));
  };
  const fill = (option, index, unit) => {
    const field = document.querySelector(`.field[data-option="${option}"]`);
    while (field.querySelectorAll('.unit').length <= index) field.querySelector(':scope > button').click();
    const row = field.querySelectorAll('.unit')[index];
    for (const [cls, value] of Object.entries(unit)) set(row.querySelector('.unit-' + cls), value);
  };
  const types = [...document.querySelector('.field[data-option="att"] .unit-type').options].map((o) => o.value);
  UNITS
  document.body.dataset.state = '';
  document.getElementById('run').click();
  return types;
})()"""


def check_unit_fields(browser, base, musket, source, screenshots):
    """Great Lakes units filled in through their fields: the command line and the share link hold
    the text `musket` takes, the answer is the CLI's for it, and the type list is the CLI's."""
    browser.open(base + "#gl/battle")
    browser.wait_for("!!document.querySelector('.field[data-option=\"att\"] .unit')")
    units = [("att", 0, {"name": "11th Infantry", "type": "regular", "sp": "4", "max": "4", "morale": "5", "dice": "3"}),
             ("att", 1, {"name": "NY Militia", "type": "militia", "sp": "2", "max": "3", "morale": "3", "dice": "2",
                         "crossing": "river"}),
             ("def", 0, {"name": "104th Foot", "type": "regular", "sp": "4", "max": "", "morale": "5", "dice": "4"})]
    fort = "".join(f"set(document.querySelector('.field[data-option=\"fort\"] .part-{k}'), '{v}');"
                   for k, v in (("dice", 2), ("sp", 2), ("morale", 4)))
    script = FILL_UNIT.replace("UNITS", "\n".join(f"fill({json.dumps(o)}, {i}, {json.dumps(u)});"
                                                 for o, i, u in units) + fort)
    types = browser.evaluate(script)
    words = ["gl", "battle", "--att", "11th Infantry:regular:4/4:5:3", "--att", "NY Militia:militia:2/3:3:2:river",
             "--def", "104th Foot:regular:4:5:4", "--fort", "2:2:4"]
    problems, _ = check_answer(browser, musket, source, words, None, "units")
    if screenshots:
        browser.evaluate("window.scrollTo(0, document.querySelector('.field[data-option=\"att\"]').offsetTop - 8)")
        browser.screenshot(os.path.join(screenshots, "web-gl-units.png"))
    # The default options the form leaves alone are not in the link; the units are, in order.
    shown = browser.evaluate("({line: document.getElementById('cli-line').textContent, hash: location.hash})")
    expected_line = "musket gl battle --att '11th Infantry:regular:4/4:5:3' --att NY Militia:militia:2/3:3:2:river"
    if not shown["line"].startswith(expected_line.replace("--att NY", "--att 'NY").replace(":river", ":river'")):
        problems.append(f"command line {shown['line']!r}")
    if not link(base, words).endswith(shown["hash"]) or "def=104th+Foot%3Aregular%3A4%3A5%3A4" not in shown["hash"]:
        problems.append(f"share link {shown['hash']!r}, expected {link(base, words)!r}")
    # The type list is the one the CLI's refusal names (calc/great_lakes/scenario.cpp allowed_unit_types).
    _, _, err = native(musket, source, ["gl", "battle", "--att", "x:none:1:1:1", "--def", "y:regular:1:1:1"], "json")
    allowed = err.split("allowed: ")[-1].strip().split(", ")
    return editor_verdict(problems, "unit types", types, allowed,
                          "Great Lakes units and fort filled in through their fields give the CLI's text, link and answer")


FILL_FORCE = """(() => {
  const fill = (option, counts) => {
    const field = document.querySelector(`.field[data-option="${option}"]`);
    for (const [letter, count] of counts) {
      const input = field.querySelector('.force-' + letter);
      input.value = count;
      input.dispatchEvent(new Event('input', {bubbles: true}));
    }
  };
  const letters = [...document.querySelectorAll('.field[data-option="attacker"] .force input[type=number]')]
    .map((i) => i.className.slice(6));
  FORCES
  document.body.dataset.state = '';
  document.getElementById('run').click();
  return letters;
})()"""


def check_force_fields(browser, base, musket, source):
    """An American Revolution force filled in by type: the text keeps the order the counts came in,
    the answer is the CLI's, and the letters are the ones the CLI allows."""
    browser.open(base + "#ar/battle")
    browser.wait_for("!!document.querySelector('.field[data-option=\"attacker\"] .force')")
    forces = [("attacker", [["M", "15"], ["C", "8"]]), ("defender", [["T", "3"], ["B", "8"]])]
    letters = browser.evaluate(FILL_FORCE.replace("FORCES", "\n".join(f"fill({json.dumps(o)}, {json.dumps(c)});"
                                                                          for o, c in forces)))
    words = ["ar", "battle", "--attacker", "15M,8C", "--defender", "3T,8B"]
    problems, _ = check_answer(browser, musket, source, words, None, "forces")
    shown = browser.evaluate("({line: document.getElementById('cli-line').textContent, hash: location.hash})")
    if shown["line"] != "musket " + " ".join(words) or not link(base, words).endswith(shown["hash"]):
        problems.append(f"command line {shown['line']!r}, link {shown['hash']!r}")
    _, _, err = native(musket, source, ["ar", "battle", "--attacker", "1X", "--defender", "1B"], "json")
    allowed = re.findall(r"\b([A-Z]+) \(", err)
    return editor_verdict(problems, "type letters", letters, allowed,
                          "an American Revolution force filled in by type gives the CLI's text, link and answer")


LEADERS = """Object.fromEntries(['att-leader', 'def-leader'].map((option) => {
  const select = document.querySelector(`.field[data-option="${option}"] select.words`);
  return [option, select && {
    chosen: select.value,
    first: [select.options[0].value, select.options[0].text],
    groups: Object.fromEntries([...select.querySelectorAll('optgroup')]
      .map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.value)]))}];
}))"""


def check_leader_choices(browser, base, musket, source):
    """The Great Lakes leaders: each a choice list of none and the leaders by side, each side's
    those the CLI allows it (its refusal of a made-up leader names them, for each side of
    data/gl/commanders.json), a link's leaders chosen in it; a leader chosen there gives the CLI's answer."""
    words = LINKS["gl"]
    browser.open(link(base, words))
    problems, _ = check_answer(browser, musket, source, words, None, "leaders")
    with open(os.path.join(source, "data", "gl", "commanders.json"), encoding="utf-8") as f:
        sides = sorted({c["side"] for c in json.load(f)["commanders"]})
    allowed = {}
    for side in sides:
        _, _, err = native(musket, source, ["gl", "battle", "--att", "x:regular:1:1:1", "--def", "y:regular:1:1:1",
                                            "--att-side", side, "--att-leader", "Nobody"], "json")
        found = re.search(rf"allowed for the {side} side: (.*?) \(GL", err)
        allowed[side] = found.group(1).split(", ") if found else err.strip()
    shown = browser.evaluate(LEADERS)
    chosen = {o: words[words.index("--" + o) + 1] for o in ("att-leader", "def-leader")}
    for option, leaders in shown.items():
        if not leaders:
            problems.append(f"--{option} is no choice list")
            continue
        if leaders["first"] != ["", "none"] or leaders["chosen"] != chosen[option]:
            problems.append(f"--{option} starts with {leaders['first']} and holds {leaders['chosen']!r}, "
                            f"the link's {chosen[option]!r}")
        if leaders["groups"] != allowed:
            problems.append(f"--{option} offers {leaders['groups']}, the CLI allows {allowed}")
    # Another leader chosen in the list: the command line and answer are the CLI's for that name.
    side = next((s for s, names in allowed.items() if chosen["att-leader"] in names), None)
    other = next((n for n in allowed.get(side, []) if n != chosen["att-leader"]), None)
    if other is None:
        problems.append(f"no other leader beside {chosen['att-leader']} on its side in {allowed}")
        return verdict(problems, "the Great Lakes leaders are choice lists of the CLI's leaders by side")
    browser.evaluate(f"""(() => {{
      const select = document.querySelector('.field[data-option="att-leader"] select.words');
      select.value = {json.dumps(other)};
      select.dispatchEvent(new Event('change', {{bubbles: true}}));
      document.body.dataset.state = '';
      document.getElementById('run').click();
    }})()""")
    words = [other if i > 0 and words[i - 1] == "--att-leader" else w for i, w in enumerate(words)]
    more, _ = check_answer(browser, musket, source, words, None, "leaders")
    return verdict(problems + more, f"the Great Lakes leaders are choice lists of the CLI's leaders by side "
                   f"({allowed}), and {other} chosen there gives the CLI's answer")


def main():
    args = sys.argv[1:]
    screenshots = None
    if "--screenshots" in args:
        at = args.index("--screenshots")
        screenshots = args[at + 1]
        del args[at:at + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    site, musket, source = args
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", site], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    profile = tempfile.mkdtemp(prefix="musket-page-test-")
    browser = None
    failures = 0
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base, timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        browser = Browser(profile)
        for name, words in LINKS.items():
            started = time.monotonic()
            browser.open(link(base, words))
            problems, shown = check_answer(browser, musket, source, words, screenshots, name)
            cold = time.monotonic() - started
            first_ms = browser.evaluate("document.getElementById('answer').dataset.ms")
            # A warm answer: the same inputs again, the engine already loaded.
            browser.evaluate("document.body.dataset.state = ''; document.getElementById('run').click()")
            browser.wait_for("document.body.dataset.state === 'headlined'")
            warm_ms = browser.evaluate("document.getElementById('answer').dataset.ms")
            native_started = time.monotonic()
            native(musket, source, words, "json")
            native_ms = (time.monotonic() - native_started) * 1000
            status = "FAILS" if problems else "ok"
            print(f"{status}: {name} share link, {len(shown['outcomes'])} bars and the headline as the CLI's "
                  f"(load to headline {cold:.1f} s; the engine's answer {first_ms} ms first, {warm_ms} ms warm; "
                  f"native musket {native_ms:.0f} ms as a whole process)")
            for p in problems:
                print(f"  {p}")
            failures += bool(problems)

        failures += check_sweep(browser, base, musket, source, screenshots)
        failures += check_unit_fields(browser, base, musket, source, screenshots)
        failures += check_force_fields(browser, base, musket, source)
        failures += check_leader_choices(browser, base, musket, source)

        # A bad input: the CLI's one line, at the top and beside its field.
        browser.open(link(base, BAD))
        browser.wait_for("!document.getElementById('error').hidden")
        _, _, err = native(musket, source, BAD, "json")
        shown = browser.evaluate("""(() => ({error: document.getElementById('error').textContent,
          beside: (document.querySelector('.field[data-option="att-units"] .problem') || {}).textContent || ''}))()""")
        ok = shown["error"] == err.strip() and shown["beside"] == err.strip()
        print(f"{'ok' if ok else 'FAILS'}: a bad input shows the CLI's line {err.strip()!r} beside --att-units"
              + ("" if ok else f" (the page: {shown})"))
        failures += not ok

        # Offline: the service worker has cached the site; the server stops; a new load answers.
        browser.wait_for("navigator.serviceWorker.ready.then(() => caches.keys()).then((k) => k.length > 0)")
        server.terminate()
        server.wait(10)
        words = LINKS["ss"]
        browser.open(link(base, words).replace("turns=10", "turns=8"))
        words = [w if w != "10" else "8" for w in words]
        problems, _ = check_answer(browser, musket, source, words, None, "offline")
        failures += verdict(problems, "with the server stopped the page still answers (service worker)")
    finally:
        if browser:
            browser.close()
        if server.poll() is None:
            server.terminate()
        shutil.rmtree(profile, ignore_errors=True)
    print(f"page test: {'all passed' if not failures else f'{failures} failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
