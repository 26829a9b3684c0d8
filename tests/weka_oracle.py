"""Real WEKA 3.6 as a test oracle (issue 24): run its attribute evaluators and classifiers.

The KDD'12, Pes (2019) and PKDD'08 studies ran their selectors in WEKA, so WEKA itself
(Debian's ``weka`` package, ``/usr/share/java/weka.jar``) is the truth our selectors are
compared with. Tests import :data:`requires_weka` (skip when WEKA or java is absent, except
under ``MODELMINE_REQUIRE_WEKA=1``, as in CI, where a missing WEKA is an error) and the
runners below, which write the data with :func:`modelmine.datasets.write_arff`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from modelmine.datasets import write_arff

WEKA_JAR = Path(os.environ.get("MODELMINE_WEKA_JAR", "/usr/share/java/weka.jar"))
HAVE_WEKA = WEKA_JAR.is_file() and shutil.which("java") is not None
if not HAVE_WEKA and os.environ.get("MODELMINE_REQUIRE_WEKA") == "1":
    raise RuntimeError(f"MODELMINE_REQUIRE_WEKA=1 but WEKA ({WEKA_JAR}) or java is missing")
requires_weka = pytest.mark.skipif(not HAVE_WEKA, reason="WEKA 3.6 (weka.jar) and java needed")

#: WEKA's Ranker prints merits with 6 decimals: a score equals WEKA's within half a unit.
PRINTED = 0.5e-6 * (1 + 1e-9)
RANKER = "weka.attributeSelection.Ranker -T -1.8e308 -N -1"
_MERIT = re.compile(r"^\s*(-?[\d.]+(?:E-?\d+)?)\s+\d+\s+f(\d+)\s*$", re.MULTILINE)


def java(*args: str, timeout: float = 600, classpath: str | None = None) -> str:
    """Run a WEKA class (``java -cp weka.jar ...``); its standard output."""
    cp = str(WEKA_JAR) if classpath is None else f"{WEKA_JAR}:{classpath}"
    return subprocess.run(["java", "-Xmx2g", "-cp", cp, *args], capture_output=True,
                          text=True, check=True, timeout=timeout).stdout


# Builds a WEKA attribute evaluator on an ARFF file (class = last attribute) and prints
# evaluateAttribute(j) of every attribute at full double precision (Ranker prints 3-6 digits).
_EVAL_ALL = """\
import weka.attributeSelection.*;
import weka.core.*;
import weka.core.converters.ConverterUtils.DataSource;
public class EvalAll {
  public static void main(String[] a) throws Exception {
    Instances d = DataSource.read(a[0]);
    d.setClassIndex(d.numAttributes() - 1);
    String[] opts = new String[a.length - 2];
    System.arraycopy(a, 2, opts, 0, opts.length);
    ASEvaluation e = ASEvaluation.forName(a[1], opts);
    e.buildEvaluator(d);
    AttributeEvaluator ae = (AttributeEvaluator) e;
    StringBuilder b = new StringBuilder();
    for (int j = 0; j < d.numAttributes() - 1; j++)
      b.append(Double.toString(ae.evaluateAttribute(j))).append('\\n');
    System.out.print(b);
  }
}
"""


def _compiled(tmp_path: Path, name: str, source: str) -> list[str]:
    """The command that runs the Java class ``name`` (compiled when javac exists; a JRE
    without a compiler runs the single source file directly)."""
    src = tmp_path / f"{name}.java"
    src.write_text(source)
    if shutil.which("javac") is None:
        return ["java", "-Xmx2g", "-cp", str(WEKA_JAR), str(src)]
    subprocess.run(["javac", "-nowarn", "-cp", str(WEKA_JAR), "-d", str(tmp_path), str(src)],
                   check=True, timeout=300, capture_output=True)
    return ["java", "-Xmx2g", "-cp", f"{WEKA_JAR}:{tmp_path}", name]


def attribute_scores(tmp_path: Path, X, y, evaluator: str, *options: str) -> np.ndarray:
    """WEKA's score of every feature at full precision: ``evaluateAttribute(j)`` of the
    evaluator ``weka.attributeSelection.<evaluator>`` built on ``X``, ``y``."""
    arff = write_arff(tmp_path / "scores.arff", X, y)
    cmd = _compiled(tmp_path, "EvalAll", _EVAL_ALL)
    run = subprocess.run([*cmd, str(arff), f"weka.attributeSelection.{evaluator}", *options],
                         capture_output=True, text=True, timeout=900)
    if run.returncode:
        raise RuntimeError(f"WEKA {evaluator} failed: {run.stderr[-2000:]}")
    out = run.stdout
    scores = np.array([float(t) for t in out.split()])
    assert scores.shape == (X.shape[1],), out[:2000]
    return scores


def ranker_merits(tmp_path: Path, X, y, evaluator: str, *options: str) -> np.ndarray:
    """WEKA's printed merit of every feature (in feature order) under ``Ranker``."""
    arff = write_arff(tmp_path / "ranker.arff", X, y)
    out = java(f"weka.attributeSelection.{evaluator}", *options, "-i", str(arff), "-s", RANKER)
    merit = np.full(X.shape[1], np.nan)
    for m in _MERIT.finditer(out):
        merit[int(m.group(2))] = float(m.group(1))
    assert not np.isnan(merit).any(), out[:2000]
    return merit


def selected_subset(tmp_path: Path, X, y, evaluator: str, search: str,
                    *options: str) -> list[int]:
    """The feature indices a WEKA subset evaluator (with its ``options``) keeps with the
    given search (post-processing included, as WEKA's AttributeSelection applies it)."""
    arff = write_arff(tmp_path / "subset.arff", X, y)
    out = java(f"weka.attributeSelection.{evaluator}", *options, "-i", str(arff), "-s", search)
    block = out.split("Selected attributes:")[1]
    names = re.findall(r"^\s*f(\d+)\s*$", block, re.MULTILINE)
    return sorted(int(n) for n in names)
