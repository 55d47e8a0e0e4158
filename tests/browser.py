"""Headless Chromium for the tests that look at pictures and reports as a user would.

Two calls per page: one screenshot (a PNG, kept in the test's tmp_path, and copied to
``$LOGICENV_SCREENSHOTS`` when that is set, for a person to look at), and one measurement: the
page is loaded with a script appended that writes what the browser laid out (bounding boxes,
texts) as JSON into the DOM, which ``--dump-dom`` prints. Every call gets a fresh profile
directory and no network.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = next(
    (
        found
        for name in ("chromium", "chromium-browser", "google-chrome")
        if (found := shutil.which(name))
    ),
    None,
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (chromium not on PATH)"
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
)
TIMEOUT_S = 120

#: Appended to a page: writes what the browser laid out into <pre id="measured">.
MEASURE = """
<pre id="measured"></pre>
<script>
(function () {
  function box(element) {
    const r = element.getBoundingClientRect();
    return {x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height};
  }
  function described(element) {
    return Object.assign(box(element), {
      text: element.textContent, css: element.getAttribute("class") || "",
      key: (element.closest("[data-for]") || element).getAttribute("data-for") || "",
      svg: element.ownerSVGElement ? box(element.ownerSVGElement) : null,
    });
  }
  const paths = Array.from(document.querySelectorAll("polyline.route")).map(function (p) {
    return Object.assign(box(p), {length: p.getTotalLength(), points: p.points.numberOfItems});
  });
  // The route's corners and the objects' footprints, in page coordinates.
  const route = Array.from(document.querySelectorAll("polyline.route")).map(function (p) {
    const m = p.getScreenCTM();
    return Array.from(p.points).map(function (q) {
      return {x: m.a * q.x + m.c * q.y + m.e + window.scrollX,
              y: m.b * q.x + m.d * q.y + m.f + window.scrollY};
    });
  });
  const objects = Array.from(document.querySelectorAll("g[data-id] > rect")).map(function (r) {
    return Object.assign(box(r), {id: r.parentNode.getAttribute("data-id")});
  });
  const result = {
    route: route,
    objects: objects,
    labels: Array.from(document.querySelectorAll("text.label")).map(described),
    verdicts: Array.from(document.querySelectorAll(".verdict, .failure")).map(described),
    paths: paths,
    text: document.body.innerText,
    title: document.title,
  };
  document.getElementById("measured").textContent = JSON.stringify(result);
})();
</script>
"""


def _chromium(*arguments: str, profile: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    profile.mkdir(parents=True, exist_ok=True)
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)


def screenshot(page: Path, png: Path, *, width: int, height: int) -> Path:
    """A PNG of ``page`` in a ``width`` x ``height`` window."""
    done = _chromium(
        f"--screenshot={png}",
        f"--window-size={width},{height}",
        page.resolve().as_uri(),
        profile=png.parent / f".profile-{png.stem}",
    )
    assert png.is_file(), done.stderr[-2000:]
    keep = os.environ.get("LOGICENV_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, Path(keep) / png.name)
    return png


def measure(page: Path, *, width: int = 1280, height: int = 900) -> dict[str, Any]:
    """What the browser laid out on ``page`` (see ``MEASURE``), from a copy beside it with the
    measuring script appended."""
    html = page.read_text(encoding="utf-8")
    at = html.rfind("</body>")
    measured = page.with_name(f".measured-{page.name}")
    measured.write_text(
        html[:at] + MEASURE + html[at:] if at >= 0 else html + MEASURE, encoding="utf-8"
    )
    done = _chromium(
        "--dump-dom",
        "--virtual-time-budget=5000",
        f"--window-size={width},{height}",
        measured.resolve().as_uri(),
        profile=page.parent / f".profile-measure-{page.stem}",
    )
    start = done.stdout.find('<pre id="measured">')
    assert start >= 0, done.stderr[-2000:]
    end = done.stdout.find("</pre>", start)
    raw = done.stdout[start + len('<pre id="measured">') : end]
    return json.loads(
        raw.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    )


def svg_page(svg: str, page: Path) -> Path:
    """An HTML page showing ``svg`` inline at its full size, as the report shows pictures."""
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>picture</title>"
        "<style>body{margin:0}</style></head><body>" + svg + "</body></html>",
        encoding="utf-8",
    )
    return page


def overlapping(labels: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The pairs of laid-out labels whose boxes intersect."""
    pairs = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            if (
                a["x"] < b["x"] + b["w"]
                and b["x"] < a["x"] + a["w"]
                and a["y"] < b["y"] + b["h"]
                and b["y"] < a["y"] + a["h"]
            ):
                pairs.append((a["text"], b["text"]))
    return pairs
