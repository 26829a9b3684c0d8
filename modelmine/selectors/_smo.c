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
 * and clipping of libsvm 3.x (Solver::Solve, with per-row C), and libsvm's stopping rule
 * m(a) - M(a) < eps. No shrinking and no kernel cache: the kernel is a dense n x n array
 * read by rows, so an iteration costs two row reads and an O(n) gradient update.
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

/* Returns the number of iterations, or -1 when max_iter iterations did not converge, or
   -2 when out of memory. alpha is updated in place. */
static long long smo(const double *K, Py_ssize_t n, const double *y, const double *C,
                     double *alpha, double eps, long long max_iter) {
    double *G = malloc(2 * (size_t)n * sizeof(double));
    if (!G) return -2;
    double *QD = G + n; /* the kernel's diagonal, read contiguously by the search */
    for (Py_ssize_t t = 0; t < n; t++) QD[t] = K[(size_t)t * (size_t)n + t];
    /* G = Q alpha - e, over the non-zero alphas (row by row of K: K is symmetric) */
    for (Py_ssize_t t = 0; t < n; t++) G[t] = -1.0;
    for (Py_ssize_t j = 0; j < n; j++) {
        if (alpha[j] == 0.0) continue;
        const double *Kj = K + (size_t)j * (size_t)n;
        const double a = y[j] * alpha[j];
        for (Py_ssize_t t = 0; t < n; t++) G[t] += y[t] * (Kj[t] * a);
    }
    long long iter = 0;
    for (;;) {
        /* working set selection (libsvm's select_working_set, WSS 3) */
        double Gmax = -INFINITY, Gmax2 = -INFINITY, obj_diff_min = INFINITY;
        Py_ssize_t i = -1, j = -1;
        for (Py_ssize_t t = 0; t < n; t++) {
            if (y[t] > 0) {
                if (alpha[t] < C[t] && -G[t] >= Gmax) { Gmax = -G[t]; i = t; }
            } else {
                if (alpha[t] > 0.0 && G[t] >= Gmax) { Gmax = G[t]; i = t; }
            }
        }
        const double *Ki = i >= 0 ? K + (size_t)i * (size_t)n : NULL;
        const double Kii = i >= 0 ? Ki[i] : 0.0;
        for (Py_ssize_t t = 0; t < n && i >= 0; t++) {
            if (y[t] > 0) {
                if (alpha[t] > 0.0) {
                    const double grad_diff = Gmax + G[t];
                    if (G[t] >= Gmax2) Gmax2 = G[t];
                    if (grad_diff > 0) {
                        /* y_i Q_it = y_t K_it = K_it */
                        double quad = Kii + QD[t] - 2.0 * y[i] * (y[i] * Ki[t]);
                        const double obj = -(grad_diff * grad_diff) / (quad > 0 ? quad : TAU);
                        if (obj <= obj_diff_min) { j = t; obj_diff_min = obj; }
                    }
                }
            } else {
                if (alpha[t] < C[t]) {
                    const double grad_diff = Gmax - G[t];
                    if (-G[t] >= Gmax2) Gmax2 = -G[t];
                    if (grad_diff > 0) {
                        double quad = Kii + QD[t] + 2.0 * y[i] * (-y[i] * Ki[t]);
                        const double obj = -(grad_diff * grad_diff) / (quad > 0 ? quad : TAU);
                        if (obj <= obj_diff_min) { j = t; obj_diff_min = obj; }
                    }
                }
            }
        }
        if (i < 0 || j < 0 || Gmax + Gmax2 < eps) break;
        if (iter >= max_iter) { iter = -1; break; }
        iter++;

        /* the two-variable update (libsvm's Solver::Solve) */
        const double *Kj = K + (size_t)j * (size_t)n;
        const double Ci = C[i], Cj = C[j];
        const double old_i = alpha[i], old_j = alpha[j];
        const double Qij = y[i] * y[j] * Ki[j];
        const double Kjj = Kj[j];
        if (y[i] != y[j]) {
            double quad = Kii + Kjj + 2.0 * Qij;
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
            double quad = Kii + Kjj - 2.0 * Qij;
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
        /* G_t += Q_ti d_i + Q_tj d_j, Q_ti = y_t y_i K_it */
        const double di = y[i] * (alpha[i] - old_i), dj = y[j] * (alpha[j] - old_j);
        for (Py_ssize_t t = 0; t < n; t++) G[t] += y[t] * (Ki[t] * di + Kj[t] * dj);
    }
    free(G);
    return iter;
}

PyDoc_STRVAR(solve_doc,
"solve(K, y, C, alpha, eps, max_iter)\n"
"--\n\n"
"Solve one binary C-SVM dual by SMO from the feasible point alpha, in place. K: the\n"
"n x n kernel (float64, C order, symmetric); y: the labels +1 / -1 (float64); C: each\n"
"row's box (float64, positive); alpha: float64, writable, feasible (y^T alpha = 0,\n"
"0 <= alpha <= C). Stops when m(a) - M(a) < eps (libsvm's rule). Returns the number of\n"
"iterations, or -1 when max_iter iterations did not reach it (alpha is then the last\n"
"iterate).");

static PyObject *solve(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer K, y, C, alpha;
    double eps;
    long long max_iter;
    if (!PyArg_ParseTuple(args, "y*y*y*w*dL", &K, &y, &C, &alpha, &eps, &max_iter))
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
             (double *)alpha.buf, eps, max_iter);
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
