# matcompare_git_commit(SOURCE_DIR OUT_VAR): the commit of the repository whose root is SOURCE_DIR,
# with "-modified" for uncommitted changes, or "unknown". Only a repository rooted at SOURCE_DIR
# counts: a tarball unpacked inside some other repository must not record that repository's commit.
function(matcompare_git_commit source_dir out_var)
  set(commit "unknown")
  execute_process(COMMAND git rev-parse --show-toplevel WORKING_DIRECTORY ${source_dir}
                  OUTPUT_VARIABLE toplevel OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND toplevel)
    file(REAL_PATH "${toplevel}" toplevel)
    file(REAL_PATH "${source_dir}" source_root)
    if(toplevel STREQUAL source_root)
      execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${source_dir}
                      OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${source_dir}
                      OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(head)
        set(commit "${head}")
        if(changes)
          string(APPEND commit "-modified")
        endif()
      endif()
    endif()
  endif()
  set(${out_var} "${commit}" PARENT_SCOPE)
endfunction()
