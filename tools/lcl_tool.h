/* lcl_tool.h -- the lcl tool's entry point, callable from tests and fuzzers (build the files of
   tools/lcl/ with -DLCL_TOOL_NO_MAIN to drop its main). */
#ifndef LCL_TOOL_H_INCLUDED
#define LCL_TOOL_H_INCLUDED
#ifdef __cplusplus
extern "C" {
#endif
int lcl_tool_main(int argc, char **argv);
/* Parse options, the command word and its positional arguments without running anything or
   printing: 2 (usage error, as lcl_tool_main would return) or 0. Not thread-safe. */
int lcl_tool_parse_only(int argc, char **argv);
#ifdef __cplusplus
}
#endif
#endif
