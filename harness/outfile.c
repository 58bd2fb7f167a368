#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- the temporary files a signal must remove ------------------------------------------ */

enum { SLOTS = 8 };
static char live[SLOTS][OUTFILE_PATH_MAX], live_dir[SLOTS][OUTFILE_PATH_MAX];
static int live_made[SLOTS];
static volatile sig_atomic_t in_use[SLOTS];

/* rmdir of dir and its parents down to the first `made` characters: the folders a run created,
 * deepest first; rmdir leaves any that hold something. Async-signal-safe. */
static void remove_made(char *dir, int made)
{
    for (char *p = dir + strlen(dir); made && p - dir >= made; p--)
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            int gone = rmdir(dir) == 0;
            *p = c;
            if (!gone) break;
        }
}

static void on_signal(int sig)
{
    for (int i = 0; i < SLOTS; i++)
        if (in_use[i]) unlink(live[i]), remove_made(live_dir[i], live_made[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig); /* ends with the usual status, 128 + sig in a shell */
}

static void install_handlers(void)
{
    static int done;
    if (done) return;
    done = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        struct sigaction old;
        /* Leave a signal the caller ignores (nohup, a background shell job) ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(sigs[i], &sa, NULL);
    }
    /* Past a file-size limit, write() should fail with EFBIG (reported) rather than kill. */
    signal(SIGXFSZ, SIG_IGN);
}

static int track(const char *tmp, const char *dir, int made)
{
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int slot = -1;
    for (int i = 0; i < SLOTS && slot < 0; i++)
        if (!in_use[i]) {
            memcpy(live[i], tmp, strlen(tmp) + 1);
            memcpy(live_dir[i], dir, strlen(dir) + 1);
            live_made[i] = made;
            in_use[i] = 1, slot = i;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return slot;
}

static void untrack(struct outfile *o)
{
    if (o->slot >= 0) in_use[o->slot] = 0;
    o->slot = -1;
}

/* ---- helpers --------------------------------------------------------------------------- */

int outfile_path(char *out, size_t n, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(out, n, fmt, ap);
    va_end(ap);
    if (len >= 0 && (size_t)len < n) return 0;
    fprintf(stderr, "fdtdbench: %s: the path '%.40s...' is longer than %zu characters\n", what, out, n - 1);
    return -1;
}

/* mkdir -p; *made gets the length of the first folder it created (0 if none). */
static int mkdir_p(char *path, int *made)
{
    *made = 0;
    for (char *p = path + 1;; p++)
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(path, 0777) == 0) {
                if (!*made) *made = (int)(p - path);
            } else if (errno != EEXIST) {
                return -1;
            }
            if (!(*p = c)) return 0;
        }
}

/* Removes the temporary files of processes that no longer run (killed with SIGKILL, or a crash). */
static void remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    size_t plen = strlen(OUTFILE_TMP_PREFIX);
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, OUTFILE_TMP_PREFIX, plen)) continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        if (*end != '-' || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char path[OUTFILE_PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path) unlink(path);
    }
    closedir(d);
}

/* mkstemp makes the file 0600; results are shared like any file the user writes. */
static mode_t umask_value(void)
{
    mode_t m = umask(022);
    umask(m);
    return m;
}

static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY);
    if (fd < 0) return;
    fsync(fd); /* the file is in place either way; some file systems cannot sync a folder */
    close(fd);
}

/* Prints the one error line and removes every trace of the file. */
static int fail(struct outfile *o, int err)
{
    fprintf(stderr, "fdtdbench: cannot write %s: %s (nothing written)\n", o->name, strerror(err ? err : EIO));
    outfile_abort(o);
    return -1;
}

/* ---- the interface --------------------------------------------------------------------- */

int outfile_open(struct outfile *o, const char *dir, const char *name)
{
    memset(o, 0, sizeof *o);
    o->slot = -1;
    if (!*dir) dir = "/"; /* "/name" split at its slash */
    if (outfile_path(o->name, sizeof o->name, "--results", "%s", name) ||
        outfile_path(o->dir, sizeof o->dir, "--results", "%s", dir) ||
        outfile_path(o->tmp, sizeof o->tmp, "--results", "%s/" OUTFILE_TMP_PREFIX "%ld-XXXXXX", dir, (long)getpid()))
        return -1;
    install_handlers();
    if (mkdir_p(o->dir, &o->made)) {
        fprintf(stderr, "fdtdbench: cannot create folder %s: %s\n", o->dir, strerror(errno));
        remove_made(o->dir, o->made);
        return -1;
    }
    remove_stale(o->dir);
    sigset_t all, old; /* no signal between creating the file and recording it */
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int fd = mkstemp(o->tmp), err = errno;
    if (fd >= 0) o->slot = track(o->tmp, o->dir, o->made);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd >= 0 && o->slot >= 0) o->f = fdopen(fd, "w"), err = errno;
    if (!o->f) {
        if (fd >= 0) close(fd), unlink(o->tmp);
        if (o->slot < 0 && fd >= 0) err = EMFILE;
        o->tmp[0] = '\0';
        return fail(o, err);
    }
    fchmod(fd, 0666 & ~umask_value());
    return 0;
}

int outfile_check(struct outfile *o)
{
    errno = 0;
    if (fflush(o->f) == 0 && !ferror(o->f)) return 0;
    return fail(o, errno);
}

/* Flushes, checks, syncs and closes: the file is complete on disk, or -1. */
static int finish(struct outfile *o)
{
    errno = 0;
    int bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));
    int err = errno;
    FILE *f = o->f;
    o->f = NULL;
    bad |= fclose(f) != 0;
    return bad ? fail(o, err ? err : errno) : 0;
}

static void done(struct outfile *o)
{
    unlink(o->tmp);
    untrack(o);
    sync_dir(o->dir);
}

int outfile_link(struct outfile *o, const char *stem, const char *ext, int unique)
{
    if (finish(o)) return -1;
    for (int i = 1; i < 1000; i++) {
        if (i == 1 ? outfile_path(o->path, sizeof o->path, o->name, "%s/%s%s", o->dir, stem, ext)
                   : outfile_path(o->path, sizeof o->path, o->name, "%s/%s-%d%s", o->dir, stem, i, ext))
            return fail(o, ENAMETOOLONG);
        if (link(o->tmp, o->path) == 0) return done(o), 0; /* link never replaces a file */
        if (errno == EEXIST && unique) continue;
        return fail(o, errno);
    }
    return fail(o, EEXIST);
}

int outfile_replace(struct outfile *o, const char *name)
{
    if (outfile_path(o->path, sizeof o->path, o->name, "%s/%s", o->dir, name)) return fail(o, ENAMETOOLONG);
    if (finish(o)) return -1;
    if (rename(o->tmp, o->path)) return fail(o, errno);
    untrack(o);
    sync_dir(o->dir);
    return 0;
}

void outfile_abort(struct outfile *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    untrack(o);
    remove_made(o->dir, o->made);
    o->made = 0;
}
