# `cmake --install`: a CMake package (find_package(tband CONFIG)) with
#  - the firmware side, which needs no host library and works under a cross
#    toolchain: the generator (share/tband/python/tband_codegen, with the
#    built-in schema), the tracer's sources and ports (share/tband/target),
#    tband_add_firmware() and the Cortex-M4 toolchain file (lib/cmake/tband),
#    board support for QEMU's mps2-an386 (share/tband/target/boards), and
#    bin/tband-codegen;
#  - the tband command (bin/tband, component "cli"), unless TBAND_FIRMWARE_ONLY.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TBAND_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tband)
set(TBAND_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/tband)
set(python_dir ${TBAND_INSTALL_DATADIR}/python/tband_codegen)

install(DIRECTORY target/include target/src target/ports target/boards DESTINATION ${TBAND_INSTALL_DATADIR}/target)
install(DIRECTORY codegen/ DESTINATION ${python_dir}
  FILES_MATCHING PATTERN "*.py" PATTERN "*.j2" PATTERN "__pycache__" EXCLUDE)
file(GLOB builtin_schema ${PROJECT_SOURCE_DIR}/schema/*.yaml)
install(FILES ${builtin_schema} DESTINATION ${python_dir}/schema)
install(FILES cmake/TbandPython.cmake cmake/TbandCodegen.cmake cmake/TbandFirmware.cmake cmake/TbandBoards.cmake
  DESTINATION ${TBAND_INSTALL_CMAKEDIR})
install(DIRECTORY cmake/toolchains DESTINATION ${TBAND_INSTALL_CMAKEDIR})

# bin/tband-codegen: runs the installed generator with the python3 on PATH.
file(RELATIVE_PATH bin_to_python ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}
  ${CMAKE_INSTALL_PREFIX}/${TBAND_INSTALL_DATADIR}/python)
configure_file(cmake/tband-codegen.in ${PROJECT_BINARY_DIR}/tband-codegen @ONLY)
install(PROGRAMS ${PROJECT_BINARY_DIR}/tband-codegen DESTINATION ${CMAKE_INSTALL_BINDIR})

if(TARGET tband)
  install(TARGETS tband RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
endif()

configure_package_config_file(cmake/tbandConfig.cmake.in ${PROJECT_BINARY_DIR}/tbandConfig.cmake
  INSTALL_DESTINATION ${TBAND_INSTALL_CMAKEDIR}
  PATH_VARS TBAND_INSTALL_DATADIR CMAKE_INSTALL_BINDIR)
# ARCH_INDEPENDENT: firmware of any pointer size uses the package (the CLI is a
# host tool, run on the build machine).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tbandConfigVersion.cmake COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/tbandConfig.cmake ${PROJECT_BINARY_DIR}/tbandConfigVersion.cmake
  DESTINATION ${TBAND_INSTALL_CMAKEDIR})
