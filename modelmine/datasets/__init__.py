"""The data stage: embedded real datasets and the readers of users' files.

Embedded: colon, leukemia, prostate (microarrays), basehock (text); see
``modelmine/datasets/data/PROVENANCE.md`` for where each comes from. Files: CSV, TSV,
Parquet, MATLAB ``.mat`` and AnnData ``.h5ad`` through :func:`read_data` (with sample-ID
columns, genes-by-samples tables and labels in a separate file), and in-memory AnnData
objects through :func:`from_anndata`; several omics of the same samples as a MuData
(``.h5mu``, :func:`from_mudata`) or as tables joined by sample ID
(:func:`from_modalities`); all return a :class:`LoadedData` that :func:`modelmine.run`
takes as it is. :func:`write_arff` writes data for WEKA.
"""

from ._arff import write_arff
from ._biodata import (
    ManyClassesWarning,
    ScaledValuesWarning,
    check_target,  # noqa: F401 (internal)
    from_anndata,
)
from ._genemap import collapse_features, read_feature_map
from ._genesets import gene_sets_of, read_gmt  # noqa: F401 (internal: gene_sets_of)
from ._loaders import (
    SHARED_FILES,  # noqa: F401 (internal)
    DatasetInfo,
    available,
    load,
    load_basehock,
    load_colon,
    load_leukemia,
    load_prostate,
    shared_path,  # noqa: F401 (internal)
)
from ._multiomic import from_modalities, from_mudata
from ._readers import (
    EMBEDDED_PREFIX,  # noqa: F401 (internal)
    LoadedData,
    MetadataColumnsWarning,
    read_data,
)

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "DatasetInfo",
    "LoadedData",
    "ManyClassesWarning",
    "MetadataColumnsWarning",
    "ScaledValuesWarning",
    "available",
    "collapse_features",
    "from_anndata",
    "from_modalities",
    "from_mudata",
    "load",
    "load_basehock",
    "load_colon",
    "load_leukemia",
    "load_prostate",
    "read_data",
    "read_feature_map",
    "read_gmt",
    "write_arff",
]
