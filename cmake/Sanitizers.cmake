# PGLAB_SANITIZE=address|thread|fuzzer: instrument everything we build (presets asan / tsan;
# fuzzer = libFuzzer coverage + ASan + UBSan, clang only, and adds the fuzz/ targets).
set(PGLAB_SANITIZE "" CACHE STRING "Sanitizer to build with: address, thread, fuzzer or empty")
if(PGLAB_SANITIZE STREQUAL "fuzzer")
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(PGLAB_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(PGLAB_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread)
  add_link_options(-fsanitize=thread)
endif()
if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  add_compile_definitions(_GLIBCXX_ASSERTIONS)
endif()
