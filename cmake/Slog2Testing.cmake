# slog2_add_test(NAME <name> COMMAND <cmd...> [LABELS <labels...>] [GUI] [NO_VALGRIND])
#
# Registers a ctest test. Tests that are not GUI and not NO_VALGRIND are also
# registered a second time as "memcheck.<name>" running under Valgrind memcheck
# (when SLOG2_VALGRIND is ON), failing on any error or definite leak; those
# get SLOG2_UNDER_VALGRIND=1 in their environment, and with SLOG2_SANITIZE=ON
# every test gets SLOG2_UNDER_SANITIZER=1. Exit code 77 means "skipped"
# (e.g. no traces under SLOG2_SHARED_DIR).
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
# slog2_add_fuzzer(NAME <target> COMPONENT <component> [CASE <case>] SOURCES <src...>
#                  [MODULES <target...>] [LIBS <lib...>] [INCLUDES <dir...>]
#                  [DEFINITIONS <def...>] [CORPUS <dir...>] [FIXTURES <name...>])
#
# The one way a libFuzzer target is added. SOURCES define
# LLVMFuzzerTestOneInput(); MODULES are the project's targets under test.
#  * SLOG2_FUZZ=ON (clang): the MODULES' sources are compiled in (so that
#    libFuzzer sees their coverage; a linked library would be
#    uninstrumented), with -fsanitize=fuzzer,address,undefined. The test
#    "<component>.fuzz.<case>" (CASE, by default NAME without "fuzz_"; labels
#    "fuzz" and COMPONENT) fuzzes for SLOG2_FUZZ_SECONDS, starting from the
#    CORPUS directories (read only; new inputs go to the build tree, crash
#    artifacts next to them). scripts/test runs these with `ctest -L fuzz`.
#  * otherwise: the target links the MODULES and a small replay driver
#    (cmake/fuzz_replay.c), and "<component>.fuzz-replay.<case>" (labels
#    "fuzz-replay" and COMPONENT) runs every CORPUS file once -- so the seed
#    corpus and any committed crash reproducers are regression tests in the
#    normal, Valgrind and sanitizer runs, with gcc too.
# CORPUS directories that do not exist (no SLOG2_SHARED_DIR) are left out.
# FIXTURES: ctest fixtures that write a corpus at test time.
set(SLOG2_FUZZ_SECONDS 60 CACHE STRING "Seconds each *.fuzz.* test fuzzes for")
function(slog2_add_fuzzer)
  find_package(Threads REQUIRED) # for LIBS Threads::Threads, in any directory
  cmake_parse_arguments(F "" "NAME;COMPONENT;CASE"
    "SOURCES;MODULES;LIBS;INCLUDES;DEFINITIONS;CORPUS;FIXTURES" ${ARGN})
  string(REGEX REPLACE "^fuzz_" "" case ${F_NAME})
  if(F_CASE)
    set(case ${F_CASE})
  endif()
  set(corpus)
  foreach(dir ${F_CORPUS})
    if(IS_DIRECTORY ${dir} OR F_FIXTURES)
      list(APPEND corpus ${dir})
    endif()
  endforeach()
  if(SLOG2_FUZZ)
    if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
      message(FATAL_ERROR "SLOG2_FUZZ=ON needs clang (CC=clang)")
    endif()
    slog2_sources_of(module_sources ${F_MODULES})
    add_executable(${F_NAME} ${F_SOURCES} ${module_sources})
    set(flags -fsanitize=fuzzer,address,undefined)
    target_compile_options(${F_NAME} PRIVATE ${flags} -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${F_NAME} PRIVATE ${flags})
    foreach(module ${F_MODULES})
      # What the modules' sources need to compile: their include
      # directories (public and private) and definitions.
      target_include_directories(${F_NAME} PRIVATE $<TARGET_PROPERTY:${module},INCLUDE_DIRECTORIES>)
      target_compile_definitions(${F_NAME} PRIVATE $<TARGET_PROPERTY:${module},COMPILE_DEFINITIONS>)
    endforeach()
    set(work ${CMAKE_CURRENT_BINARY_DIR}/fuzz-work/${F_NAME})
    file(MAKE_DIRECTORY ${work}/corpus)
    set(test ${F_COMPONENT}.fuzz.${case})
    add_test(NAME ${test}
      COMMAND ${F_NAME} -max_total_time=${SLOG2_FUZZ_SECONDS} -timeout=20
              -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix=${work}/ ${work}/corpus ${corpus})
    math(EXPR t "${SLOG2_FUZZ_SECONDS} + 120")
    set_tests_properties(${test} PROPERTIES LABELS "fuzz;${F_COMPONENT}" TIMEOUT ${t})
  else()
    add_executable(${F_NAME} ${F_SOURCES} ${PROJECT_SOURCE_DIR}/cmake/fuzz_replay.c)
    target_link_libraries(${F_NAME} PRIVATE ${F_MODULES})
    set(test ${F_COMPONENT}.fuzz-replay.${case})
    if(corpus)
      slog2_add_test(NAME ${test} COMMAND $<TARGET_FILE:${F_NAME}> ${corpus}
        LABELS fuzz-replay ${F_COMPONENT})
    endif()
  endif()
  target_include_directories(${F_NAME} PRIVATE ${F_INCLUDES})
  target_compile_definitions(${F_NAME} PRIVATE ${F_DEFINITIONS})
  target_link_libraries(${F_NAME} PRIVATE ${F_LIBS})
  if(TEST ${test} AND F_FIXTURES)
    set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED "${F_FIXTURES}")
    if(TEST memcheck.${test})
      set_tests_properties(memcheck.${test} PROPERTIES FIXTURES_REQUIRED "${F_FIXTURES}")
    endif()
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
