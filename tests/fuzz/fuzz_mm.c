/* fuzz_mm.c -- libFuzzer harness for the Matrix Market reader and writer.

   Each input is read as Matrix Market text with lcl_mm_read_mem twice: LCL_F64 with
   LCL_MM_EXPAND and LCL_F32 without. On success the result must be canonical (sorted by
   (row, col), no duplicates), in range, finite, no larger than the file allows (nnz <= entries,
   x2 when expanded), consistent with its symmetry (stored triangle, or mirrored values), keep
   every entry of an array file, and survive a round trip: lcl_mm_write to a temporary file, read
   back, identical arrays bit for bit (symmetric files also written back symmetric).
   A failed read must leave its output zeroed.
   For a quarter of the inputs (size % 16 < 4: a file read allocates a 4 MiB buffer, 20 times
   the cost of the parse under ASan) the bytes are also written to a file and read through one
   file path:
   lcl_mm_read (must equal lcl_mm_read_mem), lcl_mm_read_info (must equal the header), or --
   when the declared rows*cols <= 1e6 -- lcl_mm_read_dense (same status; values equal to the
   sparse result expanded). Temporary files are per process: /tmp/lcl_fuzz_mm_PID_*.

   make fuzz && build/fuzz_mm -dict=tests/fuzz/mm.dict -max_len=4096 CORPUS_DIR */
#include "fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#define DENSE_LIMIT 1000000

static lcl_context *ctx;
static char path_in[256], path_out[256];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    ctx = lcl_fuzz_setup("fuzz_mm", path_in, path_out, sizeof path_out);
    return 0;
}

static double val(const lcl_coo *m, int64_t k) {
    return m->dtype == LCL_F32 ? (double)((const float *)m->val)[k] : ((const double *)m->val)[k];
}

static void check_zeroed(const lcl_coo *m) {
    CHECK(m->nnz == 0 && m->cap == 0 && m->row == NULL && m->col == NULL && m->val == NULL);
}

static void check_same(const lcl_coo *a, const lcl_coo *b) {
    CHECK(a->dtype == b->dtype && a->rows == b->rows && a->cols == b->cols && a->nnz == b->nnz);
    if (a->nnz == 0) return;
    CHECK(memcmp(a->row, b->row, (size_t)a->nnz * sizeof(int32_t)) == 0);
    CHECK(memcmp(a->col, b->col, (size_t)a->nnz * sizeof(int32_t)) == 0);
    CHECK(memcmp(a->val, b->val, (size_t)a->nnz * (a->dtype == LCL_F32 ? sizeof(float) : sizeof(double))) == 0);
}

/* index of (i, j) in a canonical COO, or -1 */
static int64_t find(const lcl_coo *m, int32_t i, int32_t j) {
    int64_t lo = 0, hi = m->nnz - 1;
    while (lo <= hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (m->row[mid] < i || (m->row[mid] == i && m->col[mid] < j)) lo = mid + 1;
        else if (m->row[mid] == i && m->col[mid] == j) return mid;
        else hi = mid - 1;
    }
    return -1;
}

static void check_canonical(const lcl_coo *m, const lcl_mm_info *info, lcl_dtype dt, int expand) {
    int64_t k, maxnnz;
    int sym = info->symmetry != LCL_MM_GENERAL;
    CHECK(m->dtype == dt);
    CHECK(m->rows == info->rows && m->cols == info->cols);
    CHECK(m->rows >= 0 && m->cols >= 0 && m->rows <= INT32_MAX && m->cols <= INT32_MAX);
    CHECK(m->nnz >= 0 && m->nnz <= m->cap);
    CHECK(info->entries >= 0);
    maxnnz = (expand && sym) ? (info->entries > INT64_MAX / 2 ? INT64_MAX : info->entries * 2) : info->entries;
    CHECK(m->nnz <= maxnnz);
    if (m->nnz > 0) CHECK(m->row && m->col && m->val);
    for (k = 0; k < m->nnz; k++) {
        CHECK(m->row[k] >= 0 && m->row[k] < m->rows);
        CHECK(m->col[k] >= 0 && m->col[k] < m->cols);
        CHECK(isfinite(val(m, k)));
        if (k > 0) CHECK(m->row[k] > m->row[k - 1] || (m->row[k] == m->row[k - 1] && m->col[k] > m->col[k - 1]));
        if (sym && !expand) {   /* stored triangle only */
            if (info->symmetry == LCL_MM_SKEW_SYMMETRIC) CHECK(m->row[k] > m->col[k]);
            else CHECK(m->row[k] >= m->col[k]);
        }
    }
    if (sym && expand) {        /* mirrored: (j,i) present with the same (skew: negated) value */
        for (k = 0; k < m->nnz; k++) {
            int64_t t = find(m, m->col[k], m->row[k]);
            CHECK(t >= 0);
            if (info->symmetry == LCL_MM_SKEW_SYMMETRIC) {
                CHECK(m->row[k] != m->col[k]);
                CHECK(val(m, t) == -val(m, k));
            } else {
                CHECK(val(m, t) == val(m, k));
            }
        }
    }
    if (info->format == LCL_MM_ARRAY) {     /* every stored entry kept, zeros included */
        int64_t n = info->rows;
        if (!sym || !expand) CHECK(m->nnz == info->entries);
        else if (info->symmetry == LCL_MM_SYMMETRIC) CHECK(m->nnz == 2 * info->entries - n);
        else CHECK(m->nnz == 2 * info->entries);
    }
}

/* the file at path_out, read back into memory (its own buffer: lcl_mm_read's 4 MiB read buffer
   costs more under ASan than all the parsing, and the file path is covered below) */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f) return NULL;
    for (;;) {
        if (n == cap) {
            char *nb = (char *)realloc(buf, cap ? cap * 2 : 4096);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
            cap = cap ? cap * 2 : 4096;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    *len = n;
    return buf;
}

static void write_read(const lcl_coo *m, lcl_mm_symmetry sym, lcl_dtype dt, int flags, lcl_coo *b, lcl_mm_info *bi) {
    size_t len = 0;
    char *text;
    CHECK(lcl_mm_write(ctx, path_out, m, sym) == LCL_OK);
    text = slurp(path_out, &len);
    CHECK(text != NULL);
    CHECK(lcl_mm_read_mem(ctx, text, len, dt, flags, b, bi) == LCL_OK);
    free(text);
}

/* write m (general, and as its own symmetry when it has one) and read it back: identical */
static void round_trip(const lcl_coo *m, const lcl_mm_info *info, lcl_dtype dt, int flags) {
    lcl_coo b;
    lcl_mm_info bi;
    write_read(m, LCL_MM_GENERAL, dt, flags, &b, &bi);
    CHECK(bi.format == LCL_MM_COORDINATE && bi.field == LCL_MM_REAL && bi.symmetry == LCL_MM_GENERAL);
    CHECK(bi.entries == m->nnz);
    check_same(m, &b);
    lcl_coo_free(&b);
    if (info->symmetry != LCL_MM_GENERAL) {
        /* expanded: the lower triangle written and expanded again gives m; not expanded: m is
           the stored triangle itself */
        write_read(m, info->symmetry, dt, flags, &b, &bi);
        CHECK(bi.symmetry == info->symmetry);
        check_same(m, &b);
        lcl_coo_free(&b);
    }
}

static int write_input(const uint8_t *data, size_t size) {
    FILE *f = fopen(path_in, "wb");
    int ok;
    if (!f) return 0;
    ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const lcl_dtype dts[2] = {LCL_F64, LCL_F32};
    static const int flagset[2] = {LCL_MM_EXPAND, 0};
    lcl_coo A[2];
    lcl_mm_info info[2];
    lcl_status st[2];
    int m;
    for (m = 0; m < 2; m++) {
        memset(&info[m], 0, sizeof info[m]);
        st[m] = lcl_mm_read_mem(ctx, (const char *)data, size, dts[m], flagset[m], &A[m], &info[m]);
        CHECK((int)st[m] >= 0 && (int)st[m] < LCL_STATUS_COUNT_);
        if (st[m] != LCL_OK) {
            CHECK(lcl_last_status(ctx) == st[m]);
            CHECK(lcl_last_error(ctx)[0] != 0);
            check_zeroed(&A[m]);
            continue;
        }
        check_canonical(&A[m], &info[m], dts[m], flagset[m] & LCL_MM_EXPAND);
        round_trip(&A[m], &info[m], dts[m], flagset[m]);
    }
    /* the header does not depend on dtype or flags */
    if (st[0] == LCL_OK && st[1] == LCL_OK) CHECK(memcmp(&info[0], &info[1], sizeof info[0]) == 0);

    /* the same bytes through the file paths, for a quarter of the inputs (chosen by size % 16):
       every file read allocates a 4 MiB buffer, and under ASan that costs 20 times the parse */
    if (size % 16 < 4) {
        int k = (size & 16) ? 1 : 0;    /* which of the two reads to compare against */
        int sel = (int)(size % 16);
        CHECK(write_input(data, size));
        if (sel >= 2 && info[k].rows * info[k].cols > DENSE_LIMIT) sel = 0;
        if (sel == 0) {                 /* lcl_mm_read == lcl_mm_read_mem */
            lcl_coo F;
            lcl_mm_info fi;
            lcl_status sf = lcl_mm_read(ctx, path_in, dts[k], flagset[k], &F, &fi);
            CHECK(sf == st[k]);
            if (sf == LCL_OK) {
                check_same(&A[k], &F);
                CHECK(memcmp(&fi, &info[k], sizeof fi) == 0);
            } else {
                check_zeroed(&F);
            }
            lcl_coo_free(&F);
        } else if (sel == 1) {          /* lcl_mm_read_info: the header alone */
            lcl_mm_info hi;
            lcl_status sh = lcl_mm_read_info(ctx, path_in, &hi);
            if (st[k] == LCL_OK) {
                CHECK(sh == LCL_OK);
                CHECK(memcmp(&hi, &info[k], sizeof hi) == 0);
            }
            if (sh == LCL_OK) CHECK(hi.rows == info[k].rows && hi.cols == info[k].cols && hi.entries == info[k].entries);
        } else {                        /* lcl_mm_read_dense, declared size <= DENSE_LIMIT */
            lcl_dense D;
            lcl_mm_info di;
            lcl_layout lay = (size & 1) ? LCL_ROW_MAJOR : LCL_COL_MAJOR;
            lcl_status sd = lcl_mm_read_dense(ctx, path_in, dts[k], lay, flagset[k], &D, &di);
            /* the same parse: the same verdict (dense never runs out of room here) */
            CHECK(sd == st[k]);
            if (sd == LCL_OK) {
                lcl_dense R;
                int64_t i, j;
                CHECK(D.rows == info[k].rows && D.cols == info[k].cols && D.dtype == dts[k] && D.layout == lay);
                CHECK(lcl_coo_to_dense(ctx, &A[k], lay, &R) == LCL_OK);
                for (j = 0; j < D.cols; j++)
                    for (i = 0; i < D.rows; i++) CHECK(lcl_dense_get(&D, i, j) == lcl_dense_get(&R, i, j));
                lcl_dense_free(&R);
            } else {
                CHECK(D.data == NULL);
            }
            lcl_dense_free(&D);
        }
    }
    lcl_coo_free(&A[0]);
    lcl_coo_free(&A[1]);
    return 0;
}
