/*
 * WEKA's MDL discretisation search (Fayyad & Irani 1993, as WEKA's supervised Discretize
 * with its attribute evaluators' "better encoding"), column by column, from each column's
 * class counts per distinct value: the compiled kernel of _information._mdl_search (issue
 * 37: the MDL selectors' cost on dense data after the shared sort is this search).
 *
 * The KDD'12 "IG", "SYM" and "CHI" selectors (Woznica et al. 2012, Section 5), CFS and
 * Pes's gain ratio discretise each resample's columns by this search. For each column, the
 * values present (counts > 0) in increasing order; an interval of them is split at the
 * first boundary of least class entropy when that lowers the entropy and passes the MDL
 * test; the two parts are searched again. Every entropy is computed exactly as numpy
 * computes it in _information.py (the same terms, in the same order, x ln x and the
 * logarithms read from tables that numpy made), so the cuts are those of the numpy search,
 * bit for bit; each interval's decision depends only on its own counts, so the order in
 * which the intervals are searched (depth first here, breadth first there) cannot matter.
 *
 * Plain C99 plus the CPython buffer API; the interpreter lock is released while searching.
 * Build with -ffp-contract=off (pyproject.toml): a fused multiply-add would round
 * differently from numpy.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const double *xlnx;  /* x ln x of every count 0..n_max */
    const double *log3k; /* log(3^k - 2), k = 0..K */
    const double *logn;  /* log(m), m = 0..n_max */
    double ln2;
    Py_ssize_t K;
} tables_t;

/* _weka_conditional_entropy_counts: class entropy (bits) given the split left | right */
static double cond_entropy(const int64_t *left, const int64_t *right, const tables_t *t) {
    double value = 0.0;
    int64_t total = 0;
    const int64_t *parts[2] = {left, right};
    for (int q = 0; q < 2; q++) {
        int64_t row_sum = 0;
        for (Py_ssize_t k = 0; k < t->K; k++) {
            value = value + t->xlnx[parts[q][k]];
            row_sum += parts[q][k];
        }
        value = value - t->xlnx[row_sum];
        total += row_sum;
    }
    if (total <= 0) return 0.0;
    return -value / ((double)total * t->ln2);
}

/* _weka_entropy_counts: entropy (bits) of one vector of class counts */
static double entropy(const int64_t *c, const tables_t *t) {
    double value = 0.0;
    int64_t total = 0;
    for (Py_ssize_t k = 0; k < t->K; k++) {
        value = value - t->xlnx[c[k]];
        total += c[k];
    }
    if (total <= 0) return 0.0;
    return (value + t->xlnx[total]) / ((double)total * t->ln2);
}

static double n_present_classes(const int64_t *c, Py_ssize_t K) {
    Py_ssize_t k_on = 0;
    for (Py_ssize_t k = 0; k < K; k++) k_on += c[k] > 0;
    return (double)k_on;
}

/* _mdl_accepts_counts: Fayyad & Irani's MDL test of the split left | right of prior */
static int mdl_accepts(const int64_t *prior, const int64_t *left, const int64_t *right,
                       double prior_ent, double n_cand, int better, const tables_t *t) {
    const double gain = prior_ent - cond_entropy(left, right, t);
    const double k = n_present_classes(prior, t->K);
    const double k1 = n_present_classes(left, t->K);
    const double k2 = n_present_classes(right, t->K);
    const double delta = t->log3k[(Py_ssize_t)k] / t->ln2
                         - ((k * prior_ent - k2 * entropy(right, t)) - k1 * entropy(left, t));
    int64_t inst = 0;
    for (Py_ssize_t c = 0; c < t->K; c++) inst += prior[c];
    const double n_inst = (double)inst;
    const double n_cuts = better ? n_cand : n_inst - 1.0;
    return gain > (t->logn[(Py_ssize_t)n_cuts] / t->ln2 + delta) / n_inst;
}

/* The MDL cuts of one column: cum (m + 1) x K cumulative class counts of its m present
   values vals (increasing). Writes the cut positions (a cut after value pos) to cuts and
   returns their number; stack and work hold 2 m intervals and 4 K counts. */
static Py_ssize_t column_cuts(const int64_t *cum, Py_ssize_t m, int better,
                              const tables_t *t, Py_ssize_t *cuts, Py_ssize_t *stack,
                              int64_t *work) {
    const Py_ssize_t K = t->K;
    int64_t *left = work, *right = work + K, *prior = work + 2 * K, *bl = work + 3 * K;
    Py_ssize_t n_cuts = 0, top = 0;
    stack[top++] = 0;
    stack[top++] = m;
    while (top) {
        const Py_ssize_t stop = stack[--top], start = stack[--top];
        const Py_ssize_t n_cand = stop - start - 1;
        if (n_cand < 1) continue;
        const int64_t *c0 = cum + start * K, *c1 = cum + stop * K;
        double best = INFINITY;
        Py_ssize_t best_pos = -1;
        for (Py_ssize_t pos = start; pos < stop - 1; pos++) {
            const int64_t *below = cum + (pos + 1) * K;
            for (Py_ssize_t k = 0; k < K; k++) {
                left[k] = below[k] - c0[k];
                right[k] = c1[k] - below[k];
            }
            const double ent = cond_entropy(left, right, t);
            if (ent < best) { /* the first boundary of least entropy */
                best = ent;
                best_pos = pos;
            }
        }
        for (Py_ssize_t k = 0; k < K; k++) prior[k] = c1[k] - c0[k];
        const double prior_ent = entropy(prior, t);
        if (!(best < prior_ent)) continue; /* WEKA: the cut must lower the entropy */
        const int64_t *below = cum + (best_pos + 1) * K;
        for (Py_ssize_t k = 0; k < K; k++) {
            bl[k] = below[k] - c0[k];
            right[k] = c1[k] - below[k];
        }
        if (!mdl_accepts(prior, bl, right, prior_ent, (double)n_cand, better, t)) continue;
        cuts[n_cuts++] = best_pos;
        stack[top++] = start;
        stack[top++] = best_pos + 1;
        stack[top++] = best_pos + 1;
        stack[top++] = stop;
    }
    return n_cuts;
}

PyDoc_STRVAR(search_doc,
"search(counts, values, vstride, K, better, xlnx, log3k, logn, ln2, levels, n_cuts,\n"
"       cut_feat, cut_val) -> int\n"
"--\n\n"
"WEKA's MDL search of every column of a block. counts: int64 (cols, width, K), the class\n"
"counts of each distinct value (index) of each column, zero for a value absent;\n"
"values: float64, row j at j * vstride, the column's distinct values in increasing\n"
"order; better: the MDL cost counts the interval's candidate cuts (1) or its instances\n"
"- 1 (0); xlnx, logn: x ln x and ln x of 0..n_max (n_max >= every column's total);\n"
"log3k: ln(3^k - 2) of k = 0..K; ln2: ln 2. Writes levels (int32 (cols, width): the\n"
"number of cuts below each value present, 0 for the others), n_cuts (int64 (cols)) and\n"
"the cuts (cut_feat int64, cut_val float64, at least sum(present - 1) long: column,\n"
"midpoint of the two values); returns the number of cuts.");

static PyObject *search(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer counts, values, xlnx, log3k, logn, levels, ncut, cfeat, cval;
    Py_ssize_t vstride, K;
    int better;
    double ln2;
    if (!PyArg_ParseTuple(args, "y*y*nnpy*y*y*dw*w*w*w*", &counts, &values, &vstride, &K,
                          &better, &xlnx, &log3k, &logn, &ln2, &levels, &ncut, &cfeat, &cval))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t cols = ncut.len / (Py_ssize_t)sizeof(int64_t);
    const Py_ssize_t width = cols > 0 ? levels.len / (Py_ssize_t)sizeof(int32_t) / cols : 0;
    const Py_ssize_t n_max = xlnx.len / (Py_ssize_t)sizeof(double) - 1;
    const Py_ssize_t cap = cfeat.len / (Py_ssize_t)sizeof(int64_t);
    if (K < 1 || cols < 0 || levels.len != cols * width * (Py_ssize_t)sizeof(int32_t)
        || counts.len != cols * width * K * (Py_ssize_t)sizeof(int64_t)
        || values.len < ((cols > 0 ? (cols - 1) * vstride : 0) + width) * (Py_ssize_t)sizeof(double)
        || vstride < width || n_max < 0 || logn.len != xlnx.len
        || log3k.len != (K + 1) * (Py_ssize_t)sizeof(double)
        || cval.len != cap * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "search: inconsistent buffer sizes");
        goto done;
    }
    const tables_t t = {(const double *)xlnx.buf, (const double *)log3k.buf,
                        (const double *)logn.buf, ln2, K};
    const int64_t *C = (const int64_t *)counts.buf;
    const double *V = (const double *)values.buf;
    int32_t *L = (int32_t *)levels.buf;
    int64_t *NC = (int64_t *)ncut.buf, *CF = (int64_t *)cfeat.buf;
    double *CV = (double *)cval.buf;
    int64_t *cum = malloc(sizeof(int64_t) * (size_t)((width + 1) * K + 4 * K));
    double *vals = malloc(sizeof(double) * (size_t)(width + 1));
    Py_ssize_t *index = malloc(sizeof(Py_ssize_t) * (size_t)(width + 1));
    Py_ssize_t *cuts = malloc(sizeof(Py_ssize_t) * (size_t)(width + 1));
    Py_ssize_t *stack = malloc(sizeof(Py_ssize_t) * (size_t)(4 * width + 4));
    if (!cum || !vals || !index || !cuts || !stack) {
        PyErr_NoMemory();
        goto freed;
    }
    Py_ssize_t total = 0;
    int overflow = 0, bad = 0;
    Py_BEGIN_ALLOW_THREADS
    int64_t *work = cum + (width + 1) * K;
    for (Py_ssize_t j = 0; j < cols && !overflow && !bad; j++) {
        const int64_t *cj = C + j * width * K;
        const double *vj = V + j * vstride;
        int32_t *lj = L + j * width;
        /* the values present, their cumulative class counts */
        Py_ssize_t m = 0;
        for (Py_ssize_t k = 0; k < K; k++) cum[k] = 0;
        for (Py_ssize_t g = 0; g < width; g++) {
            lj[g] = 0;
            int on = 0;
            for (Py_ssize_t k = 0; k < K; k++) on |= cj[g * K + k] > 0;
            if (!on) continue;
            int64_t row = 0;
            for (Py_ssize_t k = 0; k < K; k++) {
                cum[(m + 1) * K + k] = cum[m * K + k] + cj[g * K + k];
                row += cum[(m + 1) * K + k];
            }
            bad |= row > n_max;
            vals[m] = vj[g];
            index[m++] = g;
        }
        if (bad) break;
        const Py_ssize_t nc = column_cuts(cum, m, better, &t, cuts, stack, work);
        NC[j] = nc;
        if (total + nc > cap) {
            overflow = 1;
            break;
        }
        for (Py_ssize_t c = 0; c < nc; c++) {
            CF[total + c] = j;
            CV[total + c] = (vals[cuts[c]] + vals[cuts[c] + 1]) / 2.0;
        }
        /* level of a value = the cuts below it, by the comparison numpy makes */
        for (Py_ssize_t q = 0; q < m; q++) {
            int32_t lev = 0;
            for (Py_ssize_t c = 0; c < nc; c++) lev += vals[q] > CV[total + c];
            lj[index[q]] = lev;
        }
        total += nc;
    }
    Py_END_ALLOW_THREADS
    if (overflow || bad) {
        PyErr_SetString(PyExc_ValueError, overflow ? "search: cut_feat is too short"
                                                   : "search: a column's total exceeds n_max");
        goto freed;
    }
    result = PyLong_FromSsize_t(total);
freed:
    free(cum);
    free(vals);
    free(index);
    free(cuts);
    free(stack);
done:
    PyBuffer_Release(&counts);
    PyBuffer_Release(&values);
    PyBuffer_Release(&xlnx);
    PyBuffer_Release(&log3k);
    PyBuffer_Release(&logn);
    PyBuffer_Release(&levels);
    PyBuffer_Release(&ncut);
    PyBuffer_Release(&cfeat);
    PyBuffer_Release(&cval);
    return result;
}

PyDoc_STRVAR(level_table_doc,
"level_table(counts, levels, n_levels, table) -> None\n"
"--\n\n"
"The (column, level, class) counts of a block: table (float64 (cols, n_levels, K),\n"
"zeroed by the caller) += counts (int64 (cols, width, K)) of each value at its level\n"
"(levels: int32 (cols, width)). Integer sums, so any order gives the same floats.");

static PyObject *level_table(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer counts, levels, table;
    Py_ssize_t n_levels;
    if (!PyArg_ParseTuple(args, "y*y*nw*", &counts, &levels, &n_levels, &table)) return NULL;
    PyObject *result = NULL;
    const Py_ssize_t cells = levels.len / (Py_ssize_t)sizeof(int32_t);
    const Py_ssize_t K = cells > 0 ? counts.len / (Py_ssize_t)sizeof(int64_t) / cells : 0;
    const Py_ssize_t cols = (n_levels > 0 && K > 0)
        ? table.len / (Py_ssize_t)sizeof(double) / (n_levels * K) : 0;
    const Py_ssize_t width = cols > 0 ? cells / cols : 0;
    if (cells == 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    if (K < 1 || n_levels < 1 || cols * width != cells
        || counts.len != cells * K * (Py_ssize_t)sizeof(int64_t)
        || table.len != cols * n_levels * K * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "level_table: inconsistent buffer sizes");
        goto done;
    }
    const int64_t *C = (const int64_t *)counts.buf;
    const int32_t *L = (const int32_t *)levels.buf;
    double *T = (double *)table.buf;
    int bad = 0;
    for (Py_ssize_t j = 0; j < cols && !bad; j++) {
        for (Py_ssize_t g = 0; g < width; g++) {
            const int32_t lev = L[j * width + g];
            if (lev < 0 || lev >= n_levels) {
                bad = 1;
                break;
            }
            const int64_t *c = C + (j * width + g) * K;
            double *o = T + (j * n_levels + lev) * K;
            for (Py_ssize_t k = 0; k < K; k++) o[k] += (double)c[k];
        }
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "level_table: a level is out of range");
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&counts);
    PyBuffer_Release(&levels);
    PyBuffer_Release(&table);
    return result;
}

/* ---------------------------------------------------------------------------------------
 * Holte's OneR rule of a column (WEKA 3.6's OneR.newNumericRule, the "OneR" ranker of Pes
 * 2019, Section 3.1): the compiled kernel of _rankers._pass_one and _oner_rows._bucket_classes.
 * Integer counts and comparisons only, and the breakpoints the same midpoints, so the rules
 * are those of the numpy passes exactly.
 * ------------------------------------------------------------------------------------- */

/* the first class of largest count (numpy's argmax, WEKA's Utils.maxIndex) */
static Py_ssize_t first_max(const int64_t *c, Py_ssize_t K) {
    Py_ssize_t best = 0;
    for (Py_ssize_t k = 1; k < K; k++)
        if (c[k] > c[best]) best = k;
    return best;
}

/* WEKA's first merging pass over the m distinct values of one column (counts c, m x K;
   values v): the class counts of each bucket (hc, zeroed), the breakpoint after each (hbp,
   +inf-filled by the caller), the number of buckets and the bucket of each value. */
static int64_t pass_one_column(const int64_t *c, const double *v, Py_ssize_t m, Py_ssize_t K,
                               int64_t bsize, int64_t *hc, double *hbp, int64_t *member,
                               int64_t *acc) {
    int64_t n_h = 0;
    if (m == 0) return 1; /* numpy's: one empty bucket */
    for (Py_ssize_t k = 0; k < K; k++) acc[k] = c[k];
    member[0] = 0;
    for (Py_ssize_t g = 1; g < m; g++) {
        const int64_t *next = c + g * K;
        const Py_ssize_t top = first_max(acc, K);
        const int merge = first_max(next, K) == top || acc[top] < bsize;
        if (!merge) { /* a bucket closes before value g */
            for (Py_ssize_t k = 0; k < K; k++) hc[n_h * K + k] = acc[k];
            hbp[n_h] = (v[g - 1] + v[g]) / 2.0;
            n_h++;
            for (Py_ssize_t k = 0; k < K; k++) acc[k] = next[k];
        } else {
            for (Py_ssize_t k = 0; k < K; k++) acc[k] = acc[k] + next[k];
        }
        member[g] = n_h;
    }
    for (Py_ssize_t k = 0; k < K; k++) hc[n_h * K + k] = acc[k];
    return n_h + 1;
}

PyDoc_STRVAR(pass_one_doc,
"pass_one(counts, values, vstride, n_groups, bsize, h_counts, h_bp, n_h, member) -> None\n"
"--\n\n"
"_rankers._pass_one, compiled: counts int64 (cols, width, K) of each column's n_groups\n"
"distinct values (left-aligned), values float64 (row j at j * vstride). Writes h_counts\n"
"(int64 (cols, W, K), zeroed), h_bp (float64 (cols, W), +inf-filled), n_h (int64 (cols))\n"
"and member (int64 (cols, W), zeroed), W = max(width, 1).");

static PyObject *pass_one(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer counts, values, groups, hcount, hbp, nh, member;
    Py_ssize_t vstride;
    long long bsize;
    if (!PyArg_ParseTuple(args, "y*y*ny*Lw*w*w*w*", &counts, &values, &vstride, &groups,
                          &bsize, &hcount, &hbp, &nh, &member))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t cols = groups.len / (Py_ssize_t)sizeof(int64_t);
    const Py_ssize_t W = cols > 0 ? hbp.len / (Py_ssize_t)sizeof(double) / cols : 0;
    const Py_ssize_t K = cols > 0 && W > 0
        ? hcount.len / (Py_ssize_t)sizeof(int64_t) / (cols * W) : 0;
    const Py_ssize_t width = cols > 0 && K > 0
        ? counts.len / (Py_ssize_t)sizeof(int64_t) / (cols * K) : 0;
    const int64_t *NG = (const int64_t *)groups.buf;
    int bad = cols < 1 || K < 1 || W != (width > 1 ? width : 1) || vstride < width
        || counts.len != cols * width * K * (Py_ssize_t)sizeof(int64_t)
        || hcount.len != cols * W * K * (Py_ssize_t)sizeof(int64_t)
        || nh.len != groups.len || member.len != cols * W * (Py_ssize_t)sizeof(int64_t)
        || values.len < ((cols - 1) * vstride + width) * (Py_ssize_t)sizeof(double);
    for (Py_ssize_t j = 0; j < cols && !bad; j++) bad = NG[j] < 0 || NG[j] > width;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "pass_one: inconsistent buffer sizes");
        goto done;
    }
    int64_t *acc = malloc(sizeof(int64_t) * (size_t)K);
    if (!acc) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < cols; j++)
        ((int64_t *)nh.buf)[j] = pass_one_column(
            (const int64_t *)counts.buf + j * width * K, (const double *)values.buf + j * vstride,
            NG[j], K, bsize, (int64_t *)hcount.buf + j * W * K, (double *)hbp.buf + j * W,
            (int64_t *)member.buf + j * W, acc);
    free(acc);
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&counts);
    PyBuffer_Release(&values);
    PyBuffer_Release(&groups);
    PyBuffer_Release(&hcount);
    PyBuffer_Release(&hbp);
    PyBuffer_Release(&nh);
    PyBuffer_Release(&member);
    return result;
}

PyDoc_STRVAR(oner_predict_doc,
"oner_predict(counts, values, vstride, bsize, predicted, n_correct) -> None\n"
"--\n\n"
"_oner_rows._bucket_classes, compiled: the rule built on counts (int64 (cols, width, K),\n"
"zero for a value index absent from the training records; values float64, row j at\n"
"j * vstride) as the class it predicts for every value index (predicted, int64 (cols,\n"
"width)) and the training records it classifies correctly (n_correct, int64 (cols)).");

static PyObject *oner_predict(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer counts, values, pred, correct;
    Py_ssize_t vstride;
    long long bsize;
    if (!PyArg_ParseTuple(args, "y*y*nLw*w*", &counts, &values, &vstride, &bsize, &pred,
                          &correct))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t cols = correct.len / (Py_ssize_t)sizeof(int64_t);
    const Py_ssize_t width = cols > 0 ? pred.len / (Py_ssize_t)sizeof(int64_t) / cols : 0;
    const Py_ssize_t K = cols > 0 && width > 0
        ? counts.len / (Py_ssize_t)sizeof(int64_t) / (cols * width) : 0;
    if (cols < 1 || width < 1 || K < 1 || vstride < width
        || pred.len != cols * width * (Py_ssize_t)sizeof(int64_t)
        || counts.len != cols * width * K * (Py_ssize_t)sizeof(int64_t)
        || values.len < ((cols - 1) * vstride + width) * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "oner_predict: inconsistent buffer sizes");
        goto done;
    }
    int64_t *cc = malloc(sizeof(int64_t) * (size_t)(width * K));
    int64_t *hc = malloc(sizeof(int64_t) * (size_t)(width * K));
    int64_t *member = malloc(sizeof(int64_t) * (size_t)width);
    int64_t *acc = malloc(sizeof(int64_t) * (size_t)K);
    int64_t *cls = malloc(sizeof(int64_t) * (size_t)width);
    double *v = malloc(sizeof(double) * (size_t)width);
    double *hbp = malloc(sizeof(double) * (size_t)width);
    if (!cc || !hc || !member || !acc || !cls || !v || !hbp) {
        PyErr_NoMemory();
        goto freed;
    }
    const int64_t *C = (const int64_t *)counts.buf;
    const double *V = (const double *)values.buf;
    int64_t *P = (int64_t *)pred.buf, *NC = (int64_t *)correct.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < cols; j++) {
        const int64_t *cj = C + j * width * K;
        const double *vj = V + j * vstride;
        Py_ssize_t m = 0;
        for (Py_ssize_t g = 0; g < width; g++) { /* the values present, left-aligned */
            int on = 0;
            for (Py_ssize_t k = 0; k < K; k++) on |= cj[g * K + k] > 0;
            if (!on) continue;
            for (Py_ssize_t k = 0; k < K; k++) cc[m * K + k] = cj[g * K + k];
            v[m++] = vj[g];
        }
        memset(hc, 0, sizeof(int64_t) * (size_t)(width * K));
        for (Py_ssize_t g = 0; g < width; g++) hbp[g] = INFINITY;
        memset(member, 0, sizeof(int64_t) * (size_t)width);
        const int64_t n_h = pass_one_column(cc, v, m, K, bsize, hc, hbp, member, acc);
        int64_t n_correct = 0;
        for (Py_ssize_t h = 0; h < width; h++) {
            cls[h] = first_max(hc + h * K, K);
            if (h < n_h) n_correct += hc[h * K + cls[h]];
        }
        NC[j] = n_correct;
        /* each value index: the bucket of the last present value at or below it, and
           the next one when the value reaches that bucket's breakpoint */
        Py_ssize_t below = -1;
        for (Py_ssize_t g = 0; g < width; g++) {
            int on = 0;
            for (Py_ssize_t k = 0; k < K; k++) on |= cj[g * K + k] > 0;
            below += on;
            int64_t bucket = member[below >= 0 ? below : 0];
            if (below >= 0 && !on && vj[g] >= hbp[bucket]) bucket++;
            P[j * width + g] = bucket < width ? cls[bucket] : 0;
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
freed:
    free(cc);
    free(hc);
    free(member);
    free(acc);
    free(cls);
    free(v);
    free(hbp);
done:
    PyBuffer_Release(&counts);
    PyBuffer_Release(&values);
    PyBuffer_Release(&pred);
    PyBuffer_Release(&correct);
    return result;
}

/* ---------------------------------------------------------------------------------------
 * One pass over a resample's rows of dense data, by their value indices (SortedColumns.group:
 * int32, rows x n_features, C order), for the columns a .. a + cols: the class counts of each
 * value (dense_counts) or the hits of each column's rule (dense_hits).
 * ------------------------------------------------------------------------------------- */

typedef struct {
    Py_buffer group, rows, y, out;
    Py_ssize_t p, a, cols, width, n_all, n_rows;
} pass_t;

/* Releases the buffers; with bad set, raises ValueError naming what. */
static PyObject *pass_done(pass_t *w, int bad, const char *what) {
    PyBuffer_Release(&w->group);
    PyBuffer_Release(&w->rows);
    PyBuffer_Release(&w->y);
    PyBuffer_Release(&w->out);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, what);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The sizes common to both passes, and every row in range, checked before any is read
   (the value indices are checked as the passes read them: a second sweep of the n x cols
   indices would cost as much as the pass). Returns 0 when all are in range. */
static int pass_check(pass_t *w) {
    w->n_rows = w->rows.len / (Py_ssize_t)sizeof(int64_t);
    w->n_all = w->p > 0 ? w->group.len / (Py_ssize_t)sizeof(int32_t) / w->p : 0;
    if (w->p < 1 || w->a < 0 || w->cols < 1 || w->a + w->cols > w->p || w->width < 1
        || w->y.len != w->rows.len
        || w->group.len != w->n_all * w->p * (Py_ssize_t)sizeof(int32_t))
        return 1;
    const int64_t *R = (const int64_t *)w->rows.buf;
    for (Py_ssize_t i = 0; i < w->n_rows; i++)
        if (R[i] < 0 || R[i] >= w->n_all) return 1;
    return 0;
}

/* A value index outside 0 .. width - 1 (one unsigned comparison) */
static inline int out_of_range(int32_t g, Py_ssize_t width) {
    return (uint64_t)(uint32_t)g >= (uint64_t)width;
}

PyDoc_STRVAR(dense_counts_doc,
"dense_counts(group, n_features, a, rows, y, width, K, counts) -> None\n"
"--\n\n"
"Class counts per (column, distinct value) of columns a .. a + cols of dense data, from\n"
"the value index of every row and column (group: int32, C order, rows x n_features) and a\n"
"resample's rows (int64, repeats count again) with their labels y (int64, 0 .. K - 1):\n"
"counts (int64 (cols, width, K), zeroed by the caller) is incremented in place.");

static PyObject *dense_counts(PyObject *Py_UNUSED(self), PyObject *args) {
    pass_t w = {0};
    Py_ssize_t K;
    if (!PyArg_ParseTuple(args, "y*nny*y*nnw*", &w.group, &w.p, &w.a, &w.rows, &w.y, &w.width,
                          &K, &w.out))
        return NULL;
    w.cols = (w.width > 0 && K > 0) ? w.out.len / (Py_ssize_t)sizeof(int64_t) / (w.width * K) : 0;
    int bad = K < 1 || w.out.len != w.cols * w.width * K * (Py_ssize_t)sizeof(int64_t)
              || pass_check(&w);
    const int64_t *Y = (const int64_t *)w.y.buf;
    for (Py_ssize_t i = 0; i < w.n_rows && !bad; i++) bad = Y[i] < 0 || Y[i] >= K;
    if (!bad) {
        const int32_t *G = (const int32_t *)w.group.buf;
        const int64_t *R = (const int64_t *)w.rows.buf;
        int64_t *out = (int64_t *)w.out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < w.n_rows && !bad; i++) {
            const int32_t *g = G + R[i] * w.p + w.a;
            int64_t *o = out + Y[i];
            for (Py_ssize_t j = 0; j < w.cols; j++) {
                bad |= out_of_range(g[j], w.width);
                if (!bad) o[(j * w.width + g[j]) * K] += 1;
            }
        }
        Py_END_ALLOW_THREADS
    }
    return pass_done(&w, bad, "dense_counts: inconsistent sizes, or a row, label or value "
                              "index out of range");
}

PyDoc_STRVAR(dense_hits_doc,
"dense_hits(group, n_features, a, rows, y, predicted, hits) -> None\n"
"--\n\n"
"The records (rows, int64, repeats count again; labels y int64) whose class the rule of\n"
"each column a .. a + cols predicts (predicted: int64 (cols, width), the class per value\n"
"index; group: int32 value indices, rows x n_features): hits (int64 (cols)) incremented.");

static PyObject *dense_hits(PyObject *Py_UNUSED(self), PyObject *args) {
    pass_t w = {0};
    Py_buffer pred;
    if (!PyArg_ParseTuple(args, "y*nny*y*y*w*", &w.group, &w.p, &w.a, &w.rows, &w.y, &pred,
                          &w.out))
        return NULL;
    w.cols = w.out.len / (Py_ssize_t)sizeof(int64_t);
    w.width = w.cols > 0 ? pred.len / (Py_ssize_t)sizeof(int64_t) / w.cols : 0;
    int bad = pred.len != w.cols * w.width * (Py_ssize_t)sizeof(int64_t) || pass_check(&w);
    if (!bad) {
        const int32_t *G = (const int32_t *)w.group.buf;
        const int64_t *R = (const int64_t *)w.rows.buf, *Y = (const int64_t *)w.y.buf;
        const int64_t *P = (const int64_t *)pred.buf;
        int64_t *H = (int64_t *)w.out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < w.n_rows && !bad; i++) {
            const int32_t *g = G + R[i] * w.p + w.a;
            for (Py_ssize_t j = 0; j < w.cols; j++) {
                bad |= out_of_range(g[j], w.width);
                if (!bad) H[j] += P[j * w.width + g[j]] == Y[i];
            }
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&pred);
    return pass_done(&w, bad, "dense_hits: inconsistent sizes, or a row or value index out "
                              "of range");
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS, search_doc},
    {"dense_counts", dense_counts, METH_VARARGS, dense_counts_doc},
    {"level_table", level_table, METH_VARARGS, level_table_doc},
    {"pass_one", pass_one, METH_VARARGS, pass_one_doc},
    {"oner_predict", oner_predict, METH_VARARGS, oner_predict_doc},
    {"dense_hits", dense_hits, METH_VARARGS, dense_hits_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_mdl",
    "WEKA's MDL discretisation search and OneR's rules, compiled (issue 37).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__mdl(void) { return PyModule_Create(&module); }
