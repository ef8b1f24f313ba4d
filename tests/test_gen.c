/* test_gen.c -- generators and statistics (tools/lcl_gen.c). */
#include "lt.h"
void lt_suite_gen(void) {}
