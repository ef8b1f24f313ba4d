/* lcl_tool.h -- the lcl tool's entry point, callable from tests and fuzzers (build lcl.c with
   -DLCL_TOOL_NO_MAIN to drop its main). */
#ifndef LCL_TOOL_H_INCLUDED
#define LCL_TOOL_H_INCLUDED
#ifdef __cplusplus
extern "C" {
#endif
int lcl_tool_main(int argc, char **argv);
#ifdef __cplusplus
}
#endif
#endif
