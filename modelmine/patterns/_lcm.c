/*
 * Closed and maximal frequent itemsets by LCM's prefix-preserving closure extension
 * (Uno, Asai, Uchida & Arimura, "An efficient algorithm for enumerating closed patterns in
 * transaction databases", Discovery Science 2004, Section 3), over tidsets stored as
 * bitsets.
 *
 * The point of this enumerator (see modelmine/patterns/_mining.py and docs/mining.md, "The
 * max_itemsets guard") is that it can stop: it writes the itemsets straight into flat
 * arrays and gives up as soon as it has found more than `limit` of them, so a run that the
 * guard must refuse costs no more than the enumeration up to the limit, and a run it lets
 * through is mined once (pyfim can only count in a separate full run, then enumerate).
 *
 * Base models are few transactions (b = 100 .. 5 000) over many items, so a tidset is a
 * short bitset of W = ceil(b / 64) words and an intersection with its support is W ANDs
 * and popcounts.
 *
 * Node (X, T, core): X a closed itemset, T its tidset, core the item that created it.
 *   - supports s_k = |T & tid_k| of the candidate items (the items frequent at the parent
 *     and not in X; an item infrequent at an ancestor is infrequent in every descendant);
 *     the frequent ones form F;
 *   - X is reported (closed: always; maximal: when F is empty, i.e. no frequent proper
 *     superset exists);
 *   - for every j in F with j > core: T' = T & tid_j; the closure of T' adds every k in F
 *     with T' a subset of tid_k (only items with s_k >= |T'| can qualify: F is sorted by
 *     support descending, so they are a prefix); the extension is prefix-preserving iff no
 *     such k is smaller than j. Each closed itemset is then generated exactly once.
 *
 * Plain C99 plus the CPython API; the interpreter lock is released while mining.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t word;

typedef struct {
    Py_ssize_t W;          /* words per tidset */
    const word *tid;       /* f tidsets, item-major */
    int minc;              /* minimum count */
    Py_ssize_t maxlen;     /* longest itemset reported; <= 0: unbounded */
    int mode;              /* 0: closed, 1: maximal, 2: frequent itemsets */
    long long limit;       /* stop after more than `limit` itemsets; < 0: never */
    long long max_bytes;   /* output budget; beyond it, stop storing and only count */
    long long found;       /* itemsets found (stored or not) */
    int store;             /* still storing the itemsets */
    int32_t *X;            /* the current itemset (a stack of items) */
    /* output */
    int32_t *items;
    size_t n_items, cap_items;
    int64_t *lens, *cnts;
    size_t n_sets, cap_sets;
    int stopped;
    int nomem;
} ctx_t;

static inline int popcount_and(const word *a, const word *b, Py_ssize_t W) {
    int s = 0;
    for (Py_ssize_t w = 0; w < W; w++) s += __builtin_popcountll(a[w] & b[w]);
    return s;
}

/* a is a subset of b */
static inline int subset(const word *a, const word *b, Py_ssize_t W) {
    for (Py_ssize_t w = 0; w < W; w++)
        if (a[w] & ~b[w]) return 0;
    return 1;
}

static void release(ctx_t *c) {
    free(c->items);
    free(c->lens);
    free(c->cnts);
    c->items = NULL;
    c->lens = c->cnts = NULL;
    c->n_items = c->cap_items = c->n_sets = c->cap_sets = 0;
}

static void emit(ctx_t *c, Py_ssize_t L, int count) {
    if (c->limit >= 0 && c->found >= c->limit) {
        c->stopped = 1;
        return;
    }
    c->found++;
    if (!c->store) return;
    if (c->max_bytes >= 0 && (long long)((c->n_items + (size_t)L) * sizeof(int32_t)
                                         + (c->n_sets + 1) * 2 * sizeof(int64_t)) > c->max_bytes) {
        release(c);
        c->store = 0;
        return;
    }
    if (c->n_sets == c->cap_sets) {
        size_t cap = c->cap_sets ? 2 * c->cap_sets : 1024;
        int64_t *l = realloc(c->lens, cap * sizeof(int64_t));
        if (!l) { c->nomem = c->stopped = 1; return; }
        c->lens = l;
        int64_t *k = realloc(c->cnts, cap * sizeof(int64_t));
        if (!k) { c->nomem = c->stopped = 1; return; }
        c->cnts = k;
        c->cap_sets = cap;
    }
    if (c->n_items + (size_t)L > c->cap_items) {
        size_t cap = c->cap_items ? 2 * c->cap_items : 8192;
        while (cap < c->n_items + (size_t)L) cap *= 2;
        int32_t *it = realloc(c->items, cap * sizeof(int32_t));
        if (!it) { c->nomem = c->stopped = 1; return; }
        c->items = it;
        c->cap_items = cap;
    }
    memcpy(c->items + c->n_items, c->X, (size_t)L * sizeof(int32_t));
    c->n_items += (size_t)L;
    c->lens[c->n_sets] = (int64_t)L;
    c->cnts[c->n_sets] = (int64_t)count;
    c->n_sets++;
}

/* sort the parallel arrays (item, support) by support descending, then item ascending */
static void sort_by_support(int32_t *F, int *S, Py_ssize_t n) {
    for (Py_ssize_t i = 1; i < n; i++) {
        int32_t f = F[i];
        int s = S[i];
        Py_ssize_t j = i - 1;
        while (j >= 0 && (S[j] < s || (S[j] == s && F[j] > f))) {
            F[j + 1] = F[j];
            S[j + 1] = S[j];
            j--;
        }
        F[j + 1] = f;
        S[j + 1] = s;
    }
}

static void node(ctx_t *c, Py_ssize_t L, const word *T, int supp, int32_t core,
                 const int32_t *cand, Py_ssize_t ncand) {
    const Py_ssize_t W = c->W;
    int32_t *F = malloc((size_t)(ncand > 0 ? ncand : 1) * (2 * sizeof(int32_t) + sizeof(int)));
    if (!F) { c->nomem = c->stopped = 1; return; }
    int32_t *child = F + ncand;
    int *S = (int *)(child + ncand);
    Py_ssize_t nF = 0;
    for (Py_ssize_t i = 0; i < ncand; i++) {
        int32_t k = cand[i];
        int s = popcount_and(T, c->tid + (size_t)k * W, W);
        if (s >= c->minc) { F[nF] = k; S[nF] = s; nF++; }
    }
    int report = c->mode == 1 ? (nF == 0) : 1;
    if (L > 0 && report && (c->maxlen <= 0 || L <= c->maxlen)) {
        emit(c, L, supp);
        if (c->stopped) { free(F); return; }
    }
    if (nF == 0 || (c->maxlen > 0 && L >= c->maxlen)) { free(F); return; }
    sort_by_support(F, S, nF);
    word *Tc = malloc((size_t)W * sizeof(word));
    char *inY = calloc((size_t)nF, 1);
    if (!Tc || !inY) { free(Tc); free(inY); free(F); c->nomem = c->stopped = 1; return; }
    for (Py_ssize_t a = 0; a < nF && !c->stopped; a++) {
        int32_t j = F[a];
        if (j <= core) continue;
        int s = S[a];
        const word *tj = c->tid + (size_t)j * W;
        for (Py_ssize_t w = 0; w < W; w++) Tc[w] = T[w] & tj[w];
        /* closure of Tc among F; prefix-preservation: no added item below j */
        Py_ssize_t add = 0;
        int ok = 1;
        for (Py_ssize_t b = 0; b < nF && S[b] >= s; b++) {
            if (b == a) continue;
            int32_t k = F[b];
            if (subset(Tc, c->tid + (size_t)k * W, W)) {
                if (k < j) { ok = 0; break; }
                inY[b] = 1;
                c->X[L + 1 + add] = k;
                add++;
            }
        }
        if (ok) {
            c->X[L] = j;
            Py_ssize_t nc = 0;
            for (Py_ssize_t b = 0; b < nF; b++)
                if (b != a && !inY[b]) child[nc++] = F[b];
            node(c, L + 1 + add, Tc, s, j, child, nc);
        }
        for (Py_ssize_t b = 0; b < nF && S[b] >= s; b++) inY[b] = 0;
    }
    free(inY);
    free(Tc);
    free(F);
}

/* all frequent itemsets: X + j for the frequent candidates j after the last item (Eclat's
 * tail extension over bitsets); cand holds the items after X's last one */
static void node_frequent(ctx_t *c, Py_ssize_t L, const word *T, const int32_t *cand,
                          Py_ssize_t ncand) {
    const Py_ssize_t W = c->W;
    if (ncand == 0 || (c->maxlen > 0 && L >= c->maxlen)) return;
    int32_t *F = malloc((size_t)ncand * sizeof(int32_t));
    word *Tc = malloc((size_t)W * sizeof(word));
    if (!F || !Tc) { free(F); free(Tc); c->nomem = c->stopped = 1; return; }
    Py_ssize_t nF = 0;
    for (Py_ssize_t i = 0; i < ncand; i++)
        if (popcount_and(T, c->tid + (size_t)cand[i] * W, W) >= c->minc) F[nF++] = cand[i];
    for (Py_ssize_t a = 0; a < nF && !c->stopped; a++) {
        const word *tj = c->tid + (size_t)F[a] * W;
        int s = 0;
        for (Py_ssize_t w = 0; w < W; w++) {
            Tc[w] = T[w] & tj[w];
            s += __builtin_popcountll(Tc[w]);
        }
        c->X[L] = F[a];
        emit(c, L + 1, s);
        if (c->stopped) break;
        node_frequent(c, L + 1, Tc, F + a + 1, nF - a - 1);
    }
    free(Tc);
    free(F);
}

PyDoc_STRVAR(mine_doc,
"mine(tids, n_items, n_words, root, min_count, max_len, mode, limit, max_bytes)\n"
"\n"
"Closed (mode 0), maximal (1) or all frequent (2) itemsets over bitset tidsets.\n"
"tids: buffer of n_items * n_words uint64 (item-major); root: buffer of n_words uint64,\n"
"the tidset of the empty itemset (all transactions). max_len <= 0: unbounded; limit < 0:\n"
"no limit; max_bytes < 0: no budget. Returns (lengths, items, counts, found, stopped,\n"
"stored): lengths and counts as int64 bytes, items as int32 bytes (in no particular order\n"
"within an itemset); found, the number of itemsets found; stopped, whether the search\n"
"gave up on finding itemset number limit + 1 (found == limit then); stored, whether the\n"
"output holds all found itemsets (False once they would take more than max_bytes: the\n"
"search then goes on counting only, and the arrays are empty).");

static PyObject *mine(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer tids, root;
    Py_ssize_t f, W, maxlen;
    int minc, mode;
    long long limit, max_bytes;
    if (!PyArg_ParseTuple(args, "y*nny*iniLL", &tids, &f, &W, &root, &minc, &maxlen, &mode,
                          &limit, &max_bytes))
        return NULL;
    PyObject *result = NULL;
    /* The sizes are checked without overflow (f * W * 8 in signed arithmetic could wrap
       and let a short buffer pass: an out-of-bounds read), the items fit the int32 codes,
       and the buffers are aligned for uint64 loads (a misaligned one is undefined
       behaviour). The Python wrapper never passes such arguments; the function refuses
       them anyway. */
    const Py_ssize_t words_max = PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(word);
    if (f < 0 || f > INT32_MAX || W < 1 || W > words_max
        || (f > 0 && W > words_max / f)
        || tids.len != f * W * (Py_ssize_t)sizeof(word)
        || root.len != W * (Py_ssize_t)sizeof(word) || minc < 1 || mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError,
                        "mine: inconsistent tidset buffers, min_count < 1 or mode not 0, 1, 2");
        goto done;
    }
    if (((uintptr_t)tids.buf % sizeof(word)) != 0
        || ((uintptr_t)root.buf % sizeof(word)) != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "mine: the tidset buffers must be aligned for uint64 words");
        goto done;
    }
    ctx_t c;
    memset(&c, 0, sizeof c);
    c.W = W;
    c.tid = (const word *)tids.buf;
    c.minc = minc;
    c.maxlen = maxlen;
    c.mode = mode;
    c.limit = limit;
    c.max_bytes = max_bytes;
    c.store = 1;
    c.X = malloc((size_t)(f > 0 ? f : 1) * sizeof(int32_t));
    int32_t *cand = malloc((size_t)(f > 0 ? f : 1) * sizeof(int32_t));
    if (!c.X || !cand) {
        free(c.X);
        free(cand);
        PyErr_NoMemory();
        goto done;
    }
    const word *T = (const word *)root.buf;
    int b = 0;
    for (Py_ssize_t w = 0; w < W; w++) b += __builtin_popcountll(T[w]);
    Py_BEGIN_ALLOW_THREADS
    if (mode == 2) {
        for (int32_t k = 0; k < f; k++) cand[k] = k;
        node_frequent(&c, 0, T, cand, f);
    } else if (b >= minc) {
        /* the closure of the empty set: the items in every transaction */
        Py_ssize_t L = 0, nc = 0;
        for (int32_t k = 0; k < f; k++) {
            if (popcount_and(T, c.tid + (size_t)k * W, W) == b) c.X[L++] = k;
            else cand[nc++] = k;
        }
        node(&c, L, T, b, -1, cand, nc);
    }
    Py_END_ALLOW_THREADS
    free(cand);
    free(c.X);
    if (c.nomem) {
        release(&c);
        PyErr_NoMemory();
        goto done;
    }
    result = Py_BuildValue(
        "y#y#y#LOO",
        c.lens ? (const char *)c.lens : "", (Py_ssize_t)(c.n_sets * sizeof(int64_t)),
        c.items ? (const char *)c.items : "", (Py_ssize_t)(c.n_items * sizeof(int32_t)),
        c.cnts ? (const char *)c.cnts : "", (Py_ssize_t)(c.n_sets * sizeof(int64_t)),
        c.found, c.stopped ? Py_True : Py_False, c.store ? Py_True : Py_False);
    release(&c);
done:
    PyBuffer_Release(&tids);
    PyBuffer_Release(&root);
    return result;
}

static PyMethodDef methods[] = {
    {"mine", mine, METH_VARARGS, mine_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_lcm",
    "Closed and maximal itemsets by LCM (Uno et al. 2004) with a stop at a limit.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__lcm(void) { return PyModule_Create(&module); }
