/* Sudoku Explainer's first chaining rule: cycles and forcing chains, one line of
 * links each (the readable form is lazyfun/sudoku/steps/chaining.py). */
#include "rules.h"

static const double CHAIN_BASE[] = {6.5, 6.5, 6.6, 7.0, 7.0};
static const int CHAIN_PLACE[] = {2, 3, 2, 4, 4};

static int
turned_off(const Chains *g, int node, int y, const short **links)
{
    *links = y ? g->on_y[node] : g->on_x[node];
    return y ? g->on_y_count[node] : g->on_x_count[node];
}

static int
turned_on(const Chains *g, int node, int x, int y, short *out)
{
    int count = 0;
    if (y && g->off_y[node] >= 0) {
        out[count++] = g->off_y[node];
    }
    if (x) {
        for (int i = 0; i < g->off_x_count[node]; i++) {
            int again = 0;
            for (int k = 0; k < count; k++) {
                again |= out[k] == g->off_x[node][i];
            }
            if (!again) {
                out[count++] = g->off_x[node][i];
            }
        }
    }
    return count;
}

int
chain_links(Chains *g, const Search *s)
{
    int n = g->n;
    memset(g->off_x_count, 0, sizeof g->off_x_count);
    for (int u = 0; u < s->unit_count; u++) {
        const int *cells = s->unit_cells + s->unit_start[u];
        for (int i = 0; i < s->unit_len[u]; i++) {
            for (int k = 0; k < s->unit_len[u]; k++) {
                if (cells[i] != cells[k]) {
                    g->peers[cells[i]][cells[k] >> 6] |= (uint64_t)1 << (cells[k] & 63);
                }
            }
        }
    }
    for (int cell = 0; cell < g->cells; cell++) {
        unsigned bits = g->cands[cell];
        for (int value = 1; value <= n; value++) {
            unsigned bit = 1u << (value - 1);
            if (!(bits & bit)) {
                continue;
            }
            int node = (cell * n + value - 1) * 2, same = 0;
            short *y = g->on_y[node + 1];
            int ys = 0;
            for (int v = 1; v <= n; v++) {
                if (v != value && (bits >> (v - 1) & 1)) {
                    y[ys++] = (short)((cell * n + v - 1) * 2);
                }
            }
            g->off_y[node] = -1;
            if (popcount(bits) == 2) {
                int v = __builtin_ctz(bits & ~bit) + 1;
                g->off_y[node] = (short)((cell * n + v - 1) * 2 + 1);
            }
            int seen_cells[MAX_CELLS] = {0};
            seen_cells[cell] = 1;
            for (int h = 0; h < s->house_count[cell]; h++) {
                int unit = s->houses[cell][h], places = 0, other = -1;
                const int *cells = s->unit_cells + s->unit_start[unit];
                for (int i = 0; i < s->unit_len[unit]; i++) {
                    int c = cells[i];
                    if (!(g->cands[c] & bit)) {
                        continue;
                    }
                    places++;
                    if (c != cell) {
                        other = c;
                    }
                    if (!seen_cells[c]) {
                        seen_cells[c] = 1;
                        if (same >= MAX_LINKS || ys >= MAX_LINKS) {
                            return -1;
                        }
                        g->on_x[node + 1][same++] = (short)((c * n + value - 1) * 2);
                        y[ys++] = (short)((c * n + value - 1) * 2);
                    }
                }
                if (places == 2) {
                    short q = (short)((other * n + value - 1) * 2 + 1);
                    int again = 0;
                    for (int i = 0; i < g->off_x_count[node]; i++) {
                        again |= g->off_x[node][i] == q;
                    }
                    if (!again) {
                        g->off_x[node][g->off_x_count[node]++] = q;
                    }
                }
            }
            g->on_x_count[node + 1] = (unsigned char)same;
            g->on_y_count[node + 1] = (unsigned char)ys;
        }
    }
    return 0;
}

/* A new path: `node` after path `back` (-1: it starts there); its index, or -1. */
static int
extend(Chains *g, int back, int node)
{
    if (g->paths == g->room) {
        int room = g->room ? g->room * 2 : 4096;
        int *nodes = PyMem_RawRealloc(g->path_node, (size_t)room * sizeof(int));
        if (nodes) {
            g->path_node = nodes;
        }
        int *backs = PyMem_RawRealloc(g->path_back, (size_t)room * sizeof(int));
        if (backs) {
            g->path_back = backs;
        }
        int *lengths = PyMem_RawRealloc(g->path_length, (size_t)room * sizeof(int));
        if (lengths) {
            g->path_length = lengths;
        }
        if (!nodes || !backs || !lengths) {
            return -1;
        }
        g->room = room;
    }
    g->path_node[g->paths] = node;
    g->path_back[g->paths] = back;
    g->path_length[g->paths] = back < 0 ? 1 : g->path_length[back] + 1;
    return g->paths++;
}

static int
on_path(const Chains *g, int path, int node)
{
    for (; path >= 0; path = g->path_back[path]) {
        if (g->path_node[path] == node) {
            return 1;
        }
    }
    return 0;
}

/* What a loop strikes, into gone (each cell's values): a value from a cell outside it
 * that sees one of its nodes of that value on and one off; whether anything. */
static int
cycle_strikes(const Chains *g, int path, unsigned *gone)
{
    uint64_t inside[2] = {0, 0}, on[MAX_N][2], off[MAX_N][2];
    memset(on, 0, sizeof on);
    memset(off, 0, sizeof off);
    for (int p = path; p >= 0; p = g->path_back[p]) {
        int q = g->path_node[p], cell = q / 2 / g->n, value = q / 2 % g->n;
        inside[cell >> 6] |= (uint64_t)1 << (cell & 63);
        uint64_t(*side)[2] = q & 1 ? on : off;
        side[value][cell >> 6] |= (uint64_t)1 << (cell & 63);
    }
    int any = 0;
    for (int c = 0; c < g->cells; c++) {
        gone[c] = 0;
        for (int value = 0; value < g->n && !(inside[c >> 6] >> (c & 63) & 1); value++) {
            const uint64_t *peers = g->peers[c];
            if ((g->cands[c] >> value & 1)
                && ((peers[0] & on[value][0]) | (peers[1] & on[value][1]))
                && ((peers[0] & off[value][0]) | (peers[1] & off[value][1]))) {
                gone[c] |= 1u << value;
                any = 1;
            }
        }
    }
    return any;
}

static void
offer_chain(Chains *g, int kind, int path)
{
    int length = g->path_length[path];
    double difficulty = CHAIN_BASE[kind] + length_bonus(length);
    int place = CHAIN_PLACE[kind];
    if (g->have
        && !(difficulty < g->difficulty
             || (difficulty == g->difficulty
                 && (length < g->length || (length == g->length && place < g->place))))) {
        return;
    }
    g->have = 1;
    g->kind = kind;
    g->length = length;
    g->place = place;
    g->difficulty = difficulty;
    for (int p = path, i = length - 1; p >= 0; p = g->path_back[p], i--) {
        g->best[i] = (short)g->path_node[p];
    }
}

/* A chain kept with what it strikes (collecting): a loop strikes each value from the
 * cells outside it that see one of its nodes of that value on and one off, the cells
 * in the order its on nodes reach them, read from its end back; a forcing chain to off
 * strikes its candidate, to on the cell's other ones.  One that strikes nothing is not
 * kept.  0, or -1 out of memory. */
static int
keep_chain(Chains *g, int kind, int path)
{
    int length = g->path_length[path], n = g->n;
    if (grow((void **)&g->kept, &g->kept_room, g->kept_count, 1, sizeof(Kept)) < 0
        || grow((void **)&g->kept_nodes, &g->nodes_room, g->nodes_used, length, sizeof(short))
               < 0
        || grow((void **)&g->kept_strikes, &g->strikes_room, g->strikes_used, 2 * MAX_CELLS,
                sizeof(int)) < 0) {
        return -1;
    }
    short *nodes = g->kept_nodes + g->nodes_used;
    for (int p = path, i = length - 1; p >= 0; p = g->path_back[p], i--) {
        nodes[i] = (short)g->path_node[p];
    }
    int *strikes = g->kept_strikes + g->strikes_used, count = 0;
    if (kind == FORCING_CHAIN || kind == FORCING_X_CHAIN) {
        int target = nodes[length - 1], cell = target / 2 / n;
        unsigned bit = 1u << (target / 2 % n);
        strikes[0] = cell;
        strikes[1] = (int)(target & 1 ? g->cands[cell] & ~bit : bit);
        count = 1;
    }
    else {
        unsigned gone[MAX_CELLS];
        if (!cycle_strikes(g, path, gone)) {
            return 0;
        }
        for (int i = length; i > 0; i -= 2) {
            int q = nodes[i % length], cell = q / 2 / n;
            for (int c = 0; c < g->cells; c++) {
                if ((g->peers[cell][c >> 6] >> (c & 63) & 1) && (gone[c] >> (q / 2 % n) & 1)) {
                    int at = 0;
                    while (at < count && strikes[2 * at] != c) {
                        at++;
                    }
                    if (at == count) {
                        strikes[2 * count] = c;
                        strikes[2 * count + 1] = 0;
                        count++;
                    }
                    strikes[2 * at + 1] |= 1u << (q / 2 % n);
                }
            }
        }
    }
    Kept *k = &g->kept[g->kept_count];
    k->kind = kind;
    k->length = length;
    k->place = CHAIN_PLACE[kind];
    k->difficulty = CHAIN_BASE[kind] + length_bonus(length);
    k->seq = g->kept_count++;
    k->node_at = g->nodes_used;
    k->strike_at = g->strikes_used;
    k->strike_count = count;
    g->nodes_used += length;
    g->strikes_used += 2 * count;
    return 0;
}

/* The shortest loops from `start` (on) back to it, four links or more, offered. */
static int
cycles(Chains *g, int start, int x, int y)
{
    int kind = x && y ? XY_CYCLE : x ? X_CYCLE : Y_CYCLE;
    g->paths = 0;
    g->seen_now++;
    g->seen[start] = g->seen_now;
    int first = extend(g, -1, start);
    if (first < 0) {
        return -1;
    }
    int on_from = first, on_to = first + 1;
    while (on_to > on_from) {
        int off_from = g->paths;
        for (int path = on_from; path < on_to; path++) {
            const short *links;
            int count = turned_off(g, g->path_node[path], y, &links);
            for (int i = 0; i < count; i++) {
                if (!on_path(g, path, links[i]) && extend(g, path, links[i]) < 0) {
                    return -1;
                }
            }
        }
        int off_to = g->paths;
        on_from = g->paths;
        for (int path = off_from; path < off_to; path++) {
            short links[MAX_HOUSES + 1];
            int count = turned_on(g, g->path_node[path], x, y, links);
            for (int i = 0; i < count; i++) {
                int q = links[i];
                if (q == start && g->path_length[path] >= 4) {
                    if (g->collect) {
                        if (keep_chain(g, kind, path) < 0) {
                            return -1;
                        }
                    }
                    else {
                        unsigned gone[MAX_CELLS];
                        if (cycle_strikes(g, path, gone)) {
                            offer_chain(g, kind, path);
                        }
                    }
                }
                else if (g->seen[q] != g->seen_now) {
                    g->seen[q] = g->seen_now;
                    if (extend(g, path, q) < 0) {
                        return -1;
                    }
                }
            }
        }
        on_to = g->paths;
    }
    return 0;
}

/* The shortest chain from `start` to its opposite, offered. */
static int
forcing_chain(Chains *g, int start, int x, int y)
{
    int target = start ^ 1;
    g->paths = 0;
    g->seen_now++;
    g->seen[start] = g->seen_now;
    if (extend(g, -1, start) < 0) {
        return -1;
    }
    for (int path = 0; path < g->paths; path++) {
        int node = g->path_node[path], count;
        short buffer[MAX_HOUSES + 1];
        const short *links = buffer;
        if (node & 1) {
            count = turned_off(g, node, y, &links);
        }
        else {
            count = turned_on(g, node, x, y, buffer);
        }
        for (int i = 0; i < count; i++) {
            int q = links[i];
            if (g->seen[q] == g->seen_now) {
                continue;
            }
            g->seen[q] = g->seen_now;
            int next = extend(g, path, q);
            if (next < 0) {
                return -1;
            }
            if (q == target) {
                int kind = x && y ? FORCING_CHAIN : FORCING_X_CHAIN;
                if (g->collect) {
                    return keep_chain(g, kind, next);
                }
                offer_chain(g, kind, next);
                return 0;
            }
        }
    }
    return 0;
}

int
chain_search(Chains *g)
{
    static const int searches[3][2] = {{1, 0}, {0, 1}, {1, 1}};
    for (int k = 0; k < 3; k++) {
        int x = searches[k][0], y = searches[k][1];
        if (!g->collect && g->have && g->difficulty < 7.0) {
            break; /* every chain of the XY search rates 7.0 at least */
        }
        for (int cell = 0; cell < g->cells; cell++) {
            unsigned bits = g->cands[cell];
            if (popcount(bits) < 2 || (y && !x && popcount(bits) != 2)) {
                continue;
            }
            for (int value = 1; value <= g->n; value++) {
                if (!(bits >> (value - 1) & 1)) {
                    continue;
                }
                int on = (cell * g->n + value - 1) * 2 + 1;
                if (cycles(g, on, x, y) < 0) {
                    return -1;
                }
                if (x && (forcing_chain(g, on, x, y) < 0 || forcing_chain(g, on - 1, x, y) < 0)) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

void
free_chains(Chains *g)
{
    PyMem_RawFree(g->path_node);
    PyMem_RawFree(g->path_back);
    PyMem_RawFree(g->path_length);
    PyMem_Free(g);
}
