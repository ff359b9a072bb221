# The CPU vendor libraries besides OpenBLAS: BLIS and oneMKL, each in a plugin of ours that the library opens at run
# time (src/cpu/vendors/vendor_abi.h says why: they all export cblas_sgemm). A plugin is built where its library is
# found; otherwise its row reads unavailable and says why. Plugins go beside libmatcompare (build/src/, lib/ once
# installed), where it looks for them. Included by src/CMakeLists.txt, which calls matcompare_add_vendor_plugins.
#
#   MATCOMPARE_WITH_BLIS, MATCOMPARE_WITH_MKL: look for the library at all (ON)
#   MATCOMPARE_MKL_ROOT: where scripts/setup.sh unpacks the mkl-static and mkl-include wheels (.deps/mkl)
#   MATCOMPARE_VENDOR_PREBUILT_DIR: a folder of plugins built elsewhere (bench/pack_vendors.sh), copied beside the
#     library with everything else in it (libblis.so.4) instead of building those plugins: the GPU machine's way
option(MATCOMPARE_WITH_BLIS "Build cpu/libblis's plugin where BLIS is found" ON)
option(MATCOMPARE_WITH_MKL "Build cpu/onemkl's plugin where oneMKL's static libraries are found" ON)
set(MATCOMPARE_MKL_ROOT "${PROJECT_SOURCE_DIR}/.deps/mkl" CACHE PATH "oneMKL's headers and static libraries")
set(MATCOMPARE_VENDOR_PREBUILT_DIR "" CACHE PATH "Prebuilt vendor plugins to use instead of building them")

# What each vendor plugin is built from: "built", "prebuilt" or why not (printed, and read by the tests).
set(MATCOMPARE_VENDOR_PLUGINS "")

# --- prebuilt plugins (carried to a machine without the libraries) -------------------------------------------------
set(_prebuilt_blis OFF)
set(_prebuilt_mkl OFF)
set(MATCOMPARE_VENDOR_PREBUILT_FILES "")
if(MATCOMPARE_VENDOR_PREBUILT_DIR)
  file(GLOB MATCOMPARE_VENDOR_PREBUILT_FILES "${MATCOMPARE_VENDOR_PREBUILT_DIR}/*.so*")
  if(EXISTS "${MATCOMPARE_VENDOR_PREBUILT_DIR}/libmatcompare_vendor_blis.so")
    set(_prebuilt_blis ON)
  endif()
  if(EXISTS "${MATCOMPARE_VENDOR_PREBUILT_DIR}/libmatcompare_vendor_mkl.so")
    set(_prebuilt_mkl ON)
  endif()
endif()

# --- BLIS: Debian's libblis-dev, the OpenMP variant first (it shares libgomp with the library) --------------------
set(MATCOMPARE_HAVE_BLIS OFF)
if(_prebuilt_blis)
  set(_blis_status "prebuilt (${MATCOMPARE_VENDOR_PREBUILT_DIR})")
elseif(NOT MATCOMPARE_WITH_BLIS)
  set(_blis_status "off (MATCOMPARE_WITH_BLIS)")
else()
  set(_blis_variants blis-openmp blis-pthread blis-serial)
  set(_blis_lib_hints "")
  set(_blis_include_suffixes "")
  foreach(variant IN LISTS _blis_variants)
    list(APPEND _blis_lib_hints /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/${variant})
    list(APPEND _blis_include_suffixes ${CMAKE_LIBRARY_ARCHITECTURE}/${variant})
  endforeach()
  find_path(BLIS_INCLUDE_DIR NAMES blis.h PATH_SUFFIXES ${_blis_include_suffixes} blis)
  find_library(BLIS_LIBRARY NAMES blis HINTS ${_blis_lib_hints})
  if(BLIS_INCLUDE_DIR AND BLIS_LIBRARY)
    set(MATCOMPARE_HAVE_BLIS ON)
    get_filename_component(_blis_real "${BLIS_LIBRARY}" REALPATH)
    get_filename_component(BLIS_LIBRARY_DIR "${_blis_real}" DIRECTORY)
    set(_blis_status "built against ${_blis_real}")
  else()
    set(_blis_status "not built: no BLIS (scripts/setup.sh installs libblis-dev)")
  endif()
endif()

# --- oneMKL: the static libraries, linked into the plugin with every symbol hidden ---------------------------------
set(MATCOMPARE_HAVE_MKL OFF)
if(_prebuilt_mkl)
  set(_mkl_status "prebuilt (${MATCOMPARE_VENDOR_PREBUILT_DIR})")
elseif(NOT MATCOMPARE_WITH_MKL)
  set(_mkl_status "off (MATCOMPARE_WITH_MKL)")
else()
  find_path(MKL_INCLUDE_DIR NAMES mkl.h HINTS ${MATCOMPARE_MKL_ROOT}/include $ENV{MKLROOT}/include NO_DEFAULT_PATH)
  set(_mkl_libs "")
  foreach(part intel_lp64 gnu_thread core)
    find_library(MKL_${part}_LIBRARY NAMES libmkl_${part}.a
                 HINTS ${MATCOMPARE_MKL_ROOT}/lib $ENV{MKLROOT}/lib $ENV{MKLROOT}/lib/intel64 NO_DEFAULT_PATH)
    list(APPEND _mkl_libs ${MKL_${part}_LIBRARY})
  endforeach()
  if(MKL_INCLUDE_DIR AND MKL_intel_lp64_LIBRARY AND MKL_gnu_thread_LIBRARY AND MKL_core_LIBRARY)
    set(MATCOMPARE_HAVE_MKL ON)
    get_filename_component(_mkl_dir "${MKL_core_LIBRARY}" DIRECTORY)
    set(_mkl_status "built, static from ${_mkl_dir}")
  else()
    set(_mkl_status "not built: no oneMKL static libraries in ${MATCOMPARE_MKL_ROOT} (scripts/setup.sh)")
  endif()
endif()

message(STATUS "matcompare: cpu/libblis plugin ${_blis_status}")
message(STATUS "matcompare: cpu/onemkl plugin ${_mkl_status}")

# For tests/ and cmake/Install.cmake (this file is included by src/CMakeLists.txt): the vendors whose plugin this
# build has (built here or prebuilt), so a test can insist that they load, and the prebuilt files to install.
set(_expected "")
if(MATCOMPARE_HAVE_BLIS OR _prebuilt_blis)
  list(APPEND _expected blis)
endif()
if(MATCOMPARE_HAVE_MKL OR _prebuilt_mkl)
  list(APPEND _expected mkl)
endif()
set(MATCOMPARE_VENDORS_EXPECTED "${_expected}" CACHE INTERNAL "vendor plugins this build has")
set(MATCOMPARE_VENDOR_PREBUILT_FILES "${MATCOMPARE_VENDOR_PREBUILT_FILES}" CACHE INTERNAL "prebuilt vendor files")

# One plugin: a module exporting its entry point alone (exports.map), no undefined symbol left for the process to
# supply but the C and OpenMP runtimes, placed in `output_dir`.
function(matcompare_vendor_plugin target source output_dir)
  add_library(${target} MODULE ${source})
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${output_dir}
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${PROJECT_SOURCE_DIR}/src/cpu/vendors/plugins/exports.map)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  target_link_options(${target} PRIVATE
    -Wl,--version-script=${PROJECT_SOURCE_DIR}/src/cpu/vendors/plugins/exports.map
    -Wl,--exclude-libs,ALL -Wl,-Bsymbolic -Wl,--as-needed)
endfunction()

# Called by src/CMakeLists.txt with the library's output folder.
function(matcompare_add_vendor_plugins output_dir)
  set(_plugins "")
  if(MATCOMPARE_HAVE_BLIS)
    matcompare_vendor_plugin(matcompare_vendor_blis ${PROJECT_SOURCE_DIR}/src/cpu/vendors/plugins/blis.cpp
                             ${output_dir})
    target_include_directories(matcompare_vendor_blis PRIVATE ${BLIS_INCLUDE_DIR})
    target_link_libraries(matcompare_vendor_blis PRIVATE ${BLIS_LIBRARY} ${CMAKE_DL_LIBS})
    # Beside itself first (a carried libblis.so.4), then the variant it was built against (not the alternatives
    # link, which may name another variant).
    set_target_properties(matcompare_vendor_blis PROPERTIES BUILD_WITH_INSTALL_RPATH ON
                          INSTALL_RPATH "\$ORIGIN;${BLIS_LIBRARY_DIR}")
    list(APPEND _plugins matcompare_vendor_blis)
  endif()
  if(MATCOMPARE_HAVE_MKL)
    matcompare_vendor_plugin(matcompare_vendor_mkl ${PROJECT_SOURCE_DIR}/src/cpu/vendors/plugins/mkl.cpp ${output_dir})
    target_include_directories(matcompare_vendor_mkl PRIVATE ${MKL_INCLUDE_DIR})
    target_link_libraries(matcompare_vendor_mkl PRIVATE
      -Wl,--start-group ${MKL_intel_lp64_LIBRARY} ${MKL_gnu_thread_LIBRARY} ${MKL_core_LIBRARY} -Wl,--end-group
      OpenMP::OpenMP_CXX Threads::Threads m ${CMAKE_DL_LIBS})
    # The sections of MKL's archives that sgemm does not reach are dropped (about 12 MB is left).
    target_link_options(matcompare_vendor_mkl PRIVATE -Wl,--gc-sections)
    list(APPEND _plugins matcompare_vendor_mkl)
  endif()
  if(MATCOMPARE_VENDOR_PREBUILT_FILES)
    set(_copies "")
    foreach(file IN LISTS MATCOMPARE_VENDOR_PREBUILT_FILES)
      get_filename_component(name "${file}" NAME)
      add_custom_command(OUTPUT ${output_dir}/${name} COMMAND ${CMAKE_COMMAND} -E copy ${file} ${output_dir}/${name}
                         DEPENDS ${file} COMMENT "Copying the prebuilt ${name}")
      list(APPEND _copies ${output_dir}/${name})
    endforeach()
    add_custom_target(matcompare_vendor_prebuilt ALL DEPENDS ${_copies})
    list(APPEND _plugins matcompare_vendor_prebuilt)
  endif()
  # Whatever builds the library builds its plugins (the sanitizer leg builds named targets only).
  if(_plugins)
    add_dependencies(matcompare ${_plugins})
  endif()
endfunction()
