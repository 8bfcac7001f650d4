# tband_generate(SCHEMA_DIR <dir> OUT_DIR <dir> TARGET <name>)
# tband_generate(SCHEMA <file or dir>... OUT_DIR <dir> TARGET <name>)
#
# Runs the generator (codegen/) on every *.yaml in SCHEMA_DIR (a complete
# schema, tband's own or a test's), or on the user schema files (and folders
# of them) given as SCHEMA composed with tband's built-in groups, writing
# into OUT_DIR. The output list comes from the generator itself at configure time,
# so the build knows every file before it exists. The command reruns when a
# schema file, a generator source or a template changes; it rewrites only files
# whose content changed, so unchanged outputs do not trigger recompiles.
#
# Where the generator is: set TBAND_CODEGEN_PYTHONPATH (the folder that holds
# the package), TBAND_CODEGEN_MODULE (its name) and TBAND_BUILTIN_SCHEMA_DIR
# before including this file; by default, this source tree's codegen/ and
# schema/. The installed package (tbandConfig.cmake) points them at its copy.
if(NOT TBAND_CODEGEN_MODULE)
  set(TBAND_CODEGEN_PYTHONPATH ${CMAKE_CURRENT_LIST_DIR}/..)
  set(TBAND_CODEGEN_MODULE codegen)
  set(TBAND_BUILTIN_SCHEMA_DIR ${CMAKE_CURRENT_LIST_DIR}/../schema)
endif()
get_filename_component(TBAND_CODEGEN_PYTHONPATH ${TBAND_CODEGEN_PYTHONPATH} ABSOLUTE)
get_filename_component(TBAND_BUILTIN_SCHEMA_DIR ${TBAND_BUILTIN_SCHEMA_DIR} ABSOLUTE)
set(TBAND_CODEGEN_COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${TBAND_CODEGEN_PYTHONPATH} PYTHONDONTWRITEBYTECODE=1
  ${TBAND_PYTHON} -m ${TBAND_CODEGEN_MODULE})
# The function below reads these from global properties, so that it works
# from any directory scope (a project that add_subdirectory()s tband calls it
# from its own scope, where tband's variables are not set).
set_property(GLOBAL PROPERTY TBAND_CODEGEN_COMMAND "${TBAND_CODEGEN_COMMAND}")
set_property(GLOBAL PROPERTY TBAND_CODEGEN_PACKAGE_DIR "${TBAND_CODEGEN_PYTHONPATH}/${TBAND_CODEGEN_MODULE}")
set_property(GLOBAL PROPERTY TBAND_BUILTIN_SCHEMA_DIR "${TBAND_BUILTIN_SCHEMA_DIR}")

function(tband_generate)
  cmake_parse_arguments(ARG "" "SCHEMA_DIR;OUT_DIR;TARGET" "SCHEMA" ${ARGN})
  get_property(TBAND_CODEGEN_COMMAND GLOBAL PROPERTY TBAND_CODEGEN_COMMAND)
  get_property(package_dir GLOBAL PROPERTY TBAND_CODEGEN_PACKAGE_DIR)
  get_property(builtin_schema_dir GLOBAL PROPERTY TBAND_BUILTIN_SCHEMA_DIR)
  if(NOT ARG_OUT_DIR OR NOT ARG_TARGET OR (NOT ARG_SCHEMA AND NOT ARG_SCHEMA_DIR))
    message(FATAL_ERROR "tband_generate: give OUT_DIR, TARGET and SCHEMA or SCHEMA_DIR")
  endif()
  execute_process(
    COMMAND ${TBAND_CODEGEN_COMMAND} --list-outputs
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

  if(ARG_SCHEMA)
    set(schema_args "")
    set(schema_files "")
    foreach(path IN LISTS ARG_SCHEMA)
      get_filename_component(path ${path} ABSOLUTE)
      list(APPEND schema_args --schema ${path})
      if(IS_DIRECTORY ${path})
        file(GLOB in_dir CONFIGURE_DEPENDS ${path}/*.yaml ${path}/*.yml)
        list(APPEND schema_files ${in_dir})
      else()
        list(APPEND schema_files ${path})
      endif()
    endforeach()
    file(GLOB builtin_files CONFIGURE_DEPENDS ${builtin_schema_dir}/*.yaml)
    list(APPEND schema_files ${builtin_files})
    set(described "${ARG_SCHEMA}")
  else()
    get_filename_component(ARG_SCHEMA_DIR ${ARG_SCHEMA_DIR} ABSOLUTE)
    set(schema_args --schema-dir ${ARG_SCHEMA_DIR})
    file(GLOB schema_files CONFIGURE_DEPENDS ${ARG_SCHEMA_DIR}/*.yaml ${ARG_SCHEMA_DIR}/*.yml)
    set(described ${ARG_SCHEMA_DIR})
  endif()
  file(GLOB_RECURSE generator_files CONFIGURE_DEPENDS ${package_dir}/*.py ${package_dir}/templates/*.j2)

  set(stamp ${ARG_OUT_DIR}/.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    BYPRODUCTS ${outputs}
    COMMAND ${TBAND_CODEGEN_COMMAND} ${schema_args} --out ${ARG_OUT_DIR} --quiet
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${schema_files} ${generator_files}
    COMMENT "Generating tband code from ${described}"
    VERBATIM)
  add_custom_target(${ARG_TARGET} DEPENDS ${stamp})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${package_dir}/render.py)
endfunction()
