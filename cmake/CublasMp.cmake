# cuBLASMp (NVIDIA's distributed GEMM over NCCL) is optional: found, the gpu/cublasmp-fp32 row is built; not
# found, it reads "unavailable" with how to install it. Looked for under CUBLASMP_ROOT (include/cublasmp.h,
# lib/libcublasmp.so*), then in the pip wheel's layout (nvidia/cublasmp/cu13/{include,lib}) of every python3
# site-packages folder; NCCL (and NVSHMEM, which cuBLASMp 0.7 links) under NCCL_ROOT/NVSHMEM_ROOT, the wheels'
# nvidia/nccl and nvidia/nvshmem, then the CUDA toolkit.
set(CUBLASMP_ROOT "" CACHE PATH "cuBLASMp install or wheel folder (holding include/cublasmp.h and lib/)")
set(NCCL_ROOT "" CACHE PATH "NCCL install or wheel folder (holding include/nccl.h and lib/)")
set(NVSHMEM_ROOT "" CACHE PATH "NVSHMEM install or wheel folder (holding lib/libnvshmem_host.so*)")

set(_site_dirs "")
find_program(_matcompare_python3 NAMES python3 NO_CACHE)
if(_matcompare_python3)
  execute_process(COMMAND ${_matcompare_python3} -c
                  "import site, sysconfig; print(';'.join(site.getsitepackages() + [site.getusersitepackages(), sysconfig.get_paths()['purelib']]))"
                  OUTPUT_VARIABLE _site_dirs OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
set(_cublasmp_hints "")
set(_nccl_hints "")
set(_nvshmem_hints "")
foreach(site IN LISTS _site_dirs)
  list(APPEND _cublasmp_hints ${site}/nvidia/cublasmp/cu13 ${site}/nvidia/cublasmp/cu12)
  list(APPEND _nccl_hints ${site}/nvidia/nccl)
  list(APPEND _nvshmem_hints ${site}/nvidia/nvshmem)
endforeach()

# NAMES_PER_DIR: a wheel holds only libnccl.so.2 (no libnccl.so), and without it a system libnccl.so elsewhere
# would win over the wheel whose nccl.h was found.
find_path(CUBLASMP_INCLUDE_DIR NAMES cublasmp.h HINTS ${CUBLASMP_ROOT} ${_cublasmp_hints} PATH_SUFFIXES include)
find_library(CUBLASMP_LIBRARY NAMES cublasmp libcublasmp.so.0 NAMES_PER_DIR
             HINTS ${CUBLASMP_ROOT} ${_cublasmp_hints} PATH_SUFFIXES lib lib64)
find_path(NCCL_INCLUDE_DIR NAMES nccl.h HINTS ${NCCL_ROOT} ${_nccl_hints} ${CUDAToolkit_INCLUDE_DIRS}
          PATH_SUFFIXES include)
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 NAMES_PER_DIR
             HINTS ${NCCL_ROOT} ${_nccl_hints} ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
find_library(NVSHMEM_HOST_LIBRARY NAMES nvshmem_host libnvshmem_host.so.3 NAMES_PER_DIR
             HINTS ${NVSHMEM_ROOT} ${_nvshmem_hints} PATH_SUFFIXES lib lib64)

if(CUBLASMP_INCLUDE_DIR AND CUBLASMP_LIBRARY AND NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
  set(MATCOMPARE_HAVE_CUBLASMP ON)
  add_library(matcompare_cublasmp INTERFACE)
  target_include_directories(matcompare_cublasmp INTERFACE ${CUBLASMP_INCLUDE_DIR} ${NCCL_INCLUDE_DIR})
  target_link_libraries(matcompare_cublasmp INTERFACE ${CUBLASMP_LIBRARY} ${NCCL_LIBRARY})
  set(_cublasmp_runtime_dirs "")
  foreach(library IN ITEMS ${CUBLASMP_LIBRARY} ${NCCL_LIBRARY})
    get_filename_component(_dir ${library} DIRECTORY)
    list(APPEND _cublasmp_runtime_dirs ${_dir})
  endforeach()
  # cuBLASMp 0.7 needs libnvshmem_host.so.3 (later versions load it when used): the linker must see it.
  if(NVSHMEM_HOST_LIBRARY)
    get_filename_component(_dir ${NVSHMEM_HOST_LIBRARY} DIRECTORY)
    list(APPEND _cublasmp_runtime_dirs ${_dir})
    target_link_options(matcompare_cublasmp INTERFACE "LINKER:-rpath-link,${_dir}")
  endif()
  # The wheels' folders are not in ld.so.conf: every binary that links matcompare finds them by its run path.
  list(REMOVE_DUPLICATES _cublasmp_runtime_dirs)
  set(MATCOMPARE_CUBLASMP_RUNTIME_DIRS ${_cublasmp_runtime_dirs})
  # Its version, for the context: the header's CUBLASMP_VER_* numbers.
  file(STRINGS ${CUBLASMP_INCLUDE_DIR}/cublasmp.h _cublasmp_version_lines REGEX "#define CUBLASMP_VER_(MAJOR|MINOR|PATCH) ")
  set(_cublasmp_version_parts "")
  foreach(line IN LISTS _cublasmp_version_lines)
    string(REGEX REPLACE ".*CUBLASMP_VER_[A-Z]+ +([0-9]+).*" "\\1" _part "${line}")
    list(APPEND _cublasmp_version_parts ${_part})
  endforeach()
  list(JOIN _cublasmp_version_parts "." MATCOMPARE_CUBLASMP_VERSION)
  message(STATUS "matcompare: cuBLASMp ${MATCOMPARE_CUBLASMP_VERSION} ON (${CUBLASMP_LIBRARY}; NCCL ${NCCL_LIBRARY}; "
                 "NVSHMEM ${NVSHMEM_HOST_LIBRARY})")
else()
  message(STATUS "matcompare: cuBLASMp not found (optional; set CUBLASMP_ROOT): gpu/cublasmp-fp32 unavailable")
endif()
