# find_package(linalg_cl CONFIG): the INTERFACE target linalg_cl::linalg_cl for an installed copy.
# Installed as PREFIX/lib/cmake/linalg_cl/ beside PREFIX/include/linalg_cl.h (make install and the
# CMake install rules both use this layout). Options: LINALG_CL_OPENMP, LINALG_CL_OPENCL.
include("${CMAKE_CURRENT_LIST_DIR}/linalg_clHelpers.cmake")
if(NOT TARGET linalg_cl::linalg_cl)
  get_filename_component(_linalg_cl_include "${CMAKE_CURRENT_LIST_DIR}/../../../include" ABSOLUTE)
  add_library(linalg_cl::linalg_cl INTERFACE IMPORTED)
  set_target_properties(linalg_cl::linalg_cl PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_linalg_cl_include}")
  linalg_cl_configure_target(linalg_cl::linalg_cl _linalg_cl_error)
  if(_linalg_cl_error)
    set(linalg_cl_FOUND FALSE)
    set(linalg_cl_NOT_FOUND_MESSAGE "${_linalg_cl_error}")
  endif()
  unset(_linalg_cl_include)
  unset(_linalg_cl_error)
endif()
