# tband_generate(SCHEMA_DIR <dir> OUT_DIR <dir> [TARGET <name>] [LIBRARY <name>])
# tband_generate(SCHEMA <file or dir>... OUT_DIR <dir> [TARGET <name>] [LIBRARY <name>])
#
# Runs the generator (codegen/) on every *.yaml in SCHEMA_DIR (a complete
# schema, tband's own or a test's), or on the user schema files (and folders
# of them) given as SCHEMA composed with tband's built-in groups, writing
# into OUT_DIR. TARGET is the custom target that runs it; LIBRARY an INTERFACE
# library that carries what code using the output needs: the include folders
# <OUT_DIR>/target (tband_encode.hpp, tband_user_events.h) and <OUT_DIR>/host
# (tband_events.hpp), and the dependency on TARGET, so that
#   target_link_libraries(app PRIVATE <LIBRARY>)
# is all a consumer writes. Give either name or both: LIBRARY defaults to
# <TARGET>_lib, TARGET to <LIBRARY>_generate. The library's properties
# TBAND_GENERATED_DIR and TBAND_DESCRIPTOR name OUT_DIR and the schema
# descriptor. Generated sources (OUT_DIR/host/tband_events.cpp,
# OUT_DIR/tests/roundtrip_test.cpp) may be compiled from any folder of the
# project: they are the command's byproducts, and policy CMP0118 makes that
# known everywhere.
#
# Both lists come from the generator at configure time, as nunavut's
# add_cyphal_library does: the outputs (--list-outputs), so the build knows
# every file before it exists, and the inputs (--list-inputs: the schema files
# it reads, built-in ones included, and its own sources and templates), so the
# command reruns when any of them changes. Adding or removing a file in a
# folder they come from re-runs the configure step, which asks again. The
# command rewrites only files whose content changed, so unchanged outputs do
# not trigger recompiles.
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
  cmake_parse_arguments(ARG "" "SCHEMA_DIR;OUT_DIR;TARGET;LIBRARY" "SCHEMA" ${ARGN})
  get_property(TBAND_CODEGEN_COMMAND GLOBAL PROPERTY TBAND_CODEGEN_COMMAND)
  get_property(package_dir GLOBAL PROPERTY TBAND_CODEGEN_PACKAGE_DIR)
  if(NOT ARG_OUT_DIR OR (NOT ARG_TARGET AND NOT ARG_LIBRARY) OR (NOT ARG_SCHEMA AND NOT ARG_SCHEMA_DIR))
    message(FATAL_ERROR "tband_generate: give OUT_DIR, TARGET or LIBRARY, and SCHEMA or SCHEMA_DIR")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tband_generate: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    set(ARG_TARGET ${ARG_LIBRARY}_generate)
  elseif(NOT ARG_LIBRARY)
    set(ARG_LIBRARY ${ARG_TARGET}_lib)
  endif()
  get_filename_component(ARG_OUT_DIR ${ARG_OUT_DIR} ABSOLUTE)

  if(ARG_SCHEMA)
    set(schema_args "")
    set(given_files "")
    foreach(path IN LISTS ARG_SCHEMA)
      get_filename_component(path ${path} ABSOLUTE)
      list(APPEND schema_args --schema ${path})
      if(NOT IS_DIRECTORY ${path})
        list(APPEND given_files ${path})
      endif()
    endforeach()
    set(described "${ARG_SCHEMA}")
  else()
    get_filename_component(ARG_SCHEMA_DIR ${ARG_SCHEMA_DIR} ABSOLUTE)
    set(schema_args --schema-dir ${ARG_SCHEMA_DIR})
    set(given_files "")
    set(described ${ARG_SCHEMA_DIR})
  endif()

  tband_python_lines(outputs ${TBAND_CODEGEN_COMMAND} --list-outputs)
  list(TRANSFORM outputs PREPEND ${ARG_OUT_DIR}/)
  tband_python_lines(inputs ${TBAND_CODEGEN_COMMAND} --list-inputs ${schema_args})
  # The folders the inputs come from: a file added to or removed from one of
  # them changes its time stamp, which re-runs the configure step. (Not the
  # folders of files given one by one: that would be the user's source tree.)
  set(input_dirs "")
  foreach(path IN LISTS inputs)
    if(NOT path IN_LIST given_files)
      get_filename_component(dir ${path} DIRECTORY)
      list(APPEND input_dirs ${dir})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES input_dirs)
  # render.py holds the list of outputs.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${input_dirs} ${package_dir}/render.py)

  set(stamp ${ARG_OUT_DIR}/.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    BYPRODUCTS ${outputs}
    COMMAND ${TBAND_CODEGEN_COMMAND} ${schema_args} --out ${ARG_OUT_DIR} --quiet
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${inputs}
    COMMENT "Generating tband code from ${described}"
    VERBATIM)
  add_custom_target(${ARG_TARGET} DEPENDS ${stamp})

  add_library(${ARG_LIBRARY} INTERFACE)
  target_include_directories(${ARG_LIBRARY} INTERFACE ${ARG_OUT_DIR}/target ${ARG_OUT_DIR}/host)
  add_dependencies(${ARG_LIBRARY} ${ARG_TARGET})
  set_target_properties(${ARG_LIBRARY} PROPERTIES
    TBAND_GENERATED_DIR ${ARG_OUT_DIR}
    TBAND_DESCRIPTOR ${ARG_OUT_DIR}/descriptor/tband_schema.json)
endfunction()

