/* bklu.cl -- the device side of the block-aware sparse LU (linalg_cl.h >>bklu, >>bklu-opencl).
   Every operand is one M x M block, row-major, held in a frame: frames are fixed-size slices of up
   to four arena buffers (frame f is arena f / fpa, at element (f % fpa) * M * M), so one launch
   can work on blocks of many block columns: each kernel takes a list of frame tuples and runs one
   item per tuple (the last NDRange dimension). Built once per precision: LCL_FP64 selects double,
   kernel names end in _d or _f. Portability (PoCL): every barrier is reached by the whole
   work-group, loops around barriers have uniform trip counts. */
#ifndef LCL_FP64
#define LCL_FP64 1
#endif
#ifndef LCL_WG
#define LCL_WG 256     /* 1-D work-group size: a power of two the device allows */
#endif
#if LCL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define real double
#define SFX(name) name##_d
#else
#define real float
#define SFX(name) name##_f
#endif

#define ARENAS __global real *a0, __global real *a1, __global real *a2, __global real *a3, const int fpa, const int m
#define FRAME(f) ((((f) / fpa) == 0 ? a0 : ((f) / fpa) == 1 ? a1 : ((f) / fpa) == 2 ? a2 : a3) + (long)((f) % fpa) * m * m)

/* GEMM tile: BT x BT of C per work-group of (BT/RB)^2 work-items, each an RB x RB register block,
   stepping K by BK through local memory */
#define BT 64
#define BK 16
#define RB 4
#define WD (BT / RB)
/* acc += the outer product of step q of the tiles As (transposed A) and Bs: RB x RB per work-item */
#define RB_STEP(acc, As, Bs, q)                                                         \
    {                                                                                   \
        real a_[RB], b_[RB];                                                            \
        for (i = 0; i < RB; i++) a_[i] = As[q][ty + i * WD];                            \
        for (j = 0; j < RB; j++) b_[j] = Bs[q][tx + j * WD];                            \
        for (i = 0; i < RB; i++)                                                        \
            for (j = 0; j < RB; j++) acc[i][j] = fma(a_[i], b_[j], acc[i][j]);          \
    }

/* item t of list (fa, fb, fc): C = alpha A B + keep C (keep 0 or 1) */
__kernel __attribute__((reqd_work_group_size(WD, WD, 1)))
void SFX(lcl_bklu_gemm)(ARENAS, __global const int *list, const int lo, const real alpha, const real keep) {
    __local real As[BK][BT + 1], Bs[BK][BT];
    const int t = get_group_id(2), tx = get_local_id(0), ty = get_local_id(1);
    const int r0 = get_group_id(1) * BT, c0 = get_group_id(0) * BT;
    __global const real *A;
    __global const real *B;
    __global real *C;
    list += lo;
    A = FRAME(list[3 * t]);
    B = FRAME(list[3 * t + 1]);
    C = FRAME(list[3 * t + 2]);
    real acc[RB][RB];
    int i, j, k, kk, l;
    for (i = 0; i < RB; i++)
        for (j = 0; j < RB; j++) acc[i][j] = 0;
    for (k = 0; k < m; k += BK) {
        /* A's BT x BK tile, stored transposed (As[kk][row]); B's BK x BT tile */
        for (l = ty * WD + tx; l < BT * BK; l += WD * WD) {
            int rr = l / BK, ck = l % BK, kr = l / BT, cc = l % BT;
            As[ck][rr] = (r0 + rr < m && k + ck < m) ? A[(long)(r0 + rr) * m + k + ck] : 0;
            Bs[kr][cc] = (k + kr < m && c0 + cc < m) ? B[(long)(k + kr) * m + c0 + cc] : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (kk = 0; kk < BK; kk++) RB_STEP(acc, As, Bs, kk)
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (i = 0; i < RB; i++) {   /* a row's loads of C before its stores (dense.cl, tc_gemm_k's end) */
        const int r = r0 + ty + i * WD;
        real cv[RB];
        for (j = 0; j < RB; j++) cv[j] = r < m && c0 + tx + j * WD < m ? C[(long)r * m + c0 + tx + j * WD] : 0;
        for (j = 0; j < RB; j++)
            if (r < m && c0 + tx + j * WD < m) C[(long)r * m + c0 + tx + j * WD] = alpha * acc[i][j] + keep * cv[j];
    }
}

/* the same for M <= 32: one work-item per element of C (the tiled kernel computes 64 x 64
   whatever M is, and small blocks are where CPU devices spend their time) */
__kernel void SFX(lcl_bklu_gemm_small)(ARENAS, __global const int *list, const int lo, const real alpha, const real keep) {
    const int t = get_global_id(1), e = get_global_id(0), r = e / m, c = e % m;
    __global const real *A;
    __global const real *B;
    __global real *C;
    real acc = 0;
    int k;
    if (e >= m * m) return;
    list += lo;
    A = FRAME(list[3 * t]) + (long)r * m;
    B = FRAME(list[3 * t + 1]) + c;
    C = FRAME(list[3 * t + 2]);
    for (k = 0; k < m; k++) acc = fma(A[k], B[(long)k * m], acc);
    C[e] = alpha * acc + keep * C[e];
}

/* item t: frame list[t] = 0 */
__kernel void SFX(lcl_bklu_zero)(ARENAS, __global const int *list, const int lo) {
    __global real *X = FRAME(list[lo + get_global_id(1)]);
    long i, mm = (long)m * m;
    for (i = get_global_id(0); i < mm; i += get_global_size(0)) X[i] = 0;
}

/* item t: frame list[t] *= s[t]; a non-finite value sets *bad (the caller's one flag) */
__kernel void SFX(lcl_bklu_scale)(ARENAS, __global const int *list, const int lo, __global const real *s, __global int *bad) {
    const int t = get_global_id(1);
    __global real *X = FRAME(list[lo + t]);
    const real f = s[lo + t];
    long i, mm = (long)m * m;
    int nf = 0;
    for (i = get_global_id(0); i < mm; i += get_global_size(0)) {
        real v = X[i];
        nf |= !isfinite(v);
        X[i] = v * f;
    }
    if (nf) *bad = 1;
}

/* item t of list (src, dst, pofs): dst = P src, row r of dst being row perm[pofs + r] of src
   (pofs < 0: a plain copy) */
__kernel void SFX(lcl_bklu_permcopy)(ARENAS, __global const int *list, const int lo, __global const int *perm) {
    const int t = get_global_id(1);
    const int po = list[lo + 3 * t + 2];
    __global const real *S = FRAME(list[lo + 3 * t]);
    __global real *D = FRAME(list[lo + 3 * t + 1]);
    int r, c;
    /* dimension 0 walks the rows' columns: a row per get_local_size(0) work-items */
    for (r = get_group_id(0); r < m; r += get_num_groups(0)) {
        const int sr = po < 0 ? r : perm[po + r];
        for (c = get_local_id(0); c < m; c += get_local_size(0)) D[(long)r * m + c] = S[(long)sr * m + c];
    }
}

/* item t of list (frame, pofs, k): P D = L U in place, one work-group per block, partial pivoting
   (unless nopivot): the interchanges as LAPACK's (ipiv[pofs + k], 0-based) and as a permutation
   (perm[pofs + r]: row r of P D is row perm[pofs + r] of D); bad[k] = the 1-based first zero pivot
   or 0. Lists start at element lo of list (a multiple of the tuple size).
   kp >= 0: only the LR_NB-wide panel from column kp (its interchanges on the whole rows and U12),
   not the rest's update: lcl_bklu_lu_upd does that on many work-groups, and the host launches the
   two by turns, panel after panel (kp 0 starts perm and bad, the later panels carry them on).
   kp -1: every panel in this one launch; kp <= -2: the panels from column -kp - 2 to the end in
   this launch, after panels launched one by one (LCL_BKLU_LU_TAIL: fewer launches a level). */
#ifndef BK_LU_WG
#define BK_LU_WG 1024  /* the largest work-group the pivot LU may be given (its local arrays) */
#endif
#define LU_NB 32       /* its panel width */
#define LU_TW 64       /* columns of the rest updated at a time */
#ifndef LR_NB
#define LR_NB 16       /* the panel width when each row has its work-item (the panel in registers; at most LU_NB) */
#endif
#ifndef BK_LU_UNROLL
#define BK_LU_UNROLL 0
#endif
/* BK_SWAP_REG 1: a panel's interchanges on the other columns as one permutation, every load of a
   column before its stores (the same moves, so the same factors); 0, the default: one row pair at
   a time, each pivot's swap waiting for the one before. (Its first form, rows swapped in
   registers still pivot by pivot, was slower: 307.0 ms against 294.5, two H200s at M = 512.)
   2 (NVIDIA's default): 1 in lcl_bklu_lu (any work-group: blocks up to 256 rows on NVIDIA), 0 in
   the 512- and 1024-item kernels, where 1 did not pay: a 256 block's swaps 181k -> 148k clocks, its
   U12 100k -> 72k, its pivot LU 0.543 -> 0.515 ms (H200) */
#ifndef BK_SWAP_REG
#define BK_SWAP_REG 0
#endif
/* BK_PROF 1 (probes only, NVIDIA): the pivot LU's phases in SM clocks, added up in bad[2..] as
   ulongs by item 0 (bench/gpu/lu_probe.c PROF=1) */
#ifndef BK_PROF
#define BK_PROF 0
#endif
#if BK_PROF
#define BK_T(i)                                                        \
    if (lid == 0) {                                                    \
        ulong c_;                                                      \
        asm volatile("mov.u64 %0, %%clock64;" : "=l"(c_));             \
        prof_t[i] += c_ - prof_last;                                   \
        prof_last = c_;                                                \
    }
#else
#define BK_T(i)
#endif
/* BK_SHFL 1 (the default; NVIDIA 7.0+ only, else 0): the pivot search in each warp by shuffles,
   inline PTX (its OpenCL has no sub-groups), one barrier a column instead of two (a 512 block's LU
   panel by panel 2.40 -> 1.69 ms, H200). 2 (tests): the same butterfly through local memory. */
#ifndef BK_SHFL
#define BK_SHFL 1
#endif
#if BK_SHFL == 1 && !(defined(__NV_CL_C_VERSION) && defined(LCL_NV_CC) && LCL_NV_CC >= 70)
#undef BK_SHFL
#define BK_SHFL 0
#endif
#if BK_SHFL == 2
#define BK_XCHG(ov, oi, v, i, o)                                 \
    {                                                            \
        vmax[lid] = v;                                           \
        imax[lid] = i;                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                            \
        ov = vmax[lid ^ (o)];                                    \
        oi = imax[lid ^ (o)];                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                            \
    }
#elif BK_SHFL
inline int bk_bfly(const int v, const int o) {   /* lane ^ o's v */
    int r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(o));
    return r;
}
#if LCL_FP64
#define BK_BFLY_REAL(v, o) as_double((int2)(bk_bfly(as_int2(v).x, o), bk_bfly(as_int2(v).y, o)))
#else
#define BK_BFLY_REAL(v, o) as_float(bk_bfly(as_int(v), o))
#endif
#define BK_XCHG(ov, oi, v, i, o) ov = BK_BFLY_REAL(v, o), oi = bk_bfly(i, o);
#endif
/* BK_REDUX 1 (the default where BK_SHFL is 1 on sm_80+): the pivot search's argmax in a warp by
   redux.sync on 32-bit keys instead of butterflies, and the warps' winners combined the same way
   by every warp at once instead of a loop over them. A |value| >= 0 orders as its bits, so the
   largest is the largest high word, then low word among those, then the smallest row: the same
   pivot, ties and all (NaN, and rows outside the search, key 0). The search was half a tail
   block's pivot LU; one block panel by panel, H200: 256 0.65 -> 0.54 ms, 512 1.69 -> 1.24,
   1024 5.54 -> 3.54. 2 (tests): through local memory. */
#ifndef BK_REDUX
#define BK_REDUX 1
#endif
#if BK_REDUX == 1 && !(BK_SHFL == 1 && LCL_NV_CC >= 80)
#undef BK_REDUX
#define BK_REDUX 0
#endif
#if BK_REDUX && !BK_SHFL
#error "BK_REDUX needs BK_SHFL"
#endif
#if BK_REDUX == 2
#define BK_RED(r, v, op)                                                            \
    {                                                                               \
        int o_;                                                                     \
        imax[lid] = (int)(v);                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                               \
        r = (uint)imax[lid & ~31];                                                  \
        for (o_ = 1; o_ < 32; o_++) r = op(r, (uint)imax[(lid & ~31) + o_]);        \
        barrier(CLK_LOCAL_MEM_FENCE);                                               \
    }
#elif BK_REDUX
#define BK_RED(r, v, op) asm volatile("redux.sync." #op ".u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"((uint)(v)));
#endif
#if BK_REDUX && LCL_FP64
#define BK_ARGMAX(best, p)                                                          \
    {                                                                               \
        const ulong u_ = best >= 0 ? as_ulong(best) : 0;                            \
        const uint kh_ = (uint)(u_ >> 32), kl_ = (uint)u_;                          \
        uint h_, l_, i_;                                                            \
        BK_RED(h_, kh_, max)                                                        \
        BK_RED(l_, kh_ == h_ ? kl_ : 0u, max)                                       \
        BK_RED(i_, kh_ == h_ && kl_ == l_ ? (uint)(p) : 0xffffffffu, min)           \
        best = as_double(((ulong)h_ << 32) | l_);                                   \
        p = (int)i_;                                                                \
    }
#elif BK_REDUX
#define BK_ARGMAX(best, p)                                                          \
    {                                                                               \
        const uint k_ = best >= 0 ? as_uint(best) : 0;                              \
        uint h_, i_;                                                                \
        BK_RED(h_, k_, max)                                                         \
        BK_RED(i_, k_ == h_ ? (uint)(p) : 0xffffffffu, min)                         \
        best = as_float(h_);                                                        \
        p = (int)i_;                                                                \
    }
#endif
/* BK_KEY 1 (the default with BK_REDUX): each stage of the pivot search first tries one reduction of
   a 32-bit key, the top of |value| (its bits order as the value), and a ballot of the lanes that hold
   the winning key. A single holder is the exact winner: any other row's value is smaller. Two
   (a tie, or values alike in their top 32 bits) or none: the whole work-group runs the exact
   search above, so the same pivot. A column's search was six reductions in a row, 38% of a tail
   block's pivot LU (BK_PROF, H200, M = 256). */
#ifndef BK_KEY
#define BK_KEY 1
#endif
#if !BK_REDUX
#undef BK_KEY
#define BK_KEY 0
#endif
#if BK_KEY
#if LCL_FP64
#define BK_KEYOF(v) ((v) > 0 ? (uint)(as_ulong(v) >> 31) : 0u)     /* 11 exponent, 21 fraction bits */
#define BK_FROMKEY(h) as_double((ulong)(h) << 31)
#else
#define BK_KEYOF(v) ((v) > 0 ? as_uint(v) : 0u)
#define BK_FROMKEY(h) as_float(h)
#endif
#if BK_REDUX == 2
#define BK_BALLOT(r, pred)                                                          \
    {                                                                               \
        int o_;                                                                     \
        imax[lid] = (pred) ? 1 : 0;                                                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                               \
        r = 0;                                                                      \
        for (o_ = 0; o_ < 32; o_++) r |= (uint)imax[(lid & ~31) + o_] << o_;        \
        barrier(CLK_LOCAL_MEM_FENCE);                                               \
    }
#else
#define BK_BALLOT(r, pred) \
    asm volatile("{ .reg .pred p_; setp.ne.u32 p_, %1, 0; vote.sync.ballot.b32 %0, p_, 0xffffffff; }" : "=r"(r) : "r"((uint)((pred) ? 1 : 0)));
#endif
#endif
#define BK_LU_PARAMS ARENAS, __global const int *list, const int lo, __global int *ipiv, __global int *perm, __global int *bad, const int nopivot, \
                     const int kp
/* its local memory, declared by each entry point (a kernel's scope) and passed down */
#define BK_LU_LOCALS(W, SREG)   /* SREG: the interchanges as one permutation (BK_SWAP_REG) */             \
    __local real vmax[W], Us[LU_NB][LU_TW], prow[LR_NB], srow[LR_NB], rv[32];                           \
    __local int imax[W], ri[32], psw[LR_NB], psrc[2 * LR_NB], pdst[2 * LR_NB], zero;                     \
    __local ushort lp[W];   /* 2 bytes a row: the 1,024-item kernel stays within 32 KB of local memory */ \
    SFX(lcl__bklu_lu_body)(a0, a1, a2, a3, fpa, m, list, lo, ipiv, perm, bad, nopivot, kp, vmax, imax, lp, Us, prow, srow, rv, ri, psw, psrc, pdst, &zero, SREG)
void SFX(lcl__bklu_lu_body)(BK_LU_PARAMS, __local real *vmax, __local int *imax, __local ushort *lp, __local real (*Us)[LU_TW], __local real *prow,
                            __local real *srow, __local real *rv, __local int *ri, __local int *psw, __local int *psrc,
                            __local int *pdst, __local int *zero, const int sreg) {
    const int t = get_group_id(0), lid = get_local_id(0), WG = get_local_size(0), po = list[lo + 3 * t + 1];
    const int TW = WG < LU_TW ? WG : LU_TW, RG = WG / TW, tx = lid % TW, ty = lid / TW;
    /* a row per work-item: each column step of a panel works in registers and local memory (its
       latency, m steps in a row, is what a level of few columns waits for) */
#ifdef BK_LU_NOREG     /* tests: the other path for every M */
    const int inreg = 0, NB = kp >= 0 ? LR_NB : LU_NB;
#else
    const int inreg = WG >= m, NB = inreg || kp >= 0 ? LR_NB : LU_NB;
#endif
    __global real *D = FRAME(list[lo + 3 * t]);
    int k, k0, i, s;
#if BK_PROF
    ulong prof_t[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, prof_last;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(prof_last));
#endif
    /* the permutation: in local memory where the work-group holds every row (no global read in a
       column step), else in global memory */
    for (i = lid; i < m; i += WG) {
        if (inreg) lp[i] = (ushort)(kp > 0 || kp < -1 ? perm[po + i] : i);
        else if (kp == 0 || kp == -1) perm[po + i] = i;
    }
    if (lid == 0) *zero = kp > 0 || kp < -1 ? bad[list[lo + 3 * t + 2]] : 0;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    BK_T(0)
    /* right-looking, blocked: a panel of NB columns by rank-1 steps, then U12 by forward
       substitution and one rank-NB update of the rest, U12 staged in local memory by column
       tiles (the rest is read and written once per panel instead of once per column) */
    for (k0 = kp > 0 ? kp : kp < -1 ? -kp - 2 : 0; k0 < m && (kp < 0 || k0 == kp); k0 += NB) {
        const int kb = m - k0 < NB ? m - k0 : NB, ke = k0 + kb;
        int c0, r, c;
        if (inreg) {
            real pr[LR_NB];
            int j, jj;
            const int act = lid >= k0 && lid < m;   /* this item's row takes part in the panel */
#pragma unroll
            for (j = 0; j < LR_NB; j++) pr[j] = act && j < kb ? D[(long)lid * m + k0 + j] : 0;
#if BK_LU_UNROLL    /* pr[] stays in registers only when j is a constant */
#pragma unroll
#endif
            for (j = 0; j < LR_NB; j++) {
                if (j < kb) {
                    int p = k0 + j;
                    k = k0 + j;
                    if (!nopivot) {     /* the largest |value| (first of equals) in two barriers, not log2(WG) */
                        int nw = WG < 32 ? WG : 32;
                        real best = lid >= k && lid < m ? fabs(pr[j]) : -1;
                        p = lid >= k && lid < m ? lid : k;
#if BK_KEY
                        int fast = 0;
                        if (WG >= 32) {
                            const int e = lid & 31, nk = WG / 32;
                            const uint key = BK_KEYOF(best);
                            uint h, b;
                            BK_RED(h, key, max)
                            BK_BALLOT(b, key == h && h != 0)
                            if (popcount(b) == 1) {     /* the winner posts its row */
                                if (key == h) rv[lid / 32] = best, ri[lid / 32] = p;
                            } else if (e == 0)          /* none or several: the key, no row */
                                rv[lid / 32] = BK_FROMKEY(h), ri[lid / 32] = -1;
                            barrier(CLK_LOCAL_MEM_FENCE);
                            {
                                const uint k2 = e < nk ? BK_KEYOF(rv[e]) : 0u;
                                const int r2 = e < nk ? ri[e] : -1;
                                uint h2, b2, b3;
                                BK_RED(h2, k2, max)
                                BK_BALLOT(b2, e < nk && k2 == h2)
                                BK_BALLOT(b3, e < nk && k2 == h2 && r2 >= 0)
                                fast = h2 != 0 && popcount(b2) == 1 && b3 == b2;
                                if (fast) p = ri[31 - clz(b2)];
                            }
                        }
                        BK_T(6)
                        if (!fast) {
                        barrier(CLK_LOCAL_MEM_FENCE);   /* every read of rv and ri above done */
#endif
#if BK_SHFL
                        if (WG >= 32) {     /* each warp's winner by a butterfly, posted by its lane 0: one barrier */
#if BK_REDUX
                            BK_ARGMAX(best, p)
#else
                            int o;
                            for (o = 16; o > 0; o >>= 1) {
                                real ov;
                                int oi;
                                BK_XCHG(ov, oi, best, p, o)
                                if (ov > best || (ov == best && oi < p)) best = ov, p = oi;
                            }
#endif
                            nw = WG / 32;
                            if ((lid & 31) == 0) rv[lid / 32] = best, ri[lid / 32] = p;
                            BK_T(6)
                        } else
#endif
                        {
                            vmax[lid] = best;
                            imax[lid] = p;
                            barrier(CLK_LOCAL_MEM_FENCE);
                            if (lid < nw) {
                                best = vmax[lid];
                                p = imax[lid];
                                for (i = lid + nw; i < WG; i += nw)
                                    if (vmax[i] > best || (vmax[i] == best && imax[i] < p)) best = vmax[i], p = imax[i];
                                rv[lid] = best;
                                ri[lid] = p;
                            }
                        }
                        barrier(CLK_LOCAL_MEM_FENCE);
#if BK_REDUX
                        if (WG >= 32) {   /* every warp combines the winners (a lane each, the spare lanes the first's) */
                            const int e = (lid & 31) < nw ? (lid & 31) : 0;
                            best = rv[e];
                            p = ri[e];
                            BK_ARGMAX(best, p)
                        } else
#endif
                        {
                            best = rv[0];
                            p = ri[0];
                            for (i = 1; i < nw; i++)
                                if (rv[i] > best || (rv[i] == best && ri[i] < p)) best = rv[i], p = ri[i];
                        }
#if BK_KEY
                        }
#endif
                        if (p < k || p >= m) p = k;     /* NaN compares false: the input check reports it */
                        BK_T(7)
                    }
                    /* rows k and p swap their panel parts; row p's (the new row k) is the pivot row */
                    if (lid == p)
#pragma unroll
                        for (jj = 0; jj < LR_NB; jj++) prow[jj] = pr[jj];
                    if (lid == k)
#pragma unroll
                        for (jj = 0; jj < LR_NB; jj++) srow[jj] = pr[jj];
                    if (lid == 0) {
                        psw[j] = p;
                        ipiv[po + k] = p;
                        if (p != k) {
                            ushort a = lp[k];
                            lp[k] = lp[p];
                            lp[p] = a;
                        }
                    }
                    barrier(CLK_LOCAL_MEM_FENCE);
                    BK_T(8)
                    if (p != k && lid == k)
#pragma unroll
                        for (jj = 0; jj < LR_NB; jj++) pr[jj] = prow[jj];
                    if (p != k && lid == p)
#pragma unroll
                        for (jj = 0; jj < LR_NB; jj++) pr[jj] = srow[jj];
                    {
                        const real piv = prow[j];
                        if (piv == 0) {
                            if (lid == 0 && !*zero) *zero = k + 1;
                        } else if (lid > k && lid < m) {
                            const real l = pr[j] / piv;
                            pr[j] = l;
#pragma unroll
                            for (jj = 0; jj < LR_NB; jj++)
                                if (jj > j && jj < kb) pr[jj] -= l * prow[jj];
                        }
                    }
                    BK_T(9)
                    /* no barrier here: the next step writes rv after the one above (every read of
                       rv done) and prow, srow after one more */
                    if (nopivot) barrier(CLK_LOCAL_MEM_FENCE);
                }
            }
#pragma unroll
            for (j = 0; j < LR_NB; j++)
                if (act && j < kb) D[(long)lid * m + k0 + j] = pr[j];
            BK_T(1)
            /* the panel's interchanges on the other columns, in order (each item its own columns) */
#if BK_SWAP_REG     /* as one permutation of the at most 2 kb rows they touch: each destination's
                       source found by running the swaps backwards, then per column every load
                       before any store (one round trip, not one a pivot in a row); the same moves */
            if (sreg) {
            for (i = lid; i < 2 * LR_NB; i += WG) {
                int dst = i < kb ? k0 + i : i >= LR_NB && i - LR_NB < kb && psw[i - LR_NB] >= ke ? psw[i - LR_NB] : -1, src = dst;
                for (j = kb - 1; j >= 0 && dst >= 0; j--) {
                    const int p = psw[j];
                    if (src == k0 + j) src = p;
                    else if (src == p) src = k0 + j;
                }
                pdst[i] = src == dst ? -1 : dst;   /* (rows that end where they began stay) */
                psrc[i] = src;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (c = lid; c < m; c += WG)
                if (c < k0 || c >= ke) {
                    real rr[2 * LR_NB];
#pragma unroll
                    for (j = 0; j < 2 * LR_NB; j++) rr[j] = pdst[j] >= 0 ? D[(long)psrc[j] * m + c] : 0;
#pragma unroll
                    for (j = 0; j < 2 * LR_NB; j++)
                        if (pdst[j] >= 0) D[(long)pdst[j] * m + c] = rr[j];
                }
            }
#endif
#if BK_SWAP_REG != 1
#if BK_SWAP_REG
            else
#endif
            for (j = 0; j < kb; j++) {
                const int p = psw[j];
                k = k0 + j;
                if (p != k)
                    for (c = lid; c < m; c += WG)
                        if (c < k0 || c >= ke) {
                            real a = D[(long)k * m + c];
                            D[(long)k * m + c] = D[(long)p * m + c];
                            D[(long)p * m + c] = a;
                        }
            }
#endif
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            BK_T(2)
        } else
        for (k = k0; k < ke; k++) {
            int p = k;
            real best = -1;
            if (!nopivot) {
                for (i = k + lid; i < m; i += WG) {
                    real v = fabs(D[(long)i * m + k]);
                    if (v > best) { best = v; p = i; }
                }
                vmax[lid] = best;
                imax[lid] = p;
                barrier(CLK_LOCAL_MEM_FENCE);
                for (s = WG / 2; s > 0; s >>= 1) {
                    if (lid < s && (vmax[lid + s] > vmax[lid] || (vmax[lid + s] == vmax[lid] && imax[lid + s] < imax[lid]))) {
                        vmax[lid] = vmax[lid + s];
                        imax[lid] = imax[lid + s];
                    }
                    barrier(CLK_LOCAL_MEM_FENCE);
                }
                p = imax[0];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (p != k) {   /* whole rows: the rest is swapped before its update */
                for (i = lid; i < m; i += WG) {
                    real a = D[(long)k * m + i];
                    D[(long)k * m + i] = D[(long)p * m + i];
                    D[(long)p * m + i] = a;
                }
                if (lid == 0) {
                    int a = perm[po + k];
                    perm[po + k] = perm[po + p];
                    perm[po + p] = a;
                }
            }
            if (lid == 0) ipiv[po + k] = p;
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            {   /* the test inside the loop: PoCL 5.0 aborts on a branch around a loop between barriers */
                real piv = D[(long)k * m + k];
                if (piv == 0 && lid == 0 && !*zero) *zero = k + 1;
                for (i = k + 1 + lid; i < m; i += WG)
                    if (piv != 0) D[(long)i * m + k] /= piv;
            }
            barrier(CLK_GLOBAL_MEM_FENCE);
            /* the panel's own columns right of k */
            for (r = k + 1 + ty; r < m; r += RG) {
                const real l = D[(long)r * m + k];
                for (c = k + 1 + tx; c < ke; c += TW) D[(long)r * m + c] -= l * D[(long)k * m + c];
            }
            barrier(CLK_GLOBAL_MEM_FENCE);
        }
        /* U12 = L11^-1 A12: a column per work-item, in registers where the panel is LR_NB wide;
           the LU_NB-wide panels (rows beyond the work-group, one launch) reload it step by step.
           One loop with the branch inside, as above (PoCL 5.0) */
        for (c = ke + lid; c < m; c += WG)
            if (NB == LR_NB) {
                real u[LR_NB];
                int j, jj;
#pragma unroll
                for (j = 0; j < LR_NB; j++) u[j] = j < kb ? D[(long)(k0 + j) * m + c] : 0;
#pragma unroll
                for (j = 1; j < LR_NB; j++)
#pragma unroll
                    for (jj = 0; jj < LR_NB - 1; jj++)
                        if (jj < j && j < kb) u[j] -= D[(long)(k0 + j) * m + k0 + jj] * u[jj];
#pragma unroll
                for (j = 1; j < LR_NB; j++)
                    if (j < kb) D[(long)(k0 + j) * m + c] = u[j];
            } else
                for (i = k0 + 1; i < ke; i++) {
                    real a = D[(long)i * m + c];
                    for (k = k0; k < i; k++) a -= D[(long)i * m + k] * D[(long)k * m + c];
                    D[(long)i * m + c] = a;
                }
        barrier(CLK_GLOBAL_MEM_FENCE);
        BK_T(3)
        /* A22 -= L21 U12, TW columns at a time (rows below a panel exist only where it is full: kb = NB).
           The row-per-item path keeps each item's column of the U12 tile in registers and updates two
           rows at a time: a chain of NB dependent loads and FMAs per value was 60% of its time at M = 512 */
        for (c0 = kp < 0 ? ke : m; c0 < m; c0 += TW) {
            for (i = lid; i < LU_NB * TW; i += WG) {
                int q = i / TW, cc = c0 + i % TW;
                Us[q][i % TW] = q < kb && cc < m ? D[(long)(k0 + q) * m + cc] : 0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            c = c0 + tx;
            if (c < m && inreg) {
                real u[LR_NB];
                int j;
#if BK_LU_UNROLL
#pragma unroll
#endif
                for (j = 0; j < LR_NB; j++) u[j] = Us[j][tx];
                for (r = ke + ty; r < m; r += 2 * RG) {
                    const int r2 = r + RG < m ? r + RG : r;
                    __global const real *l1 = D + (long)r * m + k0, *l2 = D + (long)r2 * m + k0;
                    real x1 = D[(long)r * m + c], x2 = D[(long)r2 * m + c];
#if BK_LU_UNROLL
#pragma unroll
#endif
                    for (j = 0; j < LR_NB; j++) {
                        x1 -= l1[j] * u[j];
                        x2 -= l2[j] * u[j];
                    }
                    D[(long)r * m + c] = x1;
                    if (r2 != r) D[(long)r2 * m + c] = x2;
                }
            } else if (c < m)
                for (r = ke + ty; r < m; r += RG) {
                    __global const real *lr = D + (long)r * m + k0;
                    real a = D[(long)r * m + c];
                    for (k = 0; k < kb; k++) a -= lr[k] * Us[k][tx];
                    D[(long)r * m + c] = a;
                }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        BK_T(4)
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (inreg)
        for (i = lid; i < m; i += WG) perm[po + i] = lp[i];
    if (lid == 0) bad[list[lo + 3 * t + 2]] = *zero;
#if BK_PROF
    BK_T(5)
    if (lid == 0)
        for (i = 0; i < 10; i++) ((__global ulong *)(bad + 2))[i] += prof_t[i];
#endif
}
/* the entry points: any work-group (up to BK_LU_WG), and exactly 512 or 1024 work-items. A kernel
   that names its size gets registers for it: NVIDIA's OpenCL allows the first only 256 work-items
   on an H100, so its row-per-item path would end at M = 256 */
__kernel void SFX(lcl_bklu_lu)(BK_LU_PARAMS) { BK_LU_LOCALS(BK_LU_WG, BK_SWAP_REG != 0); }
__kernel __attribute__((reqd_work_group_size(512, 1, 1))) void SFX(lcl_bklu_lu512)(BK_LU_PARAMS) { BK_LU_LOCALS(512, BK_SWAP_REG == 1); }
#if BK_LU_WG >= 1024
__kernel __attribute__((reqd_work_group_size(1024, 1, 1))) void SFX(lcl_bklu_lu1024)(BK_LU_PARAMS) { BK_LU_LOCALS(1024, BK_SWAP_REG == 1); }
#endif
/* item t of the pivot LU's list, after its panel from column kp (kb <= LR_NB wide): A22 -= L21 U12,
   a 64 x 64 tile of A22 per work-group (BT, RB, WD as the GEMM's) */
__kernel __attribute__((reqd_work_group_size(WD, WD, 1)))
void SFX(lcl_bklu_lu_upd)(ARENAS, __global const int *list, const int lo, const int kp, const int kb) {
    __local real Ls[LR_NB][BT + 1], Ut[LR_NB][BT];
    const int t = get_group_id(2), tx = get_local_id(0), ty = get_local_id(1), ke = kp + kb;
    const int r0 = ke + get_group_id(1) * BT, c0 = ke + get_group_id(0) * BT;
    __global real *D = FRAME(list[lo + 3 * t]);
    real acc[RB][RB];
    int i, j, q, l;
    for (l = ty * WD + tx; l < BT * kb; l += WD * WD) {
        const int rr = l / kb, kk = l % kb, kr = l / BT, cc = l % BT;
        Ls[kk][rr] = r0 + rr < m ? D[(long)(r0 + rr) * m + kp + kk] : 0;
        Ut[kr][cc] = c0 + cc < m ? D[(long)(kp + kr) * m + c0 + cc] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (i = 0; i < RB; i++)
        for (j = 0; j < RB; j++) acc[i][j] = 0;
    for (q = 0; q < kb; q++) RB_STEP(acc, Ls, Ut, q)
    for (i = 0; i < RB; i++) {   /* a row's loads before its stores (dense.cl, tc_gemm_k's end) */
        const int r = r0 + ty + i * WD;
        real dv[RB];
        for (j = 0; j < RB; j++) dv[j] = r < m && c0 + tx + j * WD < m ? D[(long)r * m + c0 + tx + j * WD] : 0;
        for (j = 0; j < RB; j++)
            if (r < m && c0 + tx + j * WD < m) D[(long)r * m + c0 + tx + j * WD] = dv[j] - acc[i][j];
    }
}

/* item t: the inverses of the unit lower (which 0) and the upper (which 1) triangle of frame
   list[3t], into frames list[3t + 1 + which]. Each work-item computes one column j of the inverse,
   a work-group 64 neighbouring columns, by row tiles of TT: the tiles of the triangle pass through
   local memory (shared by the group's columns), the column's finished rows come back from global
   memory (coalesced: row-major, neighbouring j), the tile's own rows stay in registers. Tiles
   that hold only zeros of the group's columns are skipped (the inverse is triangular too). */
#define TT 32
#define LCL_MIN_I(a, b) ((a) < (b) ? (a) : (b))
/* BK_TRI_PF 1 (NVIDIA's default): a tile's TT values of the column loaded before its products, all
   in flight at once (without, each product waits for its load: TT round trips a tile); the same
   arithmetic. Elsewhere 0: not timed off NVIDIA (PoCL runs it under the option, in the tests). */
#ifndef BK_TRI_PF
#ifdef __NV_CL_C_VERSION
#define BK_TRI_PF 1
#else
#define BK_TRI_PF 0
#endif
#endif
/* BK_TRI_P (LCL_BKLU_TRI_P): P work-items a column, each with TT / P rows of a tile, so the chain
   of products each item runs is P times shorter (one 512 block is 16 groups of 64 items: the
   inverses took 0.72 ms a level on an H200). The diagonal tile goes through local memory, solved
   by the column's first item; every row sees the same operations in the same order as with P = 1,
   so the same bits. */
#ifndef BK_TRI_P
#define BK_TRI_P 1
#endif
#define TR (TT / BK_TRI_P)
#define CH 8    /* the diagonal tile's rows solved at a time */
/* U's chunk of rows c.. of the diagonal tile, held in acc[o..]: backward, in registers */
#define BK_TRI_USOLVE(o, c)                                                                          \
    _Pragma("unroll") for (r = CH - 1; r >= 0; r--) {                                                \
        _Pragma("unroll") for (q = r + 1; q < CH; q++) acc[(o) + r] = fma(-Dt[(c) + r][(c) + q], acc[(o) + q], acc[(o) + r]); \
        acc[(o) + r] /= Dt[(c) + r][(c) + r];                                                        \
    }
__kernel __attribute__((reqd_work_group_size(64 * BK_TRI_P, 1, 1)))
void SFX(lcl_bklu_trtri)(ARENAS, __global const int *list, const int lo) {
    __local real Dt[TT][TT + 1];
#if BK_TRI_P > 1
    __local real Xt[TT][65];
#endif
    const int li = get_local_id(0), lj = li % 64, p = li / 64, r0 = p * TR;
    const int j0 = get_group_id(0) * 64, j = j0 + lj, which = get_global_id(1), t = get_global_id(2);
    __global const real *D = FRAME(list[lo + 3 * t]);
    __global real *X = FRAME(list[lo + 3 * t + 1 + which]);
    const int nt = (m + TT - 1) / TT, jt0 = j0 / TT, jt1 = (LCL_MIN_I(j0 + 64, m) - 1) / TT;
    real acc[TR];
    int ti, tk, r, q, l, cb;
#if BK_PROF     /* group 0's item 0: products, diagonal tiles, stores, in a3 as ulongs from 0 */
    const int lid = li;
    ulong prof_t[3] = {0, 0, 0}, prof_last;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(prof_last));
#endif
    for (ti = 0; ti < nt; ti++) {
        /* L: tiles from the top; U: from the bottom */
        const int I = (which ? nt - 1 - ti : ti) * TT, it = I / TT;
#if BK_TRI_P > 1
        /* the rows of X read below were stored by all P items of each column (TR rows each), the
           last tile's just now, and the prefetch (BK_TRI_PF) reads them before any other barrier:
           every store first, and visible (a global fence). Without it U's inverse read its previous
           tile half-written: H200, single precision, M = 256: residuals 1e-3 to 3e-2 */
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#endif
        const int zero = which ? it > jt1 : it < jt0;   /* rows of only zeros in these columns */
        for (r = 0; r < TR; r++) acc[r] = (I + r0 + r == j) ? 1 : 0;
        /* with P > 1 a tile of zeros runs too (no products; its solve keeps the zeros): barriers
           under a condition cost PoCL minutes of compiling */
        if (BK_TRI_P > 1 || !zero) {
            /* the tiles beside the diagonal one: acc -= D(I, K) X(K, j) */
            const int k0 = which ? it + 1 : jt0, k1 = which ? jt1 + 1 : it;
            for (tk = k0; tk < k1; tk++) {
                const int K = tk * TT;
#if BK_TRI_PF
                real xk[TT];
#pragma unroll
                for (q = 0; q < TT; q++) xk[q] = (j < m && K + q < m) ? X[(long)(K + q) * m + j] : 0;
#define BK_TRI_X(q) xk[q]
#else
#define BK_TRI_X(q) ((j < m && K + (q) < m) ? X[(long)(K + (q)) * m + j] : 0)
#endif
                barrier(CLK_LOCAL_MEM_FENCE);
                for (l = li; l < TT * TT; l += 64 * BK_TRI_P) {
                    int rr = l / TT, cc = l % TT;
                    Dt[rr][cc] = (I + rr < m && K + cc < m) ? D[(long)(I + rr) * m + K + cc] : 0;
                }
                barrier(CLK_LOCAL_MEM_FENCE);
#if BK_TRI_PF
#pragma unroll
#endif
                for (q = 0; q < TT; q++) {
                    real x = BK_TRI_X(q);
                    for (r = 0; r < TR; r++) acc[r] = fma(-Dt[r0 + r][q], x, acc[r]);
                }
#undef BK_TRI_X
            }
            /* the diagonal tile: forward (L, unit) or backward (U) within the registers */
            barrier(CLK_LOCAL_MEM_FENCE);
            BK_T(0)
            for (l = li; l < TT * TT; l += 64 * BK_TRI_P) {
                int rr = l / TT, cc = l % TT;
                Dt[rr][cc] = (I + rr < m && I + cc < m) ? D[(long)(I + rr) * m + I + cc] : (rr == cc ? 1 : 0);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
#if BK_TRI_P > 1
            /* chunk by chunk (CH rows; L's from the top, U's from the bottom): its items solve it in
               their registers and post it, then every row still to solve takes its products at
               once. A tail block's inverses were 32 rows in a row on one item a column */
#pragma unroll
            for (cb = 0; cb < TT / CH; cb++) {
                if (!which) {
                    const int c = cb * CH, o = c % TR;
                    if (p == c / TR) {
#pragma unroll
                        for (r = 1; r < CH; r++)
#pragma unroll
                            for (q = 0; q < r; q++) acc[o + r] = fma(-Dt[c + r][c + q], acc[o + q], acc[o + r]);
#pragma unroll
                        for (r = 0; r < CH; r++) Xt[c + r][lj] = acc[o + r];
                    }
                } else {
                    const int c = TT - CH - cb * CH, o = c % TR;
                    if (p == c / TR) {
                        BK_TRI_USOLVE(o, c)
#pragma unroll
                        for (r = 0; r < CH; r++) Xt[c + r][lj] = acc[o + r];
                    }
                }
                barrier(CLK_LOCAL_MEM_FENCE);
                {
                    const int c = which ? TT - CH - cb * CH : cb * CH;
#pragma unroll
                    for (r = 0; r < TR; r++)
                        if (which ? r0 + r < c : r0 + r >= c + CH)
#pragma unroll
                            for (q = 0; q < CH; q++) acc[r] = fma(-Dt[r0 + r][c + q], Xt[c + q][lj], acc[r]);
                }
            }
#else
            if (!which) {
                for (r = 1; r < TT; r++)
                    for (q = 0; q < r; q++) acc[r] = fma(-Dt[r][q], acc[q], acc[r]);
            } else {    /* U's chunks in the order of the chunked form above (the same bits) */
#pragma unroll
                for (cb = TT - CH; cb >= 0; cb -= CH) {
                    BK_TRI_USOLVE(cb, cb)
#pragma unroll
                    for (r = 0; r < cb; r++)
#pragma unroll
                        for (q = 0; q < CH; q++) acc[r] = fma(-Dt[r][cb + q], acc[cb + q], acc[r]);
                }
            }
#endif
            BK_T(1)
        }
        if (j < m)
            for (r = 0; r < TR; r++)
                if (I + r0 + r < m) X[(long)(I + r0 + r) * m + j] = zero ? 0 : acc[r];
        BK_T(2)
    }
#if BK_PROF
    if (li == 0 && get_group_id(0) == 0 && which == 0 && t == 0)
        for (r = 0; r < 3; r++) ((__global ulong *)a3)[r] += prof_t[r];
#endif
}
#undef TR
#undef CH
#undef BK_TRI_USOLVE

/* The block solve on the device (lcl_bklu_solve when one device holds every factor). W holds nrhs
   vectors of ld entries, block row k at k * m; T is m x nrhs scratch. One work-item per row and
   right-hand side: the blocks are read once, the vectors stay in cache.
   sv_diag: T = D (P_k w_k) for frame fd (L_kk^-1 with the pivots, or U_kk^-1 without them) */
__kernel void SFX(lcl_bklu_sv_diag)(ARENAS, const int fd, const int k, const int usep, __global const int *perm, __global const real *W,
                                    const long ld, const int nrhs, __global real *T) {
    const int i = get_global_id(0), c = get_global_id(1);
    if (i < m && c < nrhs) {
        __global const real *D = FRAME(fd) + (long)i * m;
        __global const real *w = W + c * ld + (long)k * m;
        __global const int *p = perm + (long)k * m;
        real s = 0;
        int j;
        if (usep) for (j = 0; j < m; j++) s = fma(D[j], w[p[j]], s);
        else for (j = 0; j < m; j++) s = fma(D[j], w[j], s);
        T[(long)c * m + i] = s;
    }
}
/* item t of list (frame, row block r) from lo: w_r -= B x, x being T (fromw 0) or block k of W
   (fromw 1); B is frame f, or block -1 - f of F (the off-diagonal blocks of the block triangular
   form) when f < 0; f == SV_COPY: w_r = T */
#define SV_COPY (-2147483647 - 1)
__kernel void SFX(lcl_bklu_sv_upd)(ARENAS, __global const int *list, const int lo, __global const real *F, __global real *W,
                                   const long ld, const int nrhs, __global const real *T, const int fromw, const int k) {
    const int i = get_global_id(0), c = get_global_id(1), t = get_global_id(2);
    if (i < m && c < nrhs) {
        const int f = list[lo + 2 * t], r = list[lo + 2 * t + 1];
        __global real *w = W + c * ld + (long)r * m;
        __global const real *x = fromw ? W + c * ld + (long)k * m : T + (long)c * m;
        if (f == SV_COPY) w[i] = T[(long)c * m + i];
        else {
            __global const real *B = (f >= 0 ? FRAME(f) : F + (long)(-1 - f) * m * m) + (long)i * m;
            real s = 0;
            int j;
            for (j = 0; j < m; j++) s = fma(B[j], x[j], s);
            w[i] -= s;
        }
    }
}
