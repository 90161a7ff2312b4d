#!/usr/bin/env python3
"""The web build's CLI gives the native CLI's answers (issue 40).

Runs every command line of tests/docs/command_examples.txt with --format json twice, from the
source tree: through the native musket and through the web build's musket under Node (the same
registry compiled to WebAssembly). The two documents must agree: the same keys in the same order,
every string, whole number and true/false identical, every other number within 1e-12 (relative,
or absolute below 1); exit codes and error lines identical. Left out: how a run went on its machine
rather than what it answers (method.seconds, its own time; method.memory_mb, counted in the
platform's own pointer sizes; method.threads, which the web build caps at 1; in method.why, the
predicted seconds of `auto` and of optimal play, which the web build scales by its measured
slowdown, calc/great_lakes/exact/cost.hpp build_slowdown). A self-test first shows the comparison finds a
changed string, a changed number and a missing key.
Then `auto` in the web build: a Great Lakes battle the native build predicts within its 1 s budget
and solves exactly (docs/benchmarks.md's 5 v 4 Niagara, 0.44 s predicted) is predicted past it
under Node and simulated, its engine's time within the budget.

usage: web/tests/same_json.py NATIVE_MUSKET WEB_MUSKET_JS SOURCE_DIR
"""
import json
import re
import shlex
import subprocess
import sys
import time

TOLERANCE = 1e-12
MACHINE_FACTS = {"$/method/seconds", "$/method/memory_mb", "$/method/threads"}
# Paths whose text holds a machine's prediction of seconds ("predicted exact cost 0.0128 s"; optimal
# play's "predicted 1.8e-06 s from 64 steps").
PREDICTED_SECONDS = {"$/method/why"}
PREDICTION = re.compile(r"(predicted (?:exact cost )?)[0-9.e+-]+ s")
# docs/benchmarks.md's 5 v 4 Niagara battle: natively predicted 0.44 s, under auto's 1 s budget.
NEAR_BUDGET = ["gl", "battle", "--att", "11th:regular:4/4:5:3", "--att", "21st:regular:4/4:5:3", "--att",
               "NYMil:militia:3/4:3:2", "--att", "Art:artillery:2/3:5:4", "--att", "Drag:dragoon:2/2:4:2", "--def",
               "100th:regular:4/4:5:4", "--def", "41st:regular:4/4:5:3", "--def", "Glengarry:militia:3/3:4:2",
               "--def", "Mohawk:native:2/3:4:2", "--fort", "2:2:4", "--att-leader", "Brown", "--def-leader",
               "Drummond", "--method", "auto", "--format", "json"]


def differences(a, b, path="$"):
    """Where two documents differ, as readable lines (empty when they agree)."""
    if path in MACHINE_FACTS:
        return []
    if path in PREDICTED_SECONDS and isinstance(a, str) and isinstance(b, str):
        a, b = PREDICTION.sub(r"\1N s", a), PREDICTION.sub(r"\1N s", b)
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return [f"{path}: keys {list(a)} against {list(b)}"]
        return [d for key in a for d in differences(a[key], b[key], f"{path}/{key}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items against {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}/{i}")]
    if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool) or \
            isinstance(b, float) and isinstance(a, (int, float)) and not isinstance(a, bool):
        if abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b)):
            return []
        return [f"{path}: {a!r} against {b!r}"]
    if type(a) is not type(b) or a != b:
        return [f"{path}: {a!r} against {b!r}"]
    return []


def self_test():
    doc = {"headline": "P(win) 62.5%", "p": 0.625, "n": 3, "d": {"1": "5/8"}}
    assert differences(doc, json.loads(json.dumps(doc))) == []
    assert differences(doc, {**doc, "p": 0.625 + 1e-15}) == []
    assert differences(doc, {**doc, "p": 0.6251}) != []
    assert differences(doc, {**doc, "headline": "P(win) 62.6%"}) != []
    assert differences(doc, {**doc, "n": 4}) != []
    assert differences(doc, {k: v for k, v in doc.items() if k != "d"}) != []
    assert differences(doc, {**doc, "d": {"1": "5/9"}}) != []
    timed = {"method": {"name": "exact", "seconds": 0.01}}
    assert differences(timed, {"method": {"name": "exact", "seconds": 0.02}}) == []
    assert differences(timed, {"method": {"name": "simulation", "seconds": 0.01}}) != []
    why = {"method": {"why": "auto: predicted exact cost 0.0128 s and 2 MB, within the --time-budget of 1 s"}}
    assert differences(why, {"method": {"why": why["method"]["why"].replace("0.0128", "0.0768")}}) == []
    assert differences(why, {"method": {"why": why["method"]["why"].replace("within", "past")}}) != []
    game = {"method": {"why": "optimal play: ... (predicted 1.8e-06 s from 64 steps over the pairs' options)"}}
    assert differences(game, {"method": {"why": game["method"]["why"].replace("1.8e-06", "1.08e-05")}}) == []
    assert differences(game, {"method": {"why": game["method"]["why"].replace("64 steps", "65 steps")}}) != []


def run(command, cwd):
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    native, web, source = sys.argv[1:]
    self_test()
    with open(f"{source}/tests/docs/command_examples.txt", encoding="utf-8") as examples:
        lines = [line.strip() for line in examples if line.strip() and not line.startswith("#")]
    failures = 0
    native_seconds = web_seconds = 0.0
    for line in lines:
        words = shlex.split(line) + ["--format", "json"]
        n_code, n_out, n_err, n_time = run([native] + words, source)
        w_code, w_out, w_err, w_time = run(["node", web] + words, source)
        native_seconds += n_time
        web_seconds += w_time
        problems = []
        if (n_code, n_err) != (w_code, w_err):
            problems.append(f"exit {n_code} {n_err.strip()!r} against {w_code} {w_err.strip()!r}")
        elif n_code == 0:
            problems = differences(json.loads(n_out), json.loads(w_out))
        if problems:
            failures += 1
            print(f"DIFFERS: {line}")
            for p in problems[:10]:
                print(f"  {p}")
        else:
            print(f"same ({n_time:.2f} s native, {w_time:.2f} s web): {line}")
    print(f"{len(lines) - failures} of {len(lines)} command lines give the same JSON "
          f"({native_seconds:.1f} s native, {web_seconds:.1f} s under Node)")
    # auto's budget in the web build.
    n_code, n_out, n_err, _ = run([native] + NEAR_BUDGET, source)
    w_code, w_out, w_err, _ = run(["node", web] + NEAR_BUDGET, source)
    assert n_code == 0 and w_code == 0, n_err + w_err
    n_method, w_method = json.loads(n_out)["method"], json.loads(w_out)["method"]
    ok = n_method["name"] == "exact" and w_method["name"] == "simulation" and w_method["seconds"] <= 1.0
    print(f"{'ok' if ok else 'FAILS'}: auto on the 5 v 4 Niagara battle: native {n_method['name']} in "
          f"{n_method['seconds']:.2f} s, web {w_method['name']} in {w_method['seconds']:.2f} s "
          f"(web: {w_method['why'].split(',')[0]})")
    failures += not ok
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
