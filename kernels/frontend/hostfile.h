/* hostfile.h — what a program takes from the host (its files, its command line), checked before it
 * can hurt.
 *
 * Reading a whole input file (a PTX module, a configuration, an in: buffer, a trace) without
 * trusting it to end:
 * g_file_get_contents reads until the end of the file: a device that never ends (/dev/zero,
 * /dev/urandom) or a pipe fed without end is read until host memory runs out, and the program dies
 * of GLib's allocation abort or the kernel's out-of-memory killer. hostfile_read reads a regular file
 * whole (its size is known, and a size the host cannot allocate is an error), anything else (a
 * device, a pipe, a socket) up to HOSTFILE_STREAM_LIMIT bytes. In a text file a NUL byte is an error
 * at its line, and reading stops there: no text input of the project holds one, the text would end
 * at it unseen, and reading on could take forever (/dev/zero).
 *
 * An output file written after the run (an out: buffer, --stats-json) is checked before it: a path
 * that is a directory, or whose directory does not exist or cannot be written, would throw away a
 * run of hours at its end.
 *
 * Errors are G_FILE_ERROR GErrors whose message starts with the path. */
#ifndef GPUSC_KERNELS_FRONTEND_HOSTFILE_H
#define GPUSC_KERNELS_FRONTEND_HOSTFILE_H

#include <glib.h>
#include <stdbool.h>

G_BEGIN_DECLS

/* The most bytes read from a file that is not a regular file (1 GiB). */
#define HOSTFILE_STREAM_LIMIT (G_GUINT64_CONSTANT(1) << 30)

typedef enum {
    HOSTFILE_BINARY, /* any bytes */
    HOSTFILE_TEXT    /* a NUL byte is an error: "PATH:LINE: a NUL byte (not a text file?)" */
} hostfile_kind;

/* The file's bytes in *data (with a NUL byte after them, to g_free) and their count in *len (NULL:
 * not wanted). False with err set when the file cannot be opened or read, is a directory, cannot be
 * held in host memory, is a stream of more than HOSTFILE_STREAM_LIMIT bytes, or (text) holds a NUL. */
bool hostfile_read(const char *path, hostfile_kind kind, char **data, gsize *len, GError **err);

/* Whether `path` can be created or replaced later (nothing is created now): false, with err set, when
 * it is a directory, its directory does not exist or is not a directory, or the file or its directory
 * cannot be written. */
bool hostfile_check_writable(const char *path, GError **err);

/* g_option_context_parse in the user's character set (LC_CTYPE from the environment: GOption converts
 * every string argument from it, and in the C locale a non-ASCII byte, `--set issue.log=café.log`,
 * was refused). An argument that still does not convert is named in the error ("argument 'X' is
 * not text in the locale's character set (UTF-8): ..."), which GOption's message does not do. */
bool host_option_parse(GOptionContext *ctx, int *argc, char ***argv, GError **err);

G_END_DECLS

#endif
