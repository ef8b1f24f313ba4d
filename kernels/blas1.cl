/* blas1.cl -- vector kernels. Built twice per device: LCL_FP64=1 (double) and 0 (float);
   the _d / _f suffixes keep both sets nameable from one source. */
#ifndef LCL_FP64
#define LCL_FP64 1
#endif
#if LCL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef LCL_WG
#define LCL_WG 256
#endif

/* y = alpha*x + y */
__kernel void lcl_axpy_f(const long n, const float alpha, __global const float *x, __global float *y) {
    long i = get_global_id(0);
    if (i < n) y[i] = fma(alpha, x[i], y[i]);
}

#if LCL_FP64
__kernel void lcl_axpy_d(const long n, const double alpha, __global const double *x, __global double *y) {
    long i = get_global_id(0);
    if (i < n) y[i] = fma(alpha, x[i], y[i]);
}
#endif

/* the kernels below once per build: double (LCL_FP64=1, suffix _d) or float (_f) */
#if LCL_FP64
#define real double
#define SFX(name) name##_d
#else
#define real float
#define SFX(name) name##_f
#endif

/* y = alpha*x + beta*y; alpha 0 does not read x, beta 0 does not read y (either may hold NaN) */
__kernel void SFX(lcl_axpby)(const long n, const real alpha, __global const real *x, const real beta, __global real *y) {
    long i = get_global_id(0);
    if (i < n) {
        real ax = alpha == (real)0 ? (real)0 : alpha * x[i];
        y[i] = beta == (real)0 ? ax : fma(beta, y[i], ax);
    }
}
/* per work-group partial sums of x . y (the host adds them in double); LCL_WG lanes, a power of two */
__kernel void SFX(lcl_dot)(const long n, __global const real *x, __global const real *y, __global real *part) {
    __local real s[LCL_WG];
    size_t l = get_local_id(0), h;
    long i;
    real a = 0;
    for (i = get_global_id(0); i < n; i += (long)get_global_size(0)) a = fma(x[i], y[i], a);
    s[l] = a;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (h = LCL_WG / 2; h > 0; h >>= 1) {
        if (l < h) s[l] += s[l + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) part[get_group_id(0)] = s[0];
}
/* out[i] = x[idx[i]]: the entries of x another device needs (its halo), packed for one transfer */
__kernel void SFX(lcl_gather)(const int n, __global const int *idx, __global const real *x, __global real *out) {
    int i = get_global_id(0);
    if (i < n) out[i] = x[idx[i]];
}
