# tband_generate(SCHEMA_DIR <dir> OUT_DIR <dir> TARGET <name>)
#
# Runs the generator (codegen/) on every *.yaml in SCHEMA_DIR, writing into
# OUT_DIR. The output list comes from the generator itself at configure time,
# so the build knows every file before it exists. The command reruns when a
# schema file, a generator source or a template changes; it rewrites only files
# whose content changed, so unchanged outputs do not trigger recompiles.
set(TBAND_CODEGEN_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)

function(tband_generate)
  cmake_parse_arguments(ARG "" "SCHEMA_DIR;OUT_DIR;TARGET" "" ${ARGN})
  execute_process(
    COMMAND ${TBAND_PYTHON} -m codegen --list-outputs
    WORKING_DIRECTORY ${TBAND_CODEGEN_ROOT}
    OUTPUT_VARIABLE listed
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "tband-codegen --list-outputs failed")
  endif()
  string(REPLACE "\n" ";" listed "${listed}")
  set(outputs "")
  foreach(path IN LISTS listed)
    if(path)
      list(APPEND outputs ${ARG_OUT_DIR}/${path})
    endif()
  endforeach()

  file(GLOB schema_files CONFIGURE_DEPENDS ${ARG_SCHEMA_DIR}/*.yaml ${ARG_SCHEMA_DIR}/*.yml)
  file(GLOB_RECURSE generator_files CONFIGURE_DEPENDS
    ${TBAND_CODEGEN_ROOT}/codegen/*.py ${TBAND_CODEGEN_ROOT}/codegen/templates/*.j2)

  set(stamp ${ARG_OUT_DIR}/.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    BYPRODUCTS ${outputs}
    COMMAND ${TBAND_PYTHON} -m codegen --schema-dir ${ARG_SCHEMA_DIR} --out ${ARG_OUT_DIR} --quiet
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    WORKING_DIRECTORY ${TBAND_CODEGEN_ROOT}
    DEPENDS ${schema_files} ${generator_files}
    COMMENT "Generating tband code from ${ARG_SCHEMA_DIR}"
    VERBATIM)
  add_custom_target(${ARG_TARGET} DEPENDS ${stamp})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${TBAND_CODEGEN_ROOT}/codegen/render.py)
endfunction()
