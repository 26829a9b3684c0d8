"""The embedded datasets: shapes, classes, lossless against the source files."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.io
import scipy.sparse as sp

import modelmine as mm

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
SOURCES = {"colon": "colon.mat", "leukemia": "ALLAML.mat", "prostate": "Prostate-GE.mat",
           "basehock": "BASEHOCK.mat"}
#: The files load() reads from a folder (data_home, MODELMINE_DATA_HOME or shared/datasets).
SHARED_FILES = {"pcmac": "PCMAC.mat", "madelon": "madelon.mat"}


@pytest.mark.parametrize("name", list(SOURCES))
def test_shapes_and_classes_match_provenance(name):
    info = mm.datasets.available().loc[name]
    X, y, names = mm.datasets.load(name, return_names=True)
    assert X.shape == (info["samples"], info["features"])
    assert names.shape == (X.shape[1],) and len(set(names)) == X.shape[1]
    labels, counts = np.unique(y, return_counts=True)
    _, named = mm.datasets.load(name, class_names=True)
    for code, count in zip(labels, counts):  # each code's name: as many samples, and listed
        names_of = set(named[y == code].tolist())
        assert len(names_of) == 1 and (named == names_of.pop()).sum() == count
    assert sp.issparse(X) == bool(info["sparse"])


@pytest.mark.parametrize("name", list(SOURCES))
def test_lossless_copy_of_source_file(name):
    src = SHARED / SOURCES[name]
    if not src.exists():
        pytest.skip(f"source file {src} not present (outside the project checkout)")
    mat = scipy.io.loadmat(src)
    X, y = mm.datasets.load(name)
    dense = X.toarray() if sp.issparse(X) else X
    np.testing.assert_array_equal(dense, mat["X"].astype(np.float64))
    np.testing.assert_array_equal(y, mat["Y"].ravel())
    with np.load(Path(mm.datasets.__file__).parent / "data" / f"{name}.npz") as arch:
        assert str(arch["source_sha256"]) == hashlib.sha256(src.read_bytes()).hexdigest()


def test_as_frame_returns_named_dataframe():
    X, y = mm.datasets.load_colon(as_frame=True)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert list(X.columns[:2]) == ["x0", "x1"] and X.shape == (62, 2000)


#: The classes of the publications (truth independent of the files' codes): Alon et al.
#: 1999 (40 tumours, 22 normal), Golub et al. 1999 (47 ALL, 25 AML), Singh et al. 2002
#: (52 tumours, 50 normal), 20 Newsgroups' bydate counts (994 baseball, 999 hockey).
PUBLISHED_CLASSES = {"colon": {"tumour": 40, "normal": 22}, "leukemia": {"ALL": 47, "AML": 25},
                     "prostate": {"tumour": 52, "normal": 50},
                     "basehock": {"baseball": 994, "hockey": 999}}


@pytest.mark.parametrize("name", list(PUBLISHED_CLASSES))
def test_the_embedded_classes_carry_the_publications_names(name):
    codes = mm.datasets.load(name)[1]
    named = mm.datasets.load(name, class_names=True)[1]
    labels, counts = np.unique(named, return_counts=True)
    assert dict(zip(labels.tolist(), counts.tolist())) == PUBLISHED_CLASSES[name]
    # one name per code, the same rows
    assert all(len(set(named[codes == c].tolist())) == 1 for c in np.unique(codes))
    # the doors that read the dataset by name give the names
    np.testing.assert_array_equal(mm.datasets.read_data(f"embedded:{name}").y, named)
    listed = mm.datasets.available().loc[name, "classes"]
    for code in np.unique(codes):
        cls = named[codes == code][0]
        assert f"{cls} ({code}): {PUBLISHED_CLASSES[name][cls]}" in listed


def test_class_names_are_refused_where_the_file_has_none():
    with pytest.raises(ValueError, match=r"'class_names' parameter of modelmine\.datasets\."
                                         r"load must be False for 'madelon'"):
        mm.datasets.load("madelon", class_names=True)


def test_a_column_has_one_name_at_every_door(tmp_path):
    # issue 52: bootstrap on load_colon() named column 248 'x248', load_colon(return_names=
    # True) named it 'g0249'
    X, y = mm.datasets.load_colon()
    _, _, names = mm.datasets.load_colon(return_names=True)
    base = mm.bootstrap(X[:, :300], y, selector="anova", n_bootstraps=2, n_features=3)
    assert base.feature_names.tolist() == names[:300].tolist()
    assert names[248] == "x248" and mm.datasets.read_data("embedded:colon").feature_names[
        248] == "x248"
    # a .mat file (no names in it) and the estimator's output name the columns so too
    from scipy.io import savemat

    savemat(tmp_path / "colon.mat", {"X": X, "Y": y.reshape(-1, 1)})
    assert mm.datasets.read_data(tmp_path / "colon.mat").feature_names.tolist() == \
        names.tolist()
    est = mm.ModelMiningSelector(selector="anova", n_bootstraps=2, n_features=3,
                                 operator="mostFreq").fit(X[:, :300], y)
    assert set(est.get_feature_names_out()) <= set(names[:300].tolist())


def test_class_names_round_trip_through_an_exported_mat_file(tmp_path):
    from modelmine.cli import main

    assert main(["datasets", "export", "basehock", str(tmp_path / "b.mat"), "--quiet"]) == 0
    back = mm.datasets.read_data(tmp_path / "b.mat")
    np.testing.assert_array_equal(back.y, mm.datasets.read_data("embedded:basehock").y)


def test_unknown_dataset_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"'name' parameter .* must be one of 'colon'.*Got "
                                         r"'colonn' instead. Did you mean 'colon'\?"):
        mm.datasets.load("colonn")


def test_sparse_dataset_refuses_frame():
    with pytest.raises(ValueError, match="as_frame"):
        mm.datasets.load("basehock", as_frame=True)


@pytest.mark.parametrize("name", list(SHARED_FILES))
def test_shared_files_by_name_equal_the_mat_files(name, monkeypatch):
    src = SHARED / SHARED_FILES[name]
    if not src.exists():
        pytest.skip(f"shared file {src} not present (outside the project checkout)")
    mat = scipy.io.loadmat(src)
    monkeypatch.delenv("MODELMINE_DATA_HOME", raising=False)
    X, y = mm.datasets.load(name)  # found beside the checkout
    dense = X.toarray() if sp.issparse(X) else np.asarray(X)
    np.testing.assert_array_equal(dense, np.asarray(mat["X"].todense() if sp.issparse(mat["X"])
                                                    else mat["X"], dtype=np.float64))
    np.testing.assert_array_equal(np.asarray(y), mat["Y"].ravel())
    # the same file through the environment variable and through data_home
    monkeypatch.setenv("MODELMINE_DATA_HOME", str(SHARED))
    for X_again, y_again in (mm.datasets.load(name), mm.datasets.load(name, data_home=SHARED)):
        assert (X_again != X).nnz == 0 if sp.issparse(X) else np.array_equal(X_again, X)
        np.testing.assert_array_equal(np.asarray(y_again), np.asarray(y))


def test_shared_file_missing_names_the_file_and_the_remedy(tmp_path):
    with pytest.raises(FileNotFoundError,
                       match=r"'PCMAC.mat' was looked for in .* not found\. Pass "
                             r"data_home=FOLDER or set MODELMINE_DATA_HOME"):
        mm.datasets.load("pcmac", data_home=tmp_path)


def test_a_test_reaching_an_absent_shared_dataset_skips_with_the_reason(pytester, monkeypatch):
    # the suite's own hooks (tests/conftest.py), run on a test that loads PCMAC from an empty
    # folder: skipped with the loader's message, not failed; failed again when asked to
    # require the data (the developers' machines)
    pytester.makeconftest("from shared_data import pytest_runtest_call, pytest_runtest_setup\n")
    pytester.makepyfile(f"""
import modelmine as mm

def test_needs_pcmac():
    mm.datasets.load("pcmac", data_home={str(pytester.path)!r})
""")
    monkeypatch.delenv("MODELMINE_REQUIRE_SHARED_DATA", raising=False)
    result = pytester.runpytest_inprocess("-rs", "-p", "no:cacheprovider")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*a dataset of the shared folder is absent*'PCMAC.mat'*"])
    monkeypatch.setenv("MODELMINE_REQUIRE_SHARED_DATA", "1")
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(failed=1)


def test_min_df_keeps_the_words_of_enough_documents():
    X, _, names = mm.datasets.load("basehock", return_names=True)
    Xf, _, kept = mm.datasets.load("basehock", return_names=True, min_df=20)
    df = np.asarray((X > 0).sum(axis=0)).ravel()  # brute force: documents per word
    np.testing.assert_array_equal(kept, names[df >= 20])
    assert (Xf != X[:, df >= 20]).nnz == 0
    assert 0 < Xf.shape[1] < X.shape[1]


@pytest.mark.parametrize("bad, match", [
    (dict(min_df=0), r"'min_df' .* must be an int >= 1\. Got 0"),
    (dict(min_df=2.5), r"'min_df' .* must be an int >= 1\. Got 2.5"),
    (dict(name="colon", min_df=5), r"'min_df' .* applies to the text data .* Got min_df=5 "
                                   r"for 'colon'"),
])
def test_min_df_refused(bad, match):
    kwargs = dict(name="basehock") | bad
    with pytest.raises(ValueError, match=match):
        mm.datasets.load(**kwargs)


def _sklearn_minmax(X):
    """The reference: scikit-learn's MinMaxScaler on the dense values."""
    from sklearn.preprocessing import MinMaxScaler

    dense = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    return MinMaxScaler().fit_transform(dense)


@pytest.mark.parametrize("name", ["colon", "leukemia", "madelon"])
def test_scale_minmax_equals_sklearn_on_dense_data(name):
    if name in SHARED_FILES and not (SHARED / SHARED_FILES[name]).exists():
        pytest.skip(f"shared file for {name!r} not present (outside the project checkout)")
    X, y = mm.datasets.load(name)
    Xs, ys = mm.datasets.load(name, scale="minmax")
    np.testing.assert_array_equal(np.asarray(ys), np.asarray(y))
    assert isinstance(Xs, np.ndarray) and Xs.dtype == np.float64
    np.testing.assert_allclose(Xs, _sklearn_minmax(X), rtol=0, atol=1e-12)
    assert Xs.min() == 0.0 and Xs.max() == 1.0


def test_scale_minmax_keeps_basehock_sparse_and_equals_sklearn():
    X, _ = mm.datasets.load("basehock", min_df=30)
    Xs, _ = mm.datasets.load("basehock", min_df=30, scale="minmax")
    ref = _sklearn_minmax(X)
    assert sp.issparse(Xs) and Xs.nnz == np.count_nonzero(ref)  # no zero is stored
    np.testing.assert_allclose(Xs.toarray(), ref, rtol=0, atol=1e-12)
    # a word in every document (minimum 1, no implicit zero) is shifted, not only divided
    full = np.flatnonzero(np.asarray((X > 0).sum(axis=0)).ravel() == X.shape[0])
    assert full.size and (Xs[:, full].toarray().min(axis=0) == 0).all()
    assert (X.data > 0).all()  # unchanged: the source is not scaled in place


@pytest.mark.parametrize("bad, match", [
    ("min-max", r"'scale' parameter of modelmine.datasets.load must be None or one of "
                r"'minmax'\. Got 'min-max' instead\. Did you mean 'minmax'\?"),
    ("none", r"'scale' parameter .* must be None or one of 'minmax'\. Got 'none' instead"),
    (1, r"'scale' parameter .* Got 1 instead\.$"),
])
def test_scale_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        mm.datasets.load("colon", scale=bad)
