/* outfile.c — see outfile.h. */
#include "models/core/outfile.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    char *path;
    FILE *fp;
    dev_t dev;
    ino_t ino;
} outfile;

static GArray *files; /* of outfile */

FILE *outfile_open(const char *path)
{
    if (!files)
        files = g_array_new(FALSE, FALSE, sizeof(outfile));
    struct stat st;
    bool known = stat(path, &st) == 0;
    for (guint i = 0; known && i < files->len; i++) {
        outfile *o = &g_array_index(files, outfile, i);
        if (o->dev == st.st_dev && o->ino == st.st_ino)
            return o->fp;
    }
    FILE *fp = fopen(path, "w");
    if (!fp)
        return NULL;
    outfile o = {g_strdup(path), fp, 0, 0};
    if (fstat(fileno(fp), &st) == 0) {
        o.dev = st.st_dev;
        o.ino = st.st_ino;
    }
    g_array_append_val(files, o);
    return fp;
}

bool outfile_close_all(GString *err)
{
    bool ok = true;
    for (guint i = 0; files && i < files->len; i++) {
        outfile *o = &g_array_index(files, outfile, i);
        errno = 0;
        bool bad = fflush(o->fp) != 0 || ferror(o->fp);
        int e = errno;
        if (fclose(o->fp) != 0 && !bad) {
            bad = true;
            e = errno;
        }
        if (bad && ok) {
            g_string_append_printf(err, "cannot write %s: %s", o->path, e ? g_strerror(e) : "write error");
            ok = false;
        }
        g_free(o->path);
    }
    if (files)
        g_array_set_size(files, 0);
    return ok;
}
