/*
 * One binary C-SVM dual on a precomputed kernel, by libsvm's SMO, started from a given
 * feasible point: the warm start of SVM-RFE (issue 37).
 *
 * SVM-RFE (Guyon et al., Machine Learning 46, 2002; KDD 2012, Section 5) refits a linear
 * SVM after each elimination step on the same rows, the same labels and the same box
 * C_i = C m_i; only the kernel changes, by the removed features' outer products. Any alpha
 * feasible for one step (y^T alpha = 0, 0 <= alpha_i <= C_i) is feasible for the next, so
 * the next solve can start from the previous optimum instead of from zero. scikit-learn's
 * libsvm cannot be started anywhere but at zero; this is the same solver otherwise:
 *
 *   min 1/2 a^T Q a - e^T a,  y^T a = 0,  0 <= a_i <= C_i,  Q_ij = y_i y_j K_ij,
 *
 * the working set of Fan, Chen and Lin (JMLR 6, 2005; libsvm's WSS 3: the maximal
 * violating i, then the j of the largest second-order decrease), the two-variable update
 * and clipping of libsvm 3.x (Solver::Solve, with per-row C), libsvm's stopping rule
 * m(a) - M(a) < eps and its shrinking (do_shrinking, reconstruct_gradient, with the
 * gradient part G_bar of the rows at their upper bound). No kernel cache: the kernel is a
 * dense n x n float64 array read by rows (libsvm caches float32 rows), so an iteration
 * costs two row reads and an O(active) gradient update.
 *
 * Plain C99 plus the CPython API; the interpreter lock is released while solving. The
 * arithmetic is scalar and in a fixed order (no BLAS), so a solve is deterministic.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TAU 1e-12

typedef struct {
    const double *K, *y, *C;
    double *alpha, *G, *Gbar, *QD;
    Py_ssize_t *act; /* a permutation of 0..n-1: the active set first */
    Py_ssize_t n, active;
} smo_t;

static inline int upper(const smo_t *s, Py_ssize_t t) { return s->alpha[t] >= s->C[t]; }
static inline int lower(const smo_t *s, Py_ssize_t t) { return s->alpha[t] <= 0.0; }

/* Gbar_t += sign C_j Q_tj for all t: row j entering (sign 1) or leaving (-1) its upper bound */
static void gbar_update(smo_t *s, Py_ssize_t j, double sign) {
    const double *Kj = s->K + (size_t)j * (size_t)s->n;
    const double c = sign * s->C[j] * s->y[j];
    for (Py_ssize_t t = 0; t < s->n; t++) s->Gbar[t] += s->y[t] * (Kj[t] * c);
}

/* The gradient of the inactive rows from Gbar and the free rows (libsvm's
   reconstruct_gradient); then every row is active again. */
static void reconstruct(smo_t *s) {
    const Py_ssize_t n = s->n;
    if (s->active == n) return;
    for (Py_ssize_t a = s->active; a < n; a++) {
        const Py_ssize_t t = s->act[a];
        s->G[t] = s->Gbar[t] - 1.0;
    }
    for (Py_ssize_t b = 0; b < s->active; b++) {
        const Py_ssize_t j = s->act[b];
        if (upper(s, j) || lower(s, j)) continue;
        const double *Kj = s->K + (size_t)j * (size_t)n;
        const double c = s->y[j] * s->alpha[j];
        for (Py_ssize_t a = s->active; a < n; a++) {
            const Py_ssize_t t = s->act[a];
            s->G[t] += s->y[t] * (Kj[t] * c);
        }
    }
    s->active = n;
}

static int be_shrunk(const smo_t *s, Py_ssize_t t, double Gmax1, double Gmax2) {
    const double g = s->G[t];
    if (upper(s, t)) return s->y[t] > 0 ? -g > Gmax1 : -g > Gmax2;
    if (lower(s, t)) return s->y[t] > 0 ? g > Gmax2 : g > Gmax1;
    return 0;
}

/* libsvm's do_shrinking: rows at a bound that cannot enter a violating pair leave the
   active set; once near the optimum (10 eps), the gradient is rebuilt once. */
static void shrink(smo_t *s, double eps, int *unshrunk) {
    double Gmax1 = -INFINITY, Gmax2 = -INFINITY;
    for (Py_ssize_t a = 0; a < s->active; a++) {
        const Py_ssize_t t = s->act[a];
        const double g = s->G[t];
        if (s->y[t] > 0) {
            if (!upper(s, t) && -g >= Gmax1) Gmax1 = -g;
            if (!lower(s, t) && g >= Gmax2) Gmax2 = g;
        } else {
            if (!upper(s, t) && -g >= Gmax2) Gmax2 = -g;
            if (!lower(s, t) && g >= Gmax1) Gmax1 = g;
        }
    }
    if (!*unshrunk && Gmax1 + Gmax2 <= eps * 10) {
        *unshrunk = 1;
        reconstruct(s);
    }
    for (Py_ssize_t a = 0; a < s->active; a++) {
        if (!be_shrunk(s, s->act[a], Gmax1, Gmax2)) continue;
        s->active--;
        while (s->active > a) {
            if (!be_shrunk(s, s->act[s->active], Gmax1, Gmax2)) {
                const Py_ssize_t tmp = s->act[a];
                s->act[a] = s->act[s->active];
                s->act[s->active] = tmp;
                break;
            }
            s->active--;
        }
    }
}

/* libsvm's select_working_set (WSS 3) over the active rows: 1 when optimal there. */
static int select_pair(const smo_t *s, double eps, Py_ssize_t *pi, Py_ssize_t *pj) {
    const double *y = s->y, *G = s->G, *QD = s->QD;
    double Gmax = -INFINITY, Gmax2 = -INFINITY, obj_diff_min = INFINITY;
    Py_ssize_t i = -1, j = -1;
    for (Py_ssize_t a = 0; a < s->active; a++) {
        const Py_ssize_t t = s->act[a];
        if (y[t] > 0) {
            if (!upper(s, t) && -G[t] >= Gmax) { Gmax = -G[t]; i = t; }
        } else {
            if (!lower(s, t) && G[t] >= Gmax) { Gmax = G[t]; i = t; }
        }
    }
    if (i < 0) return 1;
    const double *Ki = s->K + (size_t)i * (size_t)s->n;
    const double Kii = QD[i];
    for (Py_ssize_t a = 0; a < s->active; a++) {
        const Py_ssize_t t = s->act[a];
        if (y[t] > 0) {
            if (!lower(s, t)) {
                const double grad_diff = Gmax + G[t];
                if (G[t] >= Gmax2) Gmax2 = G[t];
                if (grad_diff > 0) {
                    /* libsvm: QD_i + QD_t - 2 y_i Q_it, and y_i Q_it = y_t K_it = K_it */
                    const double quad = Kii + QD[t] - 2.0 * Ki[t];
                    const double obj = -(grad_diff * grad_diff) / (quad > 0 ? quad : TAU);
                    if (obj <= obj_diff_min) { j = t; obj_diff_min = obj; }
                }
            }
        } else {
            if (!upper(s, t)) {
                const double grad_diff = Gmax - G[t];
                if (-G[t] >= Gmax2) Gmax2 = -G[t];
                if (grad_diff > 0) {
                    /* QD_i + QD_t + 2 y_i Q_it, and y_i Q_it = y_t K_it = -K_it */
                    const double quad = Kii + QD[t] - 2.0 * Ki[t];
                    const double obj = -(grad_diff * grad_diff) / (quad > 0 ? quad : TAU);
                    if (obj <= obj_diff_min) { j = t; obj_diff_min = obj; }
                }
            }
        }
    }
    if (Gmax + Gmax2 < eps || j < 0) return 1;
    *pi = i;
    *pj = j;
    return 0;
}

/* Returns the number of iterations, or -1 when max_iter iterations did not converge, or
   -2 when out of memory. alpha is updated in place. */
static long long smo(const double *K, Py_ssize_t n, const double *y, const double *C,
                     double *alpha, double eps, long long max_iter, int shrinking) {
    double *buf = malloc(3 * (size_t)n * sizeof(double));
    Py_ssize_t *act = malloc((size_t)n * sizeof(Py_ssize_t));
    if (!buf || !act) {
        free(buf);
        free(act);
        return -2;
    }
    smo_t s = {K, y, C, alpha, buf, buf + n, buf + 2 * (size_t)n, act, n, n};
    double *G = s.G;
    for (Py_ssize_t t = 0; t < n; t++) {
        s.QD[t] = K[(size_t)t * (size_t)n + t]; /* read contiguously by the search */
        G[t] = -1.0;
        s.Gbar[t] = 0.0;
        act[t] = t;
    }
    /* G = Q alpha - e and Gbar = sum of C_j Q_.j over the rows at their upper bound,
       from the non-zero alphas (row by row of K: K is symmetric) */
    for (Py_ssize_t j = 0; j < n; j++) {
        if (alpha[j] == 0.0) continue;
        const double *Kj = K + (size_t)j * (size_t)n;
        const double a = y[j] * alpha[j];
        for (Py_ssize_t t = 0; t < n; t++) G[t] += y[t] * (Kj[t] * a);
        if (upper(&s, j)) gbar_update(&s, j, 1.0);
    }
    long long iter = 0;
    int unshrunk = 0;
    long long counter = (n < 1000 ? n : 1000) + 1;
    for (;;) {
        if (shrinking && --counter == 0) {
            counter = n < 1000 ? n : 1000;
            shrink(&s, eps, &unshrunk);
        }
        Py_ssize_t i, j;
        if (select_pair(&s, eps, &i, &j)) {
            reconstruct(&s); /* optimal on the active rows: check them all */
            if (select_pair(&s, eps, &i, &j)) break;
            counter = 1; /* shrink at the next iteration */
        }
        if (iter >= max_iter) { iter = -1; break; }
        iter++;

        /* the two-variable update (libsvm's Solver::Solve) */
        const double *Ki = K + (size_t)i * (size_t)n;
        const double *Kj = K + (size_t)j * (size_t)n;
        const double Ci = C[i], Cj = C[j];
        const double old_i = alpha[i], old_j = alpha[j];
        const int ui = upper(&s, i), uj = upper(&s, j);
        const double Qij = y[i] * y[j] * Ki[j];
        if (y[i] != y[j]) {
            double quad = s.QD[i] + s.QD[j] + 2.0 * Qij;
            if (quad <= 0) quad = TAU;
            const double delta = (-G[i] - G[j]) / quad;
            const double diff = alpha[i] - alpha[j];
            alpha[i] += delta;
            alpha[j] += delta;
            if (diff > 0) {
                if (alpha[j] < 0) { alpha[j] = 0; alpha[i] = diff; }
            } else {
                if (alpha[i] < 0) { alpha[i] = 0; alpha[j] = -diff; }
            }
            if (diff > Ci - Cj) {
                if (alpha[i] > Ci) { alpha[i] = Ci; alpha[j] = Ci - diff; }
            } else {
                if (alpha[j] > Cj) { alpha[j] = Cj; alpha[i] = Cj + diff; }
            }
        } else {
            double quad = s.QD[i] + s.QD[j] - 2.0 * Qij;
            if (quad <= 0) quad = TAU;
            const double delta = (G[i] - G[j]) / quad;
            const double sum = alpha[i] + alpha[j];
            alpha[i] -= delta;
            alpha[j] += delta;
            if (sum > Ci) {
                if (alpha[i] > Ci) { alpha[i] = Ci; alpha[j] = sum - Ci; }
            } else {
                if (alpha[j] < 0) { alpha[j] = 0; alpha[i] = sum; }
            }
            if (sum > Cj) {
                if (alpha[j] > Cj) { alpha[j] = Cj; alpha[i] = sum - Cj; }
            } else {
                if (alpha[i] < 0) { alpha[i] = 0; alpha[j] = sum; }
            }
        }
        /* G_t += Q_ti d_i + Q_tj d_j over the active rows, Q_ti = y_t y_i K_it */
        const double di = y[i] * (alpha[i] - old_i), dj = y[j] * (alpha[j] - old_j);
        for (Py_ssize_t a = 0; a < s.active; a++) {
            const Py_ssize_t t = act[a];
            G[t] += y[t] * (Ki[t] * di + Kj[t] * dj);
        }
        if (ui != upper(&s, i)) gbar_update(&s, i, ui ? -1.0 : 1.0);
        if (uj != upper(&s, j)) gbar_update(&s, j, uj ? -1.0 : 1.0);
    }
    free(buf);
    free(act);
    return iter;
}

PyDoc_STRVAR(solve_doc,
"solve(K, y, C, alpha, eps, max_iter, shrinking=True)\n"
"--\n\n"
"Solve one binary C-SVM dual by SMO from the feasible point alpha, in place. K: the\n"
"n x n kernel (float64, C order, symmetric); y: the labels +1 / -1 (float64); C: each\n"
"row's box (float64, positive); alpha: float64, writable, feasible (y^T alpha = 0,\n"
"0 <= alpha <= C). Stops when m(a) - M(a) < eps (libsvm's rule). Returns the number of\n"
"iterations, or -1 when max_iter iterations did not reach it (alpha is then the last\n"
"iterate). shrinking: libsvm's heuristic (rows at a bound that cannot violate leave the\n"
"working-set search until the end, where the full gradient is checked).");

static PyObject *solve(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer K, y, C, alpha;
    double eps;
    long long max_iter;
    int shrinking = 1;
    if (!PyArg_ParseTuple(args, "y*y*y*w*dL|p", &K, &y, &C, &alpha, &eps, &max_iter,
                          &shrinking))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t n = alpha.len / (Py_ssize_t)sizeof(double);
    if (alpha.len != n * (Py_ssize_t)sizeof(double) || n < 1
        || y.len != alpha.len || C.len != alpha.len
        || (n > 0 && K.len / n != n * (Py_ssize_t)sizeof(double))
        || K.len != n * n * (Py_ssize_t)sizeof(double) || !(eps > 0) || max_iter < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "solve: K must be n x n float64, y, C and alpha n float64, eps > 0");
        goto done;
    }
    long long it;
    Py_BEGIN_ALLOW_THREADS
    it = smo((const double *)K.buf, n, (const double *)y.buf, (const double *)C.buf,
             (double *)alpha.buf, eps, max_iter, shrinking);
    Py_END_ALLOW_THREADS
    if (it == -2) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyLong_FromLongLong(it);
done:
    PyBuffer_Release(&K);
    PyBuffer_Release(&y);
    PyBuffer_Release(&C);
    PyBuffer_Release(&alpha);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_smo",
    "One binary C-SVM dual by libsvm's SMO from a warm start (SVM-RFE, issue 37).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__smo(void) { return PyModule_Create(&module); }
