/* lcl_gen.c -- matrix generators and statistics (see lcl_gen.h).

   Every random number is a hash of (seed, stream tag, indices), never a running state, so a row can
   be produced on its own: gen_file counts entries in one pass (the header needs the count) and
   writes them in a second without holding the matrix, and gen_coo produces the same entries.

   SECTIONS: >>util >>rng >>spec >>dense >>poisson >>powerlaw >>circuit >>hb >>emit >>public >>hbblock
             >>stats
*/
#include "lcl_gen.h"
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>

/* >>util --------------------------------------------------------------------------------------- */
#if defined(__GNUC__) || defined(__clang__)
#define LCLG__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LCLG__PRINTF(f, a)
#endif

static void lclg__msg(char *err, size_t errlen, const char *fmt, ...) LCLG__PRINTF(3, 4);
static void lclg__msg(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0) return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* A library call failed: its context holds the detail. */
static lcl_status lclg__lib(lcl_context *ctx, lcl_status st, char *err, size_t errlen)
{
    const char *m = ctx ? lcl_last_error(ctx) : NULL;
    if (m && m[0]) lclg__msg(err, errlen, "%s", m);
    else lclg__msg(err, errlen, "%s", lcl_status_string(st));
    return st;
}

/* >>rng ---------------------------------------------------------------------------------------- */
#define LCLG__GOLDEN 0x9E3779B97F4A7C15ULL

/* splitmix64's finalizer: a bijection with good avalanche, the building block of every hash. */
static uint64_t lclg__mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
/* Hash a key with one more value; chain it for tuples. */
static uint64_t lclg__h(uint64_t key, uint64_t a) { return lclg__mix(key + (a + 1) * LCLG__GOLDEN); }
static uint64_t lclg__h2(uint64_t key, uint64_t a, uint64_t b) { return lclg__h(lclg__h(key, a), b); }
/* Independent streams per use, so changing one generator never shifts another. */
static uint64_t lclg__key(uint64_t seed, uint64_t tag) { return lclg__h(lclg__mix(seed ^ 0x6C636C67ULL), tag); }

static double lclg__u01(uint64_t x) { return (double)(x >> 11) * (1.0 / 9007199254740992.0); } /* [0,1) */
static double lclg__sym(uint64_t x) { return 2.0 * lclg__u01(x) - 1.0; }                         /* [-1,1) */
/* Multiply-shift instead of modulo: no division, bias below 2^-32 for n < 2^32. */
static int64_t lclg__below(uint64_t x, int64_t n) { return (int64_t)(((x >> 32) * (uint64_t)n) >> 32); }

/* Keyed permutation of [0,n) without a table: 4-round Feistel on 2*half bits, cycle-walking back
   into range (at most 4x the domain, so a few steps). */
typedef struct lclg__perm { uint64_t key; int64_t n; int half; uint64_t mask; } lclg__perm;

static void lclg__perm_init(lclg__perm *p, uint64_t key, int64_t n)
{
    int bits = 0;
    while (bits < 62 && ((int64_t)1 << bits) < n) bits++;
    p->key = key;
    p->n = n;
    p->half = bits < 2 ? 1 : (bits + 1) / 2;
    p->mask = ((uint64_t)1 << p->half) - 1;
}

static int64_t lclg__perm_apply(const lclg__perm *p, int64_t x)
{
    if (p->n <= 1) return x;
    do {
        uint64_t l = (uint64_t)x >> p->half, r = (uint64_t)x & p->mask;
        int k;
        for (k = 0; k < 4; k++) {
            uint64_t t = l ^ (lclg__h(p->key, (r << 2) | (uint64_t)k) & p->mask);
            l = r;
            r = t;
        }
        x = (int64_t)((l << p->half) | r);
    } while (x >= p->n);
    return x;
}

/* Stream tags */
enum {
    LCLG__T_DENSE = 1, LCLG__T_PL_LEN, LCLG__T_PL_COL, LCLG__T_PL_VAL, LCLG__T_CBLOCK, LCLG__T_CG,
    LCLG__T_CCAP, LCLG__T_CCHORD, LCLG__T_CVSG, LCLG__T_CCPL, LCLG__T_CPERM_R, LCLG__T_CPERM_C,
    LCLG__T_HB
};

/* >>spec --------------------------------------------------------------------------------------- */
enum { LCLG__DENSE_RANDOM, LCLG__DENSE_SPD, LCLG__POISSON2D, LCLG__POISSON3D, LCLG__POWERLAW,
       LCLG__CIRCUIT, LCLG__HB, LCLG__NKINDS };

static const struct lclg__kind { const char *name; int nargs; const char *arg0, *arg1, *usage; } lclg__kinds[] = {
    { "dense-random", 1, "N", NULL, "one argument N (matrix size)" },
    { "dense-spd", 1, "N", NULL, "one argument N (matrix size)" },
    { "poisson2d", 1, "m", NULL, "one argument m (grid side)" },
    { "poisson3d", 1, "m", NULL, "one argument m (grid side)" },
    { "powerlaw", 2, "n", "avg", "two arguments n (matrix size) and avg (mean row length)" },
    { "circuit", 1, "n", NULL, "one argument n (matrix size)" },
    { "hb", 2, "BASE", "M", "two arguments BASE (a Matrix Market file or gen:SPEC) and M (block size)" }
};
#define LCLG__KINDS_LIST "dense-random:N, dense-spd:N, poisson2d:m, poisson3d:m, powerlaw:n:avg, " \
    "circuit:n, hb:BASE:M"

typedef struct lclg__block { int64_t start; int32_t nn, nv, d1, d2; } lclg__block;

typedef struct lclg__gen {
    int kind;
    uint64_t seed;
    int64_t a, b;                /* numeric arguments */
    int64_t rows, cols, nnz;
    lcl_mm_format format;
    /* powerlaw */
    lclg__perm plperm;
    int64_t maxrow;
    /* circuit */
    lclg__block *blk;
    int64_t nblk;
    lclg__perm prow, pcol;
    /* hb */
    lcl_coo base;
    int64_t *bptr;
} lclg__gen;

static void lclg__gen_free(lclg__gen *g)
{
    free(g->blk);
    free(g->bptr);
    lcl_coo_free(&g->base);
    g->blk = NULL;
    g->bptr = NULL;
}

#define LCLG__I32MAX ((int64_t)2147483647)
#define LCLG__I64MAX ((int64_t)9223372036854775807LL)

/* A positive integer field; 1 on success, else a message naming the kind and its arguments. */
static int lclg__num(const char *field, const char *kind, const char *usage, const char *what,
                     int64_t *out, char *err, size_t errlen)
{
    char *end = NULL;
    long long v;
    const char *p = field;
    if (*p == '+' || *p == '-') p++;
    if (*p < '0' || *p > '9') {
        lclg__msg(err, errlen, "gen: %s needs %s, got '%s'", kind, usage, field);
        return 0;
    }
    errno = 0;
    v = strtoll(field, &end, 10);
    if (*end != '\0') {
        lclg__msg(err, errlen, "gen: %s needs %s, got '%s'", kind, usage, field);
        return 0;
    }
    if (errno == ERANGE && v > 0) {
        lclg__msg(err, errlen, "gen: %s %s = %s is too large", kind, what, field);
        return 0;
    }
    if (errno == ERANGE || v < 1) {
        lclg__msg(err, errlen, "gen: %s %s must be >= 1, got '%s'", kind, what, field);
        return 0;
    }
    *out = (int64_t)v;
    return 1;
}

static int64_t lclg__pl_len(const lclg__gen *g, int64_t i);
static lcl_status lclg__circuit_setup(lclg__gen *g, char *err, size_t errlen);
static int lclg__circuit_row(const lclg__gen *g, int64_t r, int64_t *col, double *val);

/* Parse and validate spec, fill sizes and the exact entry count; hb reads its base here. */
static lcl_status lclg__parse(lcl_context *ctx, const char *spec, uint64_t seed, lclg__gen *g,
                              char *err, size_t errlen)
{
    const char *colon, *last;
    char field[64];
    size_t klen;
    int k, nf;
    const struct lclg__kind *kd;

    memset(g, 0, sizeof *g);
    g->seed = seed;
    g->format = LCL_MM_COORDINATE;
    if (!spec || !spec[0]) {
        lclg__msg(err, errlen, "gen: empty spec (kinds: %s)", LCLG__KINDS_LIST);
        return LCL_ERR_INVALID_ARGUMENT;
    }
    colon = strchr(spec, ':');
    klen = colon ? (size_t)(colon - spec) : strlen(spec);
    for (k = 0; k < LCLG__NKINDS; k++)
        if (strlen(lclg__kinds[k].name) == klen && strncmp(spec, lclg__kinds[k].name, klen) == 0) break;
    if (k == LCLG__NKINDS) {
        lclg__msg(err, errlen, "gen: unknown kind '%.*s' (kinds: %s)", (int)(klen > 40 ? 40 : klen), spec,
                  LCLG__KINDS_LIST);
        return LCL_ERR_INVALID_ARGUMENT;
    }
    g->kind = k;
    kd = &lclg__kinds[k];
    nf = 0;
    for (last = spec; *last; last++) nf += *last == ':';   /* number of arguments */
    if (k == LCLG__HB) {
        /* the path may itself hold ':' (C:\...), so M is the last field and the path the rest */
        const char *mfield;
        size_t plen;
        char *path;
        lcl_status st;
        if (nf < 2) {
            lclg__msg(err, errlen, "gen: hb needs %s, e.g. hb:west0067.mtx:4 or hb:gen:circuit:100:4, got '%s'", kd->usage, spec);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        mfield = strrchr(spec, ':') + 1;
        plen = (size_t)(mfield - 1 - (colon + 1));
        if (plen == 0) {
            lclg__msg(err, errlen, "gen: hb needs %s, got an empty path", kd->usage);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        if (!lclg__num(mfield, "hb", kd->usage, kd->arg1, &g->a, err, errlen)) return LCL_ERR_INVALID_ARGUMENT;
        path = (char *)malloc(plen + 1);
        if (!path) {
            lclg__msg(err, errlen, "gen: out of memory");
            return LCL_ERR_OUT_OF_MEMORY;
        }
        memcpy(path, colon + 1, plen);
        path[plen] = '\0';
        /* BASE is a file or itself a generator (hb:gen:circuit:2000:64), with the same seed */
        st = lclg_load(ctx, path, seed, LCL_F64, &g->base, err, errlen);
        free(path);
        if (st != LCL_OK) {
            memset(&g->base, 0, sizeof g->base);
            return st;
        }
        if (g->base.rows > LCLG__I32MAX / g->a || g->base.cols > LCLG__I32MAX / g->a) {
            lclg__msg(err, errlen, "gen: hb M = %lld is too large: the result (%lld x %lld times M) must fit int32",
                      (long long)g->a, (long long)g->base.rows, (long long)g->base.cols);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        if (g->base.nnz > 0 && g->base.nnz > LCLG__I64MAX / g->a / g->a) {
            lclg__msg(err, errlen, "gen: hb M = %lld is too large: the entry count overflows int64",
                      (long long)g->a);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        g->rows = g->base.rows * g->a;
        g->cols = g->base.cols * g->a;
        g->nnz = g->base.nnz * g->a * g->a;
        return LCL_OK;
    }
    if (nf != kd->nargs) {
        if (nf == 0) lclg__msg(err, errlen, "gen: %s needs %s, got none", kd->name, kd->usage);
        else lclg__msg(err, errlen, "gen: %s needs %s, got %d in '%s'", kd->name, kd->usage, nf, spec);
        return LCL_ERR_INVALID_ARGUMENT;
    }
    for (nf = 0, last = colon; last; nf++) {
        const char *start = last + 1, *stop = strchr(start, ':');
        size_t len = stop ? (size_t)(stop - start) : strlen(start);
        if (len >= sizeof field) {   /* no integer that fits is this long: refused whole, not cut */
            lclg__msg(err, errlen, "gen: %s needs %s, got a field of %lu characters in '%.40s...'", kd->name, kd->usage,
                      (unsigned long)len, spec);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        memcpy(field, start, len);
        field[len] = '\0';
        if (!lclg__num(field, kd->name, kd->usage, nf == 0 ? kd->arg0 : kd->arg1, nf == 0 ? &g->a : &g->b,
                       err, errlen))
            return LCL_ERR_INVALID_ARGUMENT;
        last = stop;
    }
    switch (k) {
    case LCLG__DENSE_RANDOM: case LCLG__DENSE_SPD:
        if (g->a > LCLG__I32MAX) {
            lclg__msg(err, errlen, "gen: %s N = %lld is too large: N must fit int32", kd->name, (long long)g->a);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        g->rows = g->cols = g->a;
        g->nnz = g->a * g->a;
        g->format = LCL_MM_ARRAY;
        break;
    case LCLG__POISSON2D: case LCLG__POISSON3D: {
        int d = k == LCLG__POISSON3D ? 3 : 2;
        int64_t face, mmax = d == 3 ? 1290 : 46340;     /* n = m^d must fit int32 */
        if (g->a > mmax) {
            lclg__msg(err, errlen, "gen: poisson%dd m = %lld is too large: n = m^%d must fit int32 (m <= %lld)", d,
                      (long long)g->a, d, (long long)mmax);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        face = d == 3 ? g->a * g->a : g->a;
        g->rows = g->cols = face * g->a;
        g->nnz = (2 * d + 1) * g->rows - 2 * d * face;   /* 2d+1 points a row, less the m^(d-1) on each boundary face */
        break;
    }
    case LCLG__POWERLAW: {
        int64_t i;
        if (g->a > LCLG__I32MAX) {
            lclg__msg(err, errlen, "gen: powerlaw n = %lld is too large: n must fit int32", (long long)g->a);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        if (g->b > g->a) {
            lclg__msg(err, errlen, "gen: powerlaw avg = %lld exceeds n = %lld", (long long)g->b, (long long)g->a);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        g->rows = g->cols = g->a;
        lclg__perm_init(&g->plperm, lclg__key(seed, LCLG__T_PL_LEN), g->a);
        for (i = 0; i < g->a; i++) {   /* the counting pass: row lengths only */
            int64_t len = lclg__pl_len(g, i);
            g->nnz += len;
            if (len > g->maxrow) g->maxrow = len;
        }
        break;
    }
    case LCLG__CIRCUIT: {
        int64_t r, col[16];
        double val[16];
        lcl_status st;
        if (g->a > LCLG__I32MAX) {
            lclg__msg(err, errlen, "gen: circuit n = %lld is too large: n must fit int32", (long long)g->a);
            return LCL_ERR_INVALID_ARGUMENT;
        }
        g->rows = g->cols = g->a;
        st = lclg__circuit_setup(g, err, errlen);
        if (st != LCL_OK) return st;
        for (r = 0; r < g->a; r++) g->nnz += lclg__circuit_row(g, r, col, val);
        break;
    }
    default: break;
    }
    return LCL_OK;
}

/* >>emit --------------------------------------------------------------------------------------- */
/* Where entries go: straight into a preallocated COO, or to a Matrix Market writer. */
typedef struct lclg__sink {
    lcl_coo *coo;
    lcl_mm_writer *w;
    int64_t n;
} lclg__sink;

static lcl_status lclg__put(lclg__sink *s, int64_t i, int64_t j, double v)
{
    if (s->coo) {
        lcl_coo *m = s->coo;
        if (s->n >= m->cap) return LCL_ERR_INTERNAL;
        m->row[s->n] = (int32_t)i;
        m->col[s->n] = (int32_t)j;
        if (m->dtype == LCL_F32) ((float *)m->val)[s->n] = (float)v;
        else ((double *)m->val)[s->n] = v;
        m->nnz = s->n + 1;
    } else {
        lcl_status st = lcl_mm_writer_put(s->w, i, j, v);
        if (st != LCL_OK) return st;
    }
    s->n++;
    return LCL_OK;
}
#define LCLG__PUT(s, i, j, v) do { lcl_status st_ = lclg__put((s), (i), (j), (v)); \
    if (st_ != LCL_OK) return st_; } while (0)

/* >>dense -------------------------------------------------------------------------------------- */
static double lclg__dense_val(const lclg__gen *g, uint64_t key, int64_t i, int64_t j)
{
    if (i == j) return (double)g->a;   /* > sum of N-1 entries of |v| < 1: dominant, and SPD if symmetric */
    if (g->kind == LCLG__DENSE_SPD && i > j) { int64_t t = i; i = j; j = t; }
    return lclg__sym(lclg__h2(key, (uint64_t)i, (uint64_t)j));
}

/* Column-major for the `array` format, row-major (already canonical) for memory. */
static lcl_status lclg__emit_dense(const lclg__gen *g, lclg__sink *s, int colmajor)
{
    uint64_t key = lclg__key(g->seed, LCLG__T_DENSE);
    int64_t n = g->a, x, y;
    for (x = 0; x < n; x++)
        for (y = 0; y < n; y++) {
            int64_t i = colmajor ? y : x, j = colmajor ? x : y;
            LCLG__PUT(s, i, j, lclg__dense_val(g, key, i, j));
        }
    return LCL_OK;
}

/* >>poisson ------------------------------------------------------------------------------------ */
static lcl_status lclg__emit_poisson(const lclg__gen *g, lclg__sink *s)
{
    int64_t m = g->a, m2 = m * m, n = g->rows, r;
    int d3 = g->kind == LCLG__POISSON3D;
    for (r = 0; r < n; r++) {
        int64_t x = r % m, y = (r / m) % m, z = d3 ? r / m2 : 0;
        if (d3 && z > 0) LCLG__PUT(s, r, r - m2, -1.0);
        if (y > 0) LCLG__PUT(s, r, r - m, -1.0);
        if (x > 0) LCLG__PUT(s, r, r - 1, -1.0);
        LCLG__PUT(s, r, r, d3 ? 6.0 : 4.0);
        if (x < m - 1) LCLG__PUT(s, r, r + 1, -1.0);
        if (y < m - 1) LCLG__PUT(s, r, r + m, -1.0);
        if (d3 && z < m - 1) LCLG__PUT(s, r, r + m2, -1.0);
    }
    return LCL_OK;
}

/* >>powerlaw ----------------------------------------------------------------------------------- */
/* Row length from a Lomax (shifted Pareto, tail exponent 2) with mean avg. The quantile is taken at
   a permuted stratum rather than a free draw, so the lengths are exactly the distribution's
   quantiles: the mean hits avg closely even though the variance is infinite, and the longest row
   is about (avg-1)*sqrt(2n). */
static int64_t lclg__pl_len(const lclg__gen *g, int64_t i)
{
    double u = ((double)lclg__perm_apply(&g->plperm, i) + 0.5) / (double)g->a;
    double len = floor(1.0 + (double)(g->b - 1) * (1.0 / sqrt(u) - 1.0) + 0.5);
    if (len < 1.0) return 1;
    if (len >= (double)g->a) return g->a;
    return (int64_t)len;
}

static void lclg__sort_i32(int32_t *a, int64_t n);

/* k distinct sorted values in [0,N) drawn from the row's hash stream; k <= N/2, so each round of
   draws is mostly new values and few rounds are needed. */
static int64_t lclg__sample(uint64_t rowkey, int64_t N, int64_t k, int32_t *buf)
{
    int64_t have = 0, q, w;
    uint64_t t = 0;
    while (have < k) {
        for (q = have; q < k; q++) buf[q] = (int32_t)lclg__below(lclg__h(rowkey, t++), N);
        lclg__sort_i32(buf, k);
        for (w = 1, q = 1; q < k; q++)
            if (buf[q] != buf[w - 1]) buf[w++] = buf[q];
        have = k > 0 ? w : 0;
    }
    return have;
}

static lcl_status lclg__emit_powerlaw(const lclg__gen *g, lclg__sink *s)
{
    uint64_t ckey = lclg__key(g->seed, LCLG__T_PL_COL), vkey = lclg__key(g->seed, LCLG__T_PL_VAL);
    int64_t n = g->a, N = n - 1, i;
    int32_t *buf = (int32_t *)malloc((size_t)(g->maxrow > 0 ? g->maxrow : 1) * sizeof(int32_t));
    lcl_status st = LCL_OK;
    if (!buf) return LCL_ERR_OUT_OF_MEMORY;
    for (i = 0; i < n && st == LCL_OK; i++) {
        int64_t len = lclg__pl_len(g, i), m = len - 1, c, q = 0, col;
        uint64_t rkey = lclg__h(ckey, (uint64_t)i), vrow = lclg__h(vkey, (uint64_t)i);
        int diag = 0, comp = m > N / 2;   /* dense rows: sample the columns left out instead */
        int64_t ns = lclg__sample(rkey, N, comp ? N - m : m, buf);
        /* walk the off-diagonal column space c in [0,N) (column c, or c+1 past the diagonal) */
        for (c = comp ? 0 : -1;; ) {
            if (comp) {
                while (c < N && q < ns && buf[q] == c) { q++; c++; }
                if (c >= N) break;
                col = c++;
            } else {
                if (q >= ns) break;
                col = buf[q++];
            }
            if (col >= i) col++;
            if (!diag && col > i) {
                st = lclg__put(s, i, i, (double)len);
                diag = 1;
                if (st != LCL_OK) break;
            }
            st = lclg__put(s, i, col, lclg__sym(lclg__h(vrow, (uint64_t)col)));
            if (st != LCL_OK) break;
        }
        /* the diagonal is len: more than the sum of len-1 values below 1, so rows dominate */
        if (st == LCL_OK && !diag) st = lclg__put(s, i, i, (double)len);
    }
    free(buf);
    return st;
}

/* Ascending int32 sort: insertion sort for the common short rows, heapsort for long ones. */
static void lclg__sort_i32(int32_t *a, int64_t n)
{
    int64_t i, j, start, end;
    if (n <= 32) {
        for (i = 1; i < n; i++) {
            int32_t v = a[i];
            for (j = i; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
            a[j] = v;
        }
        return;
    }
    for (start = n / 2 - 1;; start--) {          /* heapify */
        for (i = start; 2 * i + 1 < n; i = j) {
            j = 2 * i + 1;
            if (j + 1 < n && a[j + 1] > a[j]) j++;
            if (a[i] >= a[j]) break;
            { int32_t t = a[i]; a[i] = a[j]; a[j] = t; }
        }
        if (start == 0) break;
    }
    for (end = n - 1; end > 0; end--) {
        { int32_t t = a[0]; a[0] = a[end]; a[end] = t; }
        for (i = 0; 2 * i + 1 < end; i = j) {
            j = 2 * i + 1;
            if (j + 1 < end && a[j + 1] > a[j]) j++;
            if (a[i] >= a[j]) break;
            { int32_t t = a[i]; a[i] = a[j]; a[j] = t; }
        }
    }
}

/* >>circuit ------------------------------------------------------------------------------------ */
/* Layout before permuting: consecutive blocks (strongly connected sub-circuits), each with nn nodes
   followed by nv voltage-source branch currents. Within a block: a conductance ring plus chords at
   offsets d1, d2 (symmetric stamps), a capacitor companion conductance on every node's diagonal
   (so the block's conductance matrix G is SPD), and sources between disjoint node pairs (node 2t
   +1, node 2t+1 -1 or ground), so [G B; B' 0] is nonsingular. A grounded source fixes its node's
   voltage by itself, so BTF splits it and its current off as two 1x1 blocks, as in real circuits. Couplings only go from earlier blocks
   into later ones (VCCS into node rows, VCVS control into source rows), so the matrix is block
   lower triangular with exactly these diagonal blocks, and nonsingular. */

typedef struct lclg__seq { uint64_t s; } lclg__seq;
static uint64_t lclg__next(lclg__seq *q) { q->s += LCLG__GOLDEN; return lclg__mix(q->s); }

static lcl_status lclg__circuit_setup(lclg__gen *g, char *err, size_t errlen)
{
    int64_t n = g->a, pos = 0, cap = 16;
    int64_t big = n / 16 > 10 ? n / 16 : 10;   /* largest block: keeps at least ~16 big blocks */
    lclg__seq q;
    q.s = lclg__key(g->seed, LCLG__T_CBLOCK);
    g->blk = (lclg__block *)malloc((size_t)cap * sizeof(lclg__block));
    if (!g->blk) goto oom;
    while (pos < n) {
        int64_t size, half;
        double r = lclg__u01(lclg__next(&q));
        lclg__block *b;
        if (g->nblk == cap) {
            lclg__block *nb = (lclg__block *)realloc(g->blk, (size_t)(2 * cap) * sizeof(lclg__block));
            if (!nb) goto oom;
            g->blk = nb;
            cap *= 2;
        }
        b = &g->blk[g->nblk];
        if (g->nblk > 0 && r < 0.2) size = 1;        /* not first: size 1 and 2 rows need couplings */
        else if (g->nblk > 0 && r < 0.5) size = 2 + lclg__below(lclg__next(&q), 9);
        else size = (int64_t)floor(3.0 * pow((double)big / 3.0, lclg__u01(lclg__next(&q))) + 0.5);
        if (size > n - pos) size = n - pos;
        b->start = pos;
        b->nv = (g->nblk > 0 && size >= 4) ? (int32_t)(0.1 * (double)size * lclg__u01(lclg__next(&q)) + 0.5) : 0;
        b->nn = (int32_t)(size - b->nv);
        half = (b->nn - 1) / 2;                        /* chord offsets in [2, half] keep stamps distinct */
        b->d1 = b->nn >= 5 ? (int32_t)(2 + lclg__below(lclg__next(&q), half - 1)) : 0;
        b->d2 = 0;
        if (b->nn >= 9) {
            b->d2 = (int32_t)(2 + lclg__below(lclg__next(&q), half - 1));
            if (b->d2 == b->d1) b->d2 = b->d1 < half ? b->d1 + 1 : 2;
        }
        pos += size;
        g->nblk++;
    }
    lclg__perm_init(&g->prow, lclg__key(g->seed, LCLG__T_CPERM_R), n);
    lclg__perm_init(&g->pcol, lclg__key(g->seed, LCLG__T_CPERM_C), n);
    return LCL_OK;
oom:
    lclg__msg(err, errlen, "gen: circuit: out of memory for %lld rows", (long long)n);
    return LCL_ERR_OUT_OF_MEMORY;
}

/* Conductance of the edge that node `origin` (global index) owns, per edge type (ring, chord 1, 2). */
static double lclg__cond(uint64_t seed, int64_t origin, int type)
{
    return 0.1 + 0.9 * lclg__u01(lclg__h2(lclg__key(seed, LCLG__T_CG), (uint64_t)origin, (uint64_t)type));
}
static int lclg__chord(uint64_t seed, int64_t origin, int type)
{
    return (int)(lclg__h2(lclg__key(seed, LCLG__T_CCHORD), (uint64_t)origin, (uint64_t)type) >> 63);
}

static int lclg__row_add(int cnt, int64_t *col, double *val, int64_t c, double v)
{
    int k;
    for (k = 0; k < cnt; k++)
        if (col[k] == c) { val[k] += v; return cnt; }   /* defensive: stamps are distinct */
    col[cnt] = c;
    val[cnt] = v;
    return cnt + 1;
}

/* Row r (unpermuted) into col/val (at most 16), columns unpermuted; returns the count. */
static int lclg__circuit_row(const lclg__gen *g, int64_t r, int64_t *col, double *val)
{
    uint64_t seed = g->seed, ckey = lclg__key(seed, LCLG__T_CCPL);
    int64_t lo = 0, hi = g->nblk - 1, bi, base, k;
    const lclg__block *b;
    int cnt = 0, t;
    while (lo < hi) {   /* last block starting at or before r */
        int64_t mid = (lo + hi + 1) / 2;
        if (g->blk[mid].start <= r) lo = mid; else hi = mid - 1;
    }
    bi = lo;
    b = &g->blk[bi];
    base = b->start;
    k = r - base;
    if (k < b->nn) {   /* node row: KCL */
        int64_t nn = b->nn;
        double diag = 0.01 + 0.49 * lclg__u01(lclg__h(lclg__key(seed, LCLG__T_CCAP), (uint64_t)r));
        int cd = cnt;
        cnt = lclg__row_add(cnt, col, val, r, 0.0);   /* diagonal, filled below */
        if (nn == 2) {
            double gv = lclg__cond(seed, base, 0);
            cnt = lclg__row_add(cnt, col, val, base + (1 - k), -gv);
            diag += gv;
        } else if (nn >= 3) {
            int64_t nx = (k + 1) % nn, pv = (k + nn - 1) % nn;
            double g1 = lclg__cond(seed, base + k, 0), g0 = lclg__cond(seed, base + pv, 0);
            cnt = lclg__row_add(cnt, col, val, base + nx, -g1);
            cnt = lclg__row_add(cnt, col, val, base + pv, -g0);
            diag += g0 + g1;
        }
        for (t = 1; t <= 2; t++) {
            int64_t d = t == 1 ? b->d1 : b->d2;
            if (d == 0) continue;
            if (lclg__chord(seed, base + k, t)) {
                double gv = lclg__cond(seed, base + k, t);
                cnt = lclg__row_add(cnt, col, val, base + (k + d) % nn, -gv);
                diag += gv;
            }
            if (lclg__chord(seed, base + (k + nn - d) % nn, t)) {
                double gv = lclg__cond(seed, base + (k + nn - d) % nn, t);
                cnt = lclg__row_add(cnt, col, val, base + (k + nn - d) % nn, -gv);
                diag += gv;
            }
        }
        val[cd] = diag;
        if (k < 2 * (int64_t)b->nv) {   /* source current enters KCL: +1 at node 2t, -1 at 2t+1 */
            int64_t src = base + nn + k / 2;
            int grounded = (int)(lclg__h(lclg__key(seed, LCLG__T_CVSG), (uint64_t)src) & 1);
            if (k % 2 == 0) cnt = lclg__row_add(cnt, col, val, src, 1.0);
            else if (!grounded) cnt = lclg__row_add(cnt, col, val, src, -1.0);
        }
    } else {           /* source row: v(2t) - v(2t+1) - mu * (earlier unknown) = E */
        int64_t tt = k - b->nn, src = r;
        int grounded = (int)(lclg__h(lclg__key(seed, LCLG__T_CVSG), (uint64_t)src) & 1);
        cnt = lclg__row_add(cnt, col, val, base + 2 * tt, 1.0);
        if (!grounded) cnt = lclg__row_add(cnt, col, val, base + 2 * tt + 1, -1.0);
    }
    if (bi > 0) {      /* couplings from earlier blocks: enough for 3 entries, sometimes one more */
        int want = (cnt < 3 ? 3 : cnt) + (lclg__u01(lclg__h(ckey, (uint64_t)r)) < 0.3);
        if (want - cnt > base) want = cnt + (int)base;
        for (t = 0; cnt < want && t < 64; t++) {
            uint64_t hc = lclg__h2(ckey, (uint64_t)r, (uint64_t)t + 1);
            int64_t c = lclg__below(hc, base);
            double mag = 0.1 + 0.9 * lclg__u01(lclg__mix(hc));
            int dup = 0, q;
            for (q = 0; q < cnt; q++) dup |= col[q] == c;
            if (!dup) cnt = lclg__row_add(cnt, col, val, c, (hc & 1) ? mag : -mag);
        }
    }
    return cnt;
}

static lcl_status lclg__emit_circuit(const lclg__gen *g, lclg__sink *s)
{
    int64_t r, col[16];
    double val[16];
    int k, cnt;
    for (r = 0; r < g->a; r++) {
        int64_t pr = lclg__perm_apply(&g->prow, r);
        cnt = lclg__circuit_row(g, r, col, val);
        for (k = 0; k < cnt; k++) LCLG__PUT(s, pr, lclg__perm_apply(&g->pcol, col[k]), val[k]);
    }
    return LCL_OK;
}

/* >>hb ----------------------------------------------------------------------------------------- */
/* J (x) B with B = M*I + uniform[-0.5,0.5] off the diagonal: strictly dominant, so well-conditioned.
   Rows come out in order: base row i, block row p, base entries of row i, block column q. */
/* B's entry (p, q); lclg_hb_bmat's blocks take the same values */
static double lclg__hb_b(uint64_t key, int64_t M, int64_t p, int64_t q)
{
    return p == q ? (double)M : 0.5 * lclg__sym(lclg__h2(key, (uint64_t)p, (uint64_t)q));
}

static lcl_status lclg__emit_hb(const lclg__gen *g, lclg__sink *s)
{
    uint64_t key = lclg__key(g->seed, LCLG__T_HB);
    int64_t M = g->a, i, p, q, e;
    const lcl_coo *A = &g->base;
    for (i = 0; i < A->rows; i++)
        for (p = 0; p < M; p++)
            for (e = g->bptr[i]; e < g->bptr[i + 1]; e++) {
                int64_t j = A->col[e];
                double a = ((const double *)A->val)[e];
                for (q = 0; q < M; q++) LCLG__PUT(s, i * M + p, j * M + q, a * lclg__hb_b(key, M, p, q));
            }
    return LCL_OK;
}

static lcl_status lclg__hb_rowptr(lclg__gen *g, char *err, size_t errlen)
{
    int64_t e, i;
    g->bptr = (int64_t *)calloc((size_t)g->base.rows + 1, sizeof(int64_t));
    if (!g->bptr) {
        lclg__msg(err, errlen, "gen: hb: out of memory");
        return LCL_ERR_OUT_OF_MEMORY;
    }
    for (e = 0; e < g->base.nnz; e++) g->bptr[g->base.row[e] + 1]++;
    for (i = 0; i < g->base.rows; i++) g->bptr[i + 1] += g->bptr[i];
    return LCL_OK;
}

static lcl_status lclg__emit(lclg__gen *g, lclg__sink *s, char *err, size_t errlen)
{
    lcl_status st;
    switch (g->kind) {
    case LCLG__DENSE_RANDOM: case LCLG__DENSE_SPD: return lclg__emit_dense(g, s, s->coo == NULL);
    case LCLG__POISSON2D: case LCLG__POISSON3D: return lclg__emit_poisson(g, s);
    case LCLG__POWERLAW: return lclg__emit_powerlaw(g, s);
    case LCLG__CIRCUIT: return lclg__emit_circuit(g, s);
    case LCLG__HB:
        st = lclg__hb_rowptr(g, err, errlen);
        return st != LCL_OK ? st : lclg__emit_hb(g, s);
    default: return LCL_ERR_INTERNAL;
    }
}

/* >>public ------------------------------------------------------------------------------------- */
lcl_status lclg_gen_coo(lcl_context *ctx, const char *spec, uint64_t seed, lcl_dtype dtype, lcl_coo *out,
                        char *err, size_t errlen)
{
    lclg__gen g;
    lclg__sink s;
    lcl_status st;
    if (err && errlen) err[0] = '\0';
    if (!out) {
        lclg__msg(err, errlen, "gen: out is NULL");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
    st = lclg__parse(ctx, spec, seed, &g, err, errlen);
    if (st != LCL_OK) { lclg__gen_free(&g); return st; }
    st = lcl_coo_alloc(ctx, out, dtype, g.rows, g.cols, g.nnz);
    if (st != LCL_OK) {
        lclg__gen_free(&g);
        memset(out, 0, sizeof *out);
        return lclg__lib(ctx, st, err, errlen);
    }
    memset(&s, 0, sizeof s);
    s.coo = out;
    out->nnz = 0;
    st = lclg__emit(&g, &s, err, errlen);
    lclg__gen_free(&g);
    if (st == LCL_OK && s.n != g.nnz) st = LCL_ERR_INTERNAL;
    if (st != LCL_OK) {
        if (err && errlen && !err[0])
            lclg__msg(err, errlen, "gen: %s: %s", spec, st == LCL_ERR_INTERNAL
                      ? "entry count differs from the first pass" : lcl_status_string(st));
        lcl_coo_free(out);
        return st;
    }
    st = lcl_coo_canonicalize(ctx, out);
    if (st != LCL_OK) {
        lcl_coo_free(out);
        return lclg__lib(ctx, st, err, errlen);
    }
    return LCL_OK;
}

lcl_status lclg_gen_dense(lcl_context *ctx, const char *spec, uint64_t seed, lcl_dense *out, char *err, size_t errlen)
{
    lclg__gen g;
    lcl_status st;
    uint64_t key;
    int64_t n, j;
    if (err && errlen) err[0] = '\0';
    if (!out) {
        lclg__msg(err, errlen, "gen: out is NULL");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
    if (!lclg_is_dense_kind(spec)) {
        lclg__msg(err, errlen, "gen: %s: not a dense kind (dense-random:N, dense-spd:N)", spec);
        return LCL_ERR_INVALID_ARGUMENT;
    }
    st = lclg__parse(ctx, spec, seed, &g, err, errlen);
    if (st == LCL_OK && (st = lcl_dense_alloc(ctx, out, LCL_F64, LCL_COL_MAJOR, g.rows, g.cols)) != LCL_OK) st = lclg__lib(ctx, st, err, errlen);
    if (st == LCL_OK) {
        double *a = (double *)out->data;
        key = lclg__key(g.seed, LCLG__T_DENSE);
        n = g.a;
        /* the values of the COO path (lclg__emit_dense), without its n^2 entries to sort */
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
        for (j = 0; j < n; j++) {
            int64_t i;
            for (i = 0; i < n; i++) a[j * out->ld + i] = lclg__dense_val(&g, key, i, j);
        }
    }
    lclg__gen_free(&g);
    return st;
}

lcl_status lclg_gen_file(lcl_context *ctx, const char *spec, uint64_t seed, const char *path,
                         char *err, size_t errlen)
{
    lclg__gen g;
    lclg__sink s;
    lcl_status st, st2;
    char comment[512];
    size_t k;
    if (err && errlen) err[0] = '\0';
    if (!path) {
        lclg__msg(err, errlen, "gen: output path is NULL");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    st = lclg__parse(ctx, spec, seed, &g, err, errlen);
    if (st != LCL_OK) { lclg__gen_free(&g); return st; }
    {   /* "poisson3d:100" -> "poisson3d 100"; an hb path keeps any ':' of its own */
        char words[400];
        char *first, *last;
        snprintf(words, sizeof words, "%s", spec);
        first = strchr(words, ':');
        last = strrchr(words, ':');
        for (k = 0; words[k]; k++)
            if (words[k] == ':' && (g.kind != LCLG__HB || words + k == first || words + k == last))
                words[k] = ' ';
        snprintf(comment, sizeof comment, "generated by lcl gen %s --seed %llu", words,
                 (unsigned long long)seed);
    }
    memset(&s, 0, sizeof s);
    st = lcl_mm_writer_open(ctx, path, g.format, LCL_MM_GENERAL, g.rows, g.cols, g.nnz, comment, &s.w);
    if (st != LCL_OK) {
        lclg__gen_free(&g);
        return lclg__lib(ctx, st, err, errlen);
    }
    st = lclg__emit(&g, &s, err, errlen);
    lclg__gen_free(&g);
    if (st != LCL_OK) {
        if (err && errlen && !err[0]) lclg__lib(ctx, st, err, errlen);
        lcl_mm_writer_close(s.w);   /* fails on the short count, undoing the partial file; our message stays */
        return st;
    }
    st2 = lcl_mm_writer_close(s.w);
    if (st2 != LCL_OK) return lclg__lib(ctx, st2, err, errlen);
    return LCL_OK;
}

lcl_status lclg_load(lcl_context *ctx, const char *path_or_gen, uint64_t seed, lcl_dtype dtype,
                     lcl_coo *out, char *err, size_t errlen)
{
    lcl_status st;
    if (err && errlen) err[0] = '\0';
    if (!path_or_gen || !out) {
        lclg__msg(err, errlen, "load: %s is NULL", path_or_gen ? "out" : "path");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    if (strncmp(path_or_gen, "gen:", 4) == 0)
        return lclg_gen_coo(ctx, path_or_gen + 4, seed, dtype, out, err, errlen);
    st = lcl_mm_read(ctx, path_or_gen, dtype, LCL_MM_EXPAND, out, NULL);
    return st == LCL_OK ? st : lclg__lib(ctx, st, err, errlen);
}

int lclg_is_dense_kind(const char *spec)
{
    size_t len;
    if (!spec) return 0;
    if (strncmp(spec, "gen:", 4) == 0) spec += 4;
    len = strcspn(spec, ":");
    return (len == 12 && strncmp(spec, "dense-random", 12) == 0) ||
           (len == 9 && strncmp(spec, "dense-spd", 9) == 0);
}

/* >>hbblock ----------------------------------------------------------------------------------- */
/* hb in block form: J's pattern as block compressed columns, each block a_ij * B computed as
   lclg__emit_hb computes the scalar entries (the same double product, the same rounding to the
   dtype), so both forms hold identical values. The expanded COO is never built. */
#if defined(_OPENMP)
#define LCLG__OMP(x) _Pragma(#x)
#else
#define LCLG__OMP(x)
#endif

int lclg_hb_spec(const char *spec, int64_t *m)
{
    const char *last;
    int64_t v = 0;
    *m = 0;
    if (!spec) return 0;
    if (strncmp(spec, "gen:", 4) == 0) spec += 4;
    if (strncmp(spec, "hb:", 3) != 0) return 0;
    last = strrchr(spec, ':');
    if (last == spec + 2) return 1;             /* "hb:" alone: hb, no M */
    for (last++; *last >= '0' && *last <= '9' && v <= LCLG__I32MAX; last++) v = v * 10 + (*last - '0');
    if (!*last && v >= 1 && v <= LCLG__I32MAX) *m = v;
    return 1;
}

void lclg_hb_free(lclg_hb *h)
{
    if (!h) return;
    lcl_coo_free(&h->base);
    free(h->B);
    free(h->colptr);
    free(h->entry);
    free(h->rowptr);
    memset(h, 0, sizeof *h);
}

lcl_status lclg_hb_open_spec(lcl_context *ctx, const char *spec, uint64_t seed, lclg_hb *h, char *err, size_t errlen)
{
    lclg__gen g;
    lcl_status st;
    int64_t n, M, e, j, p, q;
    uint64_t key;
    if (err && errlen) err[0] = '\0';
    if (!h) {
        lclg__msg(err, errlen, "gen: out is NULL");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    memset(h, 0, sizeof *h);
    if (spec && strncmp(spec, "gen:", 4) == 0) spec += 4;
    if (!lclg_hb_spec(spec, &M)) {
        lclg__msg(err, errlen, "gen: the block form needs an hb:BASE:M spec, got '%s'", spec ? spec : "(null)");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    st = lclg__parse(ctx, spec, seed, &g, err, errlen);
    if (st != LCL_OK) { lclg__gen_free(&g); return st; }
    h->base = g.base;               /* taken over: canonical, double */
    h->m = M = g.a;
    memset(&g.base, 0, sizeof g.base);
    lclg__gen_free(&g);
    n = h->base.rows;
    if (h->base.rows != h->base.cols || n == 0) {
        lclg__msg(err, errlen, "gen: hb block form: BASE is %lld x %lld, needs a square non-empty matrix",
                  (long long)h->base.rows, (long long)h->base.cols);
        lclg_hb_free(h);
        return LCL_ERR_DIMENSION;
    }
    if ((uint64_t)M > (uint64_t)(SIZE_MAX / sizeof(double)) / (uint64_t)M) {
        lclg__msg(err, errlen, "gen: hb M = %lld: the block overflows memory sizes", (long long)M);
        lclg_hb_free(h);
        return LCL_ERR_OVERFLOW;
    }
    h->B = (double *)malloc((size_t)(M * M) * sizeof(double));
    h->colptr = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
    h->rowptr = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
    h->entry = (int64_t *)malloc((size_t)h->base.nnz * sizeof(int64_t) + 1);
    if (!h->B || !h->colptr || !h->rowptr || !h->entry) {
        lclg__msg(err, errlen, "gen: hb block form: out of memory (M = %lld)", (long long)M);
        lclg_hb_free(h);
        return LCL_ERR_OUT_OF_MEMORY;
    }
    key = lclg__key(seed, LCLG__T_HB);
    for (p = 0; p < M; p++)
        for (q = 0; q < M; q++) h->B[p * M + q] = lclg__hb_b(key, M, p, q);
    /* canonical COO is row-major: counting by column keeps each column's rows sorted */
    for (e = 0; e < h->base.nnz; e++) {
        h->colptr[h->base.col[e] + 1]++;
        h->rowptr[h->base.row[e] + 1]++;
    }
    for (j = 0; j < n; j++) {
        h->colptr[j + 1] += h->colptr[j];
        h->rowptr[j + 1] += h->rowptr[j];
    }
    {
        int64_t *next = (int64_t *)malloc((size_t)n * sizeof(int64_t));
        if (!next) {
            lclg__msg(err, errlen, "gen: hb block form: out of memory");
            lclg_hb_free(h);
            return LCL_ERR_OUT_OF_MEMORY;
        }
        memcpy(next, h->colptr, (size_t)n * sizeof(int64_t));
        for (e = 0; e < h->base.nnz; e++) h->entry[next[h->base.col[e]]++] = e;
        free(next);
    }
    return LCL_OK;
}

lcl_status lclg_hb_open(lcl_context *ctx, const char *base, int64_t m, uint64_t seed, lclg_hb *h, char *err, size_t errlen)
{
    size_t len = base ? strlen(base) : 0;
    char *spec;
    lcl_status st;
    if (h) memset(h, 0, sizeof *h);
    if (!base || !base[0] || m < 1) {
        lclg__msg(err, errlen, "gen: hb block form needs a BASE and M >= 1");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    if (!(spec = (char *)malloc(len + 32))) {
        lclg__msg(err, errlen, "gen: out of memory");
        return LCL_ERR_OUT_OF_MEMORY;
    }
    snprintf(spec, len + 32, "hb:%s:%lld", base, (long long)m);
    st = lclg_hb_open_spec(ctx, spec, seed, h, err, errlen);
    free(spec);
    return st;
}

void lclg_hb_fill(const lclg_hb *h, lcl_bmat *A, const double *scale)
{
    int64_t M = h->m, mm = M * M, e, nb = h->base.nnz;
    const double *bv = (const double *)h->base.val;
    LCLG__OMP(omp parallel for schedule(static))
    for (e = 0; e < nb; e++) {
        double a = bv[h->entry[e]];
        int64_t k;
        if (scale) a *= scale[e];
        if (A->dtype == LCL_F32) {
            float *d = (float *)A->val + (size_t)e * (size_t)mm;
            for (k = 0; k < mm; k++) d[k] = (float)(a * h->B[k]);
        } else {
            double *d = (double *)A->val + (size_t)e * (size_t)mm;
            for (k = 0; k < mm; k++) d[k] = a * h->B[k];
        }
    }
}

lcl_status lclg_hb_bmat(const lclg_hb *h, lcl_dtype dtype, lcl_bmat *out, char *err, size_t errlen)
{
    int64_t n, e, M;
    size_t es = dtype == LCL_F32 ? sizeof(float) : sizeof(double), cnt;
    if (err && errlen) err[0] = '\0';
    if (!out || !h || !h->B) {
        lclg__msg(err, errlen, "gen: hb block form: NULL argument");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
    n = h->base.rows;
    M = h->m;
    cnt = (size_t)(M * M);
    if (h->base.nnz > 0 && (cnt > SIZE_MAX / es / (size_t)h->base.nnz)) {
        lclg__msg(err, errlen, "gen: hb block form: %lld blocks of %lld x %lld overflow memory sizes", (long long)h->base.nnz,
                  (long long)M, (long long)M);
        return LCL_ERR_OVERFLOW;
    }
    out->n = n;
    out->m = M;
    out->nnzb = h->base.nnz;
    out->dtype = dtype;
    out->by_row = 0;
    out->ptr = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
    out->idx = (int32_t *)malloc((size_t)h->base.nnz * sizeof(int32_t) + 1);
    out->val = malloc((size_t)h->base.nnz * cnt * es + 1);
    if (!out->ptr || !out->idx || !out->val) {
        lclg__msg(err, errlen, "gen: hb block form: out of memory for %lld blocks of %lld x %lld (%.3g GB)", (long long)h->base.nnz,
                  (long long)M, (long long)M, (double)h->base.nnz * (double)cnt * (double)es * 1e-9);
        lclg_bmat_free(out);
        return LCL_ERR_OUT_OF_MEMORY;
    }
    memcpy(out->ptr, h->colptr, ((size_t)n + 1) * sizeof(int64_t));
    for (e = 0; e < h->base.nnz; e++) out->idx[e] = h->base.row[h->entry[e]];
    lclg_hb_fill(h, out, NULL);
    return LCL_OK;
}

void lclg_bmat_free(lcl_bmat *A)
{
    if (!A) return;
    free(A->ptr);
    free(A->idx);
    free(A->val);
    memset(A, 0, sizeof *A);
}

lcl_status lclg_gen_bmat(lcl_context *ctx, const char *spec, uint64_t seed, lcl_dtype dtype, lcl_bmat *out,
                         char *err, size_t errlen)
{
    lclg_hb h;
    lcl_status st;
    if (out) memset(out, 0, sizeof *out);
    st = lclg_hb_open_spec(ctx, spec, seed, &h, err, errlen);
    if (st == LCL_OK) st = lclg_hb_bmat(&h, dtype, out, err, errlen);
    lclg_hb_free(&h);
    return st;
}

lcl_status lclg_hb_mv(const lclg_hb *h, const double *x, double *y)
{
    int64_t n = h->base.rows, M = h->m, j, i;
    const double *bv = (const double *)h->base.val;
    double *t = (double *)malloc((size_t)(n * M) * sizeof(double) + 1);
    if (!t) return LCL_ERR_OUT_OF_MEMORY;
    LCLG__OMP(omp parallel for schedule(static))
    for (j = 0; j < n; j++) {   /* t_j = B x_j */
        int64_t p, q;
        for (p = 0; p < M; p++) {
            double acc = 0;
            for (q = 0; q < M; q++) acc += h->B[p * M + q] * x[j * M + q];
            t[j * M + p] = acc;
        }
    }
    LCLG__OMP(omp parallel for schedule(static))
    for (i = 0; i < n; i++) {   /* y_i = sum_j a_ij t_j */
        int64_t e, p;
        for (p = 0; p < M; p++) y[i * M + p] = 0;
        for (e = h->rowptr[i]; e < h->rowptr[i + 1]; e++) {
            double a = bv[e];
            const double *tj = t + (size_t)h->base.col[e] * (size_t)M;
            for (p = 0; p < M; p++) y[i * M + p] += a * tj[p];
        }
    }
    free(t);
    return LCL_OK;
}

double lclg_hb_norm_inf(const lclg_hb *h)
{
    int64_t i, e, p, q, M = h->m;
    double jmax = 0, bmax = 0;
    for (i = 0; i < h->base.rows; i++) {
        double s = 0;
        for (e = h->rowptr[i]; e < h->rowptr[i + 1]; e++) s += fabs(((const double *)h->base.val)[e]);
        if (s > jmax) jmax = s;
    }
    for (p = 0; p < M; p++) {
        double s = 0;
        for (q = 0; q < M; q++) s += fabs(h->B[p * M + q]);
        if (s > bmax) bmax = s;
    }
    return jmax * bmax;
}

/* >>stats -------------------------------------------------------------------------------------- */
static int lclg__bucket(int64_t len)
{
    int k = 0;
    while (len > 0 && k < 39) { len >>= 1; k++; }
    return k;
}

/* (i, j) stored in the canonical (row, then column sorted) COO: binary search */
static int lclg__coo_has(const lcl_coo *A, int64_t i, int64_t j)
{
    int64_t lo = 0, hi = A->nnz;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (A->row[mid] < i || (A->row[mid] == i && A->col[mid] < j)) lo = mid + 1; else hi = mid;
    }
    return lo < A->nnz && A->row[lo] == i && A->col[lo] == j;
}

lcl_status lclg_stat(const lcl_coo *A, lclg_stats *s, char *err, size_t errlen)
{
    int64_t e, k, end, nonempty = 0, nonempty_below = 0, offdiag = 0, mirrored = 0;
    int all_weak = 1;
    if (err && errlen) err[0] = '\0';
    if (!A || !s) {
        lclg__msg(err, errlen, "stat: %s is NULL", A ? "stats" : "matrix");
        return LCL_ERR_INVALID_ARGUMENT;
    }
    memset(s, 0, sizeof *s);
    if (A->rows < 0 || A->cols < 0 || A->nnz < 0 || (A->nnz > 0 && (!A->row || !A->col || !A->val))) {
        lclg__msg(err, errlen, "stat: malformed matrix (%lld x %lld, %lld entries)",
                  (long long)A->rows, (long long)A->cols, (long long)A->nnz);
        return LCL_ERR_INVALID_ARGUMENT;
    }
    /* the mirror lookups below rely on sorted rows: check rather than give wrong answers */
    for (e = 0; e < A->nnz; e++) {
        int32_t r = A->row[e], c = A->col[e];
        if (r < 0 || r >= A->rows || c < 0 || c >= A->cols ||
            (e > 0 && (r < A->row[e - 1] || (r == A->row[e - 1] && c <= A->col[e - 1])))) {
            lclg__msg(err, errlen, "stat: matrix is not canonical at entry %lld (%d, %d); "
                      "call lcl_coo_canonicalize first", (long long)e, (int)r, (int)c);
            return LCL_ERR_INVALID_ARGUMENT;
        }
    }
    /* row by row over the sorted entries, the empty rows counted together: no array of rows (a file
       declaring 2e9 rows and holding one entry took 16 GB and a minute) */
    s->rows = A->rows;
    s->cols = A->cols;
    s->nnz = A->nnz;
    s->row_mean = A->rows > 0 ? (double)A->nnz / (double)A->rows : 0.0;
    s->row_min = A->rows > 0 ? LCLG__I64MAX : 0;
    for (e = 0; e < A->nnz; e = end) {
        int64_t i = A->row[e], len;
        double d = 0.0, off = 0.0;
        int has_diag = 0, b;
        for (end = e; end < A->nnz && A->row[end] == i; end++) {}
        len = end - e;
        nonempty++;
        nonempty_below += i < A->cols;
        b = lclg__bucket(len);
        if (len < s->row_min) s->row_min = len;
        if (len > s->row_max) s->row_max = len;
        s->hist[b]++;
        if (b + 1 > s->nhist) s->nhist = b + 1;
        for (k = e; k < end; k++) {
            int64_t j = A->col[k], bw = j > i ? j - i : i - j;
            double v = A->dtype == LCL_F32 ? (double)((const float *)A->val)[k] : ((const double *)A->val)[k];
            if (bw > s->bandwidth) s->bandwidth = bw;
            if (j == i) { has_diag = 1; d = fabs(v); continue; }
            off += fabs(v);
            offdiag++;
            mirrored += j < A->rows && i < A->cols && lclg__coo_has(A, j, i);
        }
        if (!has_diag && i < A->cols) s->diag_missing++;
        if (d >= off) s->rows_diag_dominant++; else all_weak = 0;
        if (d > off) s->rows_strictly_dominant++;
    }
    if (nonempty < A->rows) {   /* the empty rows: length 0, dominant (0 >= 0), no diagonal */
        int64_t empty = A->rows - nonempty, below = A->rows < A->cols ? A->rows : A->cols;
        s->row_min = 0;
        s->hist[0] += empty;
        if (s->nhist < 1) s->nhist = 1;
        s->rows_diag_dominant += empty;
        s->diag_missing += below - nonempty_below;   /* the empty rows that have a diagonal position */
    }
    s->pattern_symmetry = offdiag > 0 ? (double)mirrored / (double)offdiag : 1.0;
    s->pattern_symmetric = A->rows == A->cols && mirrored == offdiag;
    s->diagonally_dominant = A->rows > 0 && all_weak && s->rows_strictly_dominant > 0;
    return LCL_OK;
}

void lclg_json_str(FILE *f, const char *str)
{
    fputc('"', f);
    for (; *str; str++) {
        unsigned char c = (unsigned char)*str;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* Bucket label: "0", "1", "2-3", "4-7", ... */
static void lclg__bucket_label(char *buf, size_t cap, int k)
{
    if (k <= 1) snprintf(buf, cap, "%d", k);
    else snprintf(buf, cap, "%lld-%lld", (long long)((int64_t)1 << (k - 1)), (long long)(((int64_t)1 << k) - 1));
}

void lclg_stats_print(FILE *f, const char *name, const lclg_stats *s, int json)
{
    int k;
    if (!f || !s) return;
    if (json) {
        fputc('{', f);
        if (name) { fputs("\"name\":", f); lclg_json_str(f, name); fputc(',', f); }
        fprintf(f, "\"rows\":%lld,\"cols\":%lld,\"nnz\":%lld,\"row_min\":%lld,\"row_mean\":%.6g,"
                "\"row_max\":%lld,\"bandwidth\":%lld,\"pattern_symmetric\":%s,\"pattern_symmetry\":%.6g,"
                "\"row_hist\":[",
                (long long)s->rows, (long long)s->cols, (long long)s->nnz, (long long)s->row_min,
                s->row_mean, (long long)s->row_max, (long long)s->bandwidth,
                s->pattern_symmetric ? "true" : "false", s->pattern_symmetry);
        for (k = 0; k < s->nhist; k++) fprintf(f, "%s%lld", k ? "," : "", (long long)s->hist[k]);
        fprintf(f, "],\"diag_missing\":%lld,\"rows_diag_dominant\":%lld,\"rows_strictly_dominant\":%lld,"
                "\"diagonally_dominant\":%s}\n",
                (long long)s->diag_missing, (long long)s->rows_diag_dominant,
                (long long)s->rows_strictly_dominant, s->diagonally_dominant ? "true" : "false");
        return;
    }
    {
        int64_t most = 0;
        char label[48];
        fprintf(f, "%s%s%lld x %lld, %lld nonzeros (%.3g%% dense)\n", name ? name : "", name ? ": " : "",
                (long long)s->rows, (long long)s->cols, (long long)s->nnz,
                s->rows > 0 && s->cols > 0 ? 100.0 * (double)s->nnz / ((double)s->rows * (double)s->cols) : 0.0);
        fprintf(f, "  row length  min %lld, mean %.2f, max %lld\n", (long long)s->row_min, s->row_mean,
                (long long)s->row_max);
        fprintf(f, "  bandwidth   %lld\n", (long long)s->bandwidth);
        fprintf(f, "  pattern     %s (%.1f%% of off-diagonal entries have their mirror)\n",
                s->pattern_symmetric ? "symmetric" : "unsymmetric", 100.0 * s->pattern_symmetry);
        fprintf(f, "  diagonal    %lld rows without a stored diagonal\n", (long long)s->diag_missing);
        fprintf(f, "  dominance   %lld of %lld rows diagonally dominant (%lld strictly): matrix is %s\n",
                (long long)s->rows_diag_dominant, (long long)s->rows, (long long)s->rows_strictly_dominant,
                s->diagonally_dominant ? "diagonally dominant" : "not diagonally dominant");
        fprintf(f, "  row lengths (rows per length range):\n");
        for (k = 0; k < s->nhist; k++)
            if (s->hist[k] > most) most = s->hist[k];
        for (k = 0; k < s->nhist; k++) {
            int w = most > 0 ? (int)((40 * s->hist[k] + most - 1) / most) : 0, c;
            lclg__bucket_label(label, sizeof label, k);
            fprintf(f, "  %23s |", label);
            for (c = 0; c < 40; c++) fputc(c < w ? '#' : ' ', f);
            fprintf(f, " %lld\n", (long long)s->hist[k]);
        }
    }
}
