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

/* y = alpha*x + beta*y; beta 0 does not read y (it may hold NaN) */
__kernel void lcl_axpby_f(const long n, const float alpha, __global const float *x, const float beta, __global float *y) {
    long i = get_global_id(0);
    if (i < n) y[i] = beta == 0.0f ? alpha * x[i] : fma(alpha, x[i], beta * y[i]);
}
/* per work-group partial sums of x . y (the host adds them in double); LCL_WG lanes, a power of two */
__kernel void lcl_dot_f(const long n, __global const float *x, __global const float *y, __global float *part) {
    __local float s[LCL_WG];
    size_t l = get_local_id(0), h;
    long i;
    float a = 0.0f;
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
__kernel void lcl_gather_f(const int n, __global const int *idx, __global const float *x, __global float *out) {
    int i = get_global_id(0);
    if (i < n) out[i] = x[idx[i]];
}

#if LCL_FP64
__kernel void lcl_axpby_d(const long n, const double alpha, __global const double *x, const double beta, __global double *y) {
    long i = get_global_id(0);
    if (i < n) y[i] = beta == 0.0 ? alpha * x[i] : fma(alpha, x[i], beta * y[i]);
}
__kernel void lcl_dot_d(const long n, __global const double *x, __global const double *y, __global double *part) {
    __local double s[LCL_WG];
    size_t l = get_local_id(0), h;
    long i;
    double a = 0.0;
    for (i = get_global_id(0); i < n; i += (long)get_global_size(0)) a = fma(x[i], y[i], a);
    s[l] = a;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (h = LCL_WG / 2; h > 0; h >>= 1) {
        if (l < h) s[l] += s[l + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) part[get_group_id(0)] = s[0];
}
__kernel void lcl_gather_d(const int n, __global const int *idx, __global const double *x, __global double *out) {
    int i = get_global_id(0);
    if (i < n) out[i] = x[idx[i]];
}
#endif
