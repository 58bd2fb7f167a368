#include "paper.h"

#include <string.h>

const struct paper_scheme paper_schemes[5] = {
    {"yee", 383, 75, {32, 2, 3}},   {"fv24", 159, 32, {32, 3, 2}}, {"fv24wb", 198, 35, {32, 2, 2}},
    {"s22", 144, 26, {32, 2, 2}},   {"s44", 215, 26, {32, 2, 3}},
};

/* The text names 32x2x3 as the best shape found but gives its figure only in Table 4. */
const struct paper_block paper_table2[6] = {
    {{4, 4, 4}, 177}, {{8, 8, 8}, 221}, {{16, 8, 4}, 301}, {{16, 8, 8}, 249}, {{32, 8, 4}, 350}, {{32, 2, 3}, 383},
};

const struct paper_scheme *paper_find(const char *scheme)
{
    for (int i = 0; i < 5; i++)
        if (strcmp(paper_schemes[i].scheme, scheme) == 0) return &paper_schemes[i];
    return 0;
}
