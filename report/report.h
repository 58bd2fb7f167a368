/* The suite's Markdown (report.c): the results page and bench's page; cmd_report is in cli.h. */
#ifndef REPORT_REPORT_H
#define REPORT_REPORT_H

/* Writes bench's page for the CSV at csv_path beside it (same name, .md) and on stdout.
 * 0, or -1 with the reason printed. */
int report_bench(const char *csv_path);
/* The same for a full-step CSV (fdtdbench step, make bench's step table), and for the scaling
 * table's (make bench where there are several GPUs). */
int report_steps(const char *csv_path);
int report_scaling(const char *csv_path);

#endif
