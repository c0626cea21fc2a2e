# Installs ttt-server.service and server.toml (included by cmake_install.cmake;
# the TTT_* variables come from packaging/CMakeLists.txt). With the prefix /usr
# (the Debian package, or `cmake --install build --prefix /usr`) they go to
# /lib/systemd/system and /etc/ttt; with any other prefix, under it.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(etc_dir "/etc")
  set(unit_dir "/lib/systemd/system")
else()
  set(etc_dir "${CMAKE_INSTALL_PREFIX}/etc")
  set(unit_dir "${CMAKE_INSTALL_PREFIX}/lib/systemd/system")
endif()
set(TTT_BIN_DIR "${CMAKE_INSTALL_PREFIX}/${TTT_BINDIR}")
set(TTT_DOC_DIR "${CMAKE_INSTALL_PREFIX}/${TTT_DOCDIR}")
set(TTT_CONFIG_FILE "${etc_dir}/ttt/server.toml")
configure_file("${TTT_PACKAGING_DIR}/ttt-server.service.in"
               "${TTT_STAGING_DIR}/ttt-server.service" @ONLY)
file(INSTALL "${TTT_STAGING_DIR}/ttt-server.service" DESTINATION "${unit_dir}"
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)

# An administrator's edited config survives `cmake --install` (dpkg keeps it as
# a conffile in the package).
set(config_target "$ENV{DESTDIR}${TTT_CONFIG_FILE}")
if(EXISTS "${config_target}")
  message(STATUS "Kept: ${config_target} (the new default is ${TTT_PACKAGING_DIR}/server.toml)")
else()
  file(INSTALL "${TTT_PACKAGING_DIR}/server.toml" DESTINATION "${etc_dir}/ttt"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()

# Debian wants a compressed changelog beside the copyright file.
execute_process(COMMAND gzip -9nc "${TTT_PACKAGING_DIR}/debian/changelog"
                OUTPUT_FILE "${TTT_STAGING_DIR}/changelog.Debian.gz" RESULT_VARIABLE gzip_status)
if(NOT gzip_status EQUAL 0)
  message(FATAL_ERROR "gzip failed on the changelog")
endif()
file(INSTALL "${TTT_STAGING_DIR}/changelog.Debian.gz" DESTINATION "${TTT_DOC_DIR}"
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
