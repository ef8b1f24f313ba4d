#error "LINALG_CL_NO_OPENCL builds must not include an OpenCL header"
