"""Many WEKA 3.6 computations in one JVM: the selector tests' oracle, batched.

``tests/weka_oracle.py`` runs one ``java`` process per computation and compiles its Java
driver each time (about 2.3 CPU-s of ``javac`` and 0.7 s of JVM start-up per call). The
selector tests ask WEKA dozens of questions, so here one driver, compiled once per test
process, answers a list of them in one JVM:

- ``Scores(arff, evaluator, options)``: ``evaluateAttribute(j)`` of every attribute at full
  precision (``Double.toString``), exactly as ``weka_oracle.attribute_scores`` reads them;
- ``Select(arff, evaluator, args)``: the text of ``AttributeSelection.SelectAttributes`` on
  a new evaluator with the command-line arguments ``args`` (``-i`` and ``-s`` included),
  which is what ``java weka.attributeSelection.<evaluator> args`` prints
  (``ASEvaluation.runEvaluator``), as ``weka_oracle.selected_subset`` and ``ranker_merits``
  read it;
- ``Classify(arff, classifier, options)``: what ``java <classifier> options -t arff``
  prints (``Evaluation.evaluateModel``, as ``Classifier.runClassifier`` calls it);
- ``Sort(values)``: the order ``weka.core.Utils.sort`` gives (ties as the jar breaks them).

Each job reads its ARFF file afresh and builds a new evaluator or classifier, so nothing is
shared between jobs but the JVM: the answers are the ones separate ``java`` runs give.
"""

from __future__ import annotations

import atexit
import hashlib
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from weka_oracle import _MERIT, WEKA_JAR

from modelmine.datasets import write_arff

_DRIVER = """\
import java.io.*;
import java.util.*;
import weka.attributeSelection.*;
import weka.core.*;
import weka.core.converters.ConverterUtils.DataSource;
public class WekaBatch {
  public static void main(String[] a) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
    String line;
    int k = 0;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      String[] f = line.split("\\t", -1);
      String[] opts = Arrays.copyOfRange(f, Math.min(3, f.length), f.length);
      StringBuilder b = new StringBuilder();
      try {
        if (f[0].equals("sort")) {
          double[] v = new double[f.length - 1];
          for (int i = 1; i < f.length; i++) v[i - 1] = Double.parseDouble(f[i]);
          for (int x : Utils.sort(v)) b.append(x).append('\\n');
        } else if (f[0].equals("scores")) {
          Instances d = DataSource.read(f[1]);
          d.setClassIndex(d.numAttributes() - 1);
          ASEvaluation e = ASEvaluation.forName(f[2], opts);
          e.buildEvaluator(d);
          AttributeEvaluator ae = (AttributeEvaluator) e;
          for (int j = 0; j < d.numAttributes() - 1; j++)
            b.append(Double.toString(ae.evaluateAttribute(j))).append('\\n');
        } else if (f[0].equals("classify")) {
          weka.classifiers.Classifier c = (weka.classifiers.Classifier) Class.forName(f[2])
              .getDeclaredConstructor().newInstance();
          b.append(weka.classifiers.Evaluation.evaluateModel(c, opts)).append('\\n');
        } else {
          ASEvaluation e = (ASEvaluation) Class.forName(f[2]).getDeclaredConstructor()
              .newInstance();
          b.append(AttributeSelection.SelectAttributes(e, opts)).append('\\n');
        }
        out.print("@@job " + k + "\\n" + b + "@@end " + k + "\\n");
      } catch (Exception ex) {
        StringWriter w = new StringWriter();
        ex.printStackTrace(new PrintWriter(w));
        out.print("@@job " + k + "\\n" + w + "@@failed " + k + "\\n");
      }
      out.flush();
      k++;
    }
  }
}
"""

#: The JVM's options: the client compiler only and one garbage-collector thread, which
#: halve the CPU time of these short runs (Java's arithmetic is the same at every tier);
#: javac runs on them too (without the heap size).
_JVM = ("-Xmx2g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")

_compiled_in: dict[str, Path] = {}


def _command() -> list[str]:
    """``java`` running the driver, compiled once per process (a JRE without ``javac``
    runs the source file directly)."""
    if "dir" not in _compiled_in:
        where = Path(tempfile.mkdtemp(prefix="modelmine-weka-batch-"))
        atexit.register(shutil.rmtree, where, ignore_errors=True)
        (where / "WekaBatch.java").write_text(_DRIVER)
        _compiled_in["dir"] = where
        if shutil.which("javac") is not None:
            subprocess.run(["javac", *(f"-J{o}" for o in _JVM[1:]), "-nowarn", "-cp",
                            str(WEKA_JAR), "-d", str(where),
                            str(where / "WekaBatch.java")],
                           check=True, timeout=300, capture_output=True)
    where = _compiled_in["dir"]
    if (where / "WekaBatch.class").is_file():
        return ["java", *_JVM, "-cp", f"{WEKA_JAR}:{where}", "WekaBatch"]
    return ["java", *_JVM, "-cp", str(WEKA_JAR), str(where / "WekaBatch.java")]


@dataclass(frozen=True)
class Scores:
    """WEKA's ``evaluateAttribute`` of every attribute of ``arff`` (class = last)."""

    arff: Path
    evaluator: str  # a class of weka.attributeSelection, e.g. "InfoGainAttributeEval"
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Select:
    """What ``java weka.attributeSelection.<evaluator> <args> -i arff -s search`` prints."""

    arff: Path
    evaluator: str
    search: str
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Classify:
    """What ``java <classifier> <options> -t arff`` prints (``Evaluation.evaluateModel`` on
    a new classifier, as ``Classifier.runClassifier`` calls it), e.g. SMO's weights."""

    arff: Path
    classifier: str  # a full class name, e.g. "weka.classifiers.functions.SMO"
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sort:
    """The indices that ``weka.core.Utils.sort`` orders ``values`` by."""

    values: tuple[float, ...]


def run(jobs: Sequence[Scores | Select | Classify | Sort], timeout: float = 1800
        ) -> list[str]:
    """Every job's output, in order, from one JVM. A job WEKA fails raises, with its trace."""
    lines = []
    for job in jobs:
        if isinstance(job, Sort):
            lines.append("\t".join(["sort", *map(repr, map(float, job.values))]))
            continue
        if isinstance(job, Classify):
            lines.append("\t".join(["classify", str(job.arff), job.classifier, *job.options,
                                    "-t", str(job.arff)]))
            continue
        name = f"weka.attributeSelection.{job.evaluator}"
        if isinstance(job, Scores):
            fields = ["scores", str(job.arff), name, *job.options]
        else:
            fields = ["select", str(job.arff), name, *job.options,
                      "-i", str(job.arff), "-s", job.search]
        assert not any("\t" in f or "\n" in f for f in fields), fields
        lines.append("\t".join(fields))
    proc = subprocess.run(_command(), input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=timeout)
    if proc.returncode:
        raise RuntimeError(f"the WEKA batch failed: {proc.stderr[-2000:]}")
    outputs = []
    for k, job in enumerate(jobs):
        m = re.search(rf"^@@job {k}\n(.*?)^@@(end|failed) {k}\n", proc.stdout,
                      re.MULTILINE | re.DOTALL)
        assert m is not None, (k, proc.stdout[-2000:], proc.stderr[-2000:])
        if m.group(2) == "failed":
            raise RuntimeError(f"WEKA failed on {job}: {m.group(1)[-2000:]}")
        outputs.append(m.group(1))
    return outputs


def scores_of(out: str, n_features: int) -> np.ndarray:
    """The scores a :class:`Scores` job printed (one per feature, full precision)."""
    scores = np.array([float(t) for t in out.split()])
    assert scores.shape == (n_features,), out[:2000]
    return scores


def order_of(out: str) -> list[int]:
    """The indices a :class:`Sort` job printed."""
    return [int(t) for t in out.split()]


def subset_of(out: str) -> list[int]:
    """The feature indices a :class:`Select` job with a subset search kept (the names
    ``f<j>`` that :func:`modelmine.datasets.write_arff` writes)."""
    block = out.split("Selected attributes:")[1]
    return sorted(int(n) for n in re.findall(r"^\s*f(\d+)\s*$", block, re.MULTILINE))


def merits_of(out: str, n_features: int) -> np.ndarray:
    """The merits a :class:`Select` job with ``Ranker`` printed, in feature order."""
    merit = np.full(n_features, np.nan)
    for m in _MERIT.finditer(out):
        merit[int(m.group(2))] = float(m.group(1))
    assert not np.isnan(merit).any(), out[:2000]
    return merit


@dataclass
class Arffs:
    """ARFF files of (X, y) in one folder, each distinct data set written once."""

    folder: Path
    _written: dict[str, Path] = field(default_factory=dict)

    def __call__(self, X, y) -> Path:
        y = np.asarray(y)
        X = X if sp.issparse(X) else np.asarray(X)
        if sp.issparse(X):
            m = sp.csr_matrix(X)
            parts = [b"sparse", m.data.tobytes(), m.indices.tobytes(), m.indptr.tobytes()]
        else:
            parts = [b"dense", np.asarray(X).tobytes()]
        digest = hashlib.sha256(repr((X.shape, np.dtype(X.dtype).str)).encode())
        for part in [*parts, y.astype(str).tobytes()]:
            digest.update(part)
        key = digest.hexdigest()[:20]
        if key not in self._written:
            self._written[key] = write_arff(self.folder / f"{key}.arff", X, y)
        return self._written[key]
