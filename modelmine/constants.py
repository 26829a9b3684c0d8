"""The numbers modelmine takes from the papers or chooses itself, each with its reason.

One module, so that a default is changed in one place and every door (the Python API, the
command line, the estimator, the evaluation protocol) agrees on it.
"""

from __future__ import annotations

__all__ = [
    "CLARA_SAMPLES",
    "CLARA_SAMPLE_SIZE",
    "DEFAULT_K_RANGE",
    "DEFAULT_MIN_SUPPORT",
    "DEFAULT_N_BOOTSTRAPS",
    "DEFAULT_N_FEATURES",
    "DEFAULT_N_SIGNATURES",
    "KMEDOIDS_EXACT_MAX_MODELS",
    "KMEDOIDS_RESTARTS",
    "KMEDOIDS_RESTART_MAX_ROWS",
    "LATTICE_HTML_DRAWN",
    "LATTICE_HTML_MAX_ITEMSETS",
    "LATTICE_MAX_ITEMSETS",
    "LATTICE_NOTEBOOK_MAX_ITEMSETS",
    "LATTICE_REPORT_MAX_ITEMSETS",
    "LOW_DIMENSIONAL_P",
    "MAX_ITEMSETS",
    "MIN_SAMPLES_PER_CLASS",
    "NEGATIVE_MASS_TOLERANCE",
    "SEED_MODULUS",
    "SILHOUETTE_NO_STRUCTURE",
    "SUPPORT_DECAY",
    "TOP_FRACTIONS",
    "default_n_features",
]

#: b = 150 bootstrap samples: Woznica, Nguyen and Kalousis (KDD 2012), section 3.
DEFAULT_N_BOOTSTRAPS = 150

#: m = 20 features per base model and per consensus signature, within the 10 to 50 the
#: KDD 2012 experiments use (section 3) and the size of a biomarker panel a lab can test.
DEFAULT_N_FEATURES = 20

#: Below this many features (a clinical table of 8-14 variables, a small panel) the default
#: m is p / 3 instead of DEFAULT_N_FEATURES (:func:`default_n_features`); the two agree at
#: p = 60, so the default is continuous in p.
LOW_DIMENSIONAL_P = 60


def default_n_features(p: int) -> int:
    """The default m for data of p features: DEFAULT_N_FEATURES, or round(p / 3) (at least
    1) when p < LOW_DIMENSIONAL_P.

    Why: at m = 20 a table of 14 variables is capped at m = p, every base model takes
    (nearly) every variable, selection frequencies cannot separate them and the Nogueira
    stability is an artefact (its reference, random subsets of size m, agrees perfectly
    as m -> p). A third of p leaves two of every three variables out of each model, as
    m = 20 of thousands of genes does, and keeps m / p under
    :data:`modelmine.report._trust.UNINFORMATIVE_SHARE`. Only when the user did not set m.
    """
    if p >= LOW_DIMENSIONAL_P:
        return DEFAULT_N_FEATURES
    return max(1, round(p / 3))


#: k = 10 alternative signatures of multi-model operators: KDD 2012, section 3 (Table 4).
DEFAULT_N_SIGNATURES = 10

#: k = 2, ..., 10 clusters tried by largeMed (KDD 2012, section 2.1 chooses k by the average
#: silhouette; the range matches DEFAULT_N_SIGNATURES as its upper end).
DEFAULT_K_RANGE = tuple(range(2, DEFAULT_N_SIGNATURES + 1))

#: Minimum support of the closed itemsets a run shows and exports: the lower end of the
#: supports of KDD 2012, Table 3 (0.17 to 0.41), rounded; low enough for long itemsets,
#: high enough that univariate selectors do not produce millions of them.
DEFAULT_MIN_SUPPORT = 0.2

#: When too few itemsets are frequent, the operators lower the support count by this
#: factor per step (geometric, so that the number of mining passes stays logarithmic).
SUPPORT_DECAY = 0.8

#: The most itemsets :func:`modelmine.mine_itemsets` returns before refusing: ten million
#: itemsets take about 1 GB in pyfim's Python output before conversion to compact arrays
#: (about 0.6 GB in the arrays of modelmine's own LCM at 12 items per itemset).
MAX_ITEMSETS = 10_000_000

#: The most itemsets an :class:`~modelmine.ItemsetLattice` holds: its Hasse diagram is a
#: networkx graph at about 1 KiB per node and edge, so a million nodes is about 1 GiB.
LATTICE_MAX_ITEMSETS = 1_000_000

#: The most closed itemsets the HTML lattice explorer embeds (ItemsetLattice.to_html): about
#: 105 bytes each with their cover edges, so 100,000 make a page of about 11 MB that Chromium
#: first paints in about 1.3 s, filters staying near 0.1 s (benchmarks/bench_lattice_html.py).
#: Above it the page keeps the itemsets of highest support (a down-closed part of the
#: lattice) and says so.
LATTICE_HTML_MAX_ITEMSETS = 100_000

#: Itemsets the explorer draws at once (its level of detail): SVG stays fluid to pan and
#: zoom up to a few thousand elements; the rest of the view is counted per level as hidden.
LATTICE_HTML_DRAWN = 1_500

#: The cap of the explorer shown inline in Jupyter (ItemsetLattice._repr_html_): notebooks
#: store their outputs, so an inline page stays under about 1.5 MB.
LATTICE_NOTEBOOK_MAX_ITEMSETS = 20_000

#: The cap of the explorer inside the run report: the report is built with every run, and
#: the Hasse diagram costs about 0.5 ms per itemset (a few seconds at 10,000).
LATTICE_REPORT_MAX_ITEMSETS = 10_000

#: Seeded k-medoids restarts after PAM's BUILD start (modelmine.patterns.kmedoids): PAM alone
#: stops above the best loss in 12 of 63 (dataset, k) runs on real base models; with 20
#: restarts every run reaches within 0.01 % of the best of 100 FasterPAM restarts
#: (tests/patterns/test_kmedoids.py).
KMEDOIDS_RESTARTS = 20

#: Restarts cost O(k n^2) per swap: beyond this many base models only PAM from BUILD runs.
KMEDOIDS_RESTART_MAX_ROWS = 1000

#: The medoid operators cluster the distinct base models (with their multiplicities as
#: weights) exactly, PAM on their d x d Jaccard distances, up to this many distinct models
#: (8 d^2 bytes: 800 MB at 10,000); beyond it CLARA (Kaufman and Rousseeuw 1990, chapter
#: 3): PAM on CLARA_SAMPLES samples of CLARA_SAMPLE_SIZE of them, the medoids of least loss
#: over all the models kept. A rule on the data, not on the machine, so that a run gives
#: the same signatures everywhere (issue 50: allMed's b x b distances passed 3 GiB at
#: b = 40,000).
KMEDOIDS_EXACT_MAX_MODELS = 10_000

#: CLARA's samples (Kaufman and Rousseeuw 1990 draw 5), each CLARA_SAMPLE_SIZE base models
#: drawn without replacement plus the best medoids so far (K&R's 40 + 2k was for the
#: computers of 1990; PAM on 2,000 models takes 32 MB and seconds).
CLARA_SAMPLES = 5
CLARA_SAMPLE_SIZE = 2_000

#: Negative values carrying at most this share of a matrix's absolute mass are noise
#: around zero; more is centred (scaled) data. Scaled (z-scored) data carry half their mass
#: below zero (each gene has mean 0: scanpy's pbmc68k_reduced's X, 50.0 %); scanpy's
#: simulated krumsiek11 carries 0.16 % (values down to -0.016, noise of the ODE simulation
#: around 0). 1 % separates the two by a factor of 6 and 50. ``modelmine markers`` refuses
#: scaled values (its statistics need expression); ``modelmine run`` warns (issue 50).
NEGATIVE_MASS_TOLERANCE = 0.01

#: Average silhouette below which largeMed finds no cluster structure and falls back to
#: mostRep: Kaufman and Rousseeuw (1990, section 2.2), "no substantial structure has been
#: found" at 0.25 or less.
SILHOUETTE_NO_STRUCTURE = 0.25

#: Operators, scikit-learn estimators and numpy's legacy seeding take 32-bit seeds; a run's
#: 128-bit ``SeedSequence`` entropy is reduced modulo this to seed them.
SEED_MODULUS = 2**32

#: Fractions of the features whose top-ranked overlap the protocol measures (jc5, jc1):
#: the top 5 % and 1 % of Saeys, Abeel and Van de Peer (PKDD 2008), section 4.
TOP_FRACTIONS = {"jc5": 0.05, "jc1": 0.01}

#: A numeric target with a value of its own for more than this fraction of the samples is
#: refused as continuous (an age, a survival time, an ID): class labels repeat. Half leaves
#: room for many small classes, which get MIN_MEAN_SAMPLES_PER_CLASS's warning instead.
MAX_TARGET_DISTINCT_FRACTION = 0.5

#: Fewer samples per class than this on average gets a warning: a class of 2 samples is
#: absent from a bootstrap sample of n with probability (1 - 2/n)^n, about e^-2 = 14 %.
MIN_MEAN_SAMPLES_PER_CLASS = 5

#: Any class with fewer samples than this gets a warning of its own, whatever the average
#: (issue 26: classes of 2, 2 and 4 among 96 samples passed silently): a class of 4 is
#: absent from about e^-4 = 2 % of bootstrap samples and, when present, its signature
#: genes rest on a handful of samples.
MIN_CLASS_SIZE_WARNING = 5

#: The fewest samples of a class :func:`modelmine.bootstrap` accepts: a resample must hold
#: two classes (with one member a class is missing from about a third of the bootstraps),
#: stratified resampling draws two or more per class, and ReliefF needs a nearest hit
#: (another member of the same class). Checked before the first fit.
MIN_SAMPLES_PER_CLASS = 2
