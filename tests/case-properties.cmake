# Per-case CTest properties of the GoogleTest cases that gtest_discover_tests lists (included by
# ctest after the discovered lists: tests/CMakeLists.txt).
#
# Runs made once for several cases (support::shared_run): the fixture's setup makes the run into
# build/test-shared/, the cases that require the fixture read it, after it.

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
