/* sparse.cl -- SpMV kernels: y = alpha*A*x + beta*y for the rows of one part of an lcl_spmat
   (linalg_cl.h >>formats, >>spmv-opencl). Every kernel works on part-local rows 0..n-1 and a y of
   the part's rows; x is the whole vector. Indices are int32 (the host checks that a part fits).
   beta == 0 never reads y (y may hold NaN). Built once per precision, as its own program: LCL_FP64
   selects double, kernel names end in _d or _f.
   Portability (PoCL 5 asserts otherwise): no early return, every barrier reached by the whole
   work-group, loops around barriers have uniform trip counts. */
#ifndef LCL_FP64
#define LCL_FP64 1
#endif
#ifndef LCL_WG
#define LCL_WG 256
#endif
#if LCL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if LCL_FP64
#define real double
#define SFX(name) name##_d
#else
#define real float
#define SFX(name) name##_f
#endif
/* CSR adaptive: products a stream block keeps in local memory (nnz per block of short rows) */
/* CSR adaptive's work-group (LCL_SPMV_WG; the host passes it where it is not LCL_WG) */
#ifndef SPMV_WG
#define SPMV_WG LCL_WG
#endif
#ifndef SPMV_LDS
#define SPMV_LDS (4 * SPMV_WG)
#endif
/* CSR adaptive: entries a work-item loads at once (1: one at a time, the default until timed on a GPU) */
#ifndef SPMV_UNROLL
#define SPMV_UNROLL 1
#endif

/* Cache hints for the gathers of x (NVIDIA; the host sets SPMV_HINT there): the matrix is read once,
   x many times at random, and x may fit in L2 where the matrix does not. Without hints the streamed
   matrix evicts x's lines and more gathers pay a 32-byte sector from memory (power-law 4M, double,
   H100: 0.96 -> 0.81 ms).
     SPMV_HINT 1: the matrix's loads marked streaming (ld.global.cs, evict-first);
     SPMV_HINT 2: the matrix evict-first and x evict-last, by L2 cache policies (createpolicy, sm_80);
     SPMV_HINT 3: the matrix streaming, x evict-last.
   (2 and 3 measured no faster than 1.) LD_MV / LD_MI load a value / an index of the matrix, LD_X an
   element of x. */
#ifndef SPMV_HINT
#define SPMV_HINT 0
#endif
#ifndef LCL_NV_CC
#define LCL_NV_CC 90   /* NVIDIA's compute capability (the host passes it): the hints need 80 */
#endif
#if defined(__NV_CL_C_VERSION) && SPMV_HINT > 0 && LCL_NV_CC >= 80
#if LCL_FP64
#define PTX_T "f64"
#define PTX_C "d"
#else
#define PTX_T "f32"
#define PTX_C "f"
#endif
#define SPMV_POLICIES ulong pol_first, pol_last; \
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol_first)); \
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol_last))
__attribute__((always_inline)) inline real ld_real(__global const real *p, ulong pol, int how) {
    real v;
    if (how == 1) asm("ld.global.cs." PTX_T " %0, [%1];" : "=" PTX_C(v) : "l"(p));
    else if (how == 2) asm("ld.global.nc.L2::cache_hint." PTX_T " %0, [%1], %2;" : "=" PTX_C(v) : "l"(p), "l"(pol));
    else v = *p;
    return v;
}
__attribute__((always_inline)) inline int ld_int(__global const int *p, ulong pol, int how) {
    int v;
    if (how == 1) asm("ld.global.cs.s32 %0, [%1];" : "=r"(v) : "l"(p));
    else if (how == 2) asm("ld.global.nc.L2::cache_hint.s32 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(pol));
    else v = *p;
    return v;
}
#define SPMV_HM (SPMV_HINT == 2 ? 2 : 1)
#define LD_MV(p) ld_real((p), pol_first, SPMV_HM)
#define LD_MI(p) ld_int((p), pol_first, SPMV_HM)
#define LD_X(p) ld_real((p), pol_last, SPMV_HINT >= 2 ? 2 : 0)
#else
#define SPMV_POLICIES do { } while (0)
#define LD_MV(p) (*(p))
#define LD_MI(p) (*(p))
#define LD_X(p) (*(p))
#endif

/* y[i] = alpha*s + beta*y[i], y untouched by a read when beta == 0 */
#define SPMV_PUT(y, i, s) do { if (beta == (real)0) (y)[i] = alpha * (s); else (y)[i] = fma(beta, (y)[i], alpha * (s)); } while (0)

/* CSR scalar: one work-item per row */
__kernel void SFX(lcl_spmv_csr_scalar)(const int n, __global const int *ptr, __global const int *idx,
                                       __global const real *val, __global const real *x, const real alpha,
                                       const real beta, __global real *y) {
    int i = get_global_id(0);
    if (i < n) {
        real s = 0;
        int k, e = ptr[i + 1];
        for (k = ptr[i]; k < e; k++) s = fma(val[k], x[idx[k]], s);
        SPMV_PUT(y, i, s);
    }
}

/* CSR vector: V consecutive lanes per row (coalesced loads of the row), partial sums reduced
   through local memory after one barrier; V divides LCL_WG. */
#define SPMV_CSR_VECTOR(V) \
__kernel void SFX(lcl_spmv_csr_vec##V)(const int n, __global const int *ptr, __global const int *idx, \
                                       __global const real *val, __global const real *x, const real alpha, \
                                       const real beta, __global real *y) { \
    __local real red[LCL_WG]; \
    int lid = get_local_id(0), lane = lid & (V - 1), row = (int)(get_global_id(0) / V), j; \
    real s = 0; \
    if (row < n) { \
        int k, e = ptr[row + 1]; \
        for (k = ptr[row] + lane; k < e; k += V) s = fma(val[k], x[idx[k]], s); \
    } \
    red[lid] = s; \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if (row < n && lane == 0) { \
        real t = 0; \
        for (j = 0; j < V; j++) t += red[lid + j]; \
        SPMV_PUT(y, row, t); \
    } \
}
SPMV_CSR_VECTOR(2)
SPMV_CSR_VECTOR(4)
SPMV_CSR_VECTOR(8)
SPMV_CSR_VECTOR(16)
SPMV_CSR_VECTOR(32)

/* CSR adaptive (LCL_KERNEL_MERGE; CSR-Adaptive's row blocks, equal work per work-group): the
   host cuts the rows into blocks blk[4g..4g+3] = {r0, r1, k0, k1}:
     r1 - r0 > 1   several short rows whose nnz [k0, k1) fit SPMV_LDS: the products go to local
                   memory, then one lane per row sums its row (CSR-stream);
     r1 - r0 == 1  one long row: the whole work-group reduces it;
     r1 == r0      a chunk [k0, k1) of a very long row r0: its sum goes to carry[g], and
                   lcl_spmv_csr_long adds the chunks of each such row (no atomics). */
__kernel void SFX(lcl_spmv_csr_adaptive)(__global const int *blk, __global const int *ptr, __global const int *idx,
                                         __global const real *val, __global const real *x, const real alpha,
                                         const real beta, __global real *y, __global real *carry) {
    __local real prod[SPMV_LDS];
    __local real red[SPMV_WG];
    int g = get_group_id(0), lid = get_local_id(0), k, off;
    int r0 = blk[4 * g], r1 = blk[4 * g + 1], k0 = blk[4 * g + 2], k1 = blk[4 * g + 3];
    int stream = r1 - r0 > 1;
    real acc = 0;
    SPMV_POLICIES;
#if SPMV_UNROLL > 1
    /* SPMV_UNROLL of a work-item's entries at once: their index and value loads, then their
       gathers of x, in flight together (one entry at a time waits for the index, then for x);
       the same products, summed in the same order */
    for (k = k0 + lid; k < k1; k += SPMV_UNROLL * SPMV_WG) {
        int c[SPMV_UNROLL], u;
        real v[SPMV_UNROLL], p[SPMV_UNROLL];
#pragma unroll
        for (u = 0; u < SPMV_UNROLL; u++) {
            const int q = k + u * SPMV_WG;
            c[u] = q < k1 ? LD_MI(idx + q) : 0;
            v[u] = q < k1 ? LD_MV(val + q) : 0;
        }
#pragma unroll
        for (u = 0; u < SPMV_UNROLL; u++) p[u] = k + u * SPMV_WG < k1 ? v[u] * LD_X(x + c[u]) : 0;
#pragma unroll
        for (u = 0; u < SPMV_UNROLL; u++) {
            const int q = k + u * SPMV_WG;
            if (q < k1) {
                if (stream) prod[q - k0] = p[u];
                else acc += p[u];
            }
        }
    }
#else
    for (k = k0 + lid; k < k1; k += SPMV_WG) {
        real p = LD_MV(val + k) * LD_X(x + LD_MI(idx + k));
        if (stream) prod[k - k0] = p;
        else acc += p;
    }
#endif
    red[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (stream && lid < r1 - r0) {
        int r = r0 + lid, a = ptr[r] - k0, b = ptr[r + 1] - k0;
        real s = 0;
        for (k = a; k < b; k++) s += prod[k];
        SPMV_PUT(y, r, s);
    }
    /* a stream block has no tree to reduce: its trip count is zero (uniform in the group) */
    for (off = stream ? 0 : SPMV_WG / 2; off > 0; off >>= 1) {
        if (lid < off) red[lid] += red[lid + off];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!stream && lid == 0) {
        if (r1 == r0) carry[g] = red[0];
        else SPMV_PUT(y, r0, red[0]);
    }
}
/* long[3i..3i+2] = {row, first block, blocks}: y[row] from the chunks' sums, parts of them a block
   (lcl_spmv_csr_cols; 1 for csr_adaptive) */
__kernel void SFX(lcl_spmv_csr_long)(const int nlong, const int parts, __global const int *lng, __global const real *carry,
                                     const real alpha, const real beta, __global real *y) {
    int i = get_global_id(0);
    if (i < nlong) {
        int r = lng[3 * i], b = parts * lng[3 * i + 1], e = b + parts * lng[3 * i + 2], k;
        real s = 0;
        for (k = b; k < e; k++) s += carry[k];
        SPMV_PUT(y, r, s);
    }
}

/* CSR adaptive over column parts (LCL_SPMV_XPART_KB): x's gathers stay within one part of the
   columns at a time, so the part stays in L2 where the whole x would not (H100 / H200: a line read
   by an SM is held in its own half of L2, 25 MB; x of 32 MB in double misses there, BENCHMARKS.md).
   Each of the host's row blocks keeps its entries grouped by part, rows in order within a part:
   part h of block g is [bo[g*(parts+1)+h], bo[g*(parts+1)+h+1]), row r's share of it starts at
   q[h*n+r]. Work-group w does part w / nblk of block w % nblk: groups start about in the order of
   their ids, so all of part 0 runs first. Part 0 writes y = alpha*s + beta*y; part h > 0 writes its
   row sums to z[(h-1)*n+r], which lcl_spmv_add_parts adds to y after the kernel. No part waits on
   another (a flag per block, raised after a fence, cost 13% of the product, BENCHMARKS.md).
   Chunks of very long rows (r1 == r0) go to carry[g*parts+h] for lcl_spmv_csr_long; their z stays
   0 from the upload. Kept apart from lcl_spmv_csr_adaptive: one kernel for both, with one part
   read as q = ptr, was 3% slower in single on an H100 (BENCHMARKS.md, forty-second session). */
__kernel void SFX(lcl_spmv_csr_cols)(const int nblk, const int parts, const int n, __global const int *blk,
                                     __global const int *bo, __global const int *q, __global const int *idx,
                                     __global const real *val, __global const real *x, const real alpha,
                                     const real beta, __global real *y, __global real *carry, __global real *z) {
    __local real prod[SPMV_LDS];
    __local real red[SPMV_WG];
    int w = get_group_id(0), h = w / nblk, g = w - h * nblk, lid = get_local_id(0), k, off;
    int r0 = blk[4 * g], r1 = blk[4 * g + 1], k0 = bo[g * (parts + 1) + h], k1 = bo[g * (parts + 1) + h + 1];
    int stream = r1 - r0 > 1;
    real acc = 0, s = 0;
    SPMV_POLICIES;
    for (k = k0 + lid; k < k1; k += SPMV_WG) {
        real p = LD_MV(val + k) * LD_X(x + LD_MI(idx + k));
        if (stream) prod[k - k0] = p;
        else acc += p;
    }
    red[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (stream && lid < r1 - r0) {
        int r = r0 + lid, a = q[h * n + r] - k0, b = (r + 1 < r1 ? q[h * n + r + 1] : k1) - k0;
        for (k = a; k < b; k++) s += prod[k];
    }
    for (off = stream ? 0 : SPMV_WG / 2; off > 0; off >>= 1) {
        if (lid < off) red[lid] += red[lid + off];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!stream) s = red[0];
    if (r1 == r0) {
        if (lid == 0) carry[g * parts + h] = s;
    } else if (stream ? lid < r1 - r0 : lid == 0) {
        int r = r0 + lid;
        if (h == 0) SPMV_PUT(y, r, s);
        else z[(size_t)(h - 1) * (size_t)n + r] = s;
    }
}
/* y += alpha * (the later parts' row sums) after lcl_spmv_csr_cols */
__kernel void SFX(lcl_spmv_add_parts)(const int n, const int parts, const real alpha, __global const real *z, __global real *y) {
    int i = get_global_id(0), h;
    if (i < n) {
        real s = z[i];
        for (h = 2; h < parts; h++) s += z[(size_t)(h - 1) * (size_t)n + i];
        y[i] += alpha * s;
    }
}

/* y = beta*y (beta == 0: zero, y not read): before the accumulating COO kernels */
__kernel void SFX(lcl_spmv_scale)(const int n, const real beta, __global real *y) {
    int i = get_global_id(0);
    if (i < n) y[i] = beta == (real)0 ? (real)0 : beta * y[i];
}

/* COO by segmented reduction: work-group g takes entries [g*tiles*LCL_WG, (g+1)*tiles*LCL_WG),
   LCL_WG at a time, and scans (row, product) pairs in local memory. Every row that ends inside
   the group is added to y (y += alpha*sum: scaled beforehand); the group's last row goes to
   crow/cval[g], and lcl_spmv_coo_fix adds those carries. A row is added directly by at most one
   group (where it ends, when not the group's last), so no atomics are needed. */
__kernel void SFX(lcl_spmv_coo)(const int nnz, const int tiles, __global const int *row, __global const int *idx,
                                __global const real *val, __global const real *x, const real alpha,
                                __global real *y, __global int *crow, __global real *cval) {
    __local int lr[LCL_WG];
    __local real lv[LCL_WG];
    int lid = get_local_id(0), g = get_group_id(0), t, d;
    int carry_r = -1;
    real carry_v = 0;
    long base = (long)g * tiles * LCL_WG;
    for (t = 0; t < tiles; t++) {
        long k = base + (long)t * LCL_WG + lid;
        int r = -1, first, nr;
        real v = 0, s, nv;
        if (k < nnz) { r = row[k]; v = val[k] * x[idx[k]]; }
        lr[lid] = r;
        lv[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (d = 1; d < LCL_WG; d <<= 1) {   /* inclusive segmented scan (rows are sorted) */
            real add = 0;
            if (lid >= d && lr[lid - d] == r) add = lv[lid - d];
            barrier(CLK_LOCAL_MEM_FENCE);
            lv[lid] += add;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        s = lv[lid];
        first = lr[0];
        if (r >= 0 && r == carry_r) s += carry_v;   /* the tile's first row continues the carry */
        if (lid == 0 && carry_r >= 0 && carry_r != first) y[carry_r] += alpha * carry_v;
        if (lid != LCL_WG - 1 && r >= 0 && lr[lid + 1] != r) y[r] += alpha * s;
        nr = lr[LCL_WG - 1];
        nv = lv[LCL_WG - 1] + (nr >= 0 && nr == carry_r ? carry_v : (real)0);
        barrier(CLK_LOCAL_MEM_FENCE);
        carry_r = nr;
        carry_v = nv;
    }
    if (lid == 0) {
        crow[g] = carry_r;
        cval[g] = alpha * carry_v;
    }
}
__kernel void SFX(lcl_spmv_coo_fix)(const int ng, __global const int *crow, __global const real *cval, __global real *y) {
    int g = get_global_id(0);
    if (g < ng) {
        int r = crow[g], h;
        if (r >= 0 && (g == 0 || crow[g - 1] != r)) {
            real s = 0;
            for (h = g; h < ng && crow[h] == r; h++) s += cval[h];
            y[r] += s;
        }
    }
}

/* ELL, column-major (slot k of row i at k*ld + i): one work-item per row, coalesced; padding
   slots (column -1) skip the x load. XC(c) reads x[c]. */
#define SPMV_ELL_ROW(XC) do { \
        real s = 0; \
        int k; \
        for (k = 0; k < w; k++) { \
            int c = idx[k * ld + i]; \
            if (c >= 0) s = fma(val[k * ld + i], XC(c), s); \
        } \
        SPMV_PUT(y, i, s); \
    } while (0)
#define SPMV_X(c) x[c]
__kernel void SFX(lcl_spmv_ell)(const int n, const int w, const int ld, __global const int *idx,
                                __global const real *val, __global const real *x, const real alpha,
                                const real beta, __global real *y) {
    int i = get_global_id(0);
    if (i < n) SPMV_ELL_ROW(SPMV_X);
}

#ifdef __IMAGE_SUPPORT__
/* ELL with x read through an image1d_buffer (the texture path): float as CL_R/CL_FLOAT texels,
   double as CL_RG/CL_UNSIGNED_INT32 texels reinterpreted (texels == 1), or as two CL_R uint
   texels where the device has no two-channel buffer images (texels == 2) */
inline real ell_img_x(__read_only image1d_buffer_t xi, const int texels, const int c) {
#if LCL_FP64
    uint4 t = read_imageui(xi, texels * c), u = t;
    if (texels == 2) u = read_imageui(xi, 2 * c + 1);
    return as_double((uint2)(t.x, texels == 2 ? u.x : t.y));
#else
    (void)texels;
    return read_imagef(xi, c).x;
#endif
}
#define SPMV_XIMG(c) ell_img_x(xi, texels, c)
__kernel void SFX(lcl_spmv_ell_img)(const int n, const int w, const int ld, __global const int *idx,
                                    __global const real *val, __read_only image1d_buffer_t xi, const real alpha,
                                    const real beta, __global real *y, const int texels) {
    int i = get_global_id(0);
    if (i < n) SPMV_ELL_ROW(SPMV_XIMG);
}
#endif

/* SELL-C-sigma: position p = s*C + r (lane r of slice s) is one work-item; slot k at
   sptr[s] + k*C + r; the row is perm[p] (part-local), so y is scattered through perm */
__kernel void SFX(lcl_spmv_sell)(const int n, const int C, __global const int *sptr, __global const int *sw,
                                 __global const int *perm, __global const int *idx, __global const real *val,
                                 __global const real *x, const real alpha, const real beta, __global real *y) {
    int p = get_global_id(0);
    if (p < n) {
        int s = p / C, r = p - s * C, base = sptr[s] + r, w = sw[s], k, row = perm[p];
        real acc = 0;
        for (k = 0; k < w; k++) {
            int c = idx[base + k * C];
            if (c >= 0) acc = fma(val[base + k * C], x[c], acc);
        }
        SPMV_PUT(y, row, acc);
    }
}

/* DIA, BCSR and dense skip the zeros they store: padding, not entries, so an Inf or NaN in x
   reaches only the rows with an entry in its column (as CSR gives) */

/* DIA (also called CDS): val[d*ld + i] = A(r0+i, r0+i+off[d]); one work-item per row */
__kernel void SFX(lcl_spmv_dia)(const int n, const int r0, const int cols, const int ndiag, const int ld,
                                __global const int *off, __global const real *val, __global const real *x,
                                const real alpha, const real beta, __global real *y) {
    int i = get_global_id(0);
    if (i < n) {
        real s = 0;
        int d;
        for (d = 0; d < ndiag; d++) {
            int c = r0 + i + off[d];
            real a = val[d * ld + i];
            if (a != 0 && c >= 0 && c < cols) s = fma(a, x[c], s);
        }
        SPMV_PUT(y, i, s);
    }
}

/* BCSR: one work-item per row of a block row; blocks br x bc row-major, zero-filled */
__kernel void SFX(lcl_spmv_bcsr)(const int n, const int br, const int bc, const int cols, __global const int *bptr,
                                 __global const int *bidx, __global const real *val, __global const real *x,
                                 const real alpha, const real beta, __global real *y) {
    int i = get_global_id(0);
    if (i < n) {
        int b = i / br, rr = i - b * br, k, cc;
        real s = 0;
        for (k = bptr[b]; k < bptr[b + 1]; k++) {
            int c0 = bidx[k] * bc;
            __global const real *vb = val + ((long)k * br + rr) * bc;
            for (cc = 0; cc < bc; cc++)
                if (vb[cc] != 0 && c0 + cc < cols) s = fma(vb[cc], x[c0 + cc], s);
        }
        SPMV_PUT(y, i, s);
    }
}

/* dense, row-major: a work-group per row, reduced in local memory */
__kernel void SFX(lcl_spmv_dense)(const int cols, __global const real *val, __global const real *x,
                                  const real alpha, const real beta, __global real *y) {
    __local real red[LCL_WG];
    int i = get_group_id(0), lid = get_local_id(0), j, off;
    __global const real *a = val + (long)i * cols;
    real s = 0;
    for (j = lid; j < cols; j += LCL_WG)
        if (a[j] != 0) s = fma(a[j], x[j], s);
    red[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (off = LCL_WG / 2; off > 0; off >>= 1) {
        if (lid < off) red[lid] += red[lid + off];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) SPMV_PUT(y, i, red[0]);
}
