/* M. F. Hadi's published measurements (SCHEMES.md section 6): Tesla C2050 GPU and one core of
 * a Xeon W5580, Hx updates on a 300^3 grid, f32, MCells/s by the paper's equation (5). They are
 * printed beside ours and go into the paper_mcells column; they are never used as results. */
#ifndef HARNESS_PAPER_H
#define HARNESS_PAPER_H

#define PAPER_GRID 300

struct paper_scheme {
    const char *scheme;
    double gpu_mcells; /* Table 4 */
    double cpu_mcells; /* Table 5 */
    int best_block[3]; /* Table 3 */
};
struct paper_block {
    int block[3];
    double mcells; /* Table 2 (Yee); < 0 where the paper gives no figure */
};

extern const struct paper_scheme paper_schemes[5];
extern const struct paper_block paper_table2[6];
const struct paper_scheme *paper_find(const char *scheme); /* NULL for schemes not in the paper */

#endif
