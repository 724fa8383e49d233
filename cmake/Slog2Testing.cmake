# slog2_add_test(NAME <name> COMMAND <cmd...> [LABELS <labels...>] [GUI] [NO_VALGRIND])
#
# Registers a ctest test. Tests that are not GUI and not NO_VALGRIND are also
# registered a second time as "memcheck.<name>" running under Valgrind memcheck
# (when SLOG2_VALGRIND is ON), failing on any error or definite leak; those
# get SLOG2_UNDER_VALGRIND=1 in their environment, and with SLOG2_SANITIZE=ON
# every test gets SLOG2_UNDER_SANITIZER=1. Exit code 77 means "skipped"
# (e.g. ../shared/traces absent).
find_program(SLOG2_VALGRIND_EXE valgrind)
function(slog2_add_test)
  cmake_parse_arguments(T "GUI;NO_VALGRIND" "NAME;TIMEOUT" "COMMAND;LABELS" ${ARGN})
  add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
  set(labels ${T_LABELS})
  if(T_GUI)
    list(APPEND labels gui)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE 77 LABELS "${labels}")
  if(T_TIMEOUT)
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
  if(SLOG2_SANITIZE)
    # Lets memory/timing tests relax or skip (exit 77): ASan inflates RSS.
    set_property(TEST ${T_NAME} APPEND PROPERTY ENVIRONMENT "SLOG2_UNDER_SANITIZER=1")
  endif()
  if(SLOG2_VALGRIND AND SLOG2_VALGRIND_EXE AND NOT T_GUI AND NOT T_NO_VALGRIND)
    # add_test() maps a target name to its file only in the first position;
    # behind valgrind it is not first any more, so map it here.
    set(cmd ${T_COMMAND})
    list(GET cmd 0 exe)
    if(TARGET ${exe})
      list(REMOVE_AT cmd 0)
      list(PREPEND cmd $<TARGET_FILE:${exe}>)
    endif()
    add_test(NAME memcheck.${T_NAME}
      COMMAND ${SLOG2_VALGRIND_EXE} --tool=memcheck --error-exitcode=1
              --leak-check=full --errors-for-leak-kinds=definite --quiet
              ${cmd})
    set_tests_properties(memcheck.${T_NAME} PROPERTIES SKIP_RETURN_CODE 77
      LABELS "memcheck;${labels}"
      ENVIRONMENT "SLOG2_UNDER_VALGRIND=1;G_SLICE=always-malloc;G_DEBUG=gc-friendly")
  endif()
endfunction()

# ---------------------------------------------------------------------------
# slog2_add_fuzzer(NAME <name> SOURCES <src...> [LIBS <lib...>] [CORPUS <dir>])
#
# A libFuzzer target whose sources define LLVMFuzzerTestOneInput().
#  * SLOG2_FUZZ=ON (clang): builds <name> with -fsanitize=fuzzer and registers
#    test "fuzz.<name>" with label "fuzz" that fuzzes for SLOG2_FUZZ_SECONDS,
#    starting from CORPUS (read only; new inputs go to the build tree, crash
#    artifacts next to them). scripts/test runs these with `ctest -L fuzz`.
#  * otherwise, with a CORPUS: builds <name> against a small replay driver
#    (cmake/fuzz_replay.c) and registers "fuzz-replay.<name>" (label
#    "fuzz-replay") that runs every corpus file once -- so the seed corpus and
#    any committed crash reproducers are regression tests in the normal,
#    Valgrind and sanitizer runs, with gcc too.
set(SLOG2_FUZZ_SECONDS 60 CACHE STRING "Seconds each fuzz.* test fuzzes for")
function(slog2_add_fuzzer)
  cmake_parse_arguments(F "" "NAME;CORPUS" "SOURCES;LIBS" ${ARGN})
  if(SLOG2_FUZZ)
    if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
      message(FATAL_ERROR "SLOG2_FUZZ=ON needs clang (CC=clang)")
    endif()
    add_executable(${F_NAME} ${F_SOURCES})
    target_compile_options(${F_NAME} PRIVATE -fsanitize=fuzzer)
    target_link_options(${F_NAME} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${F_NAME} PRIVATE ${F_LIBS})
    set(work ${CMAKE_CURRENT_BINARY_DIR}/fuzz-work/${F_NAME})
    file(MAKE_DIRECTORY ${work}/corpus)
    set(dirs ${work}/corpus)
    if(F_CORPUS)
      list(APPEND dirs ${F_CORPUS})
    endif()
    add_test(NAME fuzz.${F_NAME}
      COMMAND ${F_NAME} -max_total_time=${SLOG2_FUZZ_SECONDS} -timeout=20
              -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix=${work}/ ${dirs})
    math(EXPR t "${SLOG2_FUZZ_SECONDS} + 120")
    set_tests_properties(fuzz.${F_NAME} PROPERTIES LABELS fuzz TIMEOUT ${t})
  elseif(F_CORPUS)
    add_executable(${F_NAME} ${F_SOURCES} ${PROJECT_SOURCE_DIR}/cmake/fuzz_replay.c)
    target_link_libraries(${F_NAME} PRIVATE ${F_LIBS})
    slog2_add_test(NAME fuzz-replay.${F_NAME}
      COMMAND $<TARGET_FILE:${F_NAME}> ${F_CORPUS} LABELS fuzz-replay)
  endif()
endfunction()

# ---------------------------------------------------------------------------
# slog2_sources_of(<out-var> <target>...)
#
# The source files of the given targets, as absolute paths: the fuzz targets
# compile a module's sources in (instrumented for coverage) instead of
# linking its library, and take the list from the module's own target so
# that each list is written once.
function(slog2_sources_of out)
  set(all)
  foreach(tgt ${ARGN})
    get_target_property(srcs ${tgt} SOURCES)
    get_target_property(dir ${tgt} SOURCE_DIR)
    foreach(src ${srcs})
      if(NOT IS_ABSOLUTE "${src}")
        set(src ${dir}/${src})
      endif()
      list(APPEND all ${src})
    endforeach()
  endforeach()
  set(${out} ${all} PARENT_SCOPE)
endfunction()
