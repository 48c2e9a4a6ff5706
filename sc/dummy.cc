// Empty: makes libtool link libgpusc with the C++ driver.
