include(CMakePackageConfigHelpers)

install(TARGETS matcompare matcompare_cli
        EXPORT matcompareTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The cuBLASMp worker goes beside the CLI, where the library looks for it.
if(TARGET matcompare_mp_worker)
  install(TARGETS matcompare_mp_worker RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The CPU vendor plugins go beside the library, where it looks for them (cmake/Vendors.cmake), with whatever a
# prebuilt folder carried (libblis.so.4).
foreach(plugin matcompare_vendor_blis matcompare_vendor_mkl)
  if(TARGET ${plugin})
    install(TARGETS ${plugin} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  endif()
endforeach()
if(MATCOMPARE_VENDOR_PREBUILT_FILES)
  install(FILES ${MATCOMPARE_VENDOR_PREBUILT_FILES} DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(DIRECTORY include/matcompare DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES report/make_report.py DESTINATION ${CMAKE_INSTALL_DATADIR}/matcompare)
install(DIRECTORY suites/ DESTINATION ${CMAKE_INSTALL_DATADIR}/matcompare/suites FILES_MATCHING PATTERN "*.txt")
install(DIRECTORY report/matcompare_report DESTINATION ${CMAKE_INSTALL_DATADIR}/matcompare
        FILES_MATCHING PATTERN "*.py")
install(EXPORT matcompareTargets NAMESPACE matcompare::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/matcompare)

configure_package_config_file(cmake/matcompareConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/matcompareConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/matcompare)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/matcompareConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/matcompareConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/matcompareConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/matcompare)
