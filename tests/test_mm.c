/* test_mm.c -- Matrix Market reader and writer, COO/CSR containers, lcl_format_double.

   Data: tests/data/bad/ (one defect per file, expectations in manifest.txt),
         tests/data/good/ (valid but tricky files; expected matrices written out below),
         tests/data/matrices/ (real SuiteSparse matrices; the two large ones from $LCL_SHARED/matrices
         when present; checked against a small independent reader in this file).
   Temporary files go to $TMPDIR (or /tmp) and are removed. */
#define _POSIX_C_SOURCE 200809L   /* symlink, lstat: a failed write's cleanup */
#include "lt.h"
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <float.h>
#include <time.h>
#include <unistd.h>

#define LT_DATA "tests/data"

/* ------------------------------------------------------------------------------------------ */
/* helpers                                                                                      */

static lcl_context *mk_ctx(void)
{
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    return ctx;
}

/* free and zero, so that a later failed call that leaves its output alone cannot double-free */
static void coo_release(lcl_coo *m) { lcl_coo_free(m); memset(m, 0, sizeof *m); }
static void dense_release(lcl_dense *m) { lcl_dense_free(m); memset(m, 0, sizeof *m); }
static void csr_release(lcl_csr *m) { lcl_csr_free(m); memset(m, 0, sizeof *m); }

/* whole file, in a buffer of exactly its size (no terminator, so over-reads show under ASan) */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    *len = 0;
    if (!f) return NULL;
    for (;;) {
        size_t got;
        if (n == cap) {
            char *nb;
            cap = cap ? cap * 2 : 4096;
            nb = (char *)realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    if (n == 0) { free(buf); buf = (char *)malloc(1); if (buf) buf[0] = 'X'; return buf; }
    {   /* shrink to the exact size */
        char *exact = (char *)malloc(n);
        if (!exact) { free(buf); return NULL; }
        memcpy(exact, buf, n);
        free(buf);
        *len = n;
        return exact;
    }
}

static int lower_c(int c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; }

static int icontains(const char *hay, const char *needle)
{
    size_t i, j, nl;
    if (!hay || !needle) return 0;
    nl = strlen(needle);
    for (i = 0; hay[i]; i++) {
        for (j = 0; j < nl && hay[i + j] && lower_c((unsigned char)hay[i + j]) == lower_c((unsigned char)needle[j]); j++) {}
        if (j == nl) return 1;
    }
    return nl == 0;
}

static const char *msg_of(const lcl_context *ctx)
{
    const char *m = lcl_last_error(ctx);
    return m ? m : "(null)";
}

static void tmp_path(char *buf, size_t cap, const char *tag)
{
    static unsigned counter = 0;
    const char *dir = getenv("TMPDIR");
    unsigned long salt = (unsigned long)(size_t)&counter ^ (unsigned long)time(NULL) ^ ((unsigned long)clock() << 16);
    if (!dir || !*dir) dir = getenv("TMP");
    if (!dir || !*dir) dir = getenv("TEMP");
    if (!dir || !*dir) dir = "/tmp";
    /* the pid too: CI runs the ASan and valgrind runners at once */
    snprintf(buf, cap, "%s/lcl_test_mm_%ld_%lx_%u_%s.mtx", dir, (long)getpid(), salt, counter++, tag);
}

static uint64_t rng_next(uint64_t *s)   /* xorshift64* */
{
    uint64_t x = *s;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    *s = x;
    return x * UINT64_C(2685821657736338717);
}

static double bits_to_double(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }
static uint64_t double_bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }

static double rand_finite_double(uint64_t *s)
{
    for (;;) {
        double d = bits_to_double(rng_next(s));
        if (d == d && d - d == 0.0) return d;   /* not NaN, not Inf */
    }
}

static float rand_finite_float(uint64_t *s)
{
    for (;;) {
        uint32_t b = (uint32_t)(rng_next(s) >> 32);
        float f;
        memcpy(&f, &b, sizeof f);
        if (f == f && f - f == 0.0f) return f;
    }
}

/* bit-identical doubles (so -0 != 0, and a NaN equals itself) */
static int same_bits(double a, double b) { return double_bits(a) == double_bits(b); }

static double coo_val(const lcl_coo *m, int64_t k)
{
    return m->dtype == LCL_F32 ? (double)((const float *)m->val)[k] : ((const double *)m->val)[k];
}

static int coo_is_canonical(const lcl_coo *m)
{
    int64_t k;
    if (m->nnz < 0) return 0;
    if (m->nnz > 0 && (!m->row || !m->col || !m->val)) return 0;
    for (k = 0; k < m->nnz; k++) {
        if (m->row[k] < 0 || m->row[k] >= m->rows || m->col[k] < 0 || m->col[k] >= m->cols) return 0;
        if (k > 0 && (m->row[k - 1] > m->row[k] || (m->row[k - 1] == m->row[k] && m->col[k - 1] >= m->col[k])))
            return 0;
    }
    return 1;
}

/* exact equality: dtype, shape, nnz, indices and value bits */
static int coo_equal_exact(const lcl_coo *a, const lcl_coo *b)
{
    size_t es;
    if (a->dtype != b->dtype || a->rows != b->rows || a->cols != b->cols || a->nnz != b->nnz) return 0;
    if (a->nnz == 0) return 1;
    es = a->dtype == LCL_F32 ? sizeof(float) : sizeof(double);
    return memcmp(a->row, b->row, (size_t)a->nnz * sizeof(int32_t)) == 0 &&
           memcmp(a->col, b->col, (size_t)a->nnz * sizeof(int32_t)) == 0 &&
           memcmp(a->val, b->val, (size_t)a->nnz * es) == 0;
}

typedef struct trip { int32_t r, c; double v; } trip;

static int trip_cmp(const void *pa, const void *pb)
{
    const trip *a = (const trip *)pa, *b = (const trip *)pb;
    if (a->r != b->r) return a->r < b->r ? -1 : 1;
    if (a->c != b->c) return a->c < b->c ? -1 : 1;
    return 0;
}

/* sort, sum duplicates (in file order: qsort is not stable, so sums of more than two
   duplicates could differ in the last bit; the data here has pairs at most) */
static int64_t trips_canon(trip *t, int64_t n)
{
    int64_t i, o = 0;
    if (n <= 0) return 0;
    qsort(t, (size_t)n, sizeof *t, trip_cmp);
    for (i = 1; i < n; i++) {
        if (t[i].r == t[o].r && t[i].c == t[o].c) t[o].v += t[i].v;
        else t[++o] = t[i];
    }
    return o + 1;
}

/* COO == canonical triplets, values bit-identical (F32: the triplet value rounded to float) */
static int coo_matches_trips(const lcl_coo *m, const trip *t, int64_t n, const char *what)
{
    int64_t k;
    if (m->nnz != n) {
        fprintf(stderr, "  %s: nnz %lld, want %lld\n", what, (long long)m->nnz, (long long)n);
        return 0;
    }
    for (k = 0; k < n; k++) {
        double want = m->dtype == LCL_F32 ? (double)(float)t[k].v : t[k].v;
        if (m->row[k] != t[k].r || m->col[k] != t[k].c || !same_bits(coo_val(m, k), want)) {
            fprintf(stderr, "  %s: entry %lld is (%d,%d,%.17g), want (%d,%d,%.17g)\n", what, (long long)k,
                    (int)m->row[k], (int)m->col[k], coo_val(m, k), (int)t[k].r, (int)t[k].c, want);
            return 0;
        }
    }
    return 1;
}

static trip *coo_to_trips(const lcl_coo *m)
{
    int64_t k;
    trip *t = (trip *)malloc((size_t)(m->nnz > 0 ? m->nnz : 1) * sizeof *t);
    if (!t) return NULL;
    for (k = 0; k < m->nnz; k++) { t[k].r = m->row[k]; t[k].c = m->col[k]; t[k].v = coo_val(m, k); }
    return t;
}

/* ------------------------------------------------------------------------------------------ */
/* an independent, deliberately simple Matrix Market reader for the shared (well-formed) files */

typedef struct ref_mm {
    int64_t rows, cols, stored;
    int symmetric, skew, pattern;
    trip *t;            /* the stored entries, 0-based, in file order */
} ref_mm;

static int ref_read(const char *path, ref_mm *out)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int lineno = 0, have_size = 0;
    int64_t k = 0;
    memset(out, 0, sizeof *out);
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line, *e;
        lineno++;
        if (lineno == 1) {
            char low[256];
            size_t i;
            for (i = 0; line[i] && i + 1 < sizeof low; i++) low[i] = (char)lower_c((unsigned char)line[i]);
            low[i] = 0;
            out->skew = strstr(low, "skew-symmetric") != NULL;
            out->symmetric = !out->skew && strstr(low, "symmetric") != NULL;
            out->pattern = strstr(low, "pattern") != NULL;
            continue;
        }
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '%' || *p == '\n' || *p == '\r' || *p == 0) continue;
        if (!have_size) {
            long long r, c, n;
            if (sscanf(p, "%lld %lld %lld", &r, &c, &n) != 3) break;
            out->rows = r; out->cols = c; out->stored = n;
            out->t = (trip *)malloc((size_t)(n > 0 ? n : 1) * sizeof(trip));
            if (!out->t) break;
            have_size = 1;
            continue;
        }
        if (k >= out->stored) { k = -1; break; }
        out->t[k].r = (int32_t)(strtol(p, &e, 10) - 1); p = e;
        out->t[k].c = (int32_t)(strtol(p, &e, 10) - 1); p = e;
        out->t[k].v = out->pattern ? 1.0 : strtod(p, &e);
        k++;
    }
    fclose(f);
    if (!have_size || k != out->stored) { free(out->t); out->t = NULL; return 0; }
    return 1;
}

/* canonical copy of the stored entries, optionally mirrored */
static trip *ref_canon(const ref_mm *r, int expand, int64_t *n)
{
    int64_t k, m = 0;
    trip *t = (trip *)malloc((size_t)(2 * r->stored + 1) * sizeof *t);
    if (!t) { *n = 0; return NULL; }
    for (k = 0; k < r->stored; k++) {
        t[m++] = r->t[k];
        if (expand && (r->symmetric || r->skew) && r->t[k].r != r->t[k].c) {
            t[m].r = r->t[k].c; t[m].c = r->t[k].r; t[m].v = r->skew ? -r->t[k].v : r->t[k].v;
            m++;
        }
    }
    *n = trips_canon(t, m);
    return t;
}

/* ------------------------------------------------------------------------------------------ */
/* the bad corpus                                                                               */

static int status_from_name(const char *s, lcl_status *out)
{
    static const struct { const char *name; lcl_status st; } names[] = {
        {"LCL_OK", LCL_OK}, {"LCL_ERR_INVALID_ARGUMENT", LCL_ERR_INVALID_ARGUMENT},
        {"LCL_ERR_OUT_OF_MEMORY", LCL_ERR_OUT_OF_MEMORY}, {"LCL_ERR_IO", LCL_ERR_IO},
        {"LCL_ERR_PARSE", LCL_ERR_PARSE}, {"LCL_ERR_UNSUPPORTED", LCL_ERR_UNSUPPORTED},
        {"LCL_ERR_OVERFLOW", LCL_ERR_OVERFLOW}, {"LCL_ERR_DIMENSION", LCL_ERR_DIMENSION},
        {"LCL_ERR_NAN", LCL_ERR_NAN}, {"LCL_ERR_INTERNAL", LCL_ERR_INTERNAL}
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, s) == 0) { *out = names[i].st; return 1; }
    return 0;
}

/* status, "PREFIX:LINE:" and the substring */
static void check_error(const lcl_context *ctx, lcl_status got, lcl_status want, const char *prefix,
                        int line, const char *sub, const char *what)
{
    char needle[600];
    const char *msg = msg_of(ctx), *at;
    snprintf(needle, sizeof needle, "%s:%d:", prefix, line);
    CHECK_MSG(got == want, "%s: status %s, want %s (%s)", what, lcl_status_string(got),
              lcl_status_string(want), msg);
    at = strstr(msg, needle);
    CHECK_MSG(at != NULL, "%s: message \"%s\" does not name \"%s\"", what, msg, needle);
    /* the fragment must be in the text after "PATH:LINE:" (file names here contain such words) */
    CHECK_MSG(at && icontains(at + strlen(needle), sub), "%s: message \"%s\" lacks \"%s\"", what, msg, sub);
}

static void test_mm_bad_corpus(void)
{
    FILE *f = fopen(LT_DATA "/bad/manifest.txt", "r");
    lcl_context *ctx = mk_ctx();
    char line[512];
    int count = 0;
    CHECK_MSG(f != NULL, "cannot open %s", LT_DATA "/bad/manifest.txt");
    if (!f) { lcl_context_destroy(ctx); return; }
    while (fgets(line, sizeof line, f)) {
        char name[128], stname[64], path[300], what[400];
        int ln = 0, pos = 0;
        size_t n = strlen(line), len = 0;
        const char *sub;
        char *bytes;
        lcl_status want, st;
        lcl_coo A;
        lcl_dense D;
        lcl_mm_info info;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
        if (n == 0 || line[0] == '#') continue;
        if (sscanf(line, "%127s %63s %d %n", name, stname, &ln, &pos) != 3 || pos == 0 || !line[pos]) {
            CHECK_MSG(0, "malformed manifest line \"%s\"", line);
            continue;
        }
        sub = line + pos;
        if (!status_from_name(stname, &want)) { CHECK_MSG(0, "unknown status in \"%s\"", line); continue; }
        count++;
        snprintf(path, sizeof path, LT_DATA "/bad/%s", name);

        /* from the file */
        memset(&A, 0, sizeof A);
        snprintf(what, sizeof what, "lcl_mm_read(%s)", name);
        st = lcl_mm_read(ctx, path, LCL_F64, LCL_MM_EXPAND, &A, &info);
        check_error(ctx, st, want, path, ln, sub, what);
        coo_release(&A);

        memset(&A, 0, sizeof A);
        snprintf(what, sizeof what, "lcl_mm_read(%s, F32, no expand)", name);
        st = lcl_mm_read(ctx, path, LCL_F32, 0, &A, NULL);
        check_error(ctx, st, want, path, ln, sub, what);
        coo_release(&A);

        /* the same bytes from memory (a buffer of exactly the file's size) */
        bytes = slurp(path, &len);
        CHECK_MSG(bytes != NULL, "cannot read %s", path);
        if (bytes) {
            memset(&A, 0, sizeof A);
            snprintf(what, sizeof what, "lcl_mm_read_mem(%s)", name);
            st = lcl_mm_read_mem(ctx, bytes, len, LCL_F64, LCL_MM_EXPAND, &A, NULL);
            check_error(ctx, st, want, "<memory>", ln, sub, what);
            coo_release(&A);
            free(bytes);
        }

        /* the dense reader shares the parser: same status and line */
        memset(&D, 0, sizeof D);
        st = lcl_mm_read_dense(ctx, path, LCL_F64, LCL_COL_MAJOR, LCL_MM_EXPAND, &D, NULL);
        snprintf(what, sizeof what, "lcl_mm_read_dense(%s)", name);
        check_error(ctx, st, want, path, ln, sub, what);
        dense_release(&D);

        /* without a context only the status tells; it must not crash */
        memset(&A, 0, sizeof A);
        st = lcl_mm_read(NULL, path, LCL_F64, 0, &A, NULL);
        CHECK_MSG(st == want, "lcl_mm_read(NULL ctx, %s): %s, want %s", name, lcl_status_string(st),
                  lcl_status_string(want));
        coo_release(&A);
    }
    fclose(f);
    CHECK_MSG(count >= 30, "manifest lists only %d files", count);
    lcl_context_destroy(ctx);
}

static void test_mm_complex_message(void)
{
    lcl_context *ctx = mk_ctx();
    lcl_coo A;
    memset(&A, 0, sizeof A);
    CHECK_STATUS(ctx, lcl_mm_read(ctx, LT_DATA "/bad/complex.mtx", LCL_F64, 0, &A, NULL), LCL_ERR_UNSUPPORTED);
    CHECK_MSG(icontains(msg_of(ctx), "complex") && icontains(msg_of(ctx), "not supported"),
              "message \"%s\"", msg_of(ctx));
    coo_release(&A);
    lcl_context_destroy(ctx);
}

/* ------------------------------------------------------------------------------------------ */
/* the good files                                                                               */

typedef struct good_case {
    const char *file;
    lcl_mm_format format;
    lcl_mm_field field;
    lcl_mm_symmetry symmetry;
    int rows, cols;
    int64_t entries;                /* stored in the file */
    int64_t nnz_plain, nnz_expanded;/* canonical COO nnz without / with LCL_MM_EXPAND; -1 = not checked */
    const double *full;             /* the whole (expanded) matrix, row-major; NULL when empty */
} good_case;

static const double g_crlf[] = { 1.5, 0.25, 0, 0, 0, -2 };
static const double g_comments[] = { 1, 0, 0, 0, 2, 0, -4, 0, 3 };
static const double g_upper[] = { 4, -1, 0, -1, 0, 0.5, 0, 0.5, 0 };
static const double g_tabs[] = { 0, 7.5, -1, 0 };
static const double g_dups[] = { 3.75, 0, 3, 0.5 };
static const double g_one[] = { -7.25 };
static const double g_zero12[12] = { 0 };
static const double g_arr[] = { 1, 4, -0.0, 0, 3, 6 };
static const double g_arr_sym[] = { 1, 2, 3, 2, 4, 5, 3, 5, 6 };
static const double g_arr_skew[] = { 0, -1, -2, 1, 0, -3, 2, 3, 0 };
static const double g_arr_int[] = { 1, 3, 2, 4 };
static const double g_arr_sym2[] = { 1, 2, 2, 3 };
static const double g_skew[] = { 0, -2, 1.5, 2, 0, -4, -1.5, 4, 0 };
static const double g_pat[] = { 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0 };
static const double g_pat_sym[] = { 1, 0, 1, 0, 0, 1, 1, 1, 0 };
static const double g_int[] = { 7, 12, -3, 2147483647.0 };
static const double g_forms[] = { 1, -0.0, 100, 1e-3, 0.5, 3, -0.25, 2.5 };
static const double g_symdiag[] = { 2, 0, -1, 0, 0, 3, 0, 0.75, -1, 0, 0, 0, 0, 0.75, 0, 1 };
static const double g_diag12[] = { 1, 0, 0, 2 };
static const double g_dupx[] = { 3.5 };

static const good_case good_cases[] = {
    { "crlf.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 2, 3, 3, 3, 3, g_crlf },
    { "comments_blank.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 3, 3, 4, 4, 4, g_comments },
    { "uppercase_banner.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_SYMMETRIC, 3, 3, 3, 3, 5, g_upper },
    { "tabs.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 2, 2, 2, 2, 2, g_tabs },
    { "duplicates.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 2, 2, 5, 3, 3, g_dups },
    { "one_by_one.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 1, 1, 1, 1, 1, g_one },
    { "empty_0x0.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 0, 0, 0, 0, 0, NULL },
    { "empty_rect.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 3, 4, 0, 0, 0, g_zero12 },
    { "array_general.mtx", LCL_MM_ARRAY, LCL_MM_REAL, LCL_MM_GENERAL, 3, 2, 6, 6, 6, g_arr },
    { "array_symmetric.mtx", LCL_MM_ARRAY, LCL_MM_REAL, LCL_MM_SYMMETRIC, 3, 3, 6, 6, 9, g_arr_sym },
    { "array_skew.mtx", LCL_MM_ARRAY, LCL_MM_REAL, LCL_MM_SKEW_SYMMETRIC, 3, 3, 3, 3, -1, g_arr_skew },
    { "array_integer.mtx", LCL_MM_ARRAY, LCL_MM_INTEGER, LCL_MM_GENERAL, 2, 2, 4, 4, 4, g_arr_int },
    { "array_symmetric_crlf.mtx", LCL_MM_ARRAY, LCL_MM_REAL, LCL_MM_SYMMETRIC, 2, 2, 3, 3, 4, g_arr_sym2 },
    { "skew_coord.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_SKEW_SYMMETRIC, 3, 3, 3, 3, 6, g_skew },
    { "pattern.mtx", LCL_MM_COORDINATE, LCL_MM_PATTERN, LCL_MM_GENERAL, 3, 4, 4, 4, 4, g_pat },
    { "pattern_symmetric.mtx", LCL_MM_COORDINATE, LCL_MM_PATTERN, LCL_MM_SYMMETRIC, 3, 3, 3, 3, 5, g_pat_sym },
    { "integer.mtx", LCL_MM_COORDINATE, LCL_MM_INTEGER, LCL_MM_GENERAL, 2, 2, 4, 4, 4, g_int },
    { "number_forms.mtx", LCL_MM_ARRAY, LCL_MM_REAL, LCL_MM_GENERAL, 2, 4, 8, 8, 8, g_forms },
    { "symmetric_diag.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_SYMMETRIC, 4, 4, 5, 5, 7, g_symdiag },
    { "no_trailing_newline.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 2, 2, 2, 2, 2, g_diag12 },
    { "dup_exceeds.mtx", LCL_MM_COORDINATE, LCL_MM_REAL, LCL_MM_GENERAL, 1, 1, 3, 1, 1, g_dupx },
};
#define N_GOOD ((int)(sizeof good_cases / sizeof good_cases[0]))

/* the expected value at (i, j) as read with these flags and dtype */
static double good_expect(const good_case *g, int i, int j, int expand, lcl_dtype dt)
{
    double v = g->full[(size_t)i * (size_t)g->cols + (size_t)j];
    if (!expand && g->symmetry != LCL_MM_GENERAL && i < j) v = 0.0;   /* only the lower triangle is stored */
    return dt == LCL_F32 ? (double)(float)v : v;
}

static void check_info(const good_case *g, const lcl_mm_info *info, const char *what)
{
    CHECK_MSG(info->format == g->format && info->field == g->field && info->symmetry == g->symmetry,
              "%s: info format/field/symmetry %d/%d/%d, want %d/%d/%d", what, (int)info->format,
              (int)info->field, (int)info->symmetry, (int)g->format, (int)g->field, (int)g->symmetry);
    CHECK_MSG(info->rows == g->rows && info->cols == g->cols && info->entries == g->entries,
              "%s: info %lldx%lld entries %lld, want %dx%d entries %lld", what, (long long)info->rows,
              (long long)info->cols, (long long)info->entries, g->rows, g->cols, (long long)g->entries);
}

static void check_good_coo(const good_case *g, const lcl_coo *A, int expand, lcl_dtype dt, const char *what)
{
    int64_t k, want_nnz = expand ? g->nnz_expanded : g->nnz_plain;
    double *got;
    char *seen;
    int i, j, cells = g->rows * g->cols;
    CHECK_MSG(A->dtype == dt && A->rows == g->rows && A->cols == g->cols, "%s: dtype %d %lldx%lld", what,
              (int)A->dtype, (long long)A->rows, (long long)A->cols);
    CHECK_MSG(coo_is_canonical(A), "%s: not canonical (sorted, unique, in range)", what);
    if (want_nnz >= 0) CHECK_MSG(A->nnz == want_nnz, "%s: nnz %lld, want %lld", what, (long long)A->nnz, (long long)want_nnz);
    if (!coo_is_canonical(A) || A->rows != g->rows || A->cols != g->cols) return;
    got = (double *)calloc((size_t)(cells > 0 ? cells : 1), sizeof *got);
    seen = (char *)calloc((size_t)(cells > 0 ? cells : 1), 1);
    if (!got || !seen) { free(got); free(seen); CHECK(0); return; }
    for (k = 0; k < A->nnz; k++) {
        got[A->row[k] * g->cols + A->col[k]] = coo_val(A, k);
        seen[A->row[k] * g->cols + A->col[k]] = 1;
    }
    for (i = 0; i < g->rows; i++)
        for (j = 0; j < g->cols; j++) {
            double want = good_expect(g, i, j, expand, dt), v = got[i * g->cols + j];
            /* a stored entry must match bit for bit (-0 stays -0); a missing one must be zero */
            int ok = seen[i * g->cols + j] ? same_bits(v, want) : want == 0.0;
            CHECK_MSG(ok, "%s: (%d,%d) = %.17g%s, want %.17g", what, i, j, v,
                      seen[i * g->cols + j] ? "" : " (absent)", want);
        }
    free(got);
    free(seen);
}

static void check_good_dense(const good_case *g, const lcl_dense *D, lcl_layout layout, int expand, lcl_dtype dt,
                             const char *what)
{
    int i, j;
    CHECK_MSG(D->dtype == dt && D->layout == layout && D->rows == g->rows && D->cols == g->cols,
              "%s: dense dtype %d layout %d %lldx%lld", what, (int)D->dtype, (int)D->layout, (long long)D->rows,
              (long long)D->cols);
    CHECK_MSG(D->ld >= (layout == LCL_COL_MAJOR ? D->rows : D->cols), "%s: ld %lld too small", what, (long long)D->ld);
    if (D->rows != g->rows || D->cols != g->cols || (g->rows * g->cols > 0 && !D->data)) return;
    for (i = 0; i < g->rows; i++)
        for (j = 0; j < g->cols; j++) {
            double v = lcl_dense_get(D, i, j), want = good_expect(g, i, j, expand, dt);
            int ok = want == 0.0 && g->format == LCL_MM_COORDINATE ? v == 0.0 : same_bits(v, want);
            CHECK_MSG(ok, "%s: (%d,%d) = %.17g, want %.17g", what, i, j, v, want);
        }
}

static void test_mm_good_files(void)
{
    lcl_context *ctx = mk_ctx();
    int gi, e, t, s, l;
    for (gi = 0; gi < N_GOOD; gi++) {
        const good_case *g = &good_cases[gi];
        char path[300], what[400];
        size_t len = 0;
        char *bytes;
        lcl_mm_info info;
        snprintf(path, sizeof path, LT_DATA "/good/%s", g->file);
        bytes = slurp(path, &len);
        CHECK_MSG(bytes != NULL, "cannot read %s", path);

        memset(&info, 0xff, sizeof info);
        CHECK_OK(ctx, lcl_mm_read_info(ctx, path, &info));
        snprintf(what, sizeof what, "lcl_mm_read_info(%s)", g->file);
        check_info(g, &info, what);

        for (e = 0; e < 2; e++)                      /* e: LCL_MM_EXPAND or not */
            for (t = 0; t < 2; t++) {                /* t: F64, F32 */
                lcl_dtype dt = t ? LCL_F32 : LCL_F64;
                for (s = 0; s < 2; s++) {            /* s: file, memory */
                    lcl_coo A;
                    lcl_status st;
                    memset(&A, 0, sizeof A);
                    memset(&info, 0xff, sizeof info);
                    snprintf(what, sizeof what, "%s(%s, %s, %s)", s ? "lcl_mm_read_mem" : "lcl_mm_read", g->file,
                             t ? "F32" : "F64", e ? "EXPAND" : "0");
                    if (s == 0) st = lcl_mm_read(ctx, path, dt, e ? LCL_MM_EXPAND : 0, &A, &info);
                    else if (bytes) st = lcl_mm_read_mem(ctx, bytes, len, dt, e ? LCL_MM_EXPAND : 0, &A, &info);
                    else continue;
                    CHECK_MSG(st == LCL_OK, "%s: %s: %s", what, lcl_status_string(st), msg_of(ctx));
                    if (st == LCL_OK) {
                        check_info(g, &info, what);
                        check_good_coo(g, &A, e, dt, what);
                    }
                    coo_release(&A);
                }
                for (l = 0; l < 2; l++) {            /* l: column-, row-major */
                    lcl_layout lay = l ? LCL_ROW_MAJOR : LCL_COL_MAJOR;
                    lcl_dense D;
                    lcl_status st;
                    memset(&D, 0, sizeof D);
                    snprintf(what, sizeof what, "lcl_mm_read_dense(%s, %s, %s, %s)", g->file, t ? "F32" : "F64",
                             l ? "row-major" : "col-major", e ? "EXPAND" : "0");
                    st = lcl_mm_read_dense(ctx, path, dt, lay, e ? LCL_MM_EXPAND : 0, &D, &info);
                    CHECK_MSG(st == LCL_OK, "%s: %s: %s", what, lcl_status_string(st), msg_of(ctx));
                    if (st == LCL_OK) {
                        check_info(g, &info, what);
                        check_good_dense(g, &D, lay, e, dt, what);
                    }
                    dense_release(&D);
                }
            }
        free(bytes);
    }
    lcl_context_destroy(ctx);
}

/* ------------------------------------------------------------------------------------------ */
/* the real matrices (tests/data/matrices; the two large ones only from $LCL_SHARED/matrices)  */

static const struct shared_mat {
    const char *name;
    int rows, cols;
    int64_t stored;
    lcl_mm_field field;
    lcl_mm_symmetry symmetry;
    int optional;   /* not shipped: tested when $LCL_SHARED/matrices has it */
} shared_mats[] = {
    { "impcol_a", 207, 207, 572, LCL_MM_REAL, LCL_MM_GENERAL, 0 },
    { "west0067", 67, 67, 299, LCL_MM_REAL, LCL_MM_GENERAL, 0 },       /* has 5 duplicated entries */
    { "fs_183_1", 183, 183, 1069, LCL_MM_REAL, LCL_MM_GENERAL, 0 },    /* has explicit zeros */
    { "arrow", 100, 100, 298, LCL_MM_INTEGER, LCL_MM_GENERAL, 0 },
    { "ibm32a", 32, 31, 123, LCL_MM_REAL, LCL_MM_GENERAL, 0 },
    { "ash219", 219, 85, 438, LCL_MM_REAL, LCL_MM_GENERAL, 0 },
    { "mbeacxc", 492, 490, 49920, LCL_MM_REAL, LCL_MM_GENERAL, 1 },
    { "bcsstk01", 48, 48, 224, LCL_MM_REAL, LCL_MM_SYMMETRIC, 0 },
    { "bcsstk16", 4884, 4884, 147631, LCL_MM_REAL, LCL_MM_SYMMETRIC, 1 },
    { "LFAT5", 14, 14, 30, LCL_MM_REAL, LCL_MM_SYMMETRIC, 0 },
    { "LF10", 18, 18, 82, LCL_MM_REAL, LCL_MM_GENERAL, 0 },
    { "mesh1e1", 48, 48, 306, LCL_MM_REAL, LCL_MM_GENERAL, 0 },
    { "Trefethen_500", 500, 500, 8478, LCL_MM_REAL, LCL_MM_GENERAL, 0 },
};
#define N_SHARED ((int)(sizeof shared_mats / sizeof shared_mats[0]))

/* the file of matrix NAME; 0 for an optional one that is absent (a shipped one that is missing
   fails where it is read) */
static int shared_path(char *buf, size_t cap, const char *name, int optional)
{
    char file[64];
    snprintf(file, sizeof file, "%s.mtx", name);
    if (optional) return lt_matrix_optional(buf, cap, file);
    lt_matrix_path(buf, cap, file);
    return 1;
}

static void test_mm_shared_load(void)
{
    lcl_context *ctx = mk_ctx();
    int mi, e, t;
    for (mi = 0; mi < N_SHARED; mi++) {
        const struct shared_mat *sm = &shared_mats[mi];
        char path[1024], what[1200];
        ref_mm ref;
        lcl_mm_info info;
        size_t len = 0;
        char *bytes;
        if (!shared_path(path, sizeof path, sm->name, sm->optional)) continue;
        CHECK_MSG(ref_read(path, &ref), "reference reader failed on %s", path);
        if (!ref.t) continue;
        CHECK_MSG(ref.rows == sm->rows && ref.cols == sm->cols && ref.stored == sm->stored,
                  "%s: the file disagrees with the README", sm->name);

        memset(&info, 0xff, sizeof info);
        CHECK_OK(ctx, lcl_mm_read_info(ctx, path, &info));
        CHECK_MSG(info.format == LCL_MM_COORDINATE && info.field == sm->field && info.symmetry == sm->symmetry &&
                  info.rows == sm->rows && info.cols == sm->cols && info.entries == sm->stored,
                  "lcl_mm_read_info(%s): %d/%d/%d %lldx%lld entries %lld", sm->name, (int)info.format,
                  (int)info.field, (int)info.symmetry, (long long)info.rows, (long long)info.cols,
                  (long long)info.entries);

        bytes = slurp(path, &len);
        for (e = 0; e < 2; e++) {
            int64_t n;
            trip *want = ref_canon(&ref, e, &n);
            for (t = 0; t < 2; t++) {
                lcl_coo A, B;
                lcl_status st;
                memset(&A, 0, sizeof A);
                memset(&info, 0xff, sizeof info);
                snprintf(what, sizeof what, "lcl_mm_read(%s, %s, %s)", sm->name, t ? "F32" : "F64", e ? "EXPAND" : "0");
                st = lcl_mm_read(ctx, path, t ? LCL_F32 : LCL_F64, e ? LCL_MM_EXPAND : 0, &A, &info);
                CHECK_MSG(st == LCL_OK, "%s: %s: %s", what, lcl_status_string(st), msg_of(ctx));
                if (st != LCL_OK) { coo_release(&A); continue; }
                CHECK_MSG(info.rows == sm->rows && info.cols == sm->cols && info.entries == sm->stored,
                          "%s: info %lldx%lld entries %lld", what, (long long)info.rows, (long long)info.cols,
                          (long long)info.entries);
                CHECK_MSG(A.rows == sm->rows && A.cols == sm->cols, "%s: %lldx%lld", what, (long long)A.rows,
                          (long long)A.cols);
                CHECK_MSG(coo_is_canonical(&A), "%s: not canonical", what);
                if (want) CHECK_MSG(coo_matches_trips(&A, want, n, what), "%s: differs from the reference reader", what);
                /* the same bytes through lcl_mm_read_mem give the same matrix */
                if (bytes) {
                    memset(&B, 0, sizeof B);
                    st = lcl_mm_read_mem(ctx, bytes, len, t ? LCL_F32 : LCL_F64, e ? LCL_MM_EXPAND : 0, &B, NULL);
                    CHECK_MSG(st == LCL_OK, "mem %s: %s: %s", what, lcl_status_string(st), msg_of(ctx));
                    if (st == LCL_OK) CHECK_MSG(coo_equal_exact(&A, &B), "mem %s: differs from the file read", what);
                    coo_release(&B);
                }
                coo_release(&A);
            }
            free(want);
        }
        free(bytes);
        free(ref.t);
    }
    lcl_context_destroy(ctx);
}

/* write m, read it back with these flags, compare with want exactly */
static void roundtrip_check(lcl_context *ctx, const lcl_coo *m, lcl_mm_symmetry sym, int flags, const lcl_coo *want,
                            const char *what)
{
    char tmp[512];
    lcl_coo B;
    lcl_mm_info info;
    lcl_status st;
    tmp_path(tmp, sizeof tmp, "rt");
    st = lcl_mm_write(ctx, tmp, m, sym);
    CHECK_MSG(st == LCL_OK, "%s: lcl_mm_write: %s: %s", what, lcl_status_string(st), msg_of(ctx));
    if (st != LCL_OK) { remove(tmp); return; }
    memset(&B, 0, sizeof B);
    memset(&info, 0xff, sizeof info);
    st = lcl_mm_read(ctx, tmp, want->dtype, flags, &B, &info);
    CHECK_MSG(st == LCL_OK, "%s: read back: %s: %s", what, lcl_status_string(st), msg_of(ctx));
    if (st == LCL_OK) {
        CHECK_MSG(info.format == LCL_MM_COORDINATE && info.field == LCL_MM_REAL && info.symmetry == sym,
                  "%s: written header reads as %d/%d/%d", what, (int)info.format, (int)info.field, (int)info.symmetry);
        CHECK_MSG(coo_equal_exact(&B, want), "%s: not equal after the round trip (nnz %lld vs %lld)", what,
                  (long long)B.nnz, (long long)want->nnz);
    }
    coo_release(&B);
    remove(tmp);
}

static void test_mm_shared_roundtrip(void)
{
    lcl_context *ctx = mk_ctx();
    int mi, t;
    for (mi = 0; mi < N_SHARED; mi++) {
        const struct shared_mat *sm = &shared_mats[mi];
        char path[1024], what[1200];
        if (!shared_path(path, sizeof path, sm->name, sm->optional)) continue;
        if (lt_valgrind() && sm->stored > 10000) continue;   /* 20 s of memcheck; the small ones take the same paths */
        for (t = 0; t < 2; t++) {
            lcl_dtype dt = t ? LCL_F32 : LCL_F64;
            lcl_coo X, P;   /* expanded, plain (stored triangle) */
            memset(&X, 0, sizeof X);
            memset(&P, 0, sizeof P);
            CHECK_OK(ctx, lcl_mm_read(ctx, path, dt, LCL_MM_EXPAND, &X, NULL));
            CHECK_OK(ctx, lcl_mm_read(ctx, path, dt, 0, &P, NULL));
            snprintf(what, sizeof what, "%s %s expanded as general", sm->name, t ? "F32" : "F64");
            if (X.rows == sm->rows) roundtrip_check(ctx, &X, LCL_MM_GENERAL, 0, &X, what);
            if (sm->symmetry == LCL_MM_SYMMETRIC && X.rows == sm->rows && P.rows == sm->rows) {
                snprintf(what, sizeof what, "%s %s stored triangle as symmetric", sm->name, t ? "F32" : "F64");
                roundtrip_check(ctx, &P, LCL_MM_SYMMETRIC, 0, &P, what);
                snprintf(what, sizeof what, "%s %s stored triangle as symmetric, read expanded", sm->name, t ? "F32" : "F64");
                roundtrip_check(ctx, &P, LCL_MM_SYMMETRIC, LCL_MM_EXPAND, &X, what);
                /* the writer drops the upper triangle of a full matrix */
                snprintf(what, sizeof what, "%s %s full matrix as symmetric", sm->name, t ? "F32" : "F64");
                roundtrip_check(ctx, &X, LCL_MM_SYMMETRIC, 0, &P, what);
            }
            coo_release(&X);
            coo_release(&P);
        }
    }
    lcl_context_destroy(ctx);
}

/* transpose of a canonical COO, as canonical triplets (negated for skew) */
static int coo_is_transpose_of_itself(const lcl_coo *A, double sign)
{
    int64_t k, n;
    int ok = 1;
    trip *t = coo_to_trips(A);
    if (!t) return 0;
    for (k = 0; k < A->nnz; k++) { int32_t r = t[k].r; t[k].r = t[k].c; t[k].c = r; t[k].v *= sign; }
    n = trips_canon(t, A->nnz);
    if (n != A->nnz) ok = 0;
    for (k = 0; ok && k < n; k++)
        if (t[k].r != A->row[k] || t[k].c != A->col[k] || !same_bits(t[k].v, coo_val(A, k))) ok = 0;
    free(t);
    return ok;
}

static void test_mm_expansion(void)
{
    lcl_context *ctx = mk_ctx();
    int mi;
    for (mi = 0; mi < N_SHARED; mi++) {
        const struct shared_mat *sm = &shared_mats[mi];
        char path[1024];
        lcl_coo X, P;
        int64_t k, diag = 0;
        if (sm->symmetry != LCL_MM_SYMMETRIC || !shared_path(path, sizeof path, sm->name, sm->optional)) continue;
        memset(&X, 0, sizeof X);
        memset(&P, 0, sizeof P);
        CHECK_OK(ctx, lcl_mm_read(ctx, path, LCL_F64, 0, &P, NULL));
        CHECK_OK(ctx, lcl_mm_read(ctx, path, LCL_F64, LCL_MM_EXPAND, &X, NULL));
        CHECK_MSG(P.nnz == sm->stored, "%s: unexpanded nnz %lld, want %lld", sm->name, (long long)P.nnz, (long long)sm->stored);
        for (k = 0; k < P.nnz; k++) {
            if (P.row[k] == P.col[k]) diag++;
            CHECK_MSG(P.row[k] >= P.col[k], "%s: unexpanded entry (%d,%d) is above the diagonal", sm->name,
                      (int)P.row[k], (int)P.col[k]);
            if (P.row[k] < P.col[k]) break;
        }
        CHECK_MSG(diag > 0 && X.nnz == 2 * sm->stored - diag, "%s: expanded nnz %lld, want 2*%lld-%lld", sm->name,
                  (long long)X.nnz, (long long)sm->stored, (long long)diag);
        CHECK_MSG(coo_is_canonical(&X) && coo_is_transpose_of_itself(&X, 1.0), "%s: expanded matrix is not symmetric",
                  sm->name);

        /* a skew-symmetric file made from the strict lower triangle */
        if (P.nnz > 0) {
            lcl_coo S, SX;
            char tmp[512];
            int64_t strict = 0;
            memset(&S, 0, sizeof S);
            memset(&SX, 0, sizeof SX);
            CHECK_OK(ctx, lcl_coo_alloc(ctx, &S, LCL_F64, P.rows, P.cols, 0));
            for (k = 0; k < P.nnz; k++)
                if (P.row[k] > P.col[k]) { CHECK_OK(ctx, lcl_coo_push(ctx, &S, P.row[k], P.col[k], coo_val(&P, k))); strict++; }
            tmp_path(tmp, sizeof tmp, "skew");
            CHECK_OK(ctx, lcl_mm_write(ctx, tmp, &S, LCL_MM_SKEW_SYMMETRIC));
            CHECK_OK(ctx, lcl_mm_read(ctx, tmp, LCL_F64, LCL_MM_EXPAND, &SX, NULL));
            CHECK_MSG(SX.nnz == 2 * strict, "%s skew: expanded nnz %lld, want %lld", sm->name, (long long)SX.nnz,
                      (long long)(2 * strict));
            CHECK_MSG(coo_is_canonical(&SX) && coo_is_transpose_of_itself(&SX, -1.0),
                      "%s skew: expanded matrix is not skew-symmetric", sm->name);
            remove(tmp);
            coo_release(&S);
            coo_release(&SX);
        }
        coo_release(&X);
        coo_release(&P);
    }
    lcl_context_destroy(ctx);
}

/* ------------------------------------------------------------------------------------------ */
/* dense reading and writing                                                                    */

/* lcl_mm_read_dense of a file vs the dense matrix built from the reference triplets */
static void dense_vs_ref(lcl_context *ctx, const char *name, int expand)
{
    char path[1024], what[1200];
    ref_mm ref;
    int64_t n, k;
    int t, l;
    trip *want;
    double *full;
    shared_path(path, sizeof path, name, 0);
    if (!ref_read(path, &ref)) { CHECK_MSG(0, "reference reader failed on %s", path); return; }
    want = ref_canon(&ref, expand, &n);
    full = (double *)calloc((size_t)(ref.rows * ref.cols), sizeof *full);
    if (!want || !full) { free(want); free(full); free(ref.t); CHECK(0); return; }
    for (k = 0; k < n; k++) full[want[k].r * ref.cols + want[k].c] = want[k].v;
    for (t = 0; t < 2; t++)
        for (l = 0; l < 2; l++) {
            lcl_dense D;
            lcl_mm_info info;
            lcl_status st;
            lcl_layout lay = l ? LCL_ROW_MAJOR : LCL_COL_MAJOR;
            int64_t i, j, bad = 0;
            memset(&D, 0, sizeof D);
            snprintf(what, sizeof what, "lcl_mm_read_dense(%s, %s, %s, %s)", name, t ? "F32" : "F64",
                     l ? "row-major" : "col-major", expand ? "EXPAND" : "0");
            st = lcl_mm_read_dense(ctx, path, t ? LCL_F32 : LCL_F64, lay, expand ? LCL_MM_EXPAND : 0, &D, &info);
            CHECK_MSG(st == LCL_OK, "%s: %s: %s", what, lcl_status_string(st), msg_of(ctx));
            if (st == LCL_OK) {
                CHECK_MSG(D.rows == ref.rows && D.cols == ref.cols && D.layout == lay &&
                          D.dtype == (t ? LCL_F32 : LCL_F64) && info.entries == ref.stored,
                          "%s: %lldx%lld layout %d dtype %d entries %lld", what, (long long)D.rows, (long long)D.cols,
                          (int)D.layout, (int)D.dtype, (long long)info.entries);
                if (D.rows == ref.rows && D.cols == ref.cols)
                    for (i = 0; i < ref.rows; i++)
                        for (j = 0; j < ref.cols; j++) {
                            double w = full[i * ref.cols + j], v = lcl_dense_get(&D, i, j);
                            if (t) w = (double)(float)w;
                            if (!(v == w) && bad++ < 5)
                                fprintf(stderr, "  %s: (%lld,%lld) = %.17g, want %.17g\n", what, (long long)i,
                                        (long long)j, v, w);
                        }
                CHECK_MSG(bad == 0, "%s: %lld values differ", what, (long long)bad);
            }
            dense_release(&D);
        }
    free(full);
    free(want);
    free(ref.t);
}

/* lcl_mm_read_dense of path, in both layouts, holds exactly the nnz entries of its COO read */
static void dense_matches_coo(lcl_context *ctx, const char *path, lcl_dtype dt, int64_t rows, int64_t cols, int64_t nnz,
                              const char *what)
{
    lcl_coo A;
    int l;
    memset(&A, 0, sizeof A);
    CHECK_OK(ctx, lcl_mm_read(ctx, path, dt, 0, &A, NULL));
    CHECK_MSG(A.nnz == nnz, "%s: COO nnz %lld, want %lld", what, (long long)A.nnz, (long long)nnz);
    for (l = 0; l < 2 && A.nnz == nnz; l++) {
        lcl_dense D;
        int64_t q, bad = 0;
        memset(&D, 0, sizeof D);
        CHECK_OK(ctx, lcl_mm_read_dense(ctx, path, dt, l ? LCL_ROW_MAJOR : LCL_COL_MAJOR, 0, &D, NULL));
        CHECK_MSG(D.rows == rows && D.cols == cols, "%s: dense %lldx%lld", what, (long long)D.rows, (long long)D.cols);
        if (D.rows == rows && D.cols == cols)
            for (q = 0; q < A.nnz; q++)
                if (!same_bits(lcl_dense_get(&D, A.row[q], A.col[q]), coo_val(&A, q)) && bad++ < 3)
                    fprintf(stderr, "  %s: (%d,%d) dense %.17g, coo %.17g\n", what, (int)A.row[q], (int)A.col[q],
                            lcl_dense_get(&D, A.row[q], A.col[q]), coo_val(&A, q));
        CHECK_MSG(bad == 0, "%s %s: %lld of %lld entries differ between lcl_mm_read_dense and lcl_mm_read", what,
                  l ? "row-major" : "col-major", (long long)bad, (long long)nnz);
        dense_release(&D);
    }
    coo_release(&A);
}

static void test_mm_read_dense(void)
{
    lcl_context *ctx = mk_ctx();
    dense_vs_ref(ctx, "west0067", 0);     /* duplicates summed */
    dense_vs_ref(ctx, "ibm32a", 0);       /* rectangular */
    dense_vs_ref(ctx, "bcsstk01", 1);     /* symmetric, expanded */
    dense_vs_ref(ctx, "bcsstk01", 0);     /* symmetric, the stored triangle */
    dense_vs_ref(ctx, "arrow", 0);        /* integer */

    /* an array file: lcl_mm_read_dense agrees with the COO read of the same file */
    dense_matches_coo(ctx, LT_DATA "/good/number_forms.mtx", LCL_F64, 2, 4, 8, "number_forms");
    /* duplicates in single precision: the dense reader sums them as the COO reader does */
    {
        char tmp[512];
        FILE *f;
        uint64_t seed = UINT64_C(0x0123456789ABCDEF);
        int k, r;
        tmp_path(tmp, sizeof tmp, "dups");
        f = fopen(tmp, "wb");
        CHECK(f != NULL);
        if (f) {
            fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n2 64 384\n");
            for (r = 0; r < 3; r++)
                for (k = 0; k < 128; k++) {
                    double v = (double)(rng_next(&seed) >> 11) / 9007199254740992.0 - 0.5;
                    fprintf(f, "%d %d %.17g\n", 1 + k % 2, 1 + k / 2, v * 1000.0);
                }
            fclose(f);
            dense_matches_coo(ctx, tmp, LCL_F64, 2, 64, 128, "duplicates F64");
            dense_matches_coo(ctx, tmp, LCL_F32, 2, 64, 128, "duplicates F32");
            remove(tmp);
        }
    }
    lcl_context_destroy(ctx);
}

static void dense_roundtrip(lcl_context *ctx, lcl_dtype dt, lcl_layout lay, int rows, int cols, uint64_t *seed)
{
    int64_t ld = (lay == LCL_COL_MAJOR ? rows : cols) + 3, outer = lay == LCL_COL_MAJOR ? cols : rows;
    size_t es = dt == LCL_F32 ? sizeof(float) : sizeof(double), total = (size_t)(ld * outer);
    void *buf = malloc(total * es);
    double *want = (double *)malloc((size_t)(rows * cols) * sizeof *want);
    char tmp[512], what[200];
    lcl_dense M;
    lcl_mm_info info;
    size_t q;
    int i, j, l;
    snprintf(what, sizeof what, "dense %dx%d %s %s", rows, cols, dt == LCL_F32 ? "F32" : "F64",
             lay == LCL_ROW_MAJOR ? "row-major" : "col-major");
    if (!buf || !want) { free(buf); free(want); CHECK(0); return; }
    for (q = 0; q < total; q++) {   /* padding: a value that must never appear */
        if (dt == LCL_F32) ((float *)buf)[q] = 777.0f; else ((double *)buf)[q] = 777.0;
    }
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            size_t at = lay == LCL_COL_MAJOR ? (size_t)(i + j * ld) : (size_t)(i * ld + j);
            int kind = (int)(rng_next(seed) % 8);
            double v;
            if (dt == LCL_F32) {
                float f = kind == 0 ? 0.0f : kind == 1 ? -0.0f : rand_finite_float(seed);
                ((float *)buf)[at] = f;
                v = f;
            } else {
                v = kind == 0 ? 0.0 : kind == 1 ? -0.0 : rand_finite_double(seed);
                ((double *)buf)[at] = v;
            }
            want[i * cols + j] = v;
        }
    memset(&M, 0, sizeof M);
    CHECK_OK(ctx, lcl_dense_wrap(ctx, &M, dt, lay, rows, cols, ld, buf));
    tmp_path(tmp, sizeof tmp, "dense");
    CHECK_OK(ctx, lcl_mm_write_dense(ctx, tmp, &M));
    memset(&info, 0xff, sizeof info);
    CHECK_OK(ctx, lcl_mm_read_info(ctx, tmp, &info));
    CHECK_MSG(info.format == LCL_MM_ARRAY && info.symmetry == LCL_MM_GENERAL && info.rows == rows &&
              info.cols == cols && info.entries == (int64_t)rows * cols, "%s: header %d/%d %lldx%lld %lld", what,
              (int)info.format, (int)info.symmetry, (long long)info.rows, (long long)info.cols, (long long)info.entries);
    for (l = 0; l < 2; l++) {
        lcl_dense R;
        lcl_status st;
        memset(&R, 0, sizeof R);
        st = lcl_mm_read_dense(ctx, tmp, dt, l ? LCL_ROW_MAJOR : LCL_COL_MAJOR, 0, &R, NULL);
        CHECK_MSG(st == LCL_OK, "%s read back: %s: %s", what, lcl_status_string(st), msg_of(ctx));
        if (st == LCL_OK && R.rows == rows && R.cols == cols && R.dtype == dt) {
            int bad = 0;
            for (i = 0; i < rows; i++)
                for (j = 0; j < cols; j++)
                    if (!same_bits(lcl_dense_get(&R, i, j), want[i * cols + j]) && bad++ < 3)
                        fprintf(stderr, "  %s: (%d,%d) read %.17g, wrote %.17g\n", what, i, j, lcl_dense_get(&R, i, j),
                                want[i * cols + j]);
            CHECK_MSG(bad == 0, "%s: %d values changed in the round trip", what, bad);
        } else if (st == LCL_OK) {
            CHECK_MSG(0, "%s: read back as %lldx%lld dtype %d", what, (long long)R.rows, (long long)R.cols, (int)R.dtype);
        }
        dense_release(&R);
    }
    {   /* as COO an array file keeps every entry, zeros included */
        lcl_coo A;
        memset(&A, 0, sizeof A);
        CHECK_OK(ctx, lcl_mm_read(ctx, tmp, dt, 0, &A, NULL));
        CHECK_MSG(A.nnz == (int64_t)rows * cols, "%s: COO nnz %lld, want %d", what, (long long)A.nnz, rows * cols);
        coo_release(&A);
    }
    dense_release(&M);   /* wrapped: does not own buf */
    free(buf);
    free(want);
    remove(tmp);
}

static void test_mm_dense_roundtrip(void)
{
    static const int sizes[][2] = { { 1, 1 }, { 2, 3 }, { 17, 5 }, { 5, 17 } };
    lcl_context *ctx = mk_ctx();
    uint64_t seed = UINT64_C(0x9E3779B97F4A7C15);
    size_t s;
    int t, l;
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (t = 0; t < 2; t++)
            for (l = 0; l < 2; l++)
                dense_roundtrip(ctx, t ? LCL_F32 : LCL_F64, l ? LCL_ROW_MAJOR : LCL_COL_MAJOR, sizes[s][0], sizes[s][1],
                                &seed);
    lcl_context_destroy(ctx);
}

/* ------------------------------------------------------------------------------------------ */
/* streaming writer                                                                             */

/* lcl_mm_write with symmetry: either triangle or both stored; both must agree. Read back expanded,
   each case must give the full matrix (want), in both precisions */
static void mm_coo_of(lcl_context *ctx, lcl_coo *m, lcl_dtype dt, int n, const double (*t)[3], int cnt)
{
    int k;
    CHECK_OK(ctx, lcl_coo_alloc(ctx, m, dt, n, n, 0));
    for (k = 0; k < cnt; k++) CHECK_OK(ctx, lcl_coo_push(ctx, m, (int)t[k][0], (int)t[k][1], t[k][2]));
}
static void mm_sym_case(lcl_context *ctx, lcl_dtype dt, const char *what, int n, lcl_mm_symmetry sym, const double (*t)[3], int cnt,
                        const double (*full)[3], int nfull, int64_t stored)
{
    lcl_coo A, W, B;
    lcl_mm_info info;
    char tmp[512];
    memset(&B, 0, sizeof B);
    mm_coo_of(ctx, &A, dt, n, t, cnt);
    mm_coo_of(ctx, &W, dt, n, full, nfull);
    CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &W));
    tmp_path(tmp, sizeof tmp, "sym");
    CHECK_MSG(lcl_mm_write(ctx, tmp, &A, sym) == LCL_OK, "%s: %s", what, msg_of(ctx));
    if (lcl_mm_read(ctx, tmp, dt, LCL_MM_EXPAND, &B, &info) == LCL_OK) {
        CHECK_MSG(info.symmetry == sym && info.entries == stored, "%s: symmetry %d, %lld entries stored (want %lld)", what,
                  (int)info.symmetry, (long long)info.entries, (long long)stored);
        CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &B));
        CHECK_MSG(coo_equal_exact(&B, &W), "%s: read back, not the matrix (nnz %lld, want %lld)", what, (long long)B.nnz, (long long)W.nnz);
    } else
        CHECK_MSG(0, "%s: read back: %s", what, msg_of(ctx));
    remove(tmp);
    coo_release(&A);
    coo_release(&W);
    coo_release(&B);
}
static void mm_sym_bad(lcl_context *ctx, lcl_dtype dt, const char *what, int rows, int cols, lcl_mm_symmetry sym, const double (*t)[3],
                       int cnt, lcl_status want, const char *says)
{
    lcl_coo A;
    char tmp[512];
    FILE *f;
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &A, dt, rows, cols, 0));
    while (cnt-- > 0) { CHECK_OK(ctx, lcl_coo_push(ctx, &A, (int)t[0][0], (int)t[0][1], t[0][2])); t++; }
    tmp_path(tmp, sizeof tmp, "symbad");
    CHECK_STATUS(ctx, lcl_mm_write(ctx, tmp, &A, sym), want);
    CHECK_MSG(strstr(msg_of(ctx), says) != NULL, "%s: message '%s' lacks '%s'", what, msg_of(ctx), says);
    f = fopen(tmp, "r");
    CHECK_MSG(f == NULL, "%s: a file was left", what);
    if (f) fclose(f);
    remove(tmp);
    coo_release(&A);
}
static void test_mm_write_symmetry(void)
{
    lcl_context *ctx = mk_ctx();
    static const double full[][3] = {{0, 0, 4}, {1, 0, -1.5}, {0, 1, -1.5}, {2, 0, 0.25}, {0, 2, 0.25}, {2, 2, 7}, {3, 1, 3}, {1, 3, 3}},
                        lower[][3] = {{2, 0, 0.25}, {0, 0, 4}, {1, 0, -1.5}, {3, 1, 3}, {2, 2, 7}},
                        upper[][3] = {{0, 2, 0.25}, {0, 0, 4}, {0, 1, -1.5}, {1, 3, 3}, {2, 2, 7}},
                        mixed[][3] = {{0, 0, 4}, {0, 1, -1.5}, {2, 0, 0.25}, {0, 2, 0.25}, {3, 1, 3}, {2, 2, 7}},
                        dup[][3] = {{0, 0, 4}, {1, 0, -1}, {1, 0, -0.5}, {0, 1, -1.5}, {0, 2, 0.25}, {1, 3, 3}, {2, 2, 7}},
                        skew_full[][3] = {{1, 0, 2}, {0, 1, -2}, {3, 2, -0.5}, {2, 3, 0.5}, {3, 0, 1}, {0, 3, -1}},
                        skew_upper[][3] = {{0, 1, -2}, {2, 3, 0.5}, {3, 0, 1}, {1, 1, 0}},
                        one[][3] = {{0, 0, 3}},
                        bad_pair[][3] = {{0, 0, 1}, {2, 0, 1}, {0, 2, 2}},
                        bad_skew_pair[][3] = {{1, 0, 2}, {0, 1, 2}},
                        bad_diag[][3] = {{1, 0, 2}, {1, 1, 5}},
                        nan_upper[][3] = {{2, 0, 1}, {0, 2, 0}};
    double nan_t[2][3];
    int p;
    memcpy(nan_t, nan_upper, sizeof nan_t);
    nan_t[1][2] = nan("");
    for (p = 0; p < 2; p++) {
        const lcl_dtype dt = p ? LCL_F32 : LCL_F64;
        mm_sym_case(ctx, dt, "both triangles", 4, LCL_MM_SYMMETRIC, full, 8, full, 8, 5);
        mm_sym_case(ctx, dt, "lower triangle", 4, LCL_MM_SYMMETRIC, lower, 5, full, 8, 5);
        mm_sym_case(ctx, dt, "upper triangle", 4, LCL_MM_SYMMETRIC, upper, 5, full, 8, 5);
        mm_sym_case(ctx, dt, "each pair from either", 4, LCL_MM_SYMMETRIC, mixed, 6, full, 8, 5);
        mm_sym_case(ctx, dt, "duplicates that add up", 4, LCL_MM_SYMMETRIC, dup, 7, full, 8, 6);
        mm_sym_case(ctx, dt, "skew, both triangles", 4, LCL_MM_SKEW_SYMMETRIC, skew_full, 6, skew_full, 6, 3);
        mm_sym_case(ctx, dt, "skew, upper triangle and a zero diagonal", 4, LCL_MM_SKEW_SYMMETRIC, skew_upper, 4, skew_full, 6, 3);
        mm_sym_case(ctx, dt, "1x1", 1, LCL_MM_SYMMETRIC, one, 1, one, 1, 1);
        mm_sym_case(ctx, dt, "1x1 skew, empty", 1, LCL_MM_SKEW_SYMMETRIC, one, 0, one, 0, 0);
        mm_sym_bad(ctx, dt, "pair that disagrees", 3, 3, LCL_MM_SYMMETRIC, bad_pair, 3, LCL_ERR_INVALID_ARGUMENT,
                   "not symmetric: entry (2,0) = 1 but (0,2) = 2");
        mm_sym_bad(ctx, dt, "skew pair that disagrees", 2, 2, LCL_MM_SKEW_SYMMETRIC, bad_skew_pair, 2, LCL_ERR_INVALID_ARGUMENT,
                   "not skew-symmetric: entry (1,0) = 2 but (0,1) = 2");
        mm_sym_bad(ctx, dt, "skew diagonal", 2, 2, LCL_MM_SKEW_SYMMETRIC, bad_diag, 2, LCL_ERR_INVALID_ARGUMENT, "diagonal entry (1,1) = 5");
        mm_sym_bad(ctx, dt, "not square", 3, 2, LCL_MM_SYMMETRIC, one, 1, LCL_ERR_DIMENSION, "must be square, got 3x2");
        mm_sym_bad(ctx, dt, "NaN in the triangle not written", 3, 3, LCL_MM_SYMMETRIC, (const double (*)[3])nan_t, 2, LCL_ERR_NAN,
                   "entry (0,2) is NaN");
    }
    lcl_context_destroy(ctx);
}

static void test_mm_writer(void)
{
    static const struct {
        const char *tag;
        int entries, put[2][3];     /* declared entries; two puts: row, column, ok */
        int close_fails;
    } misuse[] = {
        { "writer_few", 3, { { 0, 0, 1 }, { 1, 1, 1 } }, 1 },       /* 2 of 3 entries */
        { "writer_many", 1, { { 0, 0, 1 }, { 1, 1, 0 } }, 0 },      /* a put past the declared count */
        { "writer_range", 2, { { 3, 0, 0 }, { 0, -1, 0 } }, 0 },    /* indices outside the declared size */
    };
    lcl_context *ctx = mk_ctx();
    lcl_mm_writer *w = NULL;
    char tmp[512];
    lcl_status st;
    int m, k;

    /* a good one, read back */
    tmp_path(tmp, sizeof tmp, "writer");
    CHECK_OK(ctx, lcl_mm_writer_open(ctx, tmp, LCL_MM_COORDINATE, LCL_MM_GENERAL, 3, 4, 3, "made by test_mm", &w));
    if (w) {
        lcl_coo A;
        size_t len = 0;
        char *text, *z;
        CHECK_OK(ctx, lcl_mm_writer_put(w, 2, 3, -2.0));
        CHECK_OK(ctx, lcl_mm_writer_put(w, 0, 0, 1.5));
        CHECK_OK(ctx, lcl_mm_writer_put(w, 1, 1, 1e-300));
        CHECK_OK(ctx, lcl_mm_writer_close(w));
        w = NULL;
        memset(&A, 0, sizeof A);
        CHECK_OK(ctx, lcl_mm_read(ctx, tmp, LCL_F64, 0, &A, NULL));
        CHECK_MSG(A.rows == 3 && A.cols == 4 && A.nnz == 3, "writer output %lldx%lld nnz %lld", (long long)A.rows,
                  (long long)A.cols, (long long)A.nnz);
        if (A.nnz == 3) {
            CHECK(A.row[0] == 0 && A.col[0] == 0 && coo_val(&A, 0) == 1.5);
            CHECK(A.row[1] == 1 && A.col[1] == 1 && coo_val(&A, 1) == 1e-300);
            CHECK(A.row[2] == 2 && A.col[2] == 3 && coo_val(&A, 2) == -2.0);
        }
        coo_release(&A);
        text = slurp(tmp, &len);
        if (text) {   /* the comment is there, on a % line */
            z = (char *)malloc(len + 1);
            if (z) {
                memcpy(z, text, len);
                z[len] = 0;
                CHECK_MSG(strstr(z, "made by test_mm") != NULL, "comment missing from:\n%s", z);
                CHECK_MSG(strncmp(z, "%%MatrixMarket matrix coordinate real general", 45) == 0, "header: %.60s", z);
                free(z);
            }
            free(text);
        } else CHECK(0);
    }
    remove(tmp);

    /* misuse of a 3x3 writer: each put must succeed (ok 1) or fail (ok 0); where close_fails, close
       reports the short count (and frees the writer all the same) */
    for (m = 0; m < (int)(sizeof misuse / sizeof misuse[0]); m++) {
        w = NULL;
        tmp_path(tmp, sizeof tmp, misuse[m].tag);
        CHECK_OK(ctx, lcl_mm_writer_open(ctx, tmp, LCL_MM_COORDINATE, LCL_MM_GENERAL, 3, 3, misuse[m].entries, NULL, &w));
        if (w) {
            for (k = 0; k < 2; k++) {
                const int *p = misuse[m].put[k];
                st = lcl_mm_writer_put(w, p[0], p[1], 1.0);
                CHECK_MSG((st == LCL_OK) == (p[2] == 1), "%s: put(%d,%d) gave %s: %s", misuse[m].tag, p[0], p[1],
                          lcl_status_string(st), msg_of(ctx));
            }
            st = lcl_mm_writer_close(w);
            if (misuse[m].close_fails) CHECK_MSG(st != LCL_OK, "%s: close gave %s", misuse[m].tag, lcl_status_string(st));
        }
        remove(tmp);
    }
    lcl_context_destroy(ctx);
}

/* ------------------------------------------------------------------------------------------ */
/* lcl_format_double                                                                            */

/* fewest significant digits that read back to exactly v */
static int min_digits(double v)
{
    char b[64];
    int p;
    for (p = 1; p < 17; p++) {
        snprintf(b, sizeof b, "%.*e", p - 1, v);
        if (same_bits(strtod(b, NULL), v)) return p;
    }
    return 17;
}

/* significant digits in a decimal string ("100" -> 1, "0.0012" -> 2, "1.50e3" -> 2) */
static int sig_digits(const char *s)
{
    char d[64];
    int n = 0, a = 0, b;
    for (; *s && *s != 'e' && *s != 'E'; s++)
        if (*s >= '0' && *s <= '9' && n < 63) d[n++] = *s;
    while (a < n && d[a] == '0') a++;
    b = n;
    while (b > a && d[b - 1] == '0') b--;
    return b > a ? b - a : 1;
}

static int check_format_one(double v, int verbose)
{
    char buf[40];
    int ret, ok = 1;
    size_t len, i;
    memset(buf, 'Z', sizeof buf);
    ret = lcl_format_double(buf, 32, v);
    if (memchr(buf, 0, 32) == NULL) {
        if (verbose) fprintf(stderr, "  lcl_format_double(%.17g): no terminator\n", v);
        return 0;
    }
    len = strlen(buf);
    for (i = 0; i < len; i++)
        if (!strchr("0123456789+-.eE", buf[i])) ok = 0;
    if (len == 0 || len > 24 || ret != (int)len) ok = 0;
    if (ok && !same_bits(strtod(buf, NULL), v)) ok = 0;
    if (ok && sig_digits(buf) > min_digits(v)) ok = 0;
    if (!ok && verbose)
        fprintf(stderr, "  lcl_format_double(%.17g [%016llx]) = \"%s\" (ret %d, %d digits, shortest %d)\n", v,
                (unsigned long long)double_bits(v), buf, ret, sig_digits(buf), min_digits(v));
    return ok;
}

static void test_mm_format_double(void)
{
    static const double specials[] = {
        0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1.0 / 3.0, 2.0 / 3.0, 1e-300, -1e-300, 1e300, 1e23, 5e-324, -5e-324,
        2.2250738585072009e-308 /* largest denormal */, DBL_MIN, DBL_MAX, -DBL_MAX, DBL_EPSILON, 9007199254740992.0,
        9007199254740993.0 /* rounds */, 123456789012345678.0, 0.000001, 1e-7, 100.0, 1e21, 1e22, 4.35, 2.5e-5,
        3.14159265358979323846, 299792458.0, 1.7976931348623157e308, 4.9406564584124654e-324, 1e15, 1e16, 1e17
    };
    uint64_t seed = UINT64_C(0x243F6A8885A308D3);
    size_t i, nrand = lt_small() ? 10000 : 100000;   /* LT_SMALL: the full count takes half a minute under valgrind */
    int bad = 0;
    char buf[40];
    for (i = 0; i < sizeof specials / sizeof specials[0]; i++)
        CHECK_MSG(check_format_one(specials[i], 1), "special value %.17g", specials[i]);
    for (i = 0; i < nrand; i++) {
        double v = rand_finite_double(&seed);
        if (!check_format_one(v, bad < 5)) bad++;
    }
    /* also values with few digits, where "shortest" is easy to get wrong */
    for (i = 0; i < nrand / 5; i++) {
        double v = (double)(int64_t)(rng_next(&seed) % 2000001) - 1000000.0;
        v /= (double)(1 + rng_next(&seed) % 1000);
        if (!check_format_one(v, bad < 5)) bad++;
    }
    CHECK_MSG(bad == 0, "%d doubles failed the round trip / shortest / length checks", bad);

    /* specific texts (their shortest digit strings, in any exponent notation) */
    lcl_format_double(buf, sizeof buf, 0.1);
    CHECK_MSG(sig_digits(buf) == 1 && strtod(buf, NULL) == 0.1, "0.1 -> \"%s\"", buf);
    lcl_format_double(buf, sizeof buf, -0.0);
    CHECK_MSG(buf[0] == '-' && strtod(buf, NULL) == 0.0, "-0 -> \"%s\"", buf);

    /* a small buffer is never overrun */
    memset(buf, 'Z', sizeof buf);
    lcl_format_double(buf, 5, 0.12345678901234566);
    for (i = 5; i < sizeof buf; i++) CHECK_MSG(buf[i] == 'Z', "lcl_format_double wrote buf[%d] with cap 5", (int)i);
}

/* ------------------------------------------------------------------------------------------ */
/* COO and CSR                                                                                  */

static void test_mm_coo_canonicalize(void)
{
    /* pushed in this order; canonical: sorted by (row, col), duplicates summed */
    static const struct { int r, c; double v; } in[] = {
        { 2, 3, 1.0 }, { 0, 1, 2.0 }, { 2, 3, 0.5 }, { 0, 0, -1.0 }, { 1, 2, 4.0 }, { 0, 1, -3.0 }, { 2, 0, 7.0 },
        { 2, 3, 0.25 }
    };
    static const struct { int r, c; double v; } out[] = {
        { 0, 0, -1.0 }, { 0, 1, -1.0 }, { 1, 2, 4.0 }, { 2, 0, 7.0 }, { 2, 3, 1.75 }
    };
    lcl_context *ctx = mk_ctx();
    int t;
    size_t i;
    for (t = 0; t < 2; t++) {
        lcl_coo m;
        memset(&m, 0, sizeof m);
        CHECK_OK(ctx, lcl_coo_alloc(ctx, &m, t ? LCL_F32 : LCL_F64, 3, 4, 2));   /* small cap: it must grow */
        for (i = 0; i < sizeof in / sizeof in[0]; i++) CHECK_OK(ctx, lcl_coo_push(ctx, &m, in[i].r, in[i].c, in[i].v));
        CHECK(m.nnz == (int64_t)(sizeof in / sizeof in[0]));
        /* out-of-range pushes fail and change nothing */
        CHECK_MSG(lcl_coo_push(ctx, &m, 3, 0, 1.0) != LCL_OK, "push(3,0) into 3x4 accepted");
        CHECK_MSG(lcl_coo_push(ctx, &m, 0, 4, 1.0) != LCL_OK, "push(0,4) into 3x4 accepted");
        CHECK_MSG(lcl_coo_push(ctx, &m, -1, 0, 1.0) != LCL_OK, "push(-1,0) accepted");
        CHECK_MSG(lcl_coo_push(ctx, &m, 0, -1, 1.0) != LCL_OK, "push(0,-1) accepted");
        CHECK_MSG(lcl_coo_push(ctx, &m, (int64_t)1 << 40, 0, 1.0) != LCL_OK, "push(2^40,0) accepted");
        CHECK(m.nnz == (int64_t)(sizeof in / sizeof in[0]));
        CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &m));
        CHECK_MSG(m.nnz == (int64_t)(sizeof out / sizeof out[0]), "canonical nnz %lld", (long long)m.nnz);
        if (m.nnz == (int64_t)(sizeof out / sizeof out[0]))
            for (i = 0; i < sizeof out / sizeof out[0]; i++)
                CHECK_MSG(m.row[i] == out[i].r && m.col[i] == out[i].c && coo_val(&m, (int64_t)i) == out[i].v,
                          "canonical entry %d: (%d,%d,%g), want (%d,%d,%g)", (int)i, (int)m.row[i], (int)m.col[i],
                          coo_val(&m, (int64_t)i), out[i].r, out[i].c, out[i].v);
        /* canonicalizing again changes nothing */
        CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &m));
        CHECK(m.nnz == (int64_t)(sizeof out / sizeof out[0]));
        /* canonicalize checks indices */
        if (m.nnz > 0) {
            m.col[0] = 99;
            CHECK_MSG(lcl_coo_canonicalize(ctx, &m) != LCL_OK, "canonicalize accepted column index 99 of 4");
        }
        coo_release(&m);
    }
    {   /* many pushes (growth), in reverse order */
        lcl_coo m;
        int k, ok = 1;
        memset(&m, 0, sizeof m);
        CHECK_OK(ctx, lcl_coo_alloc(ctx, &m, LCL_F64, 1000, 1000, 0));
        for (k = 999; k >= 0; k--) CHECK_OK(ctx, lcl_coo_push(ctx, &m, k, 999 - k, (double)k));
        CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &m));
        CHECK(m.nnz == 1000);
        for (k = 0; k < 1000 && m.nnz == 1000; k++)
            if (m.row[k] != k || m.col[k] != 999 - k || coo_val(&m, k) != (double)k) ok = 0;
        CHECK_MSG(ok, "1000 reversed pushes did not sort");
        coo_release(&m);
    }
    lcl_context_destroy(ctx);
}

static void test_mm_csr_roundtrip(void)
{
    static const int64_t want_ptr[] = { 0, 2, 3, 3, 5 };
    static const int32_t want_col[] = { 0, 1, 2, 0, 3 };
    static const double want_val[] = { -1.0, -1.0, 4.0, 7.0, 1.75 };
    lcl_context *ctx = mk_ctx();
    int t;
    for (t = 0; t < 2; t++) {
        lcl_dtype dt = t ? LCL_F32 : LCL_F64;
        lcl_coo m, back, messy;
        lcl_csr c;
        int64_t i;
        lcl_status st;
        memset(&m, 0, sizeof m);
        memset(&back, 0, sizeof back);
        memset(&messy, 0, sizeof messy);
        memset(&c, 0, sizeof c);
        /* 4x4 with an empty row (row 2) */
        CHECK_OK(ctx, lcl_coo_alloc(ctx, &m, dt, 4, 4, 0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &m, 0, 0, -1.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &m, 0, 1, -1.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &m, 1, 2, 4.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &m, 3, 0, 7.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &m, 3, 3, 1.75));
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &m, &c));
        CHECK(c.rows == 4 && c.cols == 4 && c.nnz == 5 && c.dtype == dt);
        if (c.nnz == 5 && c.ptr && c.col && c.val) {
            for (i = 0; i <= 4; i++) CHECK_MSG(c.ptr[i] == want_ptr[i], "ptr[%d] = %lld", (int)i, (long long)c.ptr[i]);
            for (i = 0; i < 5; i++) {
                double v = dt == LCL_F32 ? (double)((float *)c.val)[i] : ((double *)c.val)[i];
                CHECK_MSG(c.col[i] == want_col[i] && v == want_val[i], "csr entry %d: col %d val %g", (int)i,
                          (int)c.col[i], v);
            }
        }
        CHECK_OK(ctx, lcl_csr_to_coo(ctx, &c, &back));
        CHECK_MSG(coo_equal_exact(&back, &m), "CSR -> COO differs from the original COO");
        csr_release(&c);

        /* from unsorted input with duplicates: either refused, or the canonical CSR */
        CHECK_OK(ctx, lcl_coo_alloc(ctx, &messy, dt, 4, 4, 0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &messy, 3, 3, 1.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &messy, 0, 1, -1.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &messy, 3, 0, 7.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &messy, 1, 2, 4.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &messy, 3, 3, 0.75));
        CHECK_OK(ctx, lcl_coo_push(ctx, &messy, 0, 0, -1.0));
        memset(&c, 0, sizeof c);
        st = lcl_csr_from_coo(ctx, &messy, &c);
        if (st == LCL_OK) {
            lcl_coo b2;
            memset(&b2, 0, sizeof b2);
            CHECK_OK(ctx, lcl_csr_to_coo(ctx, &c, &b2));
            CHECK_MSG(coo_equal_exact(&b2, &m), "CSR of unsorted COO with duplicates is not canonical");
            coo_release(&b2);
        }
        csr_release(&c);
        coo_release(&messy);
        coo_release(&back);
        coo_release(&m);
    }
    {   /* the real matrices and an empty one */
        char path[1024];
        lcl_coo A, B, E, E2;
        lcl_csr c;
        int64_t i;
        int mi;
        for (mi = 0; mi < N_SHARED; mi++) {
            int mono = 1;
            if (!shared_path(path, sizeof path, shared_mats[mi].name, shared_mats[mi].optional)) continue;
            memset(&A, 0, sizeof A);
            memset(&B, 0, sizeof B);
            memset(&c, 0, sizeof c);
            CHECK_OK(ctx, lcl_mm_read(ctx, path, LCL_F64, 0, &A, NULL));
            CHECK_OK(ctx, lcl_csr_from_coo(ctx, &A, &c));
            if (c.ptr) {
                CHECK(c.ptr[0] == 0 && c.ptr[c.rows] == c.nnz && c.nnz == A.nnz);
                for (i = 0; i < c.rows; i++) if (c.ptr[i] > c.ptr[i + 1]) mono = 0;
                CHECK_MSG(mono, "%s: row pointers decrease", shared_mats[mi].name);
            }
            CHECK_OK(ctx, lcl_csr_to_coo(ctx, &c, &B));
            CHECK_MSG(coo_equal_exact(&A, &B), "%s: COO -> CSR -> COO differs", shared_mats[mi].name);
            csr_release(&c);
            coo_release(&A);
            coo_release(&B);
        }
        memset(&E, 0, sizeof E);
        memset(&E2, 0, sizeof E2);
        memset(&c, 0, sizeof c);
        CHECK_OK(ctx, lcl_coo_alloc(ctx, &E, LCL_F64, 3, 5, 0));
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &E, &c));
        CHECK(c.rows == 3 && c.cols == 5 && c.nnz == 0);
        if (c.ptr) for (i = 0; i <= 3; i++) CHECK(c.ptr[i] == 0);
        else CHECK_MSG(0, "empty CSR has no row pointers");
        CHECK_OK(ctx, lcl_csr_to_coo(ctx, &c, &E2));
        CHECK(E2.rows == 3 && E2.cols == 5 && E2.nnz == 0);
        csr_release(&c);
        coo_release(&E);
        coo_release(&E2);
    }
    lcl_context_destroy(ctx);
}

/* ------------------------------------------------------------------------------------------ */
/* limits, errors, NULL arguments                                                               */

static void test_mm_limits(void)
{
    static const char big[] =
        "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n2147483647 2147483647 1.5\n";
    static const char big_empty[] = "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 0\n";
    lcl_context *ctx = mk_ctx();
    lcl_coo A;
    lcl_dense D;
    lcl_mm_info info;
    char tmp[512];
    FILE *f;

    /* the largest int32 size is fine for COO, and its last index reads */
    memset(&A, 0, sizeof A);
    CHECK_OK(ctx, lcl_mm_read_mem(ctx, big, sizeof big - 1, LCL_F64, 0, &A, &info));
    CHECK(A.rows == 2147483647 && A.cols == 2147483647 && A.nnz == 1);
    if (A.nnz == 1) CHECK(A.row[0] == 2147483646 && A.col[0] == 2147483646 && coo_val(&A, 0) == 1.5);
    coo_release(&A);

    /* ... but as a dense matrix it does not fit size_t */
    tmp_path(tmp, sizeof tmp, "bigdense");
    f = fopen(tmp, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs(big_empty, f);
        fclose(f);
        memset(&D, 0, sizeof D);
        CHECK_STATUS(ctx, lcl_mm_read_dense(ctx, tmp, LCL_F64, LCL_COL_MAJOR, 0, &D, NULL), LCL_ERR_OVERFLOW);
        dense_release(&D);
        remove(tmp);
    }

    /* the length is honoured: the second entry lies past len */
    {
        static const char two[] = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 2\n";
        memset(&A, 0, sizeof A);
        CHECK_STATUS(ctx, lcl_mm_read_mem(ctx, two, sizeof two - 1 - 6, LCL_F64, 0, &A, NULL), LCL_ERR_PARSE);
        CHECK_MSG(strstr(msg_of(ctx), "<memory>:4:") != NULL, "message \"%s\"", msg_of(ctx));
        coo_release(&A);
    }
    lcl_context_destroy(ctx);
}

static void test_mm_errors(void)
{
    static const char missing[] = LT_DATA "/no/such/matrix.mtx";
    static const char unwritable[] = LT_DATA "/no/such/dir/out.mtx";
    lcl_context *ctx = mk_ctx();
    lcl_coo A, M;
    lcl_dense D;
    lcl_mm_info info;
    lcl_mm_writer *w = NULL;
    double one = 1.0;

    memset(&A, 0, sizeof A);
    memset(&D, 0, sizeof D);
    CHECK_STATUS(ctx, lcl_mm_read(ctx, missing, LCL_F64, 0, &A, NULL), LCL_ERR_IO);
    CHECK_MSG(strstr(msg_of(ctx), missing) != NULL, "message \"%s\" lacks the path", msg_of(ctx));
    coo_release(&A);
    CHECK_STATUS(ctx, lcl_mm_read_dense(ctx, missing, LCL_F64, LCL_COL_MAJOR, 0, &D, NULL), LCL_ERR_IO);
    CHECK_MSG(strstr(msg_of(ctx), missing) != NULL, "message \"%s\" lacks the path", msg_of(ctx));
    dense_release(&D);
    CHECK_STATUS(ctx, lcl_mm_read_info(ctx, missing, &info), LCL_ERR_IO);
    CHECK_MSG(strstr(msg_of(ctx), missing) != NULL, "message \"%s\" lacks the path", msg_of(ctx));
    /* a directory opens but does not read: the message says why */
    CHECK_STATUS(ctx, lcl_mm_read(ctx, LT_DATA, LCL_F64, 0, &A, NULL), LCL_ERR_IO);
    CHECK_MSG(strstr(msg_of(ctx), "read error: ") != NULL && strstr(msg_of(ctx), strerror(EISDIR)) != NULL, "%s", msg_of(ctx));
    coo_release(&A);

    memset(&M, 0, sizeof M);
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &M, LCL_F64, 2, 2, 0));
    CHECK_OK(ctx, lcl_coo_push(ctx, &M, 1, 0, 2.0));
    CHECK_STATUS(ctx, lcl_mm_write(ctx, unwritable, &M, LCL_MM_GENERAL), LCL_ERR_IO);
    CHECK_MSG(strstr(msg_of(ctx), unwritable) != NULL, "message \"%s\" lacks the path", msg_of(ctx));
    CHECK_OK(ctx, lcl_dense_wrap(ctx, &D, LCL_F64, LCL_COL_MAJOR, 1, 1, 1, &one));
    CHECK_STATUS(ctx, lcl_mm_write_dense(ctx, unwritable, &D), LCL_ERR_IO);
    CHECK_MSG(strstr(msg_of(ctx), unwritable) != NULL, "message \"%s\" lacks the path", msg_of(ctx));
    CHECK_STATUS(ctx, lcl_mm_writer_open(ctx, unwritable, LCL_MM_COORDINATE, LCL_MM_GENERAL, 2, 2, 1, NULL, &w),
                 LCL_ERR_IO);
    CHECK_MSG(strstr(msg_of(ctx), unwritable) != NULL, "message \"%s\" lacks the path", msg_of(ctx));
    if (w) lcl_mm_writer_close(w);

    /* a file without a context: works, only the status tells */
    memset(&A, 0, sizeof A);
    CHECK_STATUS(NULL, lcl_mm_read(NULL, LT_DATA "/good/crlf.mtx", LCL_F64, 0, &A, NULL), LCL_OK);
    CHECK(A.nnz == 3);
    coo_release(&A);
    CHECK_STATUS(NULL, lcl_mm_read(NULL, missing, LCL_F64, 0, &A, NULL), LCL_ERR_IO);
    coo_release(&A);

    coo_release(&M);
    lcl_context_destroy(ctx);
}

static long file_size(const char *path) { struct stat sb; return stat(path, &sb) == 0 ? (long)sb.st_size : -1; }
static int is_link(const char *path) { struct stat sb; return lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode); }
/* a write that fails removes the file it created, empties a file it overwrote, and leaves a link,
   a device and what a link points at in place (it removed any path: a link to /dev/full, and as
   root /dev/full itself). A dense matrix that is not one is refused before anything is written. */
static void test_mm_write_failure_cleanup(void)
{
    lcl_context *ctx = mk_ctx();
    lcl_mm_writer *w = NULL;
    lcl_dense D;
    double v[4] = {1, 2, 3, 4};
    char made[512], old[512], target[512], link[512], full[512];
    FILE *f;
    if (!ctx) return;
    tmp_path(made, sizeof made, "made");
    tmp_path(old, sizeof old, "old");
    tmp_path(target, sizeof target, "target");
    tmp_path(link, sizeof link, "link");
    tmp_path(full, sizeof full, "full");
    /* a short count: the writer's own failure */
    CHECK_OK(ctx, lcl_mm_writer_open(ctx, made, LCL_MM_COORDINATE, LCL_MM_GENERAL, 2, 2, 2, NULL, &w));
    if (w) { CHECK_OK(ctx, lcl_mm_writer_put(w, 0, 0, 1)); CHECK_STATUS(ctx, lcl_mm_writer_close(w), LCL_ERR_DIMENSION); }
    CHECK_MSG(file_size(made) == -1, "the file the failed write created is still there (%ld bytes)", file_size(made));
    remove(made);
    f = fopen(old, "w");
    if (f) { fputs("old contents\n", f); fclose(f); }
    CHECK_OK(ctx, lcl_mm_writer_open(ctx, old, LCL_MM_COORDINATE, LCL_MM_GENERAL, 2, 2, 2, NULL, &w));
    if (w) CHECK_STATUS(ctx, lcl_mm_writer_close(w), LCL_ERR_DIMENSION);
    CHECK_MSG(file_size(old) == 0, "the file the failed write overwrote: %ld bytes (want it there, empty)", file_size(old));
    remove(old);
    /* through a link to a file: the link stays, its file is emptied */
    f = fopen(target, "w");
    if (f) { fputs("old contents\n", f); fclose(f); }
    CHECK(symlink(target, link) == 0);
    CHECK_OK(ctx, lcl_mm_writer_open(ctx, link, LCL_MM_COORDINATE, LCL_MM_GENERAL, 2, 2, 2, NULL, &w));
    if (w) CHECK_STATUS(ctx, lcl_mm_writer_close(w), LCL_ERR_DIMENSION);
    CHECK_MSG(is_link(link) && file_size(target) == 0, "a link to a file: link %s, the file %ld bytes (want the link, the file empty)",
              is_link(link) ? "kept" : "removed", file_size(target));
    remove(link);
    remove(target);
    /* through a link to a device that fails every write */
    if (file_size("/dev/full") != -1) {
        CHECK(symlink("/dev/full", full) == 0);
        CHECK_OK(ctx, lcl_dense_wrap(ctx, &D, LCL_F64, LCL_COL_MAJOR, 2, 2, 2, v));
        CHECK_STATUS(ctx, lcl_mm_write_dense(ctx, full, &D), LCL_ERR_IO);
        CHECK_MSG(strstr(msg_of(ctx), "write failed") != NULL, "%s", msg_of(ctx));
        CHECK_MSG(is_link(full) && file_size("/dev/full") != -1, "a link to /dev/full: link %s, /dev/full %s", is_link(full) ? "kept" : "removed",
                  file_size("/dev/full") != -1 ? "there" : "GONE");
        remove(full);
    } else
        fprintf(stderr, "  no /dev/full: the device case not run\n");
    /* not a dense matrix: refused, nothing written */
    CHECK_OK(ctx, lcl_dense_wrap(ctx, &D, LCL_F64, LCL_COL_MAJOR, 2, 2, 2, v));
    D.ld = 1;
    CHECK_STATUS(ctx, lcl_mm_write_dense(ctx, made, &D), LCL_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(msg_of(ctx), "leading dimension") != NULL, "%s", msg_of(ctx));
    D.ld = 2;
    D.dtype = (lcl_dtype)9;
    CHECK_STATUS(ctx, lcl_mm_write_dense(ctx, made, &D), LCL_ERR_INVALID_ARGUMENT);
    CHECK(file_size(made) == -1);
    remove(made);
    lcl_context_destroy(ctx);
}

/* a UTF-8 byte order mark before the banner is read past (some editors save one); gzip data is
   refused with what it is; a BOM anywhere else is no banner */
static void test_mm_bom_gzip(void)
{
    static const char bom[] = "\xef\xbb\xbf%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -4.5\n",
                      late[] = " \xef\xbb\xbf%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -4.5\n",
                      gz[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\n";
    lcl_context *ctx = mk_ctx();
    lcl_coo A;
    if (!ctx) return;
    memset(&A, 0, sizeof A);
    CHECK_OK(ctx, lcl_mm_read_mem(ctx, bom, sizeof bom - 1, LCL_F64, 0, &A, NULL));
    CHECK(A.rows == 2 && A.cols == 2 && A.nnz == 1 && A.row[0] == 1 && A.col[0] == 0 && ((double *)A.val)[0] == -4.5);
    coo_release(&A);
    CHECK_STATUS(ctx, lcl_mm_read_mem(ctx, late, sizeof late - 1, LCL_F64, 0, &A, NULL), LCL_ERR_PARSE);
    CHECK_MSG(strstr(msg_of(ctx), "banner must start") != NULL && strstr(msg_of(ctx), "gzip") == NULL, "%s", msg_of(ctx));
    CHECK_STATUS(ctx, lcl_mm_read_mem(ctx, gz, sizeof gz - 1, LCL_F64, 0, &A, NULL), LCL_ERR_PARSE);
    CHECK_MSG(strstr(msg_of(ctx), "gzip data: gunzip it first") != NULL, "%s", msg_of(ctx));
    coo_release(&A);
    {   /* below the smallest subnormal: the entry stays, valued 0 (as the header says); 1e-320 is a subnormal */
        static const char tiny[] = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1e-400\n2 2 1e-320\n";
        CHECK_OK(ctx, lcl_mm_read_mem(ctx, tiny, sizeof tiny - 1, LCL_F64, 0, &A, NULL));
        CHECK(A.nnz == 2 && ((double *)A.val)[0] == 0 && ((double *)A.val)[1] > 0 && ((double *)A.val)[1] < 1e-319);
        coo_release(&A);
        CHECK_OK(ctx, lcl_mm_read_mem(ctx, tiny, sizeof tiny - 1, LCL_F32, 0, &A, NULL));
        CHECK(A.nnz == 2 && ((float *)A.val)[0] == 0 && ((float *)A.val)[1] == 0);
        coo_release(&A);
    }
    lcl_context_destroy(ctx);
}

/* values of 512 characters and more (the C library's strtod reads a copy): each read whole and
   rounded once; they were refused as "not a number" */
static void test_mm_long_numbers(void)
{
    static const struct { const char *head, *tail; int zeros; double want; } c[] = {
        {"1.", "", 600, 1.0},                     /* every digit kept in the fast path's mantissa */
        {"0.", "1e601", 600, 1.0},
        {"1.", "1", 600, 1.0},                    /* a nonzero digit beyond the 19th: the whole token */
        {"-2", "", 520, 0},                       /* beyond double: refused, as -2e520 is */
        {"0.1234567890123456789", "1", 600, 0.1234567890123456789},
    };
    lcl_context *ctx = mk_ctx();
    size_t k;
    if (!ctx) return;
    for (k = 0; k < sizeof c / sizeof c[0]; k++) {
        static const char hdr[] = "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 ";
        size_t n = strlen(hdr) + strlen(c[k].head) + (size_t)c[k].zeros + strlen(c[k].tail) + 2, at;
        char *text = (char *)malloc(n);
        lcl_coo A;
        if (!text) { CHECK(text != NULL); break; }
        at = (size_t)sprintf(text, "%s%s", hdr, c[k].head);
        memset(text + at, '0', (size_t)c[k].zeros);
        at += (size_t)c[k].zeros;
        at += (size_t)sprintf(text + at, "%s\n", c[k].tail);
        memset(&A, 0, sizeof A);
        if (c[k].want == 0) {
            CHECK_STATUS(ctx, lcl_mm_read_mem(ctx, text, at, LCL_F64, 0, &A, NULL), LCL_ERR_OVERFLOW);
            CHECK_MSG(strstr(msg_of(ctx), "exceeds double precision range") != NULL, "%s", msg_of(ctx));
        } else {
            CHECK_OK(ctx, lcl_mm_read_mem(ctx, text, at, LCL_F64, 0, &A, NULL));
            CHECK_MSG(A.nnz == 1 && ((double *)A.val)[0] == c[k].want, "case %d (%s, %d zeros, %s): %lld entries, %.17g, want %.17g", (int)k,
                      c[k].head, c[k].zeros, c[k].tail, (long long)A.nnz, A.nnz == 1 ? ((double *)A.val)[0] : 0.0, c[k].want);
        }
        coo_release(&A);
        free(text);
    }
    lcl_context_destroy(ctx);
}

static void test_mm_null_args(void)
{
    const char *good = LT_DATA "/good/crlf.mtx";
    static const char text[] = "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n";
    lcl_context *ctx = mk_ctx();
    lcl_coo A, M;
    lcl_csr C;
    lcl_dense D;
    lcl_mm_info info;
    lcl_mm_writer *w = NULL;
    char tmp[512];

    memset(&A, 0, sizeof A);
    memset(&M, 0, sizeof M);
    memset(&C, 0, sizeof C);
    memset(&D, 0, sizeof D);
    CHECK_STATUS(ctx, lcl_mm_read(ctx, NULL, LCL_F64, 0, &A, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_read(ctx, good, LCL_F64, 0, NULL, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_read(ctx, good, (lcl_dtype)7, 0, &A, NULL), LCL_ERR_INVALID_ARGUMENT);
    coo_release(&A);
    CHECK_STATUS(ctx, lcl_mm_read(ctx, good, LCL_F64, 0x80, &A, NULL), LCL_ERR_INVALID_ARGUMENT);
    coo_release(&A);
    CHECK_STATUS(ctx, lcl_mm_read_mem(ctx, NULL, 10, LCL_F64, 0, &A, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_read_mem(ctx, text, sizeof text - 1, LCL_F64, 0, NULL, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_read_dense(ctx, NULL, LCL_F64, LCL_COL_MAJOR, 0, &D, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_read_dense(ctx, good, LCL_F64, LCL_COL_MAJOR, 0, NULL, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_read_dense(ctx, good, LCL_F64, (lcl_layout)5, 0, &D, NULL), LCL_ERR_INVALID_ARGUMENT);
    dense_release(&D);
    CHECK_STATUS(ctx, lcl_mm_read_info(ctx, NULL, &info), LCL_ERR_INVALID_ARGUMENT);
    /* lcl_mm_read_info(ctx, path, NULL) may validate the header only: not checked */

    CHECK_OK(ctx, lcl_coo_alloc(ctx, &M, LCL_F64, 2, 2, 0));
    tmp_path(tmp, sizeof tmp, "null");
    CHECK_STATUS(ctx, lcl_mm_write(ctx, NULL, &M, LCL_MM_GENERAL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_write(ctx, tmp, NULL, LCL_MM_GENERAL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_write(ctx, tmp, &M, (lcl_mm_symmetry)9), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_write_dense(ctx, tmp, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_writer_open(ctx, NULL, LCL_MM_COORDINATE, LCL_MM_GENERAL, 2, 2, 1, NULL, &w),
                 LCL_ERR_INVALID_ARGUMENT);
    if (w) { lcl_mm_writer_close(w); w = NULL; }
    CHECK_STATUS(ctx, lcl_mm_writer_open(ctx, tmp, LCL_MM_COORDINATE, LCL_MM_GENERAL, 2, 2, 1, NULL, NULL),
                 LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_writer_open(ctx, tmp, LCL_MM_COORDINATE, LCL_MM_GENERAL, -2, 2, 1, NULL, &w),
                 LCL_ERR_INVALID_ARGUMENT);
    if (w) { lcl_mm_writer_close(w); w = NULL; }
    CHECK_STATUS(ctx, lcl_mm_writer_put(NULL, 0, 0, 1.0), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_mm_writer_close(NULL), LCL_ERR_INVALID_ARGUMENT);
    remove(tmp);

    CHECK_STATUS(ctx, lcl_coo_push(ctx, NULL, 0, 0, 1.0), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_coo_canonicalize(ctx, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_coo_alloc(ctx, NULL, LCL_F64, 2, 2, 0), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_coo_alloc(ctx, &A, LCL_F64, -1, 2, 0), LCL_ERR_INVALID_ARGUMENT);
    coo_release(&A);
    CHECK_STATUS(ctx, lcl_csr_from_coo(ctx, NULL, &C), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_csr_from_coo(ctx, &M, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_csr_to_coo(ctx, NULL, &A), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_csr_to_coo(ctx, &C, NULL), LCL_ERR_INVALID_ARGUMENT);

    /* the same without a context */
    CHECK_STATUS(NULL, lcl_mm_read(NULL, NULL, LCL_F64, 0, &A, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(NULL, lcl_mm_read_mem(NULL, NULL, 3, LCL_F64, 0, &A, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(NULL, lcl_coo_push(NULL, NULL, 0, 0, 1.0), LCL_ERR_INVALID_ARGUMENT);
    coo_release(&M);
    lcl_context_destroy(ctx);
}

void lt_suite_mm(void)
{
    LT_RUN(test_mm_bad_corpus);
    LT_RUN(test_mm_complex_message);
    LT_RUN(test_mm_good_files);
    LT_RUN(test_mm_shared_load);
    LT_RUN(test_mm_shared_roundtrip);
    LT_RUN(test_mm_expansion);
    LT_RUN(test_mm_read_dense);
    LT_RUN(test_mm_dense_roundtrip);
    LT_RUN(test_mm_writer);
    LT_RUN(test_mm_write_symmetry);
    LT_RUN(test_mm_format_double);
    LT_RUN(test_mm_coo_canonicalize);
    LT_RUN(test_mm_csr_roundtrip);
    LT_RUN(test_mm_limits);
    LT_RUN(test_mm_errors);
    LT_RUN(test_mm_null_args);
    LT_RUN(test_mm_write_failure_cleanup);
    LT_RUN(test_mm_long_numbers);
    LT_RUN(test_mm_bom_gzip);
}
