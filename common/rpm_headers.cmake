# One rpm's headers per build. The top CMakeLists.txt selects an rpm
# (RPMVERITY_RPM_PREFIX, else the system's) and every target that includes
# rpm headers must compile against that one: a target without its flags
# silently takes /usr/include/rpm, another rpm than the librpm it links.
# rpm_headers_check.c, compiled into each such target with its flags, fails
# the build then; this file passes it the selected series and adds it.

# The series of the selected rpm, as rpm_headers_check.c tells headers
# apart: MAJOR*100+MINOR for 4.x (418, 419, 420), 600 from 6.0 on.
string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _rpm_mm "${RPM_VERSION}")
if(NOT _rpm_mm)
  message(FATAL_ERROR "rpm.pc gives version '${RPM_VERSION}': not MAJOR.MINOR...")
endif()
if(CMAKE_MATCH_1 GREATER_EQUAL 6)
  set(RPMVERITY_RPM_SERIES 600)
else()
  math(EXPR RPMVERITY_RPM_SERIES "${CMAKE_MATCH_1} * 100 + ${CMAKE_MATCH_2}")
endif()
set_property(TARGET PkgConfig::RPM APPEND PROPERTY
  INTERFACE_COMPILE_DEFINITIONS RPMVERITY_RPM_SERIES=${RPMVERITY_RPM_SERIES})

# rpmverity_check_rpm_headers(DIR): adds the check to every target defined
# in DIR and below with a source that includes <rpm/...>. Called once all
# targets exist.
function(rpmverity_check_rpm_headers dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_target_property(srcs ${t} SOURCES)
    get_target_property(srcdir ${t} SOURCE_DIR)
    foreach(s IN LISTS srcs)
      if(s MATCHES "\\$<" OR NOT s MATCHES "\\.[ch]$")
        continue()
      endif()
      cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY "${srcdir}")
      file(STRINGS "${s}" hit REGEX "^[ \t]*#[ \t]*include[ \t]*<rpm/" LIMIT_COUNT 1)
      if(hit)
        target_sources(${t} PRIVATE ${PROJECT_SOURCE_DIR}/common/rpm_headers_check.c)
        break()
      endif()
    endforeach()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(d IN LISTS subdirs)
    rpmverity_check_rpm_headers("${d}")
  endforeach()
endfunction()
