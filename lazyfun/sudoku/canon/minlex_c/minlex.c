/* One grid's search: the grid checked and read both ways round, the searches run from the
 * first row to the last, the levels freed (see minlex.h). */
#include <stdlib.h>
#include <string.h>

#include "minlex.h"
#include "search.h"

/* Whether some row, column or box holds a digit twice. */
static int conflicts(const uint8_t *cells)
{
    for (int unit = 0; unit < 27; unit++) {
        unsigned seen = 0;
        for (int i = 0; i < 9; i++) {
            int cell;
            if (unit < 9)
                cell = unit * 9 + i;
            else if (unit < 18)
                cell = i * 9 + unit - 9;
            else
                cell = ((unit - 18) / 3 * 3 + i / 3) * 9 + (unit - 18) % 3 * 3 + i % 3;
            unsigned bit = cells[cell] ? 1u << cells[cell] : 0;
            if (seen & bit)
                return 1;
            seen |= bit;
        }
    }
    return 0;
}

int minlex_begin(Canon *canon, const uint8_t *cells, size_t bound)
{
    memset(canon, 0, sizeof *canon);
    canon->bound = bound;
    if (conflicts(cells))
        return MINLEX_CONFLICT;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            canon->src[0][r][c] = cells[r * 9 + c];
            canon->src[1][c][r] = cells[r * 9 + c];
        }
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 9; r++) {
            int blank = 1;
            for (int c = 0; c < 9; c++)
                blank &= !canon->src[t][r][c];
            canon->blank_rows[t] |= (uint16_t)(blank << r);
        }
    return MINLEX_OK;
}

void minlex_end(Canon *canon)
{
    free(canon->now.at);
    free(canon->next.at);
    canon->now.at = canon->next.at = NULL;
}

int minlex_run(Canon *canon, uint8_t *out)
{
    int full = 1;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            full &= canon->src[0][r][c] != 0;
    int status = full ? minlex_full_top(canon) : minlex_start(canon);
    for (int level = full ? 2 : 0; status == MINLEX_OK && level < 9; level++)
        status = minlex_extend(canon, level);
    if (status == MINLEX_OK)
        memcpy(out, canon->out, 81);
    return status;
}
