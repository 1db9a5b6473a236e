#!/usr/bin/env python3
"""Opens a page in a real browser (Debian's headless Chromium) at a laptop's screen size, takes a
screenshot, and reports what is visible above the fold: where the overview table is, its rows,
the page's size. Used by the e2e suite on `kubewhy watch`'s page.

    scripts/page-check.py URL SCREENSHOT.png [--width 1366 --height 768]

Prints one JSON object: {"bytes", "title", "viewport": [w, h], "overview": {"top", "bottom",
"rows", "visibleRows", "text"}, "screenshot"}. Talks to Chromium over the DevTools protocol
through --remote-debugging-pipe (file descriptors 3 and 4): no websocket library, no download.
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

PROBE = r"""
(() => {
  const t = document.getElementById('overview');
  const out = {title: document.title, viewport: [innerWidth, innerHeight], overview: null};
  if (!t) return JSON.stringify(out);
  const r = t.getBoundingClientRect();
  const rows = Array.from(t.rows);
  out.overview = {
    top: r.top, bottom: r.bottom, rows: rows.length,
    visibleRows: rows.filter(x => x.getBoundingClientRect().bottom <= innerHeight).length,
    text: rows.slice(0, 6).map(x => x.innerText.replace(/\s+/g, ' ').trim()),
  };
  return JSON.stringify(out);
})()
"""


class Browser:
    def __init__(self, chromium, width, height):
        self.profile = tempfile.mkdtemp(prefix="kubewhy-chromium-")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        # The child reads commands on fd 3 and writes replies on fd 4: the shell puts the pipes
        # there just before it becomes Chromium.
        args = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}", "--remote-debugging-pipe", "about:blank"]
        self.proc = subprocess.Popen(
            ["sh", "-c", f'exec "$@" 3<&{to_child_r} 4>&{from_child_w}', "chromium"] + args,
            pass_fds=(to_child_r, from_child_w),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        return self.wait(lambda m: m.get("id") == self.next_id)

    def wait(self, pred, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                m = json.loads(raw)
                if pred(m):
                    if "error" in m:
                        raise RuntimeError(f"DevTools: {m['error']}")
                    return m
                self.events.append(m)
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        raise TimeoutError("no answer from chromium")

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url")
    ap.add_argument("screenshot")
    ap.add_argument("--width", type=int, default=1366)
    ap.add_argument("--height", type=int, default=768)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    a = ap.parse_args()
    size = len(urllib.request.urlopen(a.url, timeout=30).read())
    b = Browser(a.chromium, a.width, a.height)
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["result"]["targetId"]
        session = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["result"]["sessionId"]
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": a.width, "height": a.height, "deviceScaleFactor": 1, "mobile": False}, session)
        b.send("Page.enable", {}, session)
        b.send("Page.navigate", {"url": a.url}, session)
        b.wait(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == session)
        probe = b.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session)
        result = json.loads(probe["result"]["result"]["value"])
        shot = b.send("Page.captureScreenshot", {"format": "png"}, session)["result"]["data"]
        with open(a.screenshot, "wb") as f:
            f.write(base64.b64decode(shot))
    finally:
        b.close()
    result["bytes"] = size
    result["screenshot"] = a.screenshot
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
