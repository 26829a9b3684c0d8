"""An interactive headless-Chromium page over the DevTools protocol, for the lattice explorer.

Reuses the pipe transport of :mod:`browser` (``--remote-debugging-pipe``, standard library
only) and adds what a test of an interactive page needs: evaluate JavaScript, click at an
element as a mouse does (``Input.dispatchMouseEvent``, so the page's own listeners run), type
as a keyboard does (``Input.insertText``), scroll the wheel, take screenshots, and collect
console errors, uncaught exceptions and network requests.
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
from pathlib import Path
from typing import Any

from browser import _Pipe, find_chromium


class BrowserPage:
    """One headless Chromium tab. Use as a context manager."""

    def __init__(
        self,
        *,
        width: int = 1280,
        height: int = 900,
        chromium: str | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.width, self.height, self.timeout = width, height, timeout
        self.exe = chromium or find_chromium()
        if self.exe is None:
            raise FileNotFoundError("no Chromium executable found")

    def __enter__(self) -> BrowserPage:
        self.profile = tempfile.mkdtemp(prefix="mm-chromium-")
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        def child_fds() -> None:
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)

        args = [
            self.exe,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--disable-dev-shm-usage",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            f"--window-size={self.width},{self.height}",
            "about:blank",
        ]
        self.proc = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=child_fds,
            pass_fds=(3, 4),
        )
        os.close(to_r)
        os.close(from_w)
        self._fds = (to_w, from_r)
        self.pipe = _Pipe(self.proc, to_w, from_r)
        target = self.pipe.send("Target.createTarget", {"url": "about:blank"}, timeout=self.timeout)
        self.session = self.pipe.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False},
        )
        return self

    def __exit__(self, *exc: Any) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.pipe.send("Browser.close", timeout=10)
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    # ------------------------------------------------------------------ protocol
    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.pipe.send(method, params, session=self.session, timeout=self.timeout)

    def open(self, path: Path) -> None:
        """Navigate to a local file and wait for its load event."""
        self.pipe.events = [
            ev for ev in self.pipe.events if ev.get("method") != "Page.loadEventFired"
        ]
        self.send("Page.navigate", {"url": Path(path).resolve().as_uri()})
        self.pipe.wait_event("Page.loadEventFired", timeout=self.timeout)

    def evaluate(self, expression: str, *, await_promise: bool = False) -> Any:
        """The JSON value of a JavaScript expression; raises on a thrown exception."""
        res = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": await_promise},
        )
        if "exceptionDetails" in res:
            raise RuntimeError(f"{expression!r} threw: {json.dumps(res['exceptionDetails'])}")
        return res["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 20.0) -> Any:
        """Poll ``expression`` until it is truthy."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)

    def settle(self) -> None:
        """Wait for two animation frames (the explorer renders on the next one)."""
        self.evaluate(
            "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
            await_promise=True,
        )

    # ------------------------------------------------------------------ input
    def centre(self, selector: str) -> tuple[float, float]:
        box = self.evaluate(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)});"
            " if (!el) return null; el.scrollIntoView({block: 'center', inline: 'center'});"
            " const r = el.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        if box is None:
            raise LookupError(f"no element matches {selector!r}")
        return float(box[0]), float(box[1])

    def click_at(self, x: float, y: float) -> None:
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1},
            )

    def click(self, selector: str) -> None:
        """Click the middle of the first element matching ``selector``, as a mouse does."""
        self.click_at(*self.centre(selector))

    def type(self, selector: str, text: str) -> None:
        """Click a text field, select its content and type ``text`` over it."""
        self.click(selector)
        self.evaluate(f"document.querySelector({json.dumps(selector)}).select()")
        self.send("Input.insertText", {"text": text})

    def drag(self, selector: str, dx: float, steps: int = 8) -> None:
        """Press the mouse in the middle of ``selector``, move ``dx`` pixels right, release."""
        x, y = self.centre(selector)
        mouse = {"button": "left", "clickCount": 1}
        self.send(
            "Input.dispatchMouseEvent",
            {"type": "mousePressed", "x": x, "y": y, "buttons": 1, **mouse},
        )
        for k in range(1, steps + 1):
            self.send(
                "Input.dispatchMouseEvent",
                {
                    "type": "mouseMoved",
                    "x": x + dx * k / steps,
                    "y": y,
                    "buttons": 1,
                    "button": "left",
                },
            )
        self.send(
            "Input.dispatchMouseEvent",
            {"type": "mouseReleased", "x": x + dx, "y": y, "buttons": 0, **mouse},
        )

    def wheel(self, selector: str, delta_y: float) -> None:
        x, y = self.centre(selector)
        self.send(
            "Input.dispatchMouseEvent",
            {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": delta_y},
        )

    def screenshot(self, path: Path) -> Path:
        shot = self.send("Page.captureScreenshot", {"format": "png"})
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    # ------------------------------------------------------------------ what happened
    def errors(self) -> list[str]:
        """Console errors and uncaught exceptions so far."""
        out = []
        for ev in self.pipe.events:
            method, params = ev.get("method"), ev.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(json.dumps(params.get("args")))
            elif method == "Runtime.exceptionThrown":
                out.append(json.dumps(params.get("exceptionDetails")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(params["entry"].get("text", ""))
        return out

    def requests(self) -> list[str]:
        """URLs of every network request so far."""
        return [
            ev["params"].get("request", {}).get("url", "")
            for ev in self.pipe.events
            if ev.get("method") == "Network.requestWillBeSent"
        ]
