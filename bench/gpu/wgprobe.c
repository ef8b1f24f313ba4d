#define _POSIX_C_SOURCE 200809L
/* wgprobe FILE OPTIONS: build FILE on the first CPU device and launch each kernel once, each in its
   own process (in parallel), to see which ones PoCL's work-group compiler aborts on.
   wgprobe FILE OPTIONS K: the child (K = -1: build, print the kernel count) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
int main(int argc, char **argv) {
    if (argc == 3) {   /* the driver: no OpenCL here (PoCL's threads do not survive fork) */
        char cmd[8192]; int nk, k, bad = 0;
        snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' -1", argv[0], argv[1], argv[2]);
        FILE *pp = popen(cmd, "r"); if (!pp || fscanf(pp, "%d", &nk) != 1) { printf("build failed\n"); return 1; } pclose(pp);
        pid_t pid[64];
        for (k = 0; k < nk; k++) if ((pid[k] = fork()) == 0) { char ks[16]; snprintf(ks, sizeof ks, "%d", k); execl(argv[0], argv[0], argv[1], argv[2], ks, (char *)NULL); _exit(99); }
        for (k = 0; k < nk; k++) { int st; waitpid(pid[k], &st, 0); if (!WIFEXITED(st) || WEXITSTATUS(st)) { printf("  kernel %d: DIED (%s %d)\n", k, WIFSIGNALED(st) ? "signal" : "exit", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st)); bad++; } }
        printf("%s '%s': %d kernels, %d died\n", argv[1], argv[2], nk, bad);
        return 0;
    }
    int only = atoi(argv[3]);
    FILE *f = fopen(argv[1], "rb"); if (!f) return 1;
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char *src = malloc(n + 1); if (fread(src, 1, n, f) != (size_t)n) return 1; src[n] = 0; fclose(f);
    char opts[4096]; snprintf(opts, sizeof opts, "-cl-kernel-arg-info %s", argv[2]);
    cl_platform_id pl[8]; cl_uint np = 0; clGetPlatformIDs(8, pl, &np);
    cl_device_id dev = 0;
    for (cl_uint i = 0; i < np && !dev; i++) if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_CPU, 1, &dev, NULL) != CL_SUCCESS) dev = 0;
    if (!dev) { printf("no CPU device\n"); return 1; }
    cl_int e; cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_program p = clCreateProgramWithSource(c, 1, (const char **)&src, NULL, &e);
    e = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
    if (e) { size_t ls; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &ls); char *lg = malloc(ls + 1); clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, ls, lg, NULL); lg[ls] = 0; fprintf(stderr, "build %d\n%s\n", e, lg); return 1; }
    cl_kernel ks[64]; cl_uint nk = 0; clCreateKernelsInProgram(p, 64, ks, &nk);
    if (only < 0) { printf("%u\n", nk); return 0; }
    cl_kernel K = ks[only];
    cl_command_queue q = clCreateCommandQueue(c, dev, 0, &e);
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 22, NULL, &e);
    void *z = calloc(1, 1 << 22); clEnqueueWriteBuffer(q, b, CL_TRUE, 0, 1 << 22, z, 0, NULL, NULL);
    cl_uint na = 0; clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof na, &na, NULL);
    for (cl_uint a = 0; a < na; a++) {
        cl_kernel_arg_address_qualifier aq = 0; char tn[64] = "";
        clGetKernelArgInfo(K, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL);
        clGetKernelArgInfo(K, a, CL_KERNEL_ARG_TYPE_NAME, sizeof tn, tn, NULL);
        if (aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || aq == CL_KERNEL_ARG_ADDRESS_CONSTANT) e = clSetKernelArg(K, a, sizeof b, &b);
        else if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) e = clSetKernelArg(K, a, 4096, NULL);
        else { long long one = 1; double d1 = 1; float f1 = 1; int i1 = 1;
            if (!strcmp(tn, "double")) e = clSetKernelArg(K, a, 8, &d1);
            else if (!strcmp(tn, "float")) e = clSetKernelArg(K, a, 4, &f1);
            else if (!strcmp(tn, "long") || !strcmp(tn, "ulong")) e = clSetKernelArg(K, a, 8, &one);
            else e = clSetKernelArg(K, a, 4, &i1); }
    }
    size_t wg[3] = {0, 0, 0}, g[3] = {64, 1, 1};
    clGetKernelWorkGroupInfo(K, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL);
    int dim = 1; if (wg[0]) { g[0] = wg[0]; g[1] = wg[1] ? wg[1] : 1; g[2] = wg[2] ? wg[2] : 1; dim = 3; }
    char name[128]; clGetKernelInfo(K, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    fprintf(stdout, "  %2d %-26s ...\n", only, name); fflush(stdout);
    e = clEnqueueNDRangeKernel(q, K, dim, NULL, g, wg[0] ? g : NULL, 0, NULL, NULL);
    cl_int e2 = clFinish(q);
    printf("  %2d %-26s launch %d finish %d\n", only, name, e, e2); fflush(stdout);
    return 0;
}
