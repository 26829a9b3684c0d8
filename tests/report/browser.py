"""A tiny, dependency-free driver of headless Chromium for testing the HTML report.

Chromium is started with ``--remote-debugging-pipe``: it reads Chrome DevTools Protocol
commands from file descriptor 3 and writes replies and events to descriptor 4, each message
a JSON text terminated by a NUL byte. No websocket, no Python package beyond the standard
library. :func:`inspect_page` opens a file, waits for the load event and returns the console
errors, uncaught exceptions, network requests and the natural size of every image, and
saves a full-page screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_chromium() -> str | None:
    """Path of a Chromium executable, or None."""
    env = os.environ.get("MODELMINE_CHROMIUM")
    if env and Path(env).exists():
        return env
    for name in CHROMIUM_CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class PageReport:
    """What happened when the page was opened."""

    console_errors: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    images: list[dict[str, Any]] = field(default_factory=list)
    title: str = ""
    screenshot: Path | None = None


class _Pipe:
    def __init__(self, proc: subprocess.Popen[bytes], to_browser: int, from_browser: int):
        self.proc = proc
        self.wfd = to_browser
        self.rfd = from_browser
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None, timeout: float = 30.0) -> dict[str, Any]:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        want = self.next_id
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == want:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        for ev in self.events:
            if ev.get("method") == method:
                return ev
        deadline = time.monotonic() + timeout
        while True:
            ev = self._read(deadline)
            self.events.append(ev)
            if ev.get("method") == method:
                return ev

    def _read(self, deadline: float) -> dict[str, Any]:
        import select

        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply from Chromium")
            ready, _, _ = select.select([self.rfd], [], [], left)
            if ready:
                chunk = os.read(self.rfd, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the DevTools pipe")
                self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(text)


def inspect_page(html_path: Path, screenshot: Path, *, width: int = 1280, height: int = 900,
                 chromium: str | None = None, timeout: float = 60.0) -> PageReport:
    """Open ``html_path`` in headless Chromium; report errors and images; save a screenshot."""
    exe = chromium or find_chromium()
    if exe is None:
        raise FileNotFoundError("no Chromium executable found")
    profile = tempfile.mkdtemp(prefix="mm-chromium-")
    to_r, to_w = os.pipe()  # commands: we write to_w, Chromium reads fd 3
    from_r, from_w = os.pipe()  # replies: Chromium writes fd 4, we read from_r

    def child_fds() -> None:
        os.dup2(to_r, 3)
        os.dup2(from_w, 4)

    args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-extensions",
            "--disable-dev-shm-usage", "--remote-debugging-pipe", f"--user-data-dir={profile}",
            f"--window-size={width},{height}", "about:blank"]
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, preexec_fn=child_fds,
                            pass_fds=(3, 4))
    os.close(to_r)
    os.close(from_w)
    report = PageReport()
    try:
        pipe = _Pipe(proc, to_w, from_r)
        target = pipe.send("Target.createTarget", {"url": "about:blank"}, timeout=timeout)
        session = pipe.send("Target.attachToTarget",
                            {"targetId": target["targetId"], "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            pipe.send(f"{domain}.enable", session=session)
        pipe.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=session)
        pipe.send("Page.navigate", {"url": html_path.resolve().as_uri()}, session=session)
        pipe.wait_event("Page.loadEventFired", timeout=timeout)
        js = ("JSON.stringify({title: document.title, images: Array.from(document.images)"
              ".map(i => ({alt: i.alt, complete: i.complete, w: i.naturalWidth, "
              "h: i.naturalHeight, shownW: i.width, shownH: i.height}))})")
        res = pipe.send("Runtime.evaluate", {"expression": js, "returnByValue": True},
                        session=session)
        page = json.loads(res["result"]["value"])
        report.title = page["title"]
        report.images = page["images"]
        shot = pipe.send("Page.captureScreenshot",
                         {"format": "png", "captureBeyondViewport": False}, session=session,
                         timeout=timeout)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        report.screenshot = screenshot
        for ev in pipe.events:
            method, params = ev.get("method"), ev.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error",
                                                                               "assert"):
                report.console_errors.append(json.dumps(params.get("args")))
            elif method == "Runtime.exceptionThrown":
                report.exceptions.append(json.dumps(params.get("exceptionDetails")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                report.console_errors.append(params["entry"].get("text", ""))
            elif method == "Network.requestWillBeSent":
                report.requests.append(params.get("request", {}).get("url", ""))
        with contextlib.suppress(RuntimeError, TimeoutError):
            pipe.send("Browser.close", timeout=10)
    finally:
        os.close(to_w)
        os.close(from_r)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)
    return report
