# How the harness and the tests build in minutes (docs/build.md; figures: docs/build-profile.md).
# The engine library keeps its own flags (-O3, the instruction set): nothing here touches it.
#
# - Unity batches (STK_UNITY, default ON): the harness library and the test executables compile a
#   few sources per translation unit, so nlohmann-json, CLI11, fmt and Catch2 are parsed and their
#   templates instantiated once per batch instead of once per file. A batch holds files of one
#   folder; every file must also compile alone (STK_UNITY=OFF, which the mutation tool's coverage
#   build uses: each file's includes stay whole, and no file leans on a name another file of its
#   batch declared; a test relying on a neighbour's `using namespace stk;` broke that build).
#   ci/test.sh proves it after every build (stkdev.standalone: each member, -fsyntax-only).
# - Test code compiles at -O1 in optimized builds: it is run a few times, not timed; the code
#   under test (engine and harness libraries) keeps its level.
# - mold links when installed (ci/install-deps.sh installs it): the test executables relink in
#   well under a second instead of several.
option(STK_UNITY "Compile the harness library and the tests in unity batches" ON)
set(STK_UNITY_BATCH 6 CACHE STRING "Sources per unity batch (STK_UNITY)")

find_program(STK_MOLD mold)
option(STK_USE_MOLD "Link with mold when it is installed" ON)
if(STK_MOLD AND STK_USE_MOLD)
  add_link_options(-fuse-ld=mold)
endif()

option(STK_PCH "Precompile the third-party headers of the harness and the tests" ON)
# stk_precompiled_headers(TARGET): the heavy third-party headers every harness file includes.
function(stk_precompiled_headers target)
  if(STK_PCH)
    target_precompile_headers(${target} PRIVATE <nlohmann/json.hpp> <CLI/CLI.hpp> <fmt/format.h>
                              <filesystem> <functional> <map> <memory> <sstream> <string> <vector>
                              ${ARGN})
  endif()
endfunction()

# stk_unity(TARGET): compile TARGET's sources in unity batches (when STK_UNITY is on): one batch per
# folder, split into batches of at most STK_UNITY_BATCH files. The batch files include their sources
# by paths relative to themselves (not CMake's UNITY_BUILD, whose absolute paths would differ in
# every clone): a scratch clone whose build folder lies at the same place under its tree compiles
# the same text, so ccache serves it what the main build compiled (ci/check-mutants.sh, compare).
function(stk_unity target)
  if(NOT STK_UNITY)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(unity_dir ${CMAKE_CURRENT_BINARY_DIR}/unity/${target})
  set(folders "")
  set(kept "")
  foreach(src IN LISTS sources)
    get_filename_component(abs ${src} ABSOLUTE BASE_DIR ${source_dir})
    get_source_file_property(skip ${abs} SKIP_UNITY_BUILD_INCLUSION)
    if(NOT abs MATCHES "\\.cpp$" OR skip)
      continue()
    endif()
    get_filename_component(folder ${abs} DIRECTORY)
    file(RELATIVE_PATH key ${CMAKE_SOURCE_DIR} ${folder})
    string(MAKE_C_IDENTIFIER "${key}" key)
    list(APPEND folders ${key})
    list(APPEND "files_${key}" ${abs})
    list(APPEND kept ${abs})
  endforeach()
  list(REMOVE_DUPLICATES folders)
  # A folder with one source joins its parent's batches (the one-file commands batch together):
  # a batch of one pays the third-party templates' instantiation for one file alone.
  foreach(key IN LISTS folders)
    list(LENGTH "files_${key}" n)
    list(GET "files_${key}" 0 abs)
    get_source_file_property(own ${abs} COMPILE_OPTIONS)
    if(n EQUAL 1 AND NOT own)  # a file with its own options (-O3) keeps its own batch
      get_filename_component(folder ${abs} DIRECTORY)
      get_filename_component(parent ${folder} DIRECTORY)
      file(RELATIVE_PATH parent_key ${CMAKE_SOURCE_DIR} ${parent})
      string(MAKE_C_IDENTIFIER "${parent_key}" parent_key)
      list(APPEND folders ${parent_key})
      list(APPEND "files_${parent_key}" ${abs})
      set("files_${key}" "")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES folders)
  set(batches "")
  foreach(key IN LISTS folders)
    if(NOT files_${key})
      continue()
    endif()
    list(SORT "files_${key}")
    set(index 0)
    set(count 0)
    set(text "")
    set(options "")
    foreach(abs IN LISTS "files_${key}")
      file(RELATIVE_PATH rel ${unity_dir} ${abs})
      string(APPEND text "#include \"${rel}\"\n")
      # A member's own options (the speed commands' -O3) hold for its whole batch.
      get_source_file_property(own ${abs} COMPILE_OPTIONS)
      if(own)
        list(APPEND options ${own})
        list(REMOVE_DUPLICATES options)
      endif()
      math(EXPR count "${count} + 1")
      list(LENGTH "files_${key}" total)
      math(EXPR left "${total} - ${index} * ${STK_UNITY_BATCH} - ${count}")
      if(count EQUAL STK_UNITY_BATCH OR left EQUAL 0)
        set(batch ${unity_dir}/${key}_${index}.cpp)
        # configure_file rewrites the batch only when its text changes (no needless rebuild).
        file(WRITE ${unity_dir}/in/${key}_${index}.cpp "// Generated by harness/cmake/BuildSpeed.cmake (stk_unity).\n${text}")
        configure_file(${unity_dir}/in/${key}_${index}.cpp ${batch} COPYONLY)
        set_source_files_properties(${batch} PROPERTIES COMPILE_OPTIONS "${options}")
        list(APPEND batches ${batch})
        math(EXPR index "${index} + 1")
        set(count 0)
        set(text "")
        set(options "")
      endif()
    endforeach()
  endforeach()
  # Batches of an earlier configuration (another batch size, a moved file) go.
  file(GLOB stale ${unity_dir}/*.cpp)
  list(REMOVE_ITEM stale ${batches})
  if(stale)
    file(REMOVE ${stale})
  endif()
  set_source_files_properties(${kept} TARGET_DIRECTORY ${target} PROPERTIES HEADER_FILE_ONLY ON)
  target_sources(${target} PRIVATE ${batches})
endfunction()

# stk_harness_code(TARGET): TARGET is harness code: unity batches, -O2 where the build optimizes
# (CMake's Release says -O3: the harness's own code is plumbing around the engine, whose library
# keeps -O3), and the third-party headers precompiled once (STK_PCH).
function(stk_harness_code target)
  stk_unity(${target})
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O2>)
  stk_precompiled_headers(${target})
endfunction()

# stk_test_code(TARGET): TARGET holds test code: unity batches, and -O1 where the build optimizes.
function(stk_test_code target)
  stk_unity(${target})
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo>:-O1>)
endfunction()
