/* hostfile.c — see hostfile.h. */
#include "kernels/frontend/hostfile.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK 65536

static bool fail(GError **err, int errsv, const char *path, const char *what)
{
    g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(errsv), "%s: %s", path, what ? what : g_strerror(errsv));
    return false;
}

bool hostfile_read(const char *path, hostfile_kind kind, char **data, gsize *len, GError **err)
{
    *data = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return fail(err, errno, path, NULL);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(err, e, path, NULL);
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return fail(err, EISDIR, path, "is a directory, not a file");
    }
    bool regular = S_ISREG(st.st_mode);
    guint64 limit = regular ? G_MAXSIZE - 1 : HOSTFILE_STREAM_LIMIT;
    gsize cap = regular && (guint64)st.st_size < G_MAXSIZE - 1 ? (gsize)st.st_size + 1 : CHUNK;
    char *buf = g_try_malloc(cap);
    gsize n = 0;
    bool ok = buf != NULL, nul = false;
    int e = ENOMEM;
    while (ok && !nul) {
        if (n + 1 >= cap) { /* room for at least one byte and the terminating NUL */
            /* a regular file read whole only needs room to see its end (or that it grew) */
            gsize want = regular && n == (gsize)st.st_size ? cap + CHUNK : cap > G_MAXSIZE / 2 ? G_MAXSIZE : cap * 2;
            char *more = g_try_realloc(buf, want);
            if (!more) {
                ok = false;
                e = ENOMEM;
                break;
            }
            buf = more;
            cap = want;
        }
        gsize room = cap - 1 - n;
        if (room > CHUNK && !regular)
            room = CHUNK;
        ssize_t r = read(fd, buf + n, room);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            ok = false;
            e = errno;
            break;
        }
        if (r == 0)
            break;
        if (kind == HOSTFILE_TEXT) {
            const char *z = memchr(buf + n, '\0', (size_t)r);
            if (z) {
                r = z - (buf + n) + 1;
                nul = true;
            }
        }
        n += (gsize)r;
        if (n > limit) {
            close(fd);
            g_free(buf);
            g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                        "%s: more than %" G_GUINT64_FORMAT " bytes from a file that is not a regular file "
                        "(a device or a pipe that does not end?)",
                        path, limit);
            return false;
        }
    }
    close(fd);
    if (ok && nul) {
        unsigned line = 1;
        for (gsize i = 0; i + 1 < n; i++)
            line += buf[i] == '\n';
        g_free(buf);
        g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: a NUL byte (not a text file?)", path, line);
        return false;
    }
    if (!ok) {
        g_free(buf);
        if (e == ENOMEM) {
            g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOMEM, "%s: its %" G_GUINT64_FORMAT
                        " bytes cannot be held in host memory", path, (guint64)(regular ? (guint64)st.st_size : n));
            return false;
        }
        return fail(err, e, path, NULL);
    }
    buf[n] = '\0';
    *data = buf;
    if (len)
        *len = n;
    return true;
}

bool hostfile_check_writable(const char *path, GError **err)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return fail(err, EISDIR, path, "is a directory, not a file");
        if (access(path, W_OK) != 0)
            return fail(err, errno, path, NULL);
        return true;
    }
    if (errno != ENOENT) /* ENOTDIR: a file where a directory should be; ENAMETOOLONG; EACCES ... */
        return fail(err, errno, path, NULL);
    char *dir = g_path_get_dirname(path);
    bool ok = true;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char *what = g_strdup_printf("its directory %s does not exist", dir);
        ok = fail(err, ENOENT, path, what);
        g_free(what);
    } else if (access(dir, W_OK) != 0) {
        char *what = g_strdup_printf("its directory %s cannot be written: %s", dir, g_strerror(errno));
        ok = fail(err, EACCES, path, what);
        g_free(what);
    }
    g_free(dir);
    return ok;
}

bool host_option_parse(GOptionContext *ctx, int *argc, char ***argv, GError **err)
{
    setlocale(LC_CTYPE, ""); /* the character set only: numbers keep the C locale's spelling */
    char **args = g_new0(char *, (gsize)*argc + 1); /* GOption takes the options out of argv */
    for (int i = 0; i < *argc; i++)
        args[i] = g_strdup((*argv)[i]);
    GError *e = NULL;
    bool ok = g_option_context_parse(ctx, argc, argv, &e);
    if (!ok && e->domain == G_CONVERT_ERROR) {
        const char *charset = NULL;
        g_get_charset(&charset);
        for (char **a = args + 1; *a; a++) {
            char *u = g_locale_to_utf8(*a, -1, NULL, NULL, NULL);
            bool text = u != NULL;
            g_free(u);
            if (text)
                continue;
            char *shown = g_strescape(*a, NULL);
            g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "argument '%.64s%s' is not text in the locale's character set (%s): %s", shown,
                        strlen(shown) > 64 ? "..." : "", charset, e->message);
            g_free(shown);
            break;
        }
    }
    if (!ok && err && !*err)
        g_propagate_error(err, e);
    else if (e)
        g_error_free(e);
    g_strfreev(args);
    return ok;
}
