# Per-case CTest properties of the GoogleTest cases that gtest_discover_tests lists (included by
# ctest after the discovered lists: tests/CMakeLists.txt).
#
# Runs made once for several cases (support::shared_run): the fixture's setup makes the run into
# build/test-shared/, the cases that require the fixture read it, after it.

# The -R 500 -T 10 run with both exports and the transaction log of export_test.cpp.
set_tests_properties(ExportTest.RateRunLandsWithinFivePercentOfTarget
                     PROPERTIES FIXTURES_SETUP export-rate-run)
set_tests_properties(ExportTest.RateRunRecordsTheWakeUpErrorOfEveryTimedWait
                     ExportTest.JsonValidatesAgainstTheSchema
                     ExportTest.SeriesAddsUpToTotals
                     ExportTest.HistogramPercentilesAgreeWithTheTransactionLog
                     ExportTest.CsvIsOneHeaderAndOneDataLineAgreeingWithJson
                     PROPERTIES FIXTURES_REQUIRED export-rate-run)

# Cases whose measurement needs a core of its own (make test runs twice as many cases as cores):
# PROCESSORS 2 counts as two of ctest's jobs. The rate run checks that -R 500 lands within 5%.
set_tests_properties(ExportTest.RateRunLandsWithinFivePercentOfTarget PROPERTIES PROCESSORS 2)
