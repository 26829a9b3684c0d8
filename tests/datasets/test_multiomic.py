"""Several omics of the same samples as one dataset (issue 51, item 4): a MuData (in memory
and as ``.h5mu``) or tables joined by sample ID. Checked against what mudata, anndata and
scanpy read themselves, and against pandas' join by index: the blocks side by side in the
order given, the rows matched by sample ID, sparse blocks kept sparse, and every mismatch
refused with its counts."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from modelmine.datasets import LoadedData, from_modalities, from_mudata, read_data
from modelmine.exceptions import DataError

ad = pytest.importorskip("anndata", reason="AnnData is the modalities' container")
md = pytest.importorskip("mudata", reason="MuData is the multi-omic container under test")


def _samples(n: int, start: int = 0) -> list[str]:
    return [f"p{i:02d}" for i in range(start, start + n)]


@pytest.fixture
def omics():
    """rna (dense, 6 genes) and prot (sparse, 4 proteins) of the same 12 samples, prot's
    rows in another order; the labels in the MuData's obs."""
    rng = np.random.default_rng(7)
    ids = _samples(12)
    rna = ad.AnnData(rng.normal(size=(12, 6)))
    rna.obs_names, rna.var_names = ids, [f"G{j}" for j in range(6)]
    rna.obs["batch"] = np.repeat(["b1", "b2"], 6)
    order = rng.permutation(12)
    dense = rng.poisson(3.0, size=(12, 4)).astype(float)
    prot = ad.AnnData(sp.csr_matrix(dense[order]))
    prot.obs_names, prot.var_names = [ids[i] for i in order], ["CD4", "CD8", "G0", "TP53"]
    labels = np.tile(["case", "ctrl"], 6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mdata = md.MuData({"rna": rna, "prot": prot})
    mdata.obs["label"] = pd.Series(labels, index=ids)
    return mdata, rna, prot, dense, labels


def test_a_mudata_joins_its_modalities_by_sample_id(omics):
    mdata, rna, prot, _dense, labels = omics
    data = from_mudata(mdata, "obs:label")
    assert isinstance(data, LoadedData)
    # the oracle: pandas' join of the two blocks on their sample IDs, in rna's order
    frame = rna.to_df().add_prefix("rna:").join(
        pd.DataFrame(prot.X.toarray(), index=prot.obs_names,
                     columns=prot.var_names).add_prefix("prot:"), how="inner")
    assert list(data.feature_names) == list(frame.columns)
    assert list(data.sample_names) == list(rna.obs_names)
    assert sp.issparse(data.X) and data.X.format == "csr"  # a sparse block stays sparse
    np.testing.assert_array_equal(data.X.toarray(), frame.to_numpy())
    np.testing.assert_array_equal(data.y, labels)
    assert data.modalities == (("rna", 6), ("prot", 4))
    # a gene measured twice (G0: transcript and protein) stays two features
    assert {"rna:G0", "prot:G0"} <= set(data.feature_names)


def test_dense_blocks_stay_dense_and_a_modality_obs_column_is_reachable(omics):
    mdata, rna, _, _, labels = omics
    mdata.mod["rna"].obs["label"] = labels
    data = from_mudata(mdata, "obs:rna:label", modalities=["rna"])
    assert isinstance(data.X, np.ndarray)
    np.testing.assert_array_equal(data.X, rna.X)
    np.testing.assert_array_equal(data.y, labels)
    assert data.target == "obs:rna:label"


def test_the_h5mu_file_reads_as_mudata_and_anndata_read_it(omics, tmp_path):
    mdata, _, _, _, _ = omics
    path = tmp_path / "study.h5mu"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mdata.write(path)
        back = md.read_h5mu(path)  # the library's own reader: the reference
    data = read_data(path, "obs:label")
    ref = from_mudata(back, "obs:label")
    np.testing.assert_array_equal(data.X.toarray(), ref.X.toarray())
    assert list(data.feature_names) == list(ref.feature_names)
    assert data.format == "h5mu" and data.modalities == (("rna", 6), ("prot", 4))
    backed = read_data(path, "obs:label", backed=True)
    np.testing.assert_array_equal(backed.X.toarray(), ref.X.toarray())


def test_tables_join_by_sample_id_as_the_mudata_does(omics):
    mdata, rna, prot, _, labels = omics
    tables = {"rna": rna.to_df(),
              "prot": pd.DataFrame(prot.X.toarray(), index=prot.obs_names,
                                   columns=prot.var_names)}
    by_id = pd.Series(labels, index=rna.obs_names)
    data = from_modalities(tables, by_id.sample(frac=1.0, random_state=1))
    ref = from_mudata(mdata, "obs:label")
    np.testing.assert_array_equal(data.X, ref.X.toarray())  # dense tables: dense
    np.testing.assert_array_equal(data.y, ref.y)
    assert list(data.feature_names) == list(ref.feature_names)
    # an AnnData among the tables, its label by obs; an array of labels in rna's order
    mixed = from_modalities({"rna": rna, "prot": tables["prot"]}, labels)
    np.testing.assert_array_equal(mixed.X, ref.X.toarray())


def test_samples_that_do_not_match_are_refused_with_their_counts(omics):
    _, rna, prot, _, labels = omics
    short = prot[2:].copy()
    with pytest.raises(DataError, match=r"different samples \(rna 12, prot 10; 10 in all of "
                                        r"them\): give intersect=True"):
        from_modalities({"rna": rna, "prot": short}, labels)
    kept = from_modalities({"rna": rna, "prot": short}, labels, intersect=True)
    assert kept.shape == (10, 10)
    assert set(kept.sample_names) == set(short.obs_names)
    assert "left out 2 of rna" in kept.notes[0]
    # rna's rows of the kept samples, in rna's order: pandas' inner join
    frame = rna.to_df().join(short.to_df(), how="inner", rsuffix="_p")
    np.testing.assert_array_equal(kept.X.toarray()[:, :6], frame.iloc[:, :6].to_numpy())
    np.testing.assert_array_equal(kept.y, pd.Series(labels, index=rna.obs_names)
                                  .loc[list(kept.sample_names)].to_numpy())
    other = prot.copy()
    other.obs_names = _samples(12, start=50)
    with pytest.raises(DataError, match=r"share 0 sample ID\(s\) \(rna 12, prot 12\)"):
        from_modalities({"rna": rna, "prot": other}, labels)


@pytest.mark.parametrize("tables, message", [
    (lambda r: {"rna:x": r}, "without ':'"),
    (lambda r: {"rna": r.to_df().reset_index(drop=True)}, "no sample IDs"),
    (lambda r: {"rna": r.to_df().assign(sex="f")}, "non-numeric column"),
    (lambda r: {"rna": [[1.0]]}, "expected a pandas DataFrame"),
    (lambda r: {"rna": pd.concat([r.to_df(), r.to_df().iloc[:1]])}, "not unique"),
])
def test_bad_modalities_are_refused_by_name(omics, tables, message):
    _, rna, _, _, labels = omics
    with pytest.raises(DataError, match=message):
        from_modalities(tables(rna), labels)


def test_labels_are_named_or_refused_with_what_exists(omics):
    mdata, _, _, _, _ = omics
    with pytest.raises(DataError, match=r"obs:tumour is not a column of the obs .* 'label'"):
        from_mudata(mdata, "obs:tumour")
    with pytest.raises(DataError, match="Name the labels"):
        from_mudata(mdata)
    mdata.obs.loc["p03", "label"] = None
    with pytest.raises(DataError, match="1 missing label"):
        from_mudata(mdata, "obs:label")


def test_several_table_files_read_by_read_data(omics, tmp_path):
    mdata, rna, prot, _, labels = omics
    rna.to_df().rename_axis("sample").to_csv(tmp_path / "rna.csv", float_format="%.17g")
    prot.write_h5ad(tmp_path / "prot.h5ad")
    pd.DataFrame({"sample": rna.obs_names, "label": labels}).to_csv(
        tmp_path / "sheet.csv", index=False)
    data = read_data({"rna": tmp_path / "rna.csv", "prot": tmp_path / "prot.h5ad"},
                     labels=tmp_path / "sheet.csv")
    ref = from_mudata(mdata, "obs:label")
    # the CSV reader's float parser is pandas' (not round-trip exact in the last digit)
    np.testing.assert_allclose(data.X.toarray(), ref.X.toarray(), rtol=1e-13, atol=0)
    np.testing.assert_array_equal(data.y, ref.y)
    assert data.modalities == ref.modalities
    with pytest.raises(DataError, match="--labels FILE"):
        read_data({"rna": tmp_path / "rna.csv"})


def test_scanpy_reads_the_modality_files_the_same(omics, tmp_path):
    sc = pytest.importorskip("scanpy", reason="scanpy's reader is the reference")
    _mdata, rna, prot, _, labels = omics
    rna.write_h5ad(tmp_path / "rna.h5ad")
    prot.write_h5ad(tmp_path / "prot.h5ad")
    pd.DataFrame({"sample": rna.obs_names, "label": labels}).to_csv(
        tmp_path / "sheet.csv", index=False)
    data = read_data({"rna": tmp_path / "rna.h5ad", "prot": tmp_path / "prot.h5ad"},
                     labels=tmp_path / "sheet.csv")
    ours = pd.DataFrame(data.X.toarray(), index=data.sample_names, columns=data.feature_names)
    for name in ("rna", "prot"):
        theirs = sc.read_h5ad(tmp_path / f"{name}.h5ad").to_df().add_prefix(f"{name}:")
        pd.testing.assert_frame_equal(ours[theirs.columns].loc[theirs.index], theirs,
                                      check_names=False)
