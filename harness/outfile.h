/* Output files that are complete or absent. Every file the suite writes (result CSVs, bench
 * Markdown, the tuned file, results/README.md) is written to a unique temporary file in its
 * destination folder, checked, fsynced, and only then given its final name:
 *   - outfile_link: a new name that never replaces anything (link(2) fails on a clash; the next
 *     free "-2", "-3", ... suffix is taken), for runs that must never overwrite an earlier one;
 *   - outfile_replace: rename(2) over the old file, for files that are rewritten whole.
 * SIGINT, SIGTERM and SIGHUP remove the open temporary files and end the process with the usual
 * status; temporary files left by a killed process are removed by the next outfile_open in that
 * folder. Each failure prints one line naming the file and the reason, removes the temporary
 * file and returns -1. */
#ifndef HARNESS_OUTFILE_H
#define HARNESS_OUTFILE_H

#include <stdio.h>

/* Temporary files are "<dir>/" OUTFILE_TMP_PREFIX "<pid>-XXXXXX": readers skip them (no .csv or
 * .md suffix), and the pid says whether the process writing it is still alive. */
#define OUTFILE_TMP_PREFIX ".fdtdbench-tmp-"
/* Longest path written (Linux's PATH_MAX); longer ones are refused, never cut short. */
#define OUTFILE_PATH_MAX 4096

struct outfile {
    FILE *f;
    char dir[OUTFILE_PATH_MAX];
    char tmp[OUTFILE_PATH_MAX];
    char path[OUTFILE_PATH_MAX]; /* the final name, once committed */
    char name[OUTFILE_PATH_MAX]; /* what error lines call it until then */
    int made;            /* length of the part of dir that outfile_open created (0: none) */
    int slot;            /* in the signal handler's list */
};

/* Creates dir (and its parents) if needed, removes stale temporary files there and opens a new
 * temporary file. name is what error lines call the file ("results/x/sweep-<date>.csv").
 * 0, or -1 with the reason printed. */
int outfile_open(struct outfile *o, const char *dir, const char *name);
/* Flushes and checks the stream: 0, or -1 after printing the error and removing the file. */
int outfile_check(struct outfile *o);
/* Commits under <dir>/<stem><ext>, or the first free <dir>/<stem>-N<ext> when unique is set. */
int outfile_link(struct outfile *o, const char *stem, const char *ext, int unique);
/* Commits under <dir>/<name>, replacing any file of that name. */
int outfile_replace(struct outfile *o, const char *name);
/* Removes the temporary file (and the folders outfile_open made, if they are empty). */
void outfile_abort(struct outfile *o);

/* snprintf into a path buffer; -1 (with an error line naming what) if it would not fit. */
int outfile_path(char *out, size_t n, const char *what, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
