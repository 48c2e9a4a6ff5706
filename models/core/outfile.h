/* outfile.h — text files a run writes as it goes (issue logs), shared and checked.
 *
 * Several block instances may be configured with the same path (a type-wide `[issue] log=FILE` on a
 * machine of many SMs): they share one stream, opened once, instead of overwriting each other.
 * Paths are compared by the file they open (device and inode), so `a.log` and `./a.log` share too.
 * outfile_close_all flushes and closes every file and reports the first write error (a full disk,
 * a file size limit, /dev/full): a run must not end well with a truncated log. */
#ifndef GPUSC_MODELS_CORE_OUTFILE_H
#define GPUSC_MODELS_CORE_OUTFILE_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

/* The stream for path (opened for writing, truncated, on first use); NULL with errno set. */
FILE *outfile_open(const char *path);
/* Close every stream outfile_open returned; false (and a message in err) on a write error. */
bool outfile_close_all(GString *err);

#endif
