# Third-party libraries, all from Debian packages (scripts/bootstrap installs them).
find_package(Threads REQUIRED)
find_package(PostgreSQL REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(tomlplusplus REQUIRED) # Debian libtomlplusplus-dev: a shared library, not header-only
find_package(GTest)
find_package(benchmark)
