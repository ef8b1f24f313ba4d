/* klu.cl -- the device side of the sparse direct LU (linalg_cl.h >>klu-numeric, >>klu-opencl):
   the level-scheduled refactor and triangular solves. Every index is a pivoted index (the factored
   matrix M = B(piv, :), see the header); L and U are column-compressed as on the host, with
   row-compressed copies for the solves that read rows. One launch per level of a DAG computed on
   the host: the nodes of one level are independent and read only nodes of earlier levels.
   Built once per precision: LCL_FP64 selects double, kernel names end in _d or _f.
   Portability (PoCL): no early return, every barrier reached by the whole work-group, loops
   around barriers have uniform trip counts. */
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
/* The refactor replays the host's arithmetic (ISO C, no contraction), so that device and host
   factors agree bit for bit in double: no a*b+c fused into fma. */
#pragma OPENCL FP_CONTRACT OFF
#define SYNC barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

/* dst[e] = src[map[e]]: the row-compressed copies' values from the column-compressed ones */
__kernel void SFX(lcl_klu_gather)(const int m, __global const int *map, __global const real *src, __global real *dst) {
    int e = get_global_id(0);
    if (e < m) dst[e] = src[map[e]];
}

/* z[j] = b[perm[j]] (/ rs[j]): the right-hand side in pivoted order (rs: the row scale of row j) */
__kernel void SFX(lcl_klu_perm_in)(const int n, __global const int *perm, __global const real *rs, const int use_rs,
                                   __global const real *b, __global real *z) {
    int j = get_global_id(0);
    if (j < n) z[j] = use_rs ? b[perm[j]] / rs[j] : b[perm[j]];
}
/* x[perm[j]] = z[n + j] (/ rs[j]): the solution back in A's order */
__kernel void SFX(lcl_klu_perm_out)(const int n, __global const int *perm, __global const real *rs, const int use_rs,
                                    __global const real *z, __global real *x) {
    int j = get_global_id(0);
    if (j < n) x[perm[j]] = use_rs ? z[n + j] / rs[j] : z[n + j];
}

/* ---- triangular solves: the DAG over 2n nodes z[0 .. 2n-1] ----------------------------------
   A x = b: node j < n is y_j of the L solve, node n + j is x_j of the U solve:
     y_j = w_j - sum F(j, c) x_c - sum L(j, k) y_k           (sets A = F's rows, B = L's rows)
     x_j = (y_j - sum U(j, k) x_k) / Ud_j                    (set C = U's rows)
   A^T x = b: node j is u_j of the U^T solve, node n + j is v_j of the L^T solve:
     u_j = (w_j - sum F(r, j) v_r - sum U(k, j) u_k) / Ud_j  (A = F's columns, B = U's columns)
     v_j = u_j - sum L(i, j) v_i                             (C = L's columns)
   Set A's entries of node j are Ab[j] .. Ae[j + ash] - 1 (F's columns: Cp, Cd, ash 0; its row copy:
   Fp, Fp, ash 1); A and C index second-half nodes (n + index), B first-half ones. z[0 .. n-1]
   holds w on entry. Node 2n + j fuses the two nodes of a block's last column j, where neither
   has another reader or set C entries (both ways): z[n + j] = (w_j - sums of A and B) / Ud_j. */
#define KLU_ROW_SUM(first, step) \
    if (i < n || i >= 2 * n) { \
        j = i < n ? i : i - 2 * n; \
        for (p = Ab[j] + (first), e = Ae[j + ash]; p < e; p += (step)) s -= Ax[p] * z[n + Ai[p]]; \
        for (p = Bp[j] + (first), e = Bp[j + 1]; p < e; p += (step)) s -= Bx[p] * z[Bi[p]]; \
    } else { \
        for (p = Cp[i - n] + (first), e = Cp[i - n + 1]; p < e; p += (step)) s -= Cx[p] * z[n + Ci[p]]; \
    }
#define KLU_NODE_PUT() \
    if (i < n) { s += z[i]; z[i] = trans ? s / Ud[i] : s; } \
    else if (i < 2 * n) { s += z[i - n]; z[i] = trans ? s : s / Ud[i - n]; } \
    else { s += z[i - 2 * n]; z[i - n] = s / Ud[i - 2 * n]; }
#define KLU_SOLVE_ARGS const int n, const int off, const int cnt, __global const int *nodes, \
    __global const int *Ab, __global const int *Ae, const int ash, __global const int *Ai, __global const real *Ax, \
    __global const int *Bp, __global const int *Bi, __global const real *Bx, \
    __global const int *Cp, __global const int *Ci, __global const real *Cx, \
    __global const real *Ud, const int trans, __global real *z

/* one node per work-item: nodes[off .. off+cnt-1] */
__kernel void SFX(lcl_klu_solve_level)(KLU_SOLVE_ARGS) {
    int t = get_global_id(0), i, j, p, e;
    real s = 0;
    if (t < cnt) {
        i = nodes[off + t];
        KLU_ROW_SUM(0, 1)
        KLU_NODE_PUT()
    }
}
/* V lanes per node (long rows), partial sums reduced through local memory; V divides the
   work-group size, at most LCL_WG */
__kernel void SFX(lcl_klu_solve_level_vec)(KLU_SOLVE_ARGS, const int V) {
    __local real red[LCL_WG];
    int lid = get_local_id(0), lane = lid & (V - 1), t = (int)(get_global_id(0) / V), i = 0, j, p, e, k;
    real s = 0;
    if (t < cnt) {
        i = nodes[off + t];
        KLU_ROW_SUM(lane, V)
    }
    red[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < cnt && lane == 0) {
        s = 0;
        for (k = 0; k < V; k++) s += red[lid + k];
        KLU_NODE_PUT()
    }
}

/* a run of narrow levels off .. cnt-1 (offsets lp into nodes) in one work-group, a barrier
   between levels instead of a launch: the long chains of few nodes a level (BTF blocks coupled
   through F, the deep L of a large block) cost a barrier each, not a launch */
__kernel void SFX(lcl_klu_solve_run)(KLU_SOLVE_ARGS, __global const int *lp) {
    int lid = get_local_id(0), ls = get_local_size(0), l, t, i, j, p, e;
    for (l = off; l < cnt; l++) {
        int o = lp[l], c = lp[l + 1] - o;
        for (t = lid; t < c; t += ls) {
            real s = 0;
            i = nodes[o + t];
            KLU_ROW_SUM(0, 1)
            KLU_NODE_PUT()
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}

/* ---- refactor: the columns cols[off .. off+cnt-1] of one level of the column DAG --------------
   Work-group g takes columns g, g + G, ... and a dense scratch of ld values of its own in W
   (zero on entry, left zero), indexed by row - the column's block start cb[j]. The left-looking
   column of the host's refactor, with its loops spread over the group: B(:, j) scattered, then
   for each k of U(:, j)'s pattern in its stored (topological) order, X -= L(:, k) X[k] (rows of
   L(:, k) are distinct: no conflicts; one barrier per k), then the pivot, L(:, j) = X / pivot.
   flags[0]: the smallest column with a zero pivot (atomic_min; the host resets it to INT_MAX),
   flags[1]: 1 when a pivot fails the threshold test |pivot| >= tol * max |column|.
   want_stat: stat[j] = max |B(:, j) in its block| / max |U(:, j)| (1 when U(:, j) is zero), the
   host's reciprocal pivot growth per column. The local size is a power of two <= LCL_WG. */
__kernel void SFX(lcl_klu_refactor_level)(const int off, const int cnt, __global const int *cols, __global const int *cb,
                                          __global const int *Cp, __global const int *Cd, __global const int *Ci,
                                          __global const real *Cx, __global const int *Lp, __global const int *Li,
                                          __global real *Lx, __global const int *Up, __global const int *Ui, __global real *Ux,
                                          __global real *Ud, const int ld, __global real *W, const real tol,
                                          __global int *flags, __global real *stat, const int want_stat) {
    __local real red[LCL_WG], red2[LCL_WG];
    int g = get_group_id(0), G = get_num_groups(0), lid = get_local_id(0), ls = get_local_size(0), c, h;
    __global real *X = W + (long)g * ld;
    for (c = g; c < cnt; c += G) {
        int j = cols[off + c], k1 = cb[j], p, e, l0 = Lp[j], l1 = Lp[j + 1], u0 = Up[j], u1 = Up[j + 1];
        real pv, mx;
        for (p = Cd[j] + lid; p < Cp[j + 1]; p += ls) X[Ci[p] - k1] = Cx[p];
        SYNC;
        for (e = u0; e < u1; e++) {
            int k = Ui[e], q, q1 = Lp[k + 1];
            real xk = X[k - k1];
            if (lid == 0) Ux[e] = xk;
            if (xk != 0)
                for (q = Lp[k] + lid; q < q1; q += ls) X[Li[q] - k1] -= Lx[q] * xk;
            SYNC;
        }
        pv = X[j - k1];
        mx = 0;
        for (p = l0 + lid; p < l1; p += ls) mx = fmax(mx, fabs(X[Li[p] - k1]));
        red[lid] = mx;
        SYNC;
        for (h = ls / 2; h > 0; h >>= 1) {
            if (lid < h) red[lid] = fmax(red[lid], red[lid + h]);
            SYNC;
        }
        mx = fmax(fabs(pv), red[0]);
        if (lid == 0) {
            if (pv == 0) atomic_min(&flags[0], j);
            else if (fabs(pv) < tol * mx) flags[1] = 1;
            Ud[j] = pv;
        }
        for (p = l0 + lid; p < l1; p += ls) {
            int r = Li[p] - k1;
            Lx[p] = X[r] / pv;
            X[r] = 0;
        }
        for (e = u0 + lid; e < u1; e += ls) X[Ui[e] - k1] = 0;
        if (lid == 0) X[j - k1] = 0;
        if (want_stat) {
            real um = fabs(pv), am = 0;
            for (e = u0 + lid; e < u1; e += ls) um = fmax(um, fabs(Ux[e]));
            for (p = Cd[j] + lid; p < Cp[j + 1]; p += ls) am = fmax(am, fabs(Cx[p]));
            SYNC;   /* everyone has read red[0] */
            red[lid] = um;
            red2[lid] = am;
            SYNC;
            for (h = ls / 2; h > 0; h >>= 1) {
                if (lid < h) { red[lid] = fmax(red[lid], red[lid + h]); red2[lid] = fmax(red2[lid], red2[lid + h]); }
                SYNC;
            }
            if (lid == 0) stat[j] = red[0] > 0 ? red2[0] / red[0] : 1;
        }
        SYNC;   /* the scratch is zero again, red[0] read, before the next column */
    }
}
