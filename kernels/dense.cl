/* dense.cl -- dense kernels for the blocked LU and Cholesky. Device matrices are ROW-major with a
   leading dimension (row swaps are then contiguous, so coalesced); offsets are in elements.
   Built once per precision: LCL_FP64 selects double, and every kernel name ends in _d or _f. */
#ifndef LCL_FP64
#define LCL_FP64 1
#endif
#ifndef LCL_NV_CC
#define LCL_NV_CC 90   /* NVIDIA's compute capability (the host passes it): FP64 MMA needs 80, the LU panel's PTX 70 */
#endif
#ifndef LCL_WG
#define LCL_WG 256     /* 1-D work-group size: a power of two the device allows */
#endif
#if LCL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define real double
#define real2 double2
#define SFX(name) name##_d
#else
#define real float
#define real2 float2
#define SFX(name) name##_f
#endif

/* GEMM tile: a work-group of GEMM_WX x GEMM_WY work-items computes a GEMM_TM x GEMM_TN block of C,
   each work-item an (TM/WX) x (TN/WY) register block, stepping K by GEMM_TK through local memory. */
#ifndef GEMM_TM
#define GEMM_TM 64
#endif
#ifndef GEMM_TN
#define GEMM_TN 64
#endif
#ifndef GEMM_TK
#define GEMM_TK 16
#endif
#ifndef GEMM_WX
#define GEMM_WX 16
#endif
#ifndef GEMM_WY
#define GEMM_WY 16
#endif
#define GEMM_RM (GEMM_TM / GEMM_WY)
#define GEMM_RN (GEMM_TN / GEMM_WX)
#define GEMM_NT (GEMM_WX * GEMM_WY)

/* lower != 0: C's diagonal in column j is at row gemm_diag(lower, j). 1: row j. Else lower = D +
   (bw << 8): C is bw-wide column blocks of a matrix dealt round-robin to D devices, with the rows
   from the first block's diagonal, so block c's diagonal starts at row c * D * bw (the split
   Cholesky's update of all of a device's columns in one launch). */
inline int gemm_diag(const int lower, const int j) {
    const int bw = lower >> 8;
    return bw ? j + j / bw * ((lower & 255) - 1) * bw : j;
}

/* C = beta*C + alpha*op(A)*op(B), all row-major. trans bit 0: op(B) = B^T (B is N x K);
   bit 1: op(A) = A^T (A is K x M).
   lower != 0: only blocks touching the lower triangle of C are computed (the SYRK of Cholesky),
   and inside them only elements on or below the diagonal (gemm_diag) are written. */
__kernel __attribute__((reqd_work_group_size(GEMM_WX, GEMM_WY, 1)))
void SFX(lcl_gemm)(const int M, const int N, const int K, const real alpha,
                   __global const real *A, const long offa, const int lda,
                   __global const real *B, const long offb, const int ldb, const int trans,
                   const real beta, __global real *C, const long offc, const int ldc, const int lower) {
    __local real As[GEMM_TK][GEMM_TM + 1];
    __local real Bs[GEMM_TK][GEMM_TN + 1];
    real acc[GEMM_RM][GEMM_RN];
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * GEMM_WX + tx;
    const int bn = get_group_id(0) * GEMM_TN, bm = get_group_id(1) * GEMM_TM;
    const int transb = trans & 1, transa = trans & 2;
    /* a block wholly above the diagonal does nothing: its K loop runs zero times (no early
       return before a barrier, which some kernel compilers reject) */
    const int kend = lower && gemm_diag(lower, bn) > bm + GEMM_TM - 1 ? 0 : K;
    int i, j, k0, l;
    A += offa;
    B += offb;
    C += offc;
    for (i = 0; i < GEMM_RM; i++)
        for (j = 0; j < GEMM_RN; j++) acc[i][j] = 0;
    for (k0 = 0; k0 < kend; k0 += GEMM_TK) {
        /* A and B blocks: neighbours read neighbouring addresses whatever the transposition.
           One loop each with the choice inside: a branch between loops after a barrier trips
           some kernel compilers (PoCL 5). */
        for (l = tid; l < GEMM_TM * GEMM_TK; l += GEMM_NT) {
            int kk = transa ? l / GEMM_TM : l % GEMM_TK, ii = transa ? l % GEMM_TM : l / GEMM_TK;
            int gi = bm + ii, gk = k0 + kk;
            long at = transa ? (long)gk * lda + gi : (long)gi * lda + gk;
            As[kk][ii] = (gi < M && gk < K) ? A[at] : (real)0;
        }
        for (l = tid; l < GEMM_TK * GEMM_TN; l += GEMM_NT) {
            int kk = transb ? l % GEMM_TK : l / GEMM_TN, jj = transb ? l / GEMM_TK : l % GEMM_TN;
            int gj = bn + jj, gk = k0 + kk;
            long at = transb ? (long)gj * ldb + gk : (long)gk * ldb + gj;
            Bs[kk][jj] = (gj < N && gk < K) ? B[at] : (real)0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (l = 0; l < GEMM_TK; l++) {
            real a[GEMM_RM], b[GEMM_RN];
            for (i = 0; i < GEMM_RM; i++) a[i] = As[l][ty + i * GEMM_WY];
            for (j = 0; j < GEMM_RN; j++) b[j] = Bs[l][tx + j * GEMM_WX];
            for (i = 0; i < GEMM_RM; i++)
                for (j = 0; j < GEMM_RN; j++) acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* a row's loads of C before its stores (see tc_gemm_k's end: a load after a store to C is
       not moved above it) */
    for (i = 0; i < GEMM_RM; i++) {
        int gi = bm + ty + i * GEMM_WY;
        real cv[GEMM_RN];
        if (gi >= M || kend == 0) continue;
        for (j = 0; j < GEMM_RN; j++) {
            int gj = bn + tx + j * GEMM_WX;
            cv[j] = beta != 0 && gj < N && !(lower && gemm_diag(lower, gj) > gi) ? C[(long)gi * ldc + gj] : 0;
        }
        for (j = 0; j < GEMM_RN; j++) {
            int gj = bn + tx + j * GEMM_WX;
            if (gj < N && !(lower && gemm_diag(lower, gj) > gi))
                C[(long)gi * ldc + gj] = beta == 0 ? alpha * acc[i][j] : fma(alpha, acc[i][j], beta * cv[j]);
        }
    }
}

/* The same GEMM on NVIDIA's FP64 tensor cores (mma.sync, inline PTX). NVIDIA's OpenCL compiler
   defines __NV_CL_C_VERSION; everywhere else these kernels do not exist and the host uses
   lcl_gemm. A work-group of TC_WM x TC_WN warps (default 4 x 2: a 128 x 128 block of C) gives
   each warp 32 x 64 of C (4 x 8 tiles of 8 x 8).
   Two ways to stage the tiles of A and op(B), chosen per kernel (the pl argument of tc_gemm_k):
   - pipelined (TC_STAGES >= 2, the host's choice where local memory holds them; the kernels in
     TC_PIPE): TC_STAGES tiles of TC_PK columns in flight, copied global -> local by cp.async,
     so no registers hold the next tile and no stores stall the warps; one barrier per stage.
     The tiles are unpadded (three stages of 128 x 8 for A and for op(B) fill NVIDIA's 48 KB),
     so tc_at swizzles them instead: the copies and the fragment loads meet each bank once.
     H200: the trailing updates 4-10% faster; the small products of potrf's steps and of the
     split along K were slower (dpotrf 4096 +8%), so those keep the other way.
   - through registers: tiles TC_BK deep, rows padded to TC_BK + 4, the next one fetched into
     registers while the tensor cores work on the current one.
   TC_EMU (tests, any device): the copies are plain loads and stores and each MMA a dot product
   read from the same local tiles, so PoCL runs the staging, swizzles, tile loop and epilogues
   of these kernels; only the fragment loads and the mma instructions are NVIDIA's alone. */
#if (defined(__NV_CL_C_VERSION) && LCL_FP64 && LCL_NV_CC >= 80) || (defined(TC_EMU) && LCL_FP64)
#ifndef TC_WM
#define TC_WM 4        /* warps along M and N: each computes 32 x 64 of C */
#endif
#ifndef TC_WN
#define TC_WN 2
#endif
#ifndef TC_STAGES
#define TC_STAGES 0
#endif
#define TC_PK 8        /* K columns a stage */
#ifndef TC_BK
#define TC_BK 16
#endif
#define TC_BM (32 * TC_WM)
#define TC_BN (64 * TC_WN)
#define TC_NT (32 * TC_WM * TC_WN)
#define TC_LD (TC_BK + 4)
#ifndef TC_PIPE
#define TC_PIPE 1      /* the kernels pipelined (TC_STAGES > 0): 1 the GEMMs, 2 the split along K, 4 potrf's steps */
#endif
#define TC_P(bit) (TC_STAGES > 0 && (TC_PIPE & (bit)) != 0)
#if TC_STAGES && (TC_STAGES < 2 || TC_STAGES > 4 || 8 % TC_WN || 16 % TC_WM)
#error "TC_STAGES: 2 to 4, with TC_WN dividing 8 and TC_WM dividing 16"
#endif
/* a staged operand's local doubles, pipelined (p) or not */
#define TC_LOCAL(p, rows) ((p) ? TC_STAGES * (rows) * TC_PK : (rows) * TC_LD)
#ifdef TC_ASM_VOLATILE
#define TC_ASM asm volatile
#else
#define TC_ASM asm
#endif
#define TC_MMA(c, a, b) \
    TC_ASM("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};" \
           : "=d"(c[0]), "=d"(c[1]) : "d"(a), "d"(b), "d"(c[0]), "d"(c[1]))
/* sm_90 shapes: two 8-row halves of C (c, e) in one instruction; A rows g and g + 8 */
#define TC_MMA16K4(c, e, a0, a1, b) \
    TC_ASM("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" \
           : "=d"(c[0]), "=d"(c[1]), "=d"(e[0]), "=d"(e[1]) : "d"(a0), "d"(a1), "d"(b), "d"(c[0]), "d"(c[1]), "d"(e[0]), "d"(e[1]))
#define TC_MMA16K8(c, e, a0, a1, a2, a3, b0, b1) \
    TC_ASM("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
           : "=d"(c[0]), "=d"(c[1]), "=d"(e[0]), "=d"(e[1]) \
           : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1), "d"(c[0]), "d"(c[1]), "d"(e[0]), "d"(e[1]))
#ifndef TC_SHAPE
#define TC_SHAPE 1   /* 1: m8n8k4, 2: m16n8k4, 3: m16n8k8 (sm_90) */
#endif
#define TC_KSTEP (TC_SHAPE == 3 ? 8 : 4)   /* K columns an MMA takes */
#ifdef TC_EMU
#define TC_CP8(dst, src, ok) (*(dst) = (ok) ? *(src) : 0.0)
#define TC_COMMIT()
#define TC_WAIT()
#define TC_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#else
/* 8 bytes global -> local, zeros where !ok (source size 0); the group of this stage's copies;
   the wait until at most TC_STAGES - 2 groups are in flight, i.e. the oldest stage has landed */
#define TC_CP8(dst, src, ok) \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"((uint)(ulong)(dst)), "l"((ulong)(src)), "r"((ok) ? 8 : 0) : "memory")
#define TC_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#if TC_STAGES == 4
#define TC_WAIT() asm volatile("cp.async.wait_group 2;" ::: "memory")
#elif TC_STAGES == 3
#define TC_WAIT() asm volatile("cp.async.wait_group 1;" ::: "memory")
#else
#define TC_WAIT() asm volatile("cp.async.wait_group 0;" ::: "memory")
#endif
#define TC_FENCE() asm volatile("membar.gl;" ::: "memory")
#endif

/* where element (row r, column k) of a staged tile of R rows lies. Pipelined, unpadded: an
   operand k-contiguous in global memory (kc) keeps 8 columns a row, its two halves exchanged on
   rows 2, 3 mod 4; one row-contiguous keeps R rows a column, groups of 4 rows exchanged by k's
   low bits. Either way a warp's copies cover 32 consecutive doubles and an MMA fragment's 8
   rows x 4 columns (two halves of 16 lanes) meet each bank once. */
inline int tc_at(const int pl, const int kc, const int R, const int r, const int k) {
    return !pl ? r * TC_LD + k : kc ? r * TC_PK + (k ^ ((r & 2) << 1)) : k * R + (r ^ ((k & 3) << 2));
}

/* which elements of the A and op(B) tiles a thread moves: (row, k) = (ia + r*sa, ka + r*sk).
   The tile shape (wm x wn warps) is an argument of the always-inlined helpers below, constant
   in each kernel, so every loop still unrolls and the fragments stay in registers. */
typedef struct { int M, N, kend, lda, ldb, ta, tb, bm, bn, ia, ka, sa, sk, ib, kb, sb, skb; } tc_geom;
#define TC_MAXLOAD TC_BK   /* loads a thread makes per tile: TC_BK / wn of A, 2 TC_BK / wm of B (wm >= 2) */

__attribute__((always_inline)) inline void tc_fetch(const int la, const int lb, double *ra, double *rb, __global const double *A,
                                                    __global const double *B, int k0, const tc_geom *T) {
    int r;
#pragma unroll
    for (r = 0; r < TC_MAXLOAD; r++) {   /* (bounds known here, so ra and rb stay in registers) */
        int gi = T->bm + T->ia + r * T->sa, gk = k0 + T->ka + r * T->sk;
        if (r < la) ra[r] = gi < T->M && gk < T->kend ? A[T->ta ? (long)gk * T->lda + gi : (long)gi * T->lda + gk] : 0.0;
    }
#pragma unroll
    for (r = 0; r < TC_MAXLOAD; r++) {
        int gj = T->bn + T->ib + r * T->sb, gkb = k0 + T->kb + r * T->skb;
        if (r < lb) rb[r] = gj < T->N && gkb < T->kend ? B[T->tb ? (long)gj * T->ldb + gkb : (long)gkb * T->ldb + gj] : 0.0;
    }
}
__attribute__((always_inline)) inline void tc_store(const int la, const int lb, __local double *As, __local double *Bs, const double *ra,
                                                    const double *rb, const tc_geom *T) {
    int r;
#pragma unroll
    for (r = 0; r < TC_MAXLOAD; r++) if (r < la) As[(T->ia + r * T->sa) * TC_LD + T->ka + r * T->sk] = ra[r];
#pragma unroll
    for (r = 0; r < TC_MAXLOAD; r++) if (r < lb) Bs[(T->ib + r * T->sb) * TC_LD + T->kb + r * T->skb] = rb[r];
}
/* the pipeline's copies of one stage: columns k0 .. k0 + TC_PK - 1 of A's rows T->bm .. + BM
   and of op(B)'s rows T->bn .. + BN into as and bs, zeros outside the matrices. Consecutive
   work-items take consecutive addresses in global memory. */
__attribute__((always_inline)) inline void tc_copy(const int kca, const int kcb, const int BM, const int BN, const int NT, __local double *as,
                                                   __local double *bs, __global const double *A, __global const double *B, const int k0,
                                                   const tc_geom *T) {
    const int tid = get_local_id(0), ta = !kca, tb = kcb;
    int p;
#pragma unroll
    for (p = 0; p < BM * TC_PK / NT; p++) {
        int e = tid + p * NT, r = ta ? e % BM : e / TC_PK, k = ta ? e / BM : e % TC_PK;
        int gi = T->bm + r, gk = k0 + k, ok = gi < T->M && gk < T->kend;
        TC_CP8(as + tc_at(1, kca, BM, r, k), A + (ok ? (ta ? (long)gk * T->lda + gi : (long)gi * T->lda + gk) : 0), ok);
    }
#pragma unroll
    for (p = 0; p < BN * TC_PK / NT; p++) {
        int e = tid + p * NT, r = tb ? e / TC_PK : e % BN, k = tb ? e % TC_PK : e / BN;
        int gj = T->bn + r, gk = k0 + k, ok = gj < T->N && gk < T->kend;
        TC_CP8(bs + tc_at(1, kcb, BN, r, k), B + (ok ? (tb ? (long)gj * T->ldb + gk : (long)gk * T->ldb + gj) : 0), ok);
    }
}
/* acc += the product of K columns kk .. kk + TC_KSTEP - 1 of the staged tiles (kca, kcb: their
   layouts, see tc_at); this warp's 32 x 64 of C at (wm, wn), lane (g, t) */
__attribute__((always_inline)) inline void tc_step(double acc[4][8][2], __local const double *as, __local const double *bs, const int pl, const int kca,
                                                   const int kcb, const int BM, const int BN, const int wm, const int wn, const int g,
                                                   const int t, const int kk) {
    int i, j;
#ifdef TC_EMU
    int v, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 8; j++)
            for (v = 0; v < 2; v++)
                for (k = 0; k < TC_KSTEP; k++)
                    acc[i][j][v] = fma(as[tc_at(pl, kca, BM, wm + i * 8 + g, kk + k)], bs[tc_at(pl, kcb, BN, wn + j * 8 + 2 * t + v, kk + k)], acc[i][j][v]);
#elif TC_SHAPE == 3
    double a[4], a4[4], b[8], b4[8];
#pragma unroll
    for (i = 0; i < 4; i++) {
        a[i] = as[tc_at(pl, kca, BM, wm + i * 8 + g, kk + t)];
        a4[i] = as[tc_at(pl, kca, BM, wm + i * 8 + g, kk + 4 + t)];
    }
#pragma unroll
    for (j = 0; j < 8; j++) {
        b[j] = bs[tc_at(pl, kcb, BN, wn + j * 8 + g, kk + t)];
        b4[j] = bs[tc_at(pl, kcb, BN, wn + j * 8 + g, kk + 4 + t)];
    }
#pragma unroll
    for (i = 0; i < 4; i += 2)
#pragma unroll
        for (j = 0; j < 8; j++) TC_MMA16K8(acc[i][j], acc[i + 1][j], a[i], a[i + 1], a4[i], a4[i + 1], b[j], b4[j]);
#else
    double a[4], b[8];
#pragma unroll
    for (i = 0; i < 4; i++) a[i] = as[tc_at(pl, kca, BM, wm + i * 8 + g, kk + t)];
#pragma unroll
    for (j = 0; j < 8; j++) b[j] = bs[tc_at(pl, kcb, BN, wn + j * 8 + g, kk + t)];
#if TC_SHAPE == 2
#pragma unroll
    for (i = 0; i < 4; i += 2)
#pragma unroll
        for (j = 0; j < 8; j++) TC_MMA16K4(acc[i][j], acc[i + 1][j], a[i], a[i + 1], b[j]);
#else
#pragma unroll
    for (i = 0; i < 4; i++)
#pragma unroll
        for (j = 0; j < 8; j++) TC_MMA(acc[i][j], a[i], b[j]);
#endif
#endif
}

/* the pipelined K loop of one tile into acc (kca, kcb: the operands' layouts, see tc_at) */
__attribute__((always_inline)) inline void tc_main(double acc[4][8][2], const int kca, const int kcb, const int BM, const int BN, const int NT,
                                                   __local double *As, __local double *Bs, __global const double *A, __global const double *B,
                                                   const tc_geom *T, const int wm, const int wn, const int g, const int t) {
#if TC_STAGES
    const int nkt = (T->kend + TC_PK - 1) / TC_PK;
    int s, k0, kk, cs = 0, ns = TC_STAGES - 1;
#pragma unroll
    for (s = 0; s < TC_STAGES - 1; s++) {   /* the first stages in flight */
        if (s < nkt) tc_copy(kca, kcb, BM, BN, NT, As + s * BM * TC_PK, Bs + s * BN * TC_PK, A, B, s * TC_PK, T);
        TC_COMMIT();
    }
    for (k0 = 0; k0 < nkt; k0++) {
        TC_WAIT();                    /* this work-item's copies of stage k0 have landed */
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone's have, and everyone is done with stage k0 - 1 */
        if (k0 + TC_STAGES - 1 < nkt)   /* into the buffer stage k0 - 1 used */
            tc_copy(kca, kcb, BM, BN, NT, As + ns * BM * TC_PK, Bs + ns * BN * TC_PK, A, B, (k0 + TC_STAGES - 1) * TC_PK, T);
        TC_COMMIT();   /* (empty groups at the end keep the count of the wait right) */
#pragma unroll
        for (kk = 0; kk < TC_PK; kk += TC_KSTEP) tc_step(acc, As + cs * BM * TC_PK, Bs + cs * BN * TC_PK, 1, kca, kcb, BM, BN, wm, wn, g, t, kk);
        cs = cs == TC_STAGES - 1 ? 0 : cs + 1;
        ns = ns == TC_STAGES - 1 ? 0 : ns + 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);   /* the next tile's copies overwrite what the last stages read */
#endif
}

/* C = beta*C + alpha*A*op(B) with work-groups of WM x WN warps (a 32WM x 64WN block of C); this
   group is number grp of the ngrp that share the tiles.

   ks > 1 (lcl_gemm_tc_ks_d): this group multiplies split kss of ks along K; each tile's splits
   leave their products in part, and the last to count in cnt[tile] adds them in split order
   (the same sum whichever finishes last) and writes C. */
__attribute__((always_inline)) inline void tc_gemm_k(const int WM, const int WN, const int pl, __local double *As, __local double *Bs,
                                                     const int M, const int N, const int K, const double alpha,
                                                     __global const double *A, const int lda, __global const double *B, const int ldb,
                                                     const int trans, const double beta, __global double *C, const int ldc, const int lower,
                                                     const int grp, const int ngrp, const int split, const int ks, const int kss,
                                                     __global double *part, __global int *cnt) {
    const int BM = 32 * WM, BN = 64 * WN, NT = 32 * WM * WN;
    double acc[4][8][2];
    const int tid = get_local_id(0), lane = tid & 31, warp = tid >> 5;
    const int wm = (warp / WN) * 32, wn = (warp % WN) * 64, g = lane >> 2, t = lane & 3;
    const int transb = trans & 1, transa = trans & 2;
    const int ntn = (N + BN - 1) / BN, ntm = (M + BM - 1) / BM;
    tc_geom T;
    int i, j, k0, kk, tile, ntiles = ntn * ntm;
    const int LA = BM * TC_BK / NT, LB = BN * TC_BK / NT;
    double ra[TC_MAXLOAD], rb[TC_MAXLOAD];
    /* lower: only the tiles that reach the lower triangle are numbered (row by row), so groups
       looping over tiles get equal shares. Numbering the whole rectangle gave each group one
       diagonal of tiles when the tile count per row was near the group count: twice the time.
       split (a constant; lower = D + (bw << 8), see gemm_diag): the whole rectangle is numbered
       and the tiles wholly above the diagonal return (the split runs a group per tile). */
    if (lower && !split)
        for (i = 0, ntiles = 0; i < ntm; i++) ntiles += min(ntn, ((i + 1) * BM - 1) / BN + 1);
    T.M = M; T.N = N; T.lda = lda; T.ldb = ldb; T.ta = transa; T.tb = transb;
    T.ia = transa ? tid % BM : tid / TC_BK;
    T.ka = transa ? tid / BM : tid % TC_BK;
    T.sa = transa ? 0 : NT / TC_BK;
    T.sk = transa ? NT / BM : 0;
    T.ib = transb ? tid / TC_BK : tid % BN;
    T.kb = transb ? tid % TC_BK : tid / BN;
    T.sb = transb ? NT / TC_BK : 0;
    T.skb = transb ? 0 : NT / BN;
    /* one tile per group, or (the host launching fewer groups, to leave compute units to the
       panel's kernels) each group loops over tiles */
    for (tile = grp; tile < ntiles; tile += ngrp) {
        int bn = tile % ntn * BN, bm = tile / ntn * BM;
        if (lower && !split) {
            int rem = tile, len;
            for (bm = 0; rem >= (len = min(ntn, (bm + BM - 1) / BN + 1)); bm += BM) rem -= len;
            bn = rem * BN;
        }
        T.bm = bm; T.bn = bn;
        /* split: a tile wholly above the diagonal multiplies nothing and writes nothing (the
           same barriers, no branch around them: PoCL 3 miscompiled that) */
        T.kend = split && gemm_diag(lower, bn) > bm + BM - 1 ? 0 : K;
#pragma unroll
        for (i = 0; i < 4; i++)
#pragma unroll
            for (j = 0; j < 8; j++) acc[i][j][0] = acc[i][j][1] = 0;
        /* pipelined: the layouts as constants where they matter (NT: Cholesky's update, NN:
           LU's), so the fragments' addresses fold to a few offsets */
        if (pl && !transa && transb) tc_main(acc, 1, 1, BM, BN, NT, As, Bs, A, B, &T, wm, wn, g, t);
        else if (pl && !transa) tc_main(acc, 1, 0, BM, BN, NT, As, Bs, A, B, &T, wm, wn, g, t);
        else if (pl) tc_main(acc, 0, transb, BM, BN, NT, As, Bs, A, B, &T, wm, wn, g, t);
        else {
            tc_fetch(LA, LB, ra, rb, A, B, 0, &T);
            for (k0 = 0; k0 < T.kend; k0 += TC_BK) {
                tc_store(LA, LB, As, Bs, ra, rb, &T);
                barrier(CLK_LOCAL_MEM_FENCE);
                tc_fetch(LA, LB, ra, rb, A, B, k0 + TC_BK, &T);   /* in flight while the tensor cores work */
#pragma unroll
                for (kk = 0; kk < TC_BK; kk += TC_KSTEP) tc_step(acc, As, Bs, 0, 1, 1, BM, BN, wm, wn, g, t, kk);
                barrier(CLK_LOCAL_MEM_FENCE);
            }
        }
        if (ks > 1) {   /* each work-item's slots, split by split: coalesced, and read back the same way */
            __global double *mine = part + ((long)tile * ks + kss) * (BM * BN);
            int q, last;
#pragma unroll
            for (i = 0; i < 4; i++)
#pragma unroll
                for (j = 0; j < 8; j++)
#pragma unroll
                    for (q = 0; q < 2; q++) mine[((i * 8 + j) * 2 + q) * NT + tid] = acc[i][j][q];
            TC_FENCE();
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            if (tid == 0) {
                int old;
#ifdef TC_EMU
                old = atomic_add(cnt + tile, 1);
#else
                asm volatile("atom.acq_rel.gpu.add.s32 %0, [%1], 1;" : "=r"(old) : "l"((ulong)(cnt + tile)) : "memory");
#endif
                if (old == ks - 1) cnt[tile] = 0;   /* ready for the next launch */
                *(__local int *)As = old == ks - 1;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            last = *(__local int *)As;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (!last) continue;
            TC_FENCE();
            /* split by split, its 64 loads a work-item in flight at once (its own product read
               back too, so the sum's order is the splits'). Only this group reads these slots in
               this launch, so L1 holds no stale copy. */
            for (q = 0; q < ks; q++) {
                __global const double *p = part + ((long)tile * ks + q) * (BM * BN) + tid;
                int v;
#pragma unroll
                for (i = 0; i < 4; i++)
#pragma unroll
                    for (j = 0; j < 8; j++)
#pragma unroll
                        for (v = 0; v < 2; v++) acc[i][j][v] = (q ? acc[i][j][v] : 0.0) + p[((i * 8 + j) * 2 + v) * NT];
            }
        }
        /* C(gi, gj) is written: inside C, and (lower) on or below the diagonal. split: a warp's 64
           columns lie in one block when the block width is a multiple of 64, so one division a
           tile places all their diagonals (per element, it was 128 divisions a work-item) */
        const int whole = !split || (lower >> 8) % 64 == 0, doff = split && whole ? gemm_diag(lower, bn + wn) - (bn + wn) : 0;
#define TC_DIAG(gj) (whole ? (gj) + doff : gemm_diag(lower, (gj)))
#define TC_IN_C(gi, gj) ((gi) < M && K > 0 && (gj) < N && !(lower && TC_DIAG(gj) > (gi)))
        /* fully unrolled: acc must stay in registers. A row of fragments at a time, its 16 loads
           of C before any store: a load after a store to C is not moved above it, so element by
           element each tile waited for 64 round trips to memory in turn (about 30 us on an H200:
           most of a small GEMM's time) */
#pragma unroll
        for (i = 0; i < 4; i++) {
            int gi = bm + wm + i * 8 + g, v;
            double cv[8][2];
#pragma unroll
            for (j = 0; j < 8; j++)
#pragma unroll
                for (v = 0; v < 2; v++) {
                    int gj = bn + wn + j * 8 + 2 * t + v;
                    int ok = TC_IN_C(gi, gj);
                    cv[j][v] = ok && beta != 0 ? C[(long)gi * ldc + gj] : 0.0;
                }
#pragma unroll
            for (j = 0; j < 8; j++)
#pragma unroll
                for (v = 0; v < 2; v++) {
                    int gj = bn + wn + j * 8 + 2 * t + v;
                    if (TC_IN_C(gi, gj))
                        C[(long)gi * ldc + gj] = beta == 0 ? alpha * acc[i][j][v] : fma(alpha, acc[i][j][v], beta * cv[j][v]);
                }
        }
#undef TC_IN_C
#undef TC_DIAG
    }
}

#define TC_GRP (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0))
#define TC_NGRP (int)(get_num_groups(0) * get_num_groups(1))
#define TC_ARGS const int M, const int N, const int K, const double alpha, __global const double *A, const long offa, const int lda, \
                __global const double *B, const long offb, const int ldb, const int trans, const double beta, __global double *C,          \
                const long offc, const int ldc, const int lower
__kernel __attribute__((reqd_work_group_size(TC_NT, 1, 1))) void lcl_gemm_tc_d(TC_ARGS) {
    __local double As[TC_LOCAL(TC_P(1), TC_BM)] __attribute__((aligned(16)));
    __local double Bs[TC_LOCAL(TC_P(1), TC_BN)] __attribute__((aligned(16)));
    tc_gemm_k(TC_WM, TC_WN, TC_P(1), As, Bs, M, N, K, alpha, A + offa, lda, B + offb, ldb, trans, beta, C + offc, ldc, lower, TC_GRP, TC_NGRP, 0, 0, 0, 0, 0);
}
/* lower = D + (bw << 8) (gemm_diag): the split Cholesky's update of a device's columns */
__kernel __attribute__((reqd_work_group_size(TC_NT, 1, 1))) void lcl_gemm_tc_split_d(TC_ARGS) {
    __local double As[TC_LOCAL(TC_P(1), TC_BM)] __attribute__((aligned(16)));
    __local double Bs[TC_LOCAL(TC_P(1), TC_BN)] __attribute__((aligned(16)));
    tc_gemm_k(TC_WM, TC_WN, TC_P(1), As, Bs, M, N, K, alpha, A + offa, lda, B + offb, ldb, trans, beta, C + offc, ldc, lower, TC_GRP, TC_NGRP, 1, 0, 0, 0, 0);
}
/* the same on 64-wide tiles (tune.upd_narrow bit 2: the split Cholesky's updates) */
__kernel __attribute__((reqd_work_group_size(32 * TC_WM, 1, 1))) void lcl_gemm_tc64_split_d(TC_ARGS) {
    __local double As[TC_LOCAL(TC_P(1), TC_BM)] __attribute__((aligned(16)));
    __local double Bs[TC_LOCAL(TC_P(1), 64)] __attribute__((aligned(16)));
    tc_gemm_k(TC_WM, 1, TC_P(1), As, Bs, M, N, K, alpha, A + offa, lda, B + offb, ldb, trans, beta, C + offc, ldc, lower, TC_GRP, TC_NGRP, 1, 0, 0, 0, 0);
}
/* the same split along K (tc_gemm_k): ks consecutive groups a tile, each kc of K (a multiple of
   TC_BK; every split gets some), for updates with few tiles and a deep K (the Cholesky look-ahead
   at n = 4096: 59 tiles or fewer with K = 256, latency-bound one group a tile). part: ks
   TC_BM x TC_BN blocks a tile; cnt: one counter a tile, zero between launches. */
#define TC_KS_ARGS TC_ARGS, const int ks, const int kc, __global double *part, __global int *cnt
__attribute__((always_inline)) inline void tc_ks(const int WN, __local double *As, __local double *Bs, TC_KS_ARGS) {
    const int g = TC_GRP, s = g % ks, k0 = s * kc;
    tc_gemm_k(TC_WM, WN, TC_P(2), As, Bs, M, N, min(K - k0, kc), alpha, A + offa + ((trans & 2) ? (long)k0 * lda : k0), lda,
              B + offb + ((trans & 1) ? k0 : (long)k0 * ldb), ldb, trans, beta, C + offc, ldc, lower, g / ks, TC_NGRP / ks, 0, ks, s, part, cnt);
}
#define TC_KS_PASS M, N, K, alpha, A, offa, lda, B, offb, ldb, trans, beta, C, offc, ldc, lower, ks, kc, part, cnt
__kernel __attribute__((reqd_work_group_size(TC_NT, 1, 1))) void lcl_gemm_tc_ks_d(TC_KS_ARGS) {
    __local double As[TC_LOCAL(TC_P(2), TC_BM)] __attribute__((aligned(16)));
    __local double Bs[TC_LOCAL(TC_P(2), TC_BN)] __attribute__((aligned(16)));
    tc_ks(TC_WN, As, Bs, TC_KS_PASS);
}
/* N <= 64 (potrf's left-looking step, once its row tiles are few) */
__kernel __attribute__((reqd_work_group_size(32 * TC_WM, 1, 1))) void lcl_gemm_tc64_ks_d(TC_KS_ARGS) {
    __local double As[TC_LOCAL(TC_P(2), TC_BM)] __attribute__((aligned(16)));
    __local double Bs[TC_LOCAL(TC_P(2), 64)] __attribute__((aligned(16)));
    tc_ks(1, As, Bs, TC_KS_PASS);
}
/* N <= 64 (the Cholesky panel's left-looking steps): one warp along N, so no warp multiplies
   the zero padding of a 128-wide tile */
__kernel __attribute__((reqd_work_group_size(32 * TC_WM, 1, 1))) void lcl_gemm_tc64_d(TC_ARGS) {
    __local double As[TC_LOCAL(TC_P(1), TC_BM)] __attribute__((aligned(16)));
    __local double Bs[TC_LOCAL(TC_P(1), 64)] __attribute__((aligned(16)));
    tc_gemm_k(TC_WM, 1, TC_P(1), As, Bs, M, N, K, alpha, A + offa, lda, B + offb, ldb, trans, beta, C + offc, ldc, lower, TC_GRP, TC_NGRP, 0, 0, 0, 0, 0);
}
/* The block LU's batched GEMM on tensor cores (see bklu.cl for the frames and lists): item i of
   the list at lo is (A, B, C) frames, C = alpha A B + keep C, all m x m row-major, for the cnt
   items i = get_group_id(1), + get_num_groups(1), ... (fewer rows of groups than items: the
   eager queue's, leaving compute units free); the work-groups along dimension 0 loop over an
   item's tiles. */
#define BK_FRAME(f) ((((f) / fpa) == 0 ? a0 : ((f) / fpa) == 1 ? a1 : ((f) / fpa) == 2 ? a2 : a3) + (long)((f) % fpa) * m * m)
__kernel __attribute__((reqd_work_group_size(TC_NT, 1, 1)))
void lcl_bklu_gemm_tc_d(__global double *a0, __global double *a1, __global double *a2, __global double *a3, const int fpa, const int m,
                        __global const int *list, const int lo, const double alpha, const double keep, const int cnt) {
    __local double As[TC_LOCAL(TC_P(1), TC_BM)] __attribute__((aligned(16)));
    __local double Bs[TC_LOCAL(TC_P(1), TC_BN)] __attribute__((aligned(16)));
    int i;
    for (i = (int)get_group_id(1); i < cnt; i += (int)get_num_groups(1)) {   /* (uniform in the group: its barriers) */
        __global const int *it = list + lo + 3 * i;
        tc_gemm_k(TC_WM, TC_WN, TC_P(1), As, Bs, m, m, m, alpha, BK_FRAME(it[0]), m, BK_FRAME(it[1]), m, 0, keep, BK_FRAME(it[2]), m, 0,
                  (int)get_group_id(0), (int)get_num_groups(0), 0, 0, 0, 0, 0);
    }
}
#undef BK_FRAME
#endif

/* Row interchanges: for p = k0 .. k1-1 swap rows p and ipiv[p] over columns [c0, c1); with
   k1 < k0 the same pivots k1 .. k0-1 are undone, last first. One work-item per column. */
__kernel void SFX(lcl_laswp)(__global real *A, const long offa, const int lda, const int c0, const int c1,
                             const int k0, const int k1, __global const int *ipiv) {
    int j = c0 + (int)get_global_id(0), p;
    if (j >= c1) return;
    A += offa;
    for (p = k0 <= k1 ? k0 : k0 - 1; k0 <= k1 ? p < k1 : p >= k1; p += k0 <= k1 ? 1 : -1) {
        int q = ipiv[p];
        if (q != p) {
            real t = A[(long)p * lda + j];
            A[(long)p * lda + j] = A[(long)q * lda + j];
            A[(long)q * lda + j] = t;
        }
    }
}

/* out (cols x rows, ldo) = in^T (rows x cols, ldi), through a local tile */
#define TR_T 16
__kernel __attribute__((reqd_work_group_size(TR_T, TR_T, 1)))
void SFX(lcl_transpose)(const int rows, const int cols, __global const real *in, const long offi, const int ldi,
                        __global real *out, const long offo, const int ldo) {
    __local real t[TR_T][TR_T + 1];
    int tx = get_local_id(0), ty = get_local_id(1);
    int c = get_group_id(0) * TR_T + tx, r = get_group_id(1) * TR_T + ty;
    if (r < rows && c < cols) t[ty][tx] = in[offi + (long)r * ldi + c];
    barrier(CLK_LOCAL_MEM_FENCE);
    c = get_group_id(0) * TR_T + ty;
    r = get_group_id(1) * TR_T + tx;
    if (r < rows && c < cols) out[offo + (long)c * ldo + r] = t[tx][ty];
}

/* Non-finite scan: flag = 1 when any element of the rows x cols block is NaN or Inf
   (lower != 0: only the lower triangle, j <= i, which is all Cholesky reads). A work-group a
   row (dimension 1), its work-items across it: coalesced, and with lower = 1 only up to the
   diagonal (16 x 16 tiles over the whole square took 66 us at n = 4096 on an H200, this 47 us
   one element at a time); NF_U of a work-item's elements loaded at once, so they are in flight
   together rather than one round trip after another. */
#define NF_U 4
__kernel void SFX(lcl_nonfinite)(const int rows, const int cols, __global const real *A, const long offa, const int lda,
                                 __global int *flag, const int lower) {
    const int i = get_global_id(1), end = lower == 1 ? min(cols, i + 1) : cols, ls = get_local_size(0);
    __global const real *row = A + offa + (long)i * lda;
    int j, u, bad = 0;
    if (i >= rows) return;
    for (j = get_local_id(0); j < end; j += NF_U * ls) {
        real v[NF_U];
#pragma unroll
        for (u = 0; u < NF_U; u++) v[u] = j + u * ls < end ? row[j + u * ls] : (real)0;
#pragma unroll
        for (u = 0; u < NF_U; u++) bad |= !isfinite(v[u]) && (!lower || gemm_diag(lower, j + u * ls) <= i);
    }
    if (bad) *flag = 1;
}
#undef NF_U

/* this work-item's global writes ordered before its later ones for the whole device: NVIDIA's
   mem_fence(CLK_GLOBAL_MEM_FENCE) orders them within the work-group only (as the OpenCL spec
   allows), so another group counting after them could read stale values; membar.gl there */
#ifdef __NV_CL_C_VERSION
#define LCL_DEVICE_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define LCL_DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/* the work-group's largest candidate into vbest[0], ibest[0] (the lowest row on ties); every
   work-item calls it, after the barrier that publishes vbest/ibest */
inline void panel_argmax(__local real *vbest, __local int *ibest, const int lid) {
    int s;
    for (s = LCL_WG / 2; s > 0; s >>= 1) {
        if (lid < s && (vbest[lid + s] > vbest[lid] || (vbest[lid + s] == vbest[lid] && ibest[lid + s] < ibest[lid]))) {
            vbest[lid] = vbest[lid + s];
            ibest[lid] = ibest[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* ---- the LU panel on the device: one launch per column, every work-group taking part ----
   Launch j (c0 <= j <= c1) over rows [j, n): first finish column j-1 (scale it by its pivot, the
   rank-1 update of columns j..c1-1), then look for column j's pivot. Each work-group leaves its
   best candidate in part_v/part_i; the last one to finish (counted in *count, the CUDA
   threadfence-reduction pattern) picks the pivot, swaps rows j and p over the panel columns and
   records it. A final launch with j = c1 only finishes column c1-1. A zero pivot leaves its
   column unscaled and unapplied (as before) and the first one goes to *zero (1-based).
   Loops take their bounds from flags rather than sitting in branches: PoCL 5 rejects branches
   around loops after a barrier. */
__kernel __attribute__((reqd_work_group_size(LCL_WG, 1, 1)))
void SFX(lcl_panel_step)(__global real *A, const int ld, const int n, const int c0, const int c1, const int j,
                         __global int *ipiv, __global int *zero, __global real *part_v, __global int *part_i,
                         __global int *count) {
    __local real vbest[LCL_WG];
    __local int ibest[LCL_WG];
    __local int last;
    const int lid = get_local_id(0), G = get_num_groups(0), gsz = G * LCL_WG, jp = j - 1;
    const real piv = jp >= c0 ? A[(long)jp * ld + jp] : (real)1;
    const int upd = jp >= c0 && piv != 0, cend = upd ? c1 : j, search = j < c1;
    real best = -1;
    int bi = j, i, c, w, L, p;
    for (i = j + (int)get_global_id(0); i < n; i += gsz) {
        __global real *r = A + (long)i * ld;
        real l = upd ? r[jp] / piv : (real)0;
        if (upd) r[jp] = l;
        for (c = j; c < cend; c++) r[c] = fma(-l, A[(long)jp * ld + c], r[c]);
        {
            real v = search ? fabs(r[j]) : (real)-1;
            if (v > best) { best = v; bi = i; }
        }
    }
    vbest[lid] = best;
    ibest[lid] = bi;
    barrier(CLK_LOCAL_MEM_FENCE);
    panel_argmax(vbest, ibest, lid);
    if (lid == 0) {
        part_v[get_group_id(0)] = vbest[0];
        part_i[get_group_id(0)] = ibest[0];
    }
    LCL_DEVICE_FENCE();                   /* this group's writes to A and part_* before the count */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) last = atomic_inc((volatile __global int *)count) == G - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    L = last && search;
    best = -1;
    bi = j;
    for (w = lid; w < (L ? G : 0); w += LCL_WG) {
        real v = ((volatile __global real *)part_v)[w];
        int vi = ((volatile __global int *)part_i)[w];
        if (v > best || (v == best && vi < bi)) { best = v; bi = vi; }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    vbest[lid] = best;
    ibest[lid] = bi;
    barrier(CLK_LOCAL_MEM_FENCE);
    panel_argmax(vbest, ibest, lid);
    p = ibest[0];
    for (c = c0 + lid; c < (L && p != j ? c1 : c0); c += LCL_WG) {
        volatile __global real *x = A + (long)j * ld + c, *y = A + (long)p * ld + c;
        real t = *x;
        *x = *y;
        *y = t;
    }
    if (lid == 0 && L) {
        ipiv[j] = p;
        if (vbest[0] == 0 && *zero == 0) *zero = j + 1;
    }
    if (lid == 0 && last) *count = 0;
}

/* ---- the LU panel in one launch: a grid barrier per column ----
   Needs every work-group of the launch resident at once: the host launches one per compute unit,
   and only on NVIDIA, where it was tested (LCL_GRID_PORTABLE builds it elsewhere, for tests).
   Rows k..n-1 are split into one contiguous range per group, touched by that group alone. For
   column j each group publishes its candidate (|value|, row index, the whole row) and, if it owns
   row j, row j; after the barrier every group picks the same pivot, the owners of rows j and p
   swap them from the published copies, and each group updates its own rows. The copies alternate
   between two slots: a group can be one column ahead of another, never two. The first PG_LROWS
   rows of a group's range stay in local memory for the whole launch: from global memory the
   rank-1 updates were latency-bound (BENCHMARKS.md). */
#if defined(__NV_CL_C_VERSION) || defined(LCL_GRID_PORTABLE)
#define PG_WG 256
#define PG_W 64
#define PG_SLOT (PG_W + 1)
#ifndef PG_LROWS
#define PG_LROWS 72    /* rows of a group's share kept in local memory (72 x 64 doubles: 36 KB) */
#endif
#define PG_FENCE() LCL_DEVICE_FENCE()

#ifndef PG_SHFL
#define PG_SHFL 1      /* NVIDIA: the arg-max by warp shuffles, one barrier (else a tree, one a level) */
#endif
#ifndef PG_RELACQ
#define PG_RELACQ 1    /* NVIDIA: the grid barrier by a release add and acquire loads (else membar.gl) */
#endif
#if !defined(__NV_CL_C_VERSION) || LCL_NV_CC < 70
#undef PG_SHFL
#define PG_SHFL 0
#undef PG_RELACQ
#define PG_RELACQ 0
#endif

/* every group waits until the counter reaches target (= G per barrier passed so far) */
inline void SFX(lcl__grid_sync)(volatile __global int *bar, const int target) {
    const int lead = get_local_id(0) == 0;
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
#if PG_RELACQ
    /* the release orders the group's writes (made visible to lead by the barrier) before the add */
    if (lead) {
        int v;
        asm volatile("red.release.gpu.add.s32 [%0], 1;" ::"l"((ulong)bar) : "memory");
        do asm volatile("ld.acquire.gpu.s32 %0, [%1];" : "=r"(v) : "l"((ulong)bar) : "memory");
        while (v < target);
    }
#else
    if (lead) {
        PG_FENCE();
        atomic_inc(bar);
    }
    if (lead) {
        while (*bar < target) {   /* plain volatile loads: waiting groups do not queue on the atomic unit */
        }
        PG_FENCE();
    }
#endif
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

#if defined(__NV_CL_C_VERSION) && LCL_NV_CC >= 70
/* warp shuffles by inline PTX (NVIDIA's OpenCL has no sub-groups): the value of lane s (idx = 1)
   or of lane ^ s (idx = 0, a butterfly); idx is a constant at every call */
inline int nv_shfl(const int v, const int s, const int idx) {
    int r;
    if (idx) asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(s));
    else asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(s));
    return r;
}
inline real nv_shfl_real(const real v, const int s, const int idx) {
#if LCL_FP64
    int2 w = as_int2(v);
    w.x = nv_shfl(w.x, s, idx);
    w.y = nv_shfl(w.y, s, idx);
    return as_double(w);
#else
    return as_float(nv_shfl(as_int(v), s, idx));
#endif
}
#endif
/* (ov, oi, og) beats (v, i, g): larger value, then lower row, then lower group (a total order,
   so every work-item of a butterfly ends with the same winner) */
#define PG_BEATS(ov, oi, og, v, i, g) ((ov) > (v) || ((ov) == (v) && ((oi) < (i) || ((oi) == (i) && (og) < (g)))))

/* arg-max of the work-items' (v, ix) pairs over the work-group, ties to the lower index; gx rides
   along. Every work-item gets the winner. sv, si, sg: PG_WG entries of local scratch, free until
   the next barrier after this call. */
inline void SFX(lcl__grid_argmax)(real *v, int *ix, int *gx, __local real *sv, __local int *si, __local int *sg) {
    const int lid = get_local_id(0);
    int s;
#if PG_SHFL
    for (s = 16; s > 0; s >>= 1) {
        const real ov = nv_shfl_real(*v, s, 0);
        const int oi = nv_shfl(*ix, s, 0), og = nv_shfl(*gx, s, 0);
        if (PG_BEATS(ov, oi, og, *v, *ix, *gx)) { *v = ov; *ix = oi; *gx = og; }
    }
    if ((lid & 31) == 0) {
        sv[lid >> 5] = *v;
        si[lid >> 5] = *ix;
        sg[lid >> 5] = *gx;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (s = 0; s < PG_WG / 32; s++)
        if (PG_BEATS(sv[s], si[s], sg[s], *v, *ix, *gx)) { *v = sv[s]; *ix = si[s]; *gx = sg[s]; }
#else
    sv[lid] = *v;
    si[lid] = *ix;
    sg[lid] = *gx;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (s = PG_WG / 2; s > 0; s >>= 1) {
        if (lid < s && PG_BEATS(sv[lid + s], si[lid + s], sg[lid + s], sv[lid], si[lid], sg[lid])) {
            sv[lid] = sv[lid + s];
            si[lid] = si[lid + s];
            sg[lid] = sg[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *v = sv[0];
    *ix = si[0];
    *gx = sg[0];
#endif
}

__kernel __attribute__((reqd_work_group_size(PG_WG, 1, 1)))
void SFX(lcl_panel_grid)(__global real *A, const int ld, const int n, const int k, const int kb, __global int *ipiv,
                         __global int *zero, __global real *pub, __global int *pubi, volatile __global int *bar, const int base) {
    __local real prow[PG_W], vb[PG_WG], S[PG_LROWS * PG_W];
    __local int ib[PG_WG], gb[PG_WG];
    const int lid = get_local_id(0), G = get_num_groups(0), g = get_group_id(0);
    const int rpg = (n - k + G - 1) / G, r0 = k + g * rpg, r1 = min(n, r0 + rpg);
    /* rows r0 .. rg-1 live in S for the whole launch, rows rg .. r1-1 stay in A */
    const int rg = r0 + clamp(r1 - r0, 0, PG_LROWS);
    const int cl = lid % PG_W, rl = lid / PG_W;
    volatile __global real *vpub = pub;
    volatile __global int *vpubi = pubi;
    int j, i, sync = base;
    for (i = lid; i < (rg - r0) * PG_W; i += PG_WG)
        if (i % PG_W < kb) S[i] = A[(long)(r0 + i / PG_W) * ld + k + i % PG_W];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (j = k; j < k + kb; j++) {
        const int par = (j - k) & 1, ownj = j >= r0 && j < r1, jc = j - k;
        __global real *slot = pub + (long)(par * G + g) * PG_SLOT;
        __global real *jrow = pub + (long)2 * G * PG_SLOT + par * PG_W;
        real best = -1, pv;
        int bi = n, p, gp = 0;
        /* 1. this group's candidate for column j, published with its row (and row j) */
        for (i = max(r0, j) + lid; i < rg; i += PG_WG) {
            real v = fabs(S[(i - r0) * PG_W + jc]);
            if (v > best) { best = v; bi = i; }
        }
        for (i = max(rg, j) + lid; i < r1; i += PG_WG) {
            real v = fabs(A[(long)i * ld + j]);
            if (v > best) { best = v; bi = i; }
        }
        gp = g;
        SFX(lcl__grid_argmax)(&best, &bi, &gp, vb, ib, gb);
        for (i = lid; i < kb; i += PG_WG) {
            if (bi < n) slot[1 + i] = bi < rg ? S[(bi - r0) * PG_W + i] : A[(long)bi * ld + k + i];
            if (ownj) jrow[i] = j < rg ? S[(j - r0) * PG_W + i] : A[(long)j * ld + k + i];
        }
        if (lid == 0) {
            slot[0] = best;
            pubi[par * G + g] = bi;
        }
        sync += G;
        SFX(lcl__grid_sync)(bar, sync);
        /* 2. every group picks the same pivot from the published candidates */
        best = -1;
        bi = n;
        for (i = lid; i < G; i += PG_WG) {
            real v = vpub[(long)(par * G + i) * PG_SLOT];
            int vi = vpubi[par * G + i];
            if (v > best || (v == best && vi < bi)) { best = v; bi = vi; gp = i; }
        }
        SFX(lcl__grid_argmax)(&best, &bi, &gp, vb, ib, gb);
        p = bi;
        pv = best;
        if (p >= n) { p = j; pv = 0; }   /* a column of NaN: no candidate; treated as a zero pivot */
        for (i = lid; i < kb; i += PG_WG) prow[i] = p != j ? vpub[(long)(par * G + gp) * PG_SLOT + 1 + i] : ((volatile __global real *)jrow)[i];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (g == 0 && lid == 0) {
            ipiv[j] = p;
            if (pv == 0 && *zero == 0) *zero = j + 1;
        }
        /* 3. the swap, from the published copies */
        for (i = lid; i < (p != j ? kb : 0); i += PG_WG) {
            if (ownj) {
                if (j < rg) S[(j - r0) * PG_W + i] = prow[i];
                else A[(long)j * ld + k + i] = prow[i];
            }
            if (p >= r0 && p < r1) {
                real t = ((volatile __global real *)jrow)[i];
                if (p < rg) S[(p - r0) * PG_W + i] = t;
                else A[(long)p * ld + k + i] = t;
            }
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        /* 4. this group's rows below j: multipliers, then the rank-1 update */
        if (pv != 0) {
            const real d = prow[jc];
            for (i = max(r0, j + 1) + lid; i < rg; i += PG_WG) S[(i - r0) * PG_W + jc] /= d;
            for (i = max(rg, j + 1) + lid; i < r1; i += PG_WG) A[(long)i * ld + j] /= d;
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            if (cl > jc && cl < kb) {
                const real u = prow[cl];
                for (i = max(r0, j + 1) + rl; i < rg; i += PG_WG / PG_W)
                    S[(i - r0) * PG_W + cl] = fma(-S[(i - r0) * PG_W + jc], u, S[(i - r0) * PG_W + cl]);
#pragma unroll 4
                for (i = max(rg, j + 1) + rl; i < r1; i += PG_WG / PG_W)
                    A[(long)i * ld + k + cl] = fma(-A[(long)i * ld + j], u, A[(long)i * ld + k + cl]);
            }
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        }
    }
    for (i = lid; i < (rg - r0) * PG_W; i += PG_WG)
        if (i % PG_W < kb) A[(long)(r0 + i / PG_W) * ld + k + i % PG_W] = S[i];
}
#endif

/* ---- small diagonal blocks ---- */
/* X (kb x kb, row-major, ldx) from the lower triangle of L (ld):
   unit = 1: X = inv(L) with a unit diagonal (the LU panel's L11);
   unit = 0: X = inv(L)^T (Cholesky: L21 = A21 inv(L11)^T).  One work-item per column of inv(L). */
__kernel void SFX(lcl_trtri_lower)(__global const real *L, const long offl, const int ld, const int kb, const int unit,
                                   __global real *X, const int ldx) {
    const int j = get_global_id(0);
    int i, k;
    if (j >= kb) return;
    L += offl;
    for (i = 0; i < kb; i++) {
        real s;
        if (i < j) { if (unit) X[(long)i * ldx + j] = 0; else X[(long)j * ldx + i] = 0; continue; }
        s = i == j ? (real)1 : (real)0;
        for (k = j; k < i; k++) s -= L[(long)i * ld + k] * (unit ? X[(long)k * ldx + j] : X[(long)j * ldx + k]);
        if (!unit) s /= L[(long)i * ld + i];
        if (unit) X[(long)i * ldx + j] = s; else X[(long)j * ldx + i] = s;
    }
}

/* ---- triangular solves against a diagonal block of at most TRSM_NB, held in local memory ----
   Fixed loop bounds let the compiler keep the unknowns in registers; a smaller block is padded
   with the identity. One work-item per right-hand side (a column of U12, a row of L21). The
   block is stored transposed, so the column each step reads is contiguous and comes two
   elements a load (local-memory loads, not FMAs, bound these kernels), and Cholesky's divisions
   are reciprocals computed once. */
#ifndef TRSM_NB
#define TRSM_NB 64
#endif
#define TRSM_WG 64
#define TRSM_LD (TRSM_NB + 2)   /* even, so each row of pairs is 16-byte aligned; the padding spreads the banks of the transposing store */

/* Lt[q][a] = L(a, q) for a, q < kb, else the identity; each work-item then runs
   x -= x[k] * Lt[k][k+1..] for k = 0 .. TRSM_NB-1, x[k] first scaled by rd[k] when rd is given */
#ifndef TRSM_LB
#define TRSM_LB 16     /* loads in flight per work-item while the block is staged (a divisor of TRSM_NB^2 / TRSM_WG) */
#endif
__attribute__((always_inline)) inline void trsm_load(__local real2 (*Lt)[TRSM_LD / 2], __global const real *L, const int ld, const int kb) {
    __local real *ls = (__local real *)Lt;
    int t0, t;
    /* TRSM_LB loads issued before their stores: a plain loop waited for each load in turn */
    for (t0 = 0; t0 < TRSM_NB * TRSM_NB / TRSM_WG; t0 += TRSM_LB) {
        real v[TRSM_LB];
#pragma unroll
        for (t = 0; t < TRSM_LB; t++) {
            const int i = (int)get_local_id(0) + (t0 + t) * TRSM_WG, a = i / TRSM_NB, q = i % TRSM_NB;
            v[t] = (a < kb && q < kb) ? L[(long)a * ld + q] : (real)(a == q);
        }
#pragma unroll
        for (t = 0; t < TRSM_LB; t++) {
            const int i = (int)get_local_id(0) + (t0 + t) * TRSM_WG;
            ls[(i % TRSM_NB) * TRSM_LD + i / TRSM_NB] = v[t];
        }
    }
}
__attribute__((always_inline)) inline void trsm_sweep(real *x, __local const real2 (*Lt)[TRSM_LD / 2], __local const real *rd) {
    int i, k;
#pragma unroll
    for (k = 0; k < TRSM_NB; k++) {
        const real xk = rd ? x[k] * rd[k] : x[k];
        x[k] = xk;
        if (!(k & 1)) x[k + 1] = fma(-Lt[k][k / 2].y, xk, x[k + 1]);
#pragma unroll
        for (i = (k + 2) & ~1; i < TRSM_NB; i += 2) {
            const real2 l = Lt[k][i / 2];
            x[i] = fma(-l.x, xk, x[i]);
            x[i + 1] = fma(-l.y, xk, x[i + 1]);
        }
    }
}

/* B (kb x nrhs, in place) = inv(L) B, L unit lower (the LU panel's L11) */
__kernel __attribute__((reqd_work_group_size(TRSM_WG, 1, 1)))
void SFX(lcl_trsm_llu)(__global const real *L, const long offl, const int ld, const int kb,
                       __global real *B, const long offb, const int ldb, const int nrhs) {
    __local real2 Lt[TRSM_NB][TRSM_LD / 2];
    real x[TRSM_NB];
    const int c = get_global_id(0);
    int i;
    trsm_load(Lt, L + offl, ld, kb);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (c >= nrhs) return;
#pragma unroll
    for (i = 0; i < TRSM_NB; i++) x[i] = i < kb ? B[offb + (long)i * ldb + c] : (real)0;
    trsm_sweep(x, Lt, 0);
#pragma unroll
    for (i = 0; i < TRSM_NB; i++) if (i < kb) B[offb + (long)i * ldb + c] = x[i];
}

/* B (nrhs x kb, in place) = B inv(L)^T, L lower non-unit (Cholesky's L21 = A21 L11^-T) */
__kernel __attribute__((reqd_work_group_size(TRSM_WG, 1, 1)))
void SFX(lcl_trsm_rlt)(__global const real *L, const long offl, const int ld, const int kb,
                       __global real *B, const long offb, const int ldb, const int nrhs) {
    __local real2 Lt[TRSM_NB][TRSM_LD / 2];
    __local real rd[TRSM_NB];
    real x[TRSM_NB];
    const int lid = get_local_id(0), r = get_global_id(0);
    int i;
    trsm_load(Lt, L + offl, ld, kb);
    for (i = lid; i < TRSM_NB; i += TRSM_WG) rd[i] = i < kb ? (real)1 / L[offl + (long)i * ld + i] : (real)1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (r >= nrhs) return;
#pragma unroll
    for (i = 0; i < TRSM_NB; i++) x[i] = i < kb ? B[offb + (long)r * ldb + i] : (real)0;
    trsm_sweep(x, Lt, rd);
#pragma unroll
    for (i = 0; i < TRSM_NB; i++) if (i < kb) B[offb + (long)r * ldb + i] = x[i];
}

/* B (nrhs x kb, in place) = B Y^T, Y = inv(L11) lower (64 x 64, row-major, from lcl_potf2_inv):
   Cholesky's L21 without a triangular solve's chain, where the tensor-core GEMM is absent */
__kernel __attribute__((reqd_work_group_size(TRSM_WG, 1, 1)))
void SFX(lcl_trsm_rinv)(__global const real *Y, const int kb, __global real *B, const long offb, const int ldb, const int nrhs) {
    __local real2 Yt[TRSM_NB][TRSM_LD / 2];
    real x[TRSM_NB], o[TRSM_NB];
    const int r = get_global_id(0);
    int i, q;
    trsm_load(Yt, Y, TRSM_NB, kb);   /* Yt[q][c] = Y(c, q) */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (r >= nrhs) return;
#pragma unroll
    for (i = 0; i < TRSM_NB; i++) {
        x[i] = i < kb ? B[offb + (long)r * ldb + i] : (real)0;
        o[i] = 0;
    }
#pragma unroll
    for (q = 0; q < TRSM_NB; q++) {
        const real xq = x[q];
        if (q & 1) o[q] = fma(xq, Yt[q][q / 2].y, o[q]);
#pragma unroll
        for (i = (q + 1) & ~1; i < TRSM_NB; i += 2) {
            const real2 y = Yt[q][i / 2];
            o[i] = fma(xq, y.x, o[i]);
            o[i + 1] = fma(xq, y.y, o[i + 1]);
        }
    }
#pragma unroll
    for (i = 0; i < TRSM_NB; i++) if (i < kb) B[offb + (long)r * ldb + i] = o[i];
}

/* ---- POTF2 with the inverse: halves of 32 columns by one warp in registers ----
   The 64 x 64 diagonal block as [L00 0; L10 L11]: a warp factors A00 with a row per lane (the
   pivot and each column of L passed by shuffles, no barrier), L10 = A10 inv(L00)^T and
   A11 -= L10 L10^T by the work-group, the warp factors A11, and inv(L) = [Y00 0; -Y11 L10 Y00 Y11]
   goes to Y, so the TRSM of the rows below becomes a GEMM (lcl_trsm_rinv, or the tensor cores).
   The column loop of lcl_potf2_local crossed a barrier and the shared pivot each column: 40 us a
   block, then 19 for the TRSM; this kernel 27 us, and the TRSM as a GEMM 13 (H100, n = 4096).
   Elsewhere (tests on PoCL) the shuffles go through local memory, every work-item taking part. */
#if TRSM_NB == 64
#if defined(__NV_CL_C_VERSION) && LCL_NV_CC >= 70
#define PW_NATIVE 1
#define PW_UNROLL _Pragma("unroll")
#define pw_shfl(v, src, x) nv_shfl_real(v, src, 1)
#else
#define PW_NATIVE 0
#define PW_UNROLL
inline real pw_shfl(const real v, const int src, __local real *x) {
    const int lid = get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    x[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return x[(lid & ~31) + src];
}
#endif
/* The warp's half h (rows and columns 32h ..): lane r holds row r of the block (a[]) and column r
   of Z (z[]), the rows of inv(L) before scaling by the pivots. At column j the pivot comes from
   lane j and L(c, j) from lane c; each serves both lane r's row of the trailing block, less
   L(r, j) L(c, j), and its column of Z, row c less L(c, j) / L(j, j) Z(j, r); a row of Z is final
   at its own column. The registers shift one place a column (a[k] is column j + k, z[k] row
   j + k), so the column loop stays rolled: fully unrolled (~2500 instructions, each run once)
   it took 30.6 us a block against 27.2 (H100). L goes to S's lower triangle, inv(L) transposed
   above it (Y(r, c) at S[c][r + 1]); a failure to *pwf unless an earlier one is there. */
/* PW_BC 1 (NVIDIA): column j of L reaches the lanes through local memory (cb: 2 x 64 entries), one
   broadcast load an entry instead of two shuffles (a block 28.0 -> 23.5 us, H200; a faster
   1/sqrt by the hardware's approximation and Newton steps was slower than rsqrt). PW_PH 1: the
   column loop in four stretches of shrinking length. */
#ifndef PW_BC
#define PW_BC 1
#endif
#ifndef PW_PH
#define PW_PH 1
#endif
#if !PW_NATIVE
#undef PW_BC
#define PW_BC 0
#endif
__attribute__((always_inline)) inline void pw_half(__local real (*S)[TRSM_NB + 1], __local real *x, __local int *pwf, const int h,
                                                   __local real *cb) {
    const int lid = get_local_id(0), r = lid & 31, o = 32 * h;
    real a[32], z[32];
    int c, j, bad = 0;
#if PW_NATIVE
    if (lid >= 32) return;
#endif
    PW_UNROLL
    for (c = 0; c < 32; c++) {
        a[c] = c <= r ? S[o + r][o + c] : (real)0;
        z[c] = c == r ? (real)1 : (real)0;
    }
    /* column j's step; only c <= CM of the shifted registers can still be inside the block, so
       the later columns run shorter loops (PW_PH; one loop: a third more FMAs and loads) */
#define PW_COL(CM)                                                                                   \
    {                                                                                                \
        const real piv = pw_shfl(a[0], j, x), rd = rsqrt(piv);                                      \
        const real m = r > j ? a[0] * rd : (real)0, w = z[0] * rd; /* L(r, j); inv(L)(j, r) */      \
        PW_BCAST                                                                                     \
        if (!(piv > 0) && !bad) bad = j + 1; /* NaN too; the same in every lane */                  \
        if (lid < 32 && r >= j) S[o + r][o + j] = r == j ? piv * rd : m;                            \
        if (lid < 32 && r <= j) S[o + r][o + j + 1] = w;                                            \
        PW_UNROLL                                                                                    \
        for (c = 1; c <= (CM); c++) {                                                                \
            const real v = PW_V(c); /* L(j + c, j); 0 past the block */                             \
            a[c - 1] = fma(-m, v, a[c]);                                                             \
            z[c - 1] = fma(-v, w, z[c]);                                                             \
        }                                                                                            \
    }
#if PW_BC
#define PW_BCAST                                          \
    __local real *cj = cb + 64 * (j & 1);                 \
    cj[r] = m;                                            \
    cj[r + 32] = m;                                       \
    asm volatile("bar.warp.sync -1;" ::: "memory");       \
    cj += j;
#define PW_V(c) cj[c]   /* lanes <= j hold 0 */
#else
#define PW_BCAST
#define PW_V(c) pw_shfl(m, (j + (c)) & 31, x)
#endif
#if PW_PH
#pragma unroll 1
    for (j = 0; j < 8; j++) PW_COL(31)
#pragma unroll 1
    for (; j < 16; j++) PW_COL(23)
#pragma unroll 1
    for (; j < 24; j++) PW_COL(15)
#pragma unroll 1
    for (; j < 32; j++) PW_COL(7)
#else
#pragma unroll 1
    for (j = 0; j < 32; j++) PW_COL(31)
#endif
#undef PW_COL
#undef PW_BCAST
#undef PW_V
    if (lid == 0 && bad && !*pwf) *pwf = o + bad;
}
/* o[u][v] = sum over q < 32 of P(r0 + 16u, q) Q(q, c0 + 16v) (P, Q: expressions of (row, q) and (q, col)) */
#define PW_MM(o, P, Q)                                                                            \
    o[0][0] = o[0][1] = o[1][0] = o[1][1] = 0;                                                    \
    for (q = 0; q < 32; q++) {                                                                    \
        const real p0 = P(r0, q), p1 = P(r0 + 16, q), q0 = Q(q, c0), q1 = Q(q, c0 + 16);          \
        o[0][0] = fma(p0, q0, o[0][0]); o[0][1] = fma(p0, q1, o[0][1]);                           \
        o[1][0] = fma(p1, q0, o[1][0]); o[1][1] = fma(p1, q1, o[1][1]);                           \
    }
/* W = P Q, 32 x 32, four entries a work-item */
#define PW_TO_W(P, Q)                                                                             \
    for (e = lid; e < 256; e += NT) {                                                             \
        const int r0 = e / 16, c0 = e % 16;                                                       \
        PW_MM(o, P, Q)                                                                            \
        W[r0][c0] = o[0][0]; W[r0][c0 + 16] = o[0][1]; W[r0 + 16][c0] = o[1][0]; W[r0 + 16][c0 + 16] = o[1][1]; \
    }
#ifdef PW_STAMP    /* bench/gpu/potf2_probe.c: work-item 0's clock at each phase, after Y's 64 x 64 */
#define PW_T(i) do { if (get_local_id(0) == 0) { ulong c_; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c_)); ((__global ulong *)(Y + 4096))[i] = c_; } } while (0)
#else
#define PW_T(i) ((void)0)
#endif
/* S: the block (64 x 65); W: 32 x 33 scratch; x: NT entries (shuffles elsewhere than NVIDIA);
   Y: inv(L), 64 x 64 row-major, zero above the diagonal */
__attribute__((always_inline)) inline void potf2_pw(const int NT, __local real (*S)[TRSM_NB + 1], __local real (*W)[33], __local real *x,
                                                    __local int *pwf, __global real *A, const long offa, const int ld, const int kb,
                                                    const int base, __global int *fail, __global real *Y) {
    const int lid = get_local_id(0);
    const int ok = *fail == 0;   /* an earlier block failed: nothing more to write (uniform) */
#define P3L(r, q) S[32 + (r)][q]
#define P3T(q, c) S[32 + (c)][q]
    int i, e, q, u, v, h;
    real o[2][2];
    PW_T(0);
    {   /* the lower triangle, the identity past kb; all of a work-item's loads in flight first */
        real t[64 * 64 / 64];
        const int R = 64 * 64 / NT;
        PW_UNROLL   /* NVIDIA only: PoCL cannot unroll these and warns */
        for (i = 0; i < R; i++) {
            const int rr = (lid + i * NT) / 64, cc = (lid + i * NT) % 64;
            t[i] = rr < kb && cc < kb && cc <= rr ? A[offa + (long)rr * ld + cc] : (real)(rr == cc);
        }
        PW_UNROLL
        for (i = 0; i < R; i++) S[(lid + i * NT) / 64][(lid + i * NT) % 64] = t[i];
    }
    if (lid == 0) *pwf = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    PW_T(1);
    /* the same code for both halves (#pragma unroll 1): the warp's straight-line code is long */
#pragma unroll 1
    for (h = 0; h < 2; h++) {
        pw_half(S, x, pwf, h, &W[0][0]);   /* W is free until the halves' products (128 of its 32 x 33) */
        barrier(CLK_LOCAL_MEM_FENCE);
        PW_T(2 + 3 * h);
        if (h == 1) break;
        /* L10 = A10 Y00^T: all read before any is written */
#define P2A(r, q) S[32 + (r)][q]
#define P2Y(q, c) ((q) <= (c) ? S[q][(c) + 1] : (real)0)
        PW_TO_W(P2A, P2Y)
        barrier(CLK_LOCAL_MEM_FENCE);
        for (e = lid; e < 1024; e += NT) S[32 + e / 32][e % 32] = W[e / 32][e % 32];
        barrier(CLK_LOCAL_MEM_FENCE);
        PW_T(3);
        /* A11 -= L10 L10^T, lower part */
        for (e = lid; e < 256; e += NT) {
            const int r0 = e / 16, c0 = e % 16;
            PW_MM(o, P3L, P3T)
            for (u = 0; u < 2; u++)
                for (v = 0; v < 2; v++)
                    if (c0 + 16 * v <= r0 + 16 * u) S[32 + r0 + 16 * u][32 + c0 + 16 * v] -= o[u][v];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        PW_T(4);
    }
    /* T = L10 Y00 into W */
#define P5Y(q, c) ((q) >= (c) ? S[c][(q) + 1] : (real)0)
    PW_TO_W(P3L, P5Y)
    barrier(CLK_LOCAL_MEM_FENCE);
    PW_T(6);
    if (ok && *pwf && lid == 0) *fail = base + *pwf;
    if (!ok || *pwf) return;   /* uniform: the flag was set before the barrier */
    /* Y10 = -Y11 T, then the rest of Y and L */
#define P6Y(r, q) ((q) <= (r) ? S[32 + (q)][33 + (r)] : (real)0)
#define P6T(q, c) W[q][c]
    for (e = lid; e < 256; e += NT) {
        const int r0 = e / 16, c0 = e % 16;
        PW_MM(o, P6Y, P6T)
        for (u = 0; u < 2; u++)
            for (v = 0; v < 2; v++) Y[(32 + r0 + 16 * u) * 64 + c0 + 16 * v] = -o[u][v];
    }
    for (e = lid; e < 64 * 64; e += NT) {
        const int rr = e / 64, cc = e % 64;
        if (rr < 32 || cc >= 32) Y[e] = cc <= rr ? S[cc][rr + 1] : (real)0;
        if (rr < kb && cc <= rr) A[offa + (long)rr * ld + cc] = S[rr][cc];
    }
    PW_T(7);
#undef P2A
#undef P2Y
#undef P3L
#undef P3T
#undef P5Y
#undef P6Y
#undef P6T
}
__kernel __attribute__((reqd_work_group_size(LCL_WG, 1, 1)))
void SFX(lcl_potf2_inv)(__global real *A, const long offa, const int ld, const int kb, const int base, __global int *fail, __global real *Y) {
    __local real S[TRSM_NB][TRSM_NB + 1];
    __local real W[32][33];
    __local int pwf[1];
#if PW_NATIVE
    potf2_pw(LCL_WG, S, W, 0, pwf, A, offa, ld, kb, base, fail, Y);
#else
    __local real x[LCL_WG];
    potf2_pw(LCL_WG, S, W, x, pwf, A, offa, ld, kb, base, fail, Y);
#endif
}
#endif

/* Cholesky of a diagonal block of at most TRSM_NB in local memory, right-looking, one barrier a
   column. PF_T work-items share a row, taking its columns in turn: a row per work-item leaves
   the column loop latency-bound, and the earlier (row, column)-pair loop spent most of its
   iterations on elements outside the triangle. The work-item that updates the next pivot takes
   its square root and reciprocal (dg) while the others still update their rows, off the column
   chain; the block is loaded with all of a work-item's loads in flight (45.9 -> 40.5 us a block
   on an H100). A fully unrolled register version was slower still: straight-line code that runs
   once misses the instruction cache throughout. The first failing column (1-based, offset by base) goes to *fail and nothing
   is written back. NVIDIA only: PoCL 5 miscompiles it (wrong failing column on SPD input), so
   other devices keep the (row, column)-pair kernel after it. */
#ifdef __NV_CL_C_VERSION
/* the body, for NT work-items (PF_T = NT / TRSM_NB a row); col[2][TRSM_NB] holds column j
   before scaling, by parity of j */
__attribute__((always_inline)) inline void potf2_nv(const int NT, __local real (*S)[TRSM_NB + 1], __local real (*col)[TRSM_NB],
                                                    __local real *dg, __global real *A, const long offa, const int ld, const int kb,
                                                    const int base, __global int *fail) {
    const int PF_T = NT >= TRSM_NB ? NT / TRSM_NB : 1;
    const int lid = get_local_id(0), q = lid % PF_T;
    /* every work-item reads the same flag and pivots, so bad and ok stay uniform */
    int i, j, c, r, bad = 0, ok = *fail == 0;   /* an earlier block failed: nothing more to do */
    if (NT >= TRSM_NB) {   /* (a constant) all of a work-item's loads in flight before its stores */
        real v[TRSM_NB];   /* R <= TRSM_NB loads each */
        const int cc = lid % TRSM_NB, R = TRSM_NB * TRSM_NB / NT;
#pragma unroll
        for (i = 0; i < R; i++) {
            const int rr = lid / TRSM_NB + i * (NT / TRSM_NB);
            v[i] = rr < kb && cc < kb ? A[offa + (long)rr * ld + cc] : (real)0;
        }
#pragma unroll
        for (i = 0; i < R; i++) {
            const int rr = lid / TRSM_NB + i * (NT / TRSM_NB);
            if (rr < kb && cc < kb) S[rr][cc] = v[i];
            if (rr < kb && cc == 0) col[0][rr] = v[i];
            if (rr == 0 && cc == 0) { dg[0] = v[i]; dg[1] = sqrt(v[i]); dg[2] = (real)1 / dg[1]; }
        }
    } else {
        for (i = lid; i < kb * kb; i += NT) {
            real v = A[offa + (long)(i / kb) * ld + i % kb];
            S[i / kb][i % kb] = v;
            if (i % kb == 0) col[0][i / kb] = v;
            if (i == 0) { dg[0] = v; dg[1] = sqrt(v); dg[2] = (real)1 / dg[1]; }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the work-items of row r > j update it with column j; the one holding column j + 1
       publishes it in the other half of col[], so one barrier a column suffices. dg[3p..3p+2]:
       column j's pivot, its square root and the reciprocal, computed by the work-item that
       updated it, while the others still update their rows (off the chain of the column loop) */
    for (j = 0; j < kb; j++) {
        const int p = j & 1;
        const real d = dg[3 * p + 1], rd = dg[3 * p + 2];
        if (!(dg[3 * p] > 0) && !bad) bad = base + j + 1;   /* NaN too */
        for (r = lid / PF_T; r < kb; r += NT / PF_T) {
            const int act = r > j;
            real t = col[p][r] * rd;                 /* L(r, j) */
            if (q == 0 && act) S[r][j] = t;
            if (q == 0 && r == j) S[j][j] = d;
            t *= rd;
#pragma unroll 4
            for (c = j + 1 + q; c <= (act ? r : 0); c += PF_T) S[r][c] = fma(-t, col[p][c], S[r][c]);
            if (q == 0 && act && j + 1 < kb) col[p ^ 1][r] = S[r][j + 1];
            if (q == 0 && r == j + 1) {
                const real v = S[r][r], sv = sqrt(v);
                dg[3 * (p ^ 1)] = v;
                dg[3 * (p ^ 1) + 1] = sv;
                dg[3 * (p ^ 1) + 2] = (real)1 / sv;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (ok && bad && lid == 0) *fail = bad;
    for (i = lid; i < (ok && !bad ? kb * kb : 0); i += NT)
        if (i % kb <= i / kb) A[offa + (long)(i / kb) * ld + i % kb] = S[i / kb][i % kb];
}
__kernel __attribute__((reqd_work_group_size(LCL_WG, 1, 1)))
void SFX(lcl_potf2_local)(__global real *A, const long offa, const int ld, const int kb, const int base, __global int *fail) {
    __local real S[TRSM_NB][TRSM_NB + 1];
    __local real col[2][TRSM_NB], dg[6];
    potf2_nv(LCL_WG, S, col, dg, A, offa, ld, kb, base, fail);
}
#if LCL_FP64 && LCL_NV_CC >= 80
/* One step of the Cholesky panel in one launch, so POTF2 runs beside the GEMM instead of after
   it: group 0 updates the diagonal block with the panel's earlier kp columns and factors it;
   the other groups update the rows below it (tensor-core tiles of 128 x 64). */
__kernel __attribute__((reqd_work_group_size(32 * TC_WM, 1, 1)))
void lcl_potrf_step_d(__global double *A, const long off, const int ld, const int kb, const int kp, const int below,
                      const int base, __global int *fail) {
#define PS_TC (TC_LOCAL(TC_P(4), TC_BM) + TC_LOCAL(TC_P(4), 64))
#define PS_PF (TRSM_NB * (TRSM_NB + 1) + 2 * TRSM_NB + 6)
    __local double Lm[PS_TC > PS_PF ? PS_TC : PS_PF] __attribute__((aligned(16)));
    __global double *P = A + off - kp;   /* the panel's earlier columns, rows from the diagonal block down */
    if (get_group_id(0) == 0) {
        if (kp > 0) {
            tc_gemm_k(TC_WM, 1, TC_P(4), Lm, Lm + TC_LOCAL(TC_P(4), TC_BM), kb, kb, kp, -1.0, P, ld, P, ld, 1, 1.0, A + off, ld, 1, 0, 1, 0, 0, 0, 0, 0);
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        }
        potf2_nv(32 * TC_WM, (__local double (*)[TRSM_NB + 1])Lm, (__local double (*)[TRSM_NB])(Lm + TRSM_NB * (TRSM_NB + 1)),
                 Lm + TRSM_NB * (TRSM_NB + 1) + 2 * TRSM_NB, A, off, ld, kb, base, fail);
    } else if (kp > 0) {
        tc_gemm_k(TC_WM, 1, TC_P(4), Lm, Lm + TC_LOCAL(TC_P(4), TC_BM), below, kb, kp, -1.0, P + (long)kb * ld, ld, P, ld, 1, 1.0, A + off + (long)kb * ld,
                ld, 0, (int)get_group_id(0) - 1, (int)get_num_groups(0) - 1, 0, 0, 0, 0, 0);
    }
#undef PS_TC
#undef PS_PF
}
#if TRSM_NB == 64
/* One step of the Cholesky panel in one launch with the inverse and a look-ahead, so the step's
   chain is POTF2 and two small products, not three launches (81 us a step at n = 4096, H100).
   The diagonal block (kb wide, at off) comes fully updated. Groups of 256 (tc_gemm_k(4, 2, 0, 0, 0, 0): 128 x
   128 tiles, the half past kb idle):
   - group 0: POTF2 with the inverse (potf2_pw) into L11 and Y, published as sync[0] = tick;
   - group 1: the 64 rows under the block (T) less the panel's earlier kp columns; once Y is out,
     L21 = T Y^T, then (once group 2 is done: sync[1] >= want) the next step's block (nxt wide; 0:
     none in this panel) less L21 L21^T, which leaves it fully updated for the next launch;
   - group 2 (with a next block): that block less the earlier columns' product, then sync[1] += 1;
   - the rest: rows from 64 under the block, less the earlier columns, then times Y^T in place.
   Groups wait on lower-numbered ones only, which start first. NVIDIA only (PTX release/acquire). */
inline void ls_wait(volatile __global int *p, const int target) {
    if (get_local_id(0) == 0) {
        int v;
        do asm volatile("ld.acquire.gpu.s32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
        while (v < target);
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
inline void ls_post(volatile __global int *p, const int add, const int value) {   /* add: += 1, else = value */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        if (add) asm volatile("red.release.gpu.add.s32 [%0], 1;" ::"l"((ulong)p) : "memory");
        else asm volatile("st.release.gpu.s32 [%0], %1;" ::"l"((ulong)p), "r"(value) : "memory");
    }
}
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void lcl_potrf_lstep_d(__global double *A, const long off, const int ld, const int kb, const int kp, const int below, const int nxt,
                       const int base, __global int *fail, __global double *Y, volatile __global int *sync, const int tick, const int want) {
#define LS_TC (2 * TC_LOCAL(TC_P(4), 128))   /* tc_gemm_k(4, 2, TC_P(4), 0, 0, 0, 0): 128-row tiles of A and B */
#define LS_PW (TRSM_NB * (TRSM_NB + 1) + 32 * 33 + 1)
    __local double Lm[LS_TC > LS_PW ? LS_TC : LS_PW] __attribute__((aligned(16)));
    __global double *P = A + off - kp;   /* the panel's earlier columns, from the block's first row */
    __global double *T = A + off + (long)kb * ld;   /* the 64 rows under the block */
    const int grp = get_group_id(0), nla = below > 0 ? 1 + (nxt > 0) : 0, r1 = min(below, 64);
    __local double *As = Lm, *Bs = Lm + TC_LOCAL(TC_P(4), 128);
    if (grp == 0) {
        potf2_pw(256, (__local double (*)[TRSM_NB + 1])Lm, (__local double (*)[33])(Lm + TRSM_NB * (TRSM_NB + 1)), 0,
                 (__local int *)(Lm + TRSM_NB * (TRSM_NB + 1) + 32 * 33), A, off, ld, kb, base, fail, Y);
        ls_post(sync, 0, tick);
    } else if (grp == 1) {
        if (kp > 0) {
            tc_gemm_k(4, 2, TC_P(4), As, Bs, r1, kb, kp, -1.0, P + (long)kb * ld, ld, P, ld, 1, 1.0, T, ld, 0, 0, 1, 0, 0, 0, 0, 0);
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        }
        ls_wait(sync, tick);
        tc_gemm_k(4, 2, TC_P(4), As, Bs, r1, kb, kb, 1.0, T, ld, Y, 64, 1, 0.0, T, ld, 0, 0, 1, 0, 0, 0, 0, 0);
        if (nxt > 0) {
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            ls_wait(sync + 1, want);
            tc_gemm_k(4, 2, TC_P(4), As, Bs, nxt, nxt, kb, -1.0, T, ld, T, ld, 1, 1.0, T + kb, ld, 1, 0, 1, 0, 0, 0, 0, 0);
        }
    } else if (grp == 2 && nla == 2) {
        if (kp > 0) tc_gemm_k(4, 2, TC_P(4), As, Bs, nxt, nxt, kp, -1.0, P + (long)kb * ld, ld, P + (long)kb * ld, ld, 1, 1.0, T + kb, ld, 1, 0, 1, 0, 0, 0, 0, 0);
        ls_post(sync + 1, 1, 0);
    } else {   /* the rest, one tile of 128 rows a group: less the earlier columns, then times Y^T */
        const int m = below - 64, g = grp - 1 - nla, ng = (int)get_num_groups(0) - 1 - nla;
        __global double *R = T + 64L * ld;
        if (kp > 0) {
            tc_gemm_k(4, 2, TC_P(4), As, Bs, m, kb, kp, -1.0, P + (long)(kb + 64) * ld, ld, P, ld, 1, 1.0, R, ld, 0, g, ng, 0, 0, 0, 0, 0);
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        }
        ls_wait(sync, tick);
        tc_gemm_k(4, 2, TC_P(4), As, Bs, m, kb, kb, 1.0, R, ld, Y, 64, 1, 0.0, R, ld, 0, g, ng, 0, 0, 0, 0, 0);
    }
#undef LS_TC
#undef LS_PW
}
#endif
#endif
#else
/* the portable version: (row, column) pairs of the block, two barriers a column */
__kernel __attribute__((reqd_work_group_size(LCL_WG, 1, 1)))
void SFX(lcl_potf2_local)(__global real *A, const long offa, const int ld, const int kb, const int base, __global int *fail) {
    __local real S[TRSM_NB][TRSM_NB + 1];
    const int lid = get_local_id(0);
    /* every work-item reads the same pivot, so ok stays uniform without a vote; two barriers a column */
    int i, j, ok = *fail == 0;   /* an earlier block failed: nothing more to do */
    for (i = lid; i < kb * kb; i += LCL_WG) S[i / kb][i % kb] = A[offa + (long)(i / kb) * ld + i % kb];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (j = 0; j < kb; j++) {
        real d = S[j][j];
        if (ok && !(d > 0)) {
            if (lid == 0) *fail = base + j + 1;
            ok = 0;
        }
        d = sqrt(d);
        for (i = j + 1 + lid; i < (ok ? kb : 0); i += LCL_WG) S[i][j] /= d;
        barrier(CLK_LOCAL_MEM_FENCE);
        /* the pivot is written after every work-item has read it; rows below by (row, column)
           pairs of a TRSM_NB-wide grid, so no division by a run-time width. Loop bounds from
           the flag: PoCL 5 rejects branches around loops between barriers. */
        if (ok && lid == 0) S[j][j] = d;
        for (i = (j + 1) * TRSM_NB + lid; i < (ok ? kb * TRSM_NB : 0); i += LCL_WG) {
            int r = i / TRSM_NB, c = i % TRSM_NB;
            if (c > j && c <= r) S[r][c] = fma(-S[r][j], S[c][j], S[r][c]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (i = lid; i < (ok ? kb * kb : 0); i += LCL_WG)
        if (i % kb <= i / kb) A[offa + (long)(i / kb) * ld + i % kb] = S[i / kb][i % kb];
}
#endif

/* B (kb x nrhs, in place) = inv(op(T)) B for the solves: T is the kb x kb block at offt, op(T) = T
   or T^T (trans), lower or upper triangular (of op(T)), unit diagonal or not. */
__kernel __attribute__((reqd_work_group_size(TRSM_WG, 1, 1)))
void SFX(lcl_trsm_left)(__global const real *T, const long offt, const int ld, const int kb, const int lower,
                        const int unit, const int trans, __global real *B, const long offb, const int ldb, const int nrhs) {
    __local real Ts[TRSM_NB][TRSM_NB];
    real x[TRSM_NB];
    const int lid = get_local_id(0), c = get_global_id(0);
    int i, k;
    for (i = lid; i < TRSM_NB * TRSM_NB; i += TRSM_WG) {
        int r = i / TRSM_NB, q = i % TRSM_NB;
        Ts[r][q] = (r < kb && q < kb) ? T[offt + (trans ? (long)q * ld + r : (long)r * ld + q)] : (real)(r == q);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (c >= nrhs) return;
#pragma unroll
    for (i = 0; i < TRSM_NB; i++) x[i] = i < kb ? B[offb + (long)i * ldb + c] : (real)0;
    if (lower) {
#pragma unroll
        for (k = 0; k < TRSM_NB; k++) {
            if (!unit) x[k] /= Ts[k][k];
#pragma unroll
            for (i = k + 1; i < TRSM_NB; i++) x[i] = fma(-Ts[i][k], x[k], x[i]);
        }
    } else {
#pragma unroll
        for (k = TRSM_NB - 1; k >= 0; k--) {
            if (!unit) x[k] /= Ts[k][k];
#pragma unroll
            for (i = 0; i < k; i++) x[i] = fma(-Ts[i][k], x[k], x[i]);
        }
    }
#pragma unroll
    for (i = 0; i < TRSM_NB; i++) if (i < kb) B[offb + (long)i * ldb + c] = x[i];
}
