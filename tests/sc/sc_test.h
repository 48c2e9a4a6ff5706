/* sc_test.h — helpers shared by the tests of sc/. */
#ifndef GPUSC_TESTS_SC_SC_TEST_H
#define GPUSC_TESTS_SC_SC_TEST_H

#include <glib.h>

/* Run `body` in a subprocess (its own SystemC kernel) and require it to pass. Use as the whole body
 * of a g_test function. */
#define SC_TEST_IN_SUBPROCESS(body)                                                                          \
    do {                                                                                                     \
        if (g_test_subprocess()) {                                                                           \
            body;                                                                                            \
            return;                                                                                          \
        }                                                                                                    \
        g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);                                          \
        g_test_trap_assert_passed();                                                                         \
    } while (0)

#endif /* GPUSC_TESTS_SC_SC_TEST_H */
