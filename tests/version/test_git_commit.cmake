# Checks cmake/GitCommit.cmake on scratch repositories: the commit is recorded only for a
# repository rooted at the source directory, never for one that merely encloses it.
# cmake -DGIT_COMMIT_MODULE=.../GitCommit.cmake -DWORK_DIR=... -P test_git_commit.cmake
include(${GIT_COMMIT_MODULE})

function(git)
  execute_process(COMMAND git -c user.name=matcompare -c user.email=test@matcompare.invalid ${ARGN}
                  WORKING_DIRECTORY ${WORK_DIR}/outer RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ${ARGN} failed: ${err}")
  endif()
endfunction()

function(expect source_dir pattern what)
  matcompare_git_commit(${source_dir} commit)
  if(NOT commit MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: got '${commit}', expected to match '${pattern}'")
  endif()
  message(STATUS "${what}: ${commit}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/outer/unpacked-project ${WORK_DIR}/no-repository)
file(WRITE ${WORK_DIR}/outer/tracked.txt "one\n")
git(init -q)
git(add tracked.txt)
git(commit -q -m first)

expect(${WORK_DIR}/outer "^[0-9a-f]+$" "repository rooted at the source directory")
expect(${WORK_DIR}/outer/unpacked-project "^unknown$" "source directory inside another repository")
expect(${WORK_DIR}/no-repository "^unknown$" "source directory outside any repository")
file(WRITE ${WORK_DIR}/outer/tracked.txt "two\n")
expect(${WORK_DIR}/outer "^[0-9a-f]+-modified$" "uncommitted change")
