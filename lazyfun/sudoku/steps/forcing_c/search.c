/* What a start implies, as a Branch (the nodes it turned on and off, each with its
 * parents: its links followed, and where they run dry the inner rules and the nested
 * levels), and the forcing chains from many starts found in the branches: a start's two
 * branches that clash or agree, a cell's branches, a region's (the readable form is
 * lazyfun/sudoku/steps/forcing.py's _Search).  Level 3 nests a search of this file in a
 * branch: the one place the searches call back into themselves. */
#include "search.h"

static int
place_of(int kind)
{
    switch (kind) {
    case DOUBLE: return 1;
    case CELL: return 5;
    case REGION: return 6;
    default: return 7;
    }
}

/* Turning on node p (cell, value): the cell's other candidates go (Y) and the value
 * leaves every peer through the cell's houses.  Returns the clash or -1; -2 out of
 * memory. */
static int
turn_off_from(Search *s, Branch *b, int p, short *pending, int *tail)
{
    int n = s->n, cell = p / 2 / n, value = p / 2 % n + 1;
    unsigned bit = 1u << (value - 1);
    short parent = (short)p;
    int targets[MAX_NODES / 2], count = 0;
    if (s->y) {
        unsigned bits = s->work[cell];
        for (int v = 1; v <= n; v++) {
            if (v != value && (bits >> (v - 1) & 1)) {
                targets[count++] = (cell * n + v - 1) * 2;
            }
        }
    }
    s->cell_now++;
    s->cell_stamp[cell] = s->cell_now;
    for (int h = 0; h < s->house_count[cell]; h++) {
        int unit = s->houses[cell][h];
        for (int i = 0; i < s->unit_len[unit]; i++) {
            int c = s->unit_cells[s->unit_start[unit] + i];
            if (s->cell_stamp[c] != s->cell_now && (s->work[c] & bit)) {
                s->cell_stamp[c] = s->cell_now;
                targets[count++] = (c * n + value - 1) * 2;
            }
        }
    }
    for (int i = 0; i < count; i++) {
        int q = targets[i];
        if (has(b, q + 1)) {
            return add(b, q, &parent, 1) < 0 ? -2 : q;
        }
        if (!has(b, q)) {
            if (add(b, q, &parent, 1) < 0) {
                return -2;
            }
            pending[(*tail)++] = (short)q;
        }
    }
    return -1;
}

/* One node turned on by the node p turned off, with its parents. */
static int
turn_on(Branch *b, int q, const short *parents, int count, short *pending, int *tail)
{
    if (has(b, q - 1)) {
        return add(b, q, parents, count) < 0 ? -2 : q - 1;
    }
    if (!has(b, q)) {
        if (add(b, q, parents, count) < 0) {
            return -2;
        }
        pending[(*tail)++] = (short)q;
    }
    return -1;
}

/* Turning off node p (cell, value): a cell left with one candidate (two, static) and a
 * house left with one place (two, static) turn it on.  Returns as turn_off_from. */
static int
turn_on_from(Search *s, Branch *b, int p, short *pending, int *tail)
{
    int n = s->n, cell = p / 2 / n, value = p / 2 % n + 1, clash;
    unsigned bit = 1u << (value - 1);
    short parents[MAX_N], own = (short)p;
    int count;
    int emitted[MAX_HOUSES + 1], emitted_count = 0;
    if (s->y) {
        if (s->dynamic) {
            unsigned left = s->work[cell];
            if (left && !(left & (left - 1))) {
                int v = __builtin_ctz(left) + 1;
                unsigned struck = s->cands[cell] & ~left;
                count = 0;
                for (int w = 1; w <= n; w++) {
                    int off = (cell * n + w - 1) * 2;
                    if ((struck >> (w - 1) & 1) && has(b, off)) {
                        parents[count++] = (short)off;
                    }
                }
                int q = (cell * n + v - 1) * 2 + 1;
                emitted[emitted_count++] = q;
                clash = count ? turn_on(b, q, parents, count, pending, tail)
                              : turn_on(b, q, &own, 1, pending, tail);
                if (clash != -1) {
                    return clash;
                }
            }
        }
        else if (popcount(s->cands[cell]) == 2) {
            int v = __builtin_ctz(s->cands[cell] & ~bit) + 1;
            int q = (cell * n + v - 1) * 2 + 1;
            emitted[emitted_count++] = q;
            clash = turn_on(b, q, &own, 1, pending, tail);
            if (clash != -1) {
                return clash;
            }
        }
    }
    for (int h = 0; h < s->house_count[cell]; h++) {
        int unit = s->houses[cell][h], q = -1, places = 0, held = 0, held_cell = -1;
        int first = -1, second = -1;
        const int *cells = s->unit_cells + s->unit_start[unit];
        count = 0;
        for (int i = 0; i < s->unit_len[unit]; i++) {
            int c = cells[i];
            if (!(s->cands[c] & bit)) {
                continue;
            }
            places++;
            if (first < 0) {
                first = c;
            }
            else if (second < 0) {
                second = c;
            }
            if (s->work[c] & bit) {
                held++;
                held_cell = c;
            }
        }
        if (s->dynamic) {
            if (held != 1) {
                continue;
            }
            for (int i = 0; i < s->unit_len[unit]; i++) {
                int c = cells[i], off = (c * n + value - 1) * 2;
                if (c != held_cell && (s->cands[c] & bit) && has(b, off)) {
                    parents[count++] = (short)off;
                }
            }
            q = (held_cell * n + value - 1) * 2 + 1;
        }
        else {
            if (places != 2) {
                continue;
            }
            q = ((second == cell ? first : second) * n + value - 1) * 2 + 1;
        }
        int again = 0;
        for (int i = 0; i < emitted_count; i++) {
            again |= emitted[i] == q;
        }
        if (again) {
            continue;
        }
        emitted[emitted_count++] = q;
        clash = count ? turn_on(b, q, parents, count, pending, tail)
                      : turn_on(b, q, &own, 1, pending, tail);
        if (clash != -1) {
            return clash;
        }
    }
    return -1;
}

/* Level 3, where the chains of one line find nothing: every static cell and region
 * forcing chain on the branch's grid (searched as a grid of its own), easiest first
 * (difficulty, complexity, cell before region), one of each set of strikes; each that
 * rests on what the branch struck (the causes of the on nodes its branches rest on, a
 * start standing on its cell's or unit's struck candidates) strikes, through `in`; 0, or
 * -2 out of memory. */
static int
nested_multiple(Search *s, Inner *in)
{
    Search *m = multiple_search(s);
    if (!m) {
        return -2;
    }
    memcpy(m->cands, s->work, sizeof(unsigned) * (size_t)s->cells);
    for (int cell = 0; cell < m->cells; cell++) {
        if (popcount(m->cands[cell]) >= 3 && search_cell(m, cell) < 0) {
            return -2;
        }
    }
    return nested_offers(s, m, in);
}

/* When the links run dry: what the first inner rule that finds anything resting on the
 * chain's strikes strikes; at level 2, failing them, what the cycles and forcing chains
 * of one line found on the branch's grid strike; at level 3, failing those, what its
 * static cell and region forcing chains strike.  How many nodes it turned off (0: the
 * chain ends), -2 out of memory. */
static int
infer(Search *s, Branch *b, short *pending, int *tail)
{
    Inner in = {s, b, pending, tail, 0, 0};
    inner_rules(&in);
    if (in.taken < 0 || in.found) {
        return in.taken;
    }
    if (s->level >= 2 && nested_chains(s, &in) < 0) {
        return -2;
    }
    if (in.taken >= 0 && !in.found && s->level >= 3 && nested_multiple(s, &in) < 0) {
        return -2;
    }
    return in.taken;
}

/* Everything `source` implies, breadth first (on nodes before off ones), stopping at a
 * node found both on and off; NULL out of memory. */
static Branch *
follow(Search *s, int source)
{
    if (s->followed[source]) {
        return s->followed[source];
    }
    Branch *b = calloc(1, sizeof(Branch));
    if (!b) {
        return NULL;
    }
    b->clash = -1;
    memcpy(s->work, s->cands, sizeof(unsigned) * (size_t)s->cells);
    int on_head = 0, on_tail = 0, off_head = 0, off_tail = 0, clash = -1;
    if (add(b, source, NULL, 0) < 0) {
        free_branch(b);
        return NULL;
    }
    if (source & 1) {
        s->queue_on[on_tail++] = (short)source;
    }
    else {
        s->queue_off[off_tail++] = (short)source;
    }
    while (clash == -1) {
        if (on_head < on_tail) {
            clash = turn_off_from(s, b, s->queue_on[on_head++], s->queue_off, &off_tail);
        }
        else if (off_head < off_tail) {
            int p = s->queue_off[off_head++];
            if (s->dynamic) {
                s->work[p / 2 / s->n] &= ~(1u << (p / 2 % s->n));
            }
            clash = turn_on_from(s, b, p, s->queue_on, &on_tail);
        }
        else if (!s->plus) {
            break;
        }
        else {
            int got = infer(s, b, s->queue_off, &off_tail);
            if (got <= 0) {
                clash = got < 0 ? -2 : -1;
                break;
            }
        }
    }
    if (clash == -2) {
        free_branch(b);
        return NULL;
    }
    b->clash = clash;
    s->followed[source] = b;
    return b;
}

/* How many distinct nodes `node` rests on in b, itself included, plus the complexity of
 * each chain nested in them that the hint being rated (s->hint_now) has not counted. */
static int
ancestors(Search *s, const Branch *b, int node)
{
    int top = 0, seen = 1;
    s->stamp_now++;
    s->stamp[node] = s->stamp_now;
    s->stack[top++] = (short)node;
    while (top) {
        int q = s->stack[--top];
        if (!has(b, q)) {
            continue;
        }
        int chain = b->nested ? b->nested[q] - 1 : -1;
        if (chain >= 0 && s->nested[chain].stamp != s->hint_now) {
            s->nested[chain].stamp = s->hint_now;
            seen += s->nested[chain].complexity;
        }
        for (int i = 0; i < b->len[q]; i++) {
            int parent = b->pool[b->start[q] + i];
            if (s->stamp[parent] != s->stamp_now) {
                s->stamp[parent] = s->stamp_now;
                seen++;
                s->stack[top++] = (short)parent;
            }
        }
    }
    return seen;
}

/* A hint concluding `node`: kept when it is the easiest so far, or, keeping them all,
 * kept with where its branches start (cell, or unit and value); 0, or -1 out of memory. */
static int
offer(Search *s, int kind, int complexity, int node, int cell, int unit, int value)
{
    double difficulty = s->base + length_bonus(complexity);
    int place = place_of(kind);
    if (s->keep) {
        if (grow((void **)&s->offers, &s->offer_room, s->offer_count, 1, sizeof(Offer)) < 0) {
            return -1;
        }
        s->offers[s->offer_count] = (Offer){kind,  complexity, place, node, s->offer_count,
                                            cell,  unit,       value, difficulty};
        s->offer_count++;
        return 0;
    }
    if (s->have
        && !(difficulty < s->difficulty
             || (difficulty == s->difficulty
                 && (complexity < s->complexity
                     || (complexity == s->complexity && place < s->place))))) {
        return 0;
    }
    s->have = 1;
    s->difficulty = difficulty;
    s->complexity = complexity;
    s->place = place;
    s->kind = kind;
    s->node = node;
    return 0;
}

/* The nodes every branch implies that change the grid, offered as `kind` (starting at
 * cell, or at unit and value); 0, or -1 out of memory. */
static int
common(Search *s, Branch **branches, int count, int kind, int cell0, int unit, int value0)
{
    const Branch *first = branches[0];
    for (int pass = 1; pass >= 0; pass--) {
        for (int i = 0; i < first->count; i++) {
            int q = first->order[i];
            if ((q & 1) != pass) {
                continue;
            }
            int cell = q / 2 / s->n, value = q / 2 % s->n + 1;
            if (!(s->cands[cell] >> (value - 1) & 1)) {
                continue;
            }
            if ((q & 1) && popcount(s->cands[cell]) == 1) {
                continue;
            }
            int everywhere = 1;
            for (int k = 1; k < count && everywhere; k++) {
                everywhere = has(branches[k], q);
            }
            if (!everywhere) {
                continue;
            }
            int complexity = 0;
            s->hint_now++;
            for (int k = 0; k < count; k++) {
                complexity += ancestors(s, branches[k], q);
            }
            if (offer(s, kind, complexity, q, cell0, unit, value0) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static int
contradictions(Search *s, int node_on, Branch *on_branch, int doubled)
{
    Branch *off_branch = follow(s, node_on - 1);
    if (!off_branch) {
        return -1;
    }
    int kind = (s->kinds & NISHIO) ? NISHIO : CONTRADICTION;
    int sources[2] = {node_on, node_on - 1};
    Branch *branches[2] = {on_branch, off_branch};
    for (int i = 0; i < 2; i++) {
        int clash = branches[i]->clash;
        if (clash >= 0) {
            s->hint_now++;
            int complexity = ancestors(s, branches[i], clash + 1)
                             + ancestors(s, branches[i], clash);
            if (offer(s, kind, complexity, sources[i] ^ 1, node_on / 2 / s->n, -1, 0) < 0) {
                return -1;
            }
        }
    }
    if ((s->kinds & DOUBLE) && doubled) {
        return common(s, branches, 2, DOUBLE, node_on / 2 / s->n, -1, 0);
    }
    return 0;
}

static int
regions(Search *s, int cell, int value, Branch *on_branch)
{
    int n = s->n;
    unsigned bit = 1u << (value - 1);
    for (int h = 0; h < s->house_count[cell]; h++) {
        int unit = s->houses[cell][h], places[MAX_CELLS], count = 0;
        const int *cells = s->unit_cells + s->unit_start[unit];
        for (int i = 0; i < s->unit_len[unit]; i++) {
            if (s->cands[cells[i]] & bit) {
                places[count++] = cells[i];
            }
        }
        if (count < 2 || places[0] != cell) {
            continue;
        }
        Branch *branches[MAX_CELLS];
        branches[0] = on_branch;
        for (int i = 1; i < count; i++) {
            branches[i] = follow(s, (places[i] * n + value - 1) * 2 + 1);
            if (!branches[i]) {
                return -1;
            }
        }
        if (common(s, branches, count, REGION, -1, unit, value) < 0) {
            return -1;
        }
    }
    return 0;
}

int
search_cell(Search *s, int cell)
{
    unsigned bits = s->cands[cell];
    Branch *from_on[MAX_N];
    int count = 0;
    for (int value = 1; value <= s->n; value++) {
        if (!(bits >> (value - 1) & 1)) {
            continue;
        }
        int node_on = (cell * s->n + value - 1) * 2 + 1;
        Branch *on_branch = follow(s, node_on);
        if (!on_branch) {
            return -1;
        }
        from_on[count++] = on_branch;
        if ((s->kinds & CONTRADICTION)
            && contradictions(s, node_on, on_branch, popcount(bits) >= 3) < 0) {
            return -1;
        }
        if ((s->kinds & REGION) && regions(s, cell, value, on_branch) < 0) {
            return -1;
        }
    }
    if (s->kinds & CELL) {
        return common(s, from_on, count, CELL, cell, -1, 0);
    }
    return 0;
}
