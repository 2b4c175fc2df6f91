#!/usr/bin/env python3
"""Loads a page in headless Chromium over the DevTools protocol (--remote-debugging-pipe; python3 only) and
prints one JSON object: the console errors (console.error, uncaught exceptions, Log errors such as a failed
load), every request that left file://, the number of elements matching each CSS selector given, and the
path of a full-page screenshot, and the value of each JavaScript expression given as "js:EXPR" (evaluated
on the page laid out 1280 pixels wide, in "values" under the expression).

Usage: browser_check.py CHROMIUM PAGE.html SCREENSHOT.png [SELECTOR | js:EXPR...]
"""
import base64, json, os, select, subprocess, sys, tempfile, time

chrome, page, shot = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
selectors = [a for a in sys.argv[4:] if not a.startswith("js:")]
scripts = [a[3:] for a in sys.argv[4:] if a.startswith("js:")]
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()


def child_fds():  # Chromium reads commands on fd 3 and writes replies on fd 4
    a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
    os.dup2(a, 3)
    os.dup2(b, 4)


profile = tempfile.mkdtemp(prefix="clgauge-chromium-")
proc = subprocess.Popen(
    [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
     "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
     "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False,
    preexec_fn=child_fds)
os.close(to_chrome_r)
os.close(from_chrome_w)
buf, next_id, deadline = b"", 0, time.time() + 60
errors, requests, events = [], [], []


def read_message():
    global buf
    while b"\0" not in buf:
        left = deadline - time.time()
        if left <= 0 or not select.select([from_chrome_r], [], [], left)[0]:
            sys.exit("browser_check: no answer from Chromium within 60 s")
        chunk = os.read(from_chrome_r, 1 << 20)
        if not chunk:
            sys.exit("browser_check: Chromium closed the pipe")
        buf += chunk
    msg, buf = buf.split(b"\0", 1)
    return json.loads(msg)


def note(m):
    method, p = m.get("method", ""), m.get("params", {})
    if method == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
        errors.append("console.%s: %s" % (p["type"], " ".join(str(a.get("value", a.get("description")))
                                                                for a in p["args"])))
    elif method == "Runtime.exceptionThrown":
        errors.append("exception: " + p["exceptionDetails"].get("text", ""))
    elif method == "Log.entryAdded" and p["entry"]["level"] == "error":
        errors.append("log: %s %s" % (p["entry"]["text"], p["entry"].get("url", "")))
    elif method == "Network.requestWillBeSent":
        requests.append(p["request"]["url"])
    events.append(method)


def call(method, params=None, session=None):
    global next_id
    next_id += 1
    msg = {"id": next_id, "method": method, "params": params or {}}
    if session:
        msg["sessionId"] = session
    os.write(to_chrome_w, json.dumps(msg).encode() + b"\0")
    while True:
        m = read_message()
        if m.get("id") == next_id:
            if "error" in m:
                sys.exit("browser_check: %s failed: %s" % (method, m["error"]))
            return m.get("result", {})
        note(m)


def wait_for(method):
    while method not in events:
        note(read_message())


targets = call("Target.getTargets")["targetInfos"]
target = next(t["targetId"] for t in targets if t["type"] == "page")
s = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
for domain in ("Page", "Runtime", "Log", "Network"):
    call(domain + ".enable", session=s)
call("Page.navigate", {"url": "file://" + page}, s)
wait_for("Page.loadEventFired")
time.sleep(0.3)  # late console messages
counts = {}
for sel in selectors:
    r = call("Runtime.evaluate", {"expression": "document.querySelectorAll(%s).length" % json.dumps(sel),
                                  "returnByValue": True}, s)
    counts[sel] = r["result"]["value"]
height = call("Runtime.evaluate", {"expression": "document.documentElement.scrollHeight", "returnByValue": True},
              s)["result"]["value"]
call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": min(int(height), 16000),
                                            "deviceScaleFactor": 1, "mobile": False}, s)
values = {}
for expr in scripts:
    r = call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, s)
    values[expr] = r["result"].get("value", r.get("exceptionDetails", {}).get("text"))
png = call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, s)["data"]
with open(shot, "wb") as f:
    f.write(base64.b64decode(png))
try:
    call("Browser.close")
except SystemExit:
    pass
proc.wait(timeout=20)
print(json.dumps({"errors": errors, "requests": [u for u in requests if not u.startswith("file://")],
                  "counts": counts, "values": values, "screenshot": shot, "height": height}))
