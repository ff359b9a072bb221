# Installs the build into a scratch prefix, builds the consumer against it and runs it.
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${err}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
# The README's library example, exactly as written there: its C++ block under "## The library".
file(READ ${README} readme)
string(REGEX MATCH "## The library[^`]*```cmake[^`]*```[^`]*```cpp\n([^`]*)```" found "${readme}")
if(NOT found)
  message(FATAL_ERROR "no C++ example under '## The library' in ${README}")
endif()
file(WRITE ${WORK_DIR}/readme_example.cpp "${CMAKE_MATCH_1}")
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
     -DREADME_EXAMPLE=${WORK_DIR}/readme_example.cpp)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${WORK_DIR}/build/consumer)
step(${WORK_DIR}/build/readme_example)
