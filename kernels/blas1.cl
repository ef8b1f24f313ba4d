/* blas1.cl -- vector kernels. Built twice per device: LCL_FP64=1 (double) and 0 (float);
   the _d / _f suffixes keep both sets nameable from one source. */
#ifndef LCL_FP64
#define LCL_FP64 1
#endif
#if LCL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
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
