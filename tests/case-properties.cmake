# Per-case CTest properties of the GoogleTest cases that gtest_discover_tests lists (included by
# ctest after the discovered lists: tests/CMakeLists.txt).
#
# Runs made once for several cases (support::shared_run): the fixture's setup makes the run into
# build/test-shared/, the cases that require the fixture read it, after it.

# The compat cases that need only a database of their own with pgbench's tables on a plain server
# of the reference major (support::pgbench_database): they share the server that the fixture
# compat-server starts (support/shared_server.hpp), each in a copy of its template database.
# Cases that look at the whole server (sessions in pg_stat_activity, its settings, signals to
# it) keep a server of their own.
set(shared_server_cases)
foreach(case IN LISTS pglab_compat_tests_TESTS)
  if(case MATCHES "^(([A-Za-z]+/)?Script[A-Za-z]*Test|RunLogsTest)\\.")
    list(APPEND shared_server_cases ${case})
  endif()
endforeach()
set_tests_properties(${shared_server_cases} PROPERTIES
                     FIXTURES_REQUIRED compat-server
                     ENVIRONMENT_MODIFICATION "PGLAB_TEST_SHARED_SERVER=set:compat-server")

# Cases whose measurement needs a core of its own (make test runs twice as many cases as cores)
# have PROCESSORS 2: they count as two of ctest's jobs.

# The -R 500 -T 10 run with both exports and the transaction log of export_test.cpp; the case
# that makes it checks that it lands within 5% of the rate.
set_tests_properties(ExportTest.RateRunLandsWithinFivePercentOfTarget
                     PROPERTIES FIXTURES_SETUP export-rate-run PROCESSORS 2)
set_tests_properties(ExportTest.RateRunRecordsTheWakeUpErrorOfEveryTimedWait
                     ExportTest.JsonValidatesAgainstTheSchema
                     ExportTest.SeriesAddsUpToTotals
                     ExportTest.HistogramPercentilesAgreeWithTheTransactionLog
                     ExportTest.CsvIsOneHeaderAndOneDataLineAgreeingWithJson
                     PROPERTIES FIXTURES_REQUIRED export-rate-run)

# A fetch of PostgreSQL 19 from Debian's archive into an empty cache downloads about 40 MB and
# sid's and experimental's package lists: CI runs it (`make test-references`), `make test` does not;
# ServerFetchDebian.NineteenInTheMachineCacheRunsHere checks the 19 that make test's releases
# phase fetched once per machine.
set_tests_properties(ServerFetchDebian.IntoAnEmptyCacheThenFoundAgain
                     PROPERTIES LABELS "server;reference")

# A real build from source: Debian's postgresql-18, built once per machine by
# `scripts/build-pgbench-reference --build-source` (make test-references; 1.7 min on 2
# cores the first time); make test leaves it out.
set_tests_properties(ServerBuildReference.Debian18SourceTreeIsBuiltOnceAndStartsAServer
                     PROPERTIES LABELS "server;reference")

# The lab's and the fleet's cases carry a label of their own beside their suite's, so that
# `make soak` (bench/soak --labels) and `ctest -L lab|fleet` can pick them.
foreach(case IN LISTS pglab_integration_tests_TESTS)
  set(labels server)
  if(case MATCHES "^((Steps/)?Lab|Settle|StepProgress|Probe|MemoryLimit|SyncDelay)")
    list(APPEND labels lab)
  endif()
  if(case MATCHES "^(Fleet|LabFleet)")
    list(APPEND labels fleet)
  endif()
  if(NOT labels STREQUAL "server") # (the reference cases above keep theirs: neither lab nor fleet)
    set_tests_properties(${case} PROPERTIES LABELS "${labels}")
  endif()
endforeach()
