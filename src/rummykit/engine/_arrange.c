/*
 * The arranger's exact search, in C because every bot decision, every
 * simulated deal and the Group button sit on it.
 *
 * Ints in, ints out.  A hand is 52 counts of natural kinds (kind = suit*13 +
 * rank-1, suits s h d c, A=1..K=13) plus a number of printed jokers and the
 * wild rank.  Cards of the wild rank are naturals that may also stand in as
 * jokers: the search tries every split of them (per suit) into "used as
 * itself" and "used as a joker".
 *
 * The search is a depth-first branch and bound over the lowest remaining
 * kind: it goes into some run, set or thennaali together with later cards,
 * or it is loose.  Groups are enumerated with the fewest jokers they need;
 * jokers left at a leaf are absorbed into groups (or a joker-only group)
 * when that is needed for a show or to lengthen a run, since a loose joker
 * costs joker_value (0 in the show family).
 *
 * Python builds the friendly objects; see arrange.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NK 52
#define MAXG 20
#define INF 1000000
#define NONE_LIMIT 99

enum { T_NONE = 0, T_PURE = 1, T_LIVES = 2, T_PUREONLY = 3, T_SHOW = 4 };

typedef struct {
    int ace_high, wrap, max_per_group, max_in_set, min_naturals, adjacent, jog, thennaali;
    int runs_needed, long_req;
    int value[14]; /* by rank, 1..13 */
    int joker_value;
    int credit;       /* CREDIT_* below */
    int full_count;   /* -1: no cap */
    int complete;     /* Kerala's charge of a hand that could show, -1: none */
} Config;

enum { CREDIT_PURE = 0, CREDIT_LIVES_EXCEPT_PURE = 1, CREDIT_LIVES_FLAT = 2, CREDIT_ALWAYS = 3 };

typedef struct {
    unsigned char is_run, pure, len, jokers, cap, suit, start, capL, capR, kind;
    /* kind: 0 run, 1 set, 2 thennaali */
    unsigned char slots[14]; /* natural kinds, or 52 for a joker slot, in run order */
} Group;

typedef struct {
    const Config *cfg;
    int wild;           /* 1..13 or 0 */
    int target;
    unsigned char cnt[NK];
    unsigned char designated_natural[NK]; /* cut kinds held as naturals in this pass */
    int val[NK];
    int pmax; /* highest linear position: 14 with ace high, else 13 */
    Group stack[MAXG];
    int depth;
    unsigned char loose[32];
    int nloose;
    /* best so far */
    int best;
    int found;
    int stop;
    Group best_groups[MAXG];
    int best_depth;
    unsigned char best_loose[32];
    int best_nloose;
    int best_wild_suits[4]; /* cut cards used as jokers, per suit */
    int best_jog;           /* jokers in a joker-only group */
    int best_unplaced;      /* jokers left loose */
    int cur_wild_suits[4];
    long nodes;
} Search;

static inline int rank_at(int q) { return q == 14 ? 1 : q; }

/* Joker placement at a leaf: can the e spare jokers go somewhere so that the
 * target's features hold, and how many stay loose at best?  Fills the
 * allocation (per-group extra jokers, joker-only group size) when asked. */
static int leaf_alloc(Search *S, int e, int need_pure, int need_runs, int need_long, int require_all,
                      int *alloc, int *jog_out, int place, int *loose_jokers)
{
    const Config *c = S->cfg;
    int n = S->depth;
    int runs = 0, i;
    for (i = 0; i < n; i++) runs += S->stack[i].is_run;
    if (runs < need_runs) return INF;
    int best = INF, best_p = -2, best_q = -2, best_need = 0;
    /* p: the pure run kept pure (-1 when no pure run is needed) */
    for (int p = -1; p < n; p++) {
        if (p == -1 && need_pure) continue;
        if (p >= 0 && !(S->stack[p].is_run && S->stack[p].pure)) continue;
        int capsum = 0;
        for (i = 0; i < n; i++)
            if (i != p) capsum += S->stack[i].cap;
        /* q: the run made long (-1: none needed or one already is) */
        for (int q = -1; q < n; q++) {
            int need = 0;
            if (q == -1) {
                if (need_long) {
                    int ok = 0;
                    for (i = 0; i < n; i++)
                        if (S->stack[i].is_run && S->stack[i].len >= 4) ok = 1;
                    if (!ok) continue;
                }
            } else {
                if (!need_long || q == p || !S->stack[q].is_run || S->stack[q].len >= 4) continue;
                need = 4 - S->stack[q].len;
                if (need > S->stack[q].cap || need > e) continue;
            }
            int unplaced;
            if (e <= capsum) unplaced = 0;
            else if (c->jog && e - need >= 3) unplaced = 0;
            else unplaced = e - capsum;
            if (require_all && unplaced) continue;
            if (unplaced < best) {
                best = unplaced;
                best_p = p;
                best_q = q;
                best_need = need;
                if (best == 0) goto done;
            }
        }
    }
done:
    if (best < INF && alloc) {
        int left = e;
        for (i = 0; i < n; i++) alloc[i] = 0;
        *jog_out = 0;
        if (best_q >= 0) {
            alloc[best_q] = best_need;
            left -= best_need;
        }
        if (!place) {
            /* loose jokers cost nothing: keep them in hand, visible as jokers */
            *loose_jokers = left;
            return best;
        }
        int capsum = 0;
        for (i = 0; i < n; i++)
            if (i != best_p) capsum += S->stack[i].cap - alloc[i];
        if (left > capsum && c->jog && left >= 3) {
            *jog_out = left;
            left = 0;
        }
        for (i = 0; i < n && left > 0; i++) {
            if (i == best_p) continue;
            int room = S->stack[i].cap - alloc[i];
            int take = room < left ? room : left;
            alloc[i] += take;
            left -= take;
        }
        *loose_jokers = left;
    }
    return best;
}

static void record(Search *S, int cost, int e)
{
    int alloc[MAXG], jog = 0, unplaced, loose_jokers = 0;
    int place = S->target == T_SHOW || S->cfg->joker_value > 0;
    int need_pure = S->target == T_PURE || S->target == T_LIVES || S->target == T_SHOW;
    int need_runs = (S->target == T_LIVES || S->target == T_SHOW) ? S->cfg->runs_needed : 0;
    int need_long = (S->target == T_LIVES || S->target == T_SHOW) ? S->cfg->long_req : 0;
    if (S->target == T_PUREONLY) {
        unplaced = leaf_alloc(S, 0, 1, 0, 0, 0, NULL, NULL, 0, NULL);
        if (unplaced >= INF) return;
        unplaced = loose_jokers = e;
        for (int i = 0; i < S->depth; i++) alloc[i] = 0;
    } else {
        unplaced = leaf_alloc(S, e, need_pure, need_runs, need_long, S->target == T_SHOW, alloc, &jog, place,
                              &loose_jokers);
        if (unplaced >= INF) return;
    }
    int total = cost + unplaced * S->cfg->joker_value;
    if (total >= S->best) return;
    S->best = total;
    S->found = 1;
    S->best_depth = S->depth;
    for (int i = 0; i < S->depth; i++) {
        Group g = S->stack[i];
        int x = alloc[i];
        if (x) {
            if (g.is_run) {
                int r = x < g.capR ? x : g.capR;
                int l = x - r;
                unsigned char slots[14];
                int m = 0;
                for (int k = 0; k < l; k++) slots[m++] = 52;
                for (int k = 0; k < g.len; k++) slots[m++] = g.slots[k];
                for (int k = 0; k < r; k++) slots[m++] = 52;
                memcpy(g.slots, slots, m);
                g.start = (unsigned char)(S->cfg->wrap ? ((g.start - 1 - l + 26) % 13) + 1 : g.start - l);
                g.len = (unsigned char)m;
            } else {
                for (int k = 0; k < x; k++) g.slots[g.len++] = 52;
            }
            g.jokers = (unsigned char)(g.jokers + x);
            g.pure = 0;
            g.cap = (unsigned char)(g.cap - x);
        }
        S->best_groups[i] = g;
    }
    memcpy(S->best_loose, S->loose, S->nloose);
    S->best_nloose = S->nloose;
    memcpy(S->best_wild_suits, S->cur_wild_suits, sizeof S->cur_wild_suits);
    S->best_jog = jog;
    S->best_unplaced = loose_jokers;
    if (S->target == T_SHOW || S->best == 0) S->stop = 1;
}

static void dfs(Search *S, int from, int e, int cost);

static inline void push_and_go(Search *S, const Group *g, int f, int e, int cost)
{
    if (S->depth >= MAXG) return;
    S->stack[S->depth++] = *g;
    dfs(S, f, e, cost);
    S->depth--;
}

/* Runs holding kind f at linear position q0.  The window's end cards are
 * naturals; shorter windows are padded with jokers to three cards.  Inside,
 * an available natural may still be left out for a joker (it may be wanted
 * in another group). */
typedef struct {
    int suit, len, start;
    unsigned char slot[14];
    int jokers;
} RunBuild;

static inline int pos_of(const Search *S, int start, int i)
{
    return S->cfg->wrap ? ((start - 1 + i) % 13) + 1 : start + i;
}

static void finish_run(Search *S, RunBuild *rb, int f, int e, int cost)
{
    const Config *c = S->cfg;
    int naturals = rb->len - rb->jokers;
    int maxj = c->max_per_group < 0 ? NONE_LIMIT : c->max_per_group;
    if (naturals < c->min_naturals) return;
    /* padding choices to reach three cards: (left, right) */
    int pads[3][2];
    int npads = 0;
    int need = rb->len < 3 ? 3 - rb->len : 0;
    for (int l = need; l >= 0; l--) {
        pads[npads][0] = l;
        pads[npads][1] = need - l;
        npads++;
    }
    Group bestg;
    int have = 0;
    for (int pi = 0; pi < npads; pi++) {
        int l = pads[pi][0], r = pads[pi][1];
        int len = rb->len + l + r;
        int jokers = rb->jokers + l + r;
        if (jokers > e || jokers > maxj || len > 13) continue;
        int start;
        if (c->wrap) {
            start = ((rb->start - 1 - l + 26) % 13) + 1;
        } else {
            start = rb->start - l;
            if (start < 1 || start + len - 1 > S->pmax) continue;
        }
        Group g;
        memset(&g, 0, sizeof g);
        int m = 0;
        for (int k = 0; k < l; k++) g.slots[m++] = 52;
        for (int k = 0; k < rb->len; k++) g.slots[m++] = rb->slot[k];
        for (int k = 0; k < r; k++) g.slots[m++] = 52;
        if (!c->adjacent) {
            int bad = 0;
            for (int k = 1; k < m; k++)
                if (g.slots[k] == 52 && g.slots[k - 1] == 52) bad = 1;
            if (bad) continue;
        }
        g.is_run = 1;
        g.kind = 0;
        g.len = (unsigned char)len;
        g.jokers = (unsigned char)jokers;
        g.pure = jokers == 0;
        g.suit = (unsigned char)rb->suit;
        g.start = (unsigned char)start;
        /* room to grow with more jokers */
        int roomL, roomR;
        if (c->wrap) {
            roomL = roomR = 13 - len;
        } else {
            roomL = start - 1;
            roomR = S->pmax - (start + len - 1);
        }
        if (!c->adjacent) {
            roomL = (roomL > 0 && g.slots[0] != 52) ? 1 : 0;
            roomR = (roomR > 0 && g.slots[m - 1] != 52) ? 1 : 0;
        }
        int cap = 13 - len;
        if (maxj - jokers < cap) cap = maxj - jokers;
        int capR = roomR < cap ? roomR : cap;
        int capL = roomL < cap - capR ? roomL : cap - capR;
        if (c->wrap && c->adjacent) {
            capR = cap;
            capL = 0;
        }
        g.capR = (unsigned char)capR;
        g.capL = (unsigned char)capL;
        g.cap = (unsigned char)(capL + capR);
        if (!have || g.cap > bestg.cap) {
            bestg = g;
            have = 1;
        }
    }
    if (have) push_and_go(S, &bestg, f, e - bestg.jokers, cost);
}

static void build_run(Search *S, RunBuild *rb, int i, int wlen, int f_index, int f, int e, int cost)
{
    const Config *c = S->cfg;
    int maxj = c->max_per_group < 0 ? NONE_LIMIT : c->max_per_group;
    if (i == wlen) {
        finish_run(S, rb, f, e, cost);
        return;
    }
    if (rb->jokers > e || rb->jokers > maxj) return;
    int q = pos_of(S, rb->start, i);
    int k = rb->suit * 13 + rank_at(q) - 1;
    if (i == f_index) {
        rb->slot[i] = (unsigned char)f;
        build_run(S, rb, i + 1, wlen, f_index, f, e, cost);
        return;
    }
    int is_end = (i == 0 || i == wlen - 1);
    if (S->cnt[k]) {
        S->cnt[k]--;
        rb->slot[i] = (unsigned char)k;
        build_run(S, rb, i + 1, wlen, f_index, f, e, cost);
        S->cnt[k]++;
        if (S->stop) return;
    } else if (is_end) {
        return; /* a window's end is a natural card */
    }
    if (!is_end) {
        if (!c->adjacent && i > 0 && rb->slot[i - 1] == 52) return;
        rb->slot[i] = 52;
        rb->jokers++;
        build_run(S, rb, i + 1, wlen, f_index, f, e, cost);
        rb->jokers--;
    }
}

static inline int avail_at(const Search *S, int suit, int q)
{
    return S->cnt[suit * 13 + rank_at(q) - 1] != 0;
}

static void runs_with(Search *S, int f, int q0, int e, int cost)
{
    const Config *c = S->cfg;
    int suit = f / 13;
    int maxj = c->max_per_group < 0 ? NONE_LIMIT : c->max_per_group;
    int budget = e < maxj ? e : maxj;
    RunBuild rb;
    rb.suit = suit;
    /* dl, dr: how far the window reaches left and right of f; its ends are
     * natural cards, so only windows ending on an available card are tried */
    int gapsL = 0;
    for (int dl = 0; dl <= 12 && !S->stop; dl++) {
        int a;
        if (c->wrap) {
            a = ((q0 - 1 - dl + 26) % 13) + 1;
        } else {
            a = q0 - dl;
            if (a < 1) break;
        }
        if (dl > 0 && !avail_at(S, suit, a)) {
            gapsL++;
            if (gapsL > budget) break;
            continue;
        }
        int gapsR = 0;
        for (int dr = 0; dl + dr <= 12 && !S->stop; dr++) {
            int b;
            if (c->wrap) {
                b = ((q0 - 1 + dr) % 13) + 1;
            } else {
                b = q0 + dr;
                if (b > S->pmax) break;
            }
            if (dr > 0 && !avail_at(S, suit, b)) {
                gapsR++;
                if (gapsL + gapsR > budget) break;
                continue;
            }
            rb.start = a;
            rb.len = dl + dr + 1;
            rb.jokers = 0;
            build_run(S, &rb, 0, rb.len, dl, f, e, cost);
        }
    }
}

static void dfs(Search *S, int from, int e, int cost)
{
    const Config *c = S->cfg;
    if (S->stop) return;
    S->nodes++;
    if (S->target != T_SHOW && cost >= S->best) return;
    int f = from;
    while (f < NK && !S->cnt[f]) f++;
    if (f == NK) {
        record(S, cost, e);
        return;
    }
    int rank = f % 13 + 1, suit = f / 13;
    S->cnt[f]--;
    int pure_only = S->target == T_PUREONLY;

    /* runs */
    if (c->wrap) {
        runs_with(S, f, rank, pure_only ? 0 : e, cost);
    } else {
        runs_with(S, f, rank, pure_only ? 0 : e, cost);
        if (rank == 1 && c->ace_high && !S->stop) runs_with(S, f, 14, pure_only ? 0 : e, cost);
    }
    /* thennaali: three of the very same card, a pure run */
    if (c->thennaali && S->cnt[f] >= 2 && !S->stop) {
        Group g;
        memset(&g, 0, sizeof g);
        g.is_run = 1;
        g.pure = 1;
        g.kind = 2;
        g.len = 3;
        g.suit = (unsigned char)suit;
        g.start = (unsigned char)rank;
        g.slots[0] = g.slots[1] = g.slots[2] = (unsigned char)f;
        S->cnt[f] -= 2;
        push_and_go(S, &g, f, e, cost);
        S->cnt[f] += 2;
    }
    /* sets: f with cards of its rank in later suits */
    if (!pure_only && !S->stop) {
        int others[3], no = 0;
        for (int s2 = suit + 1; s2 < 4; s2++)
            if (S->cnt[s2 * 13 + rank - 1]) others[no++] = s2;
        int mj = NONE_LIMIT;
        if (c->max_in_set >= 0 && c->max_in_set < mj) mj = c->max_in_set;
        if (c->max_per_group >= 0 && c->max_per_group < mj) mj = c->max_per_group;
        for (int mask = (1 << no) - 1; mask >= 0 && !S->stop; mask--) {
            int t = __builtin_popcount(mask);
            int k = 1 + t;
            int jmin = k >= 3 ? 0 : 3 - k;
            int jmax = 4 - k;
            if (k < c->min_naturals || jmin > mj || jmin > e) continue;
            if (jmax > mj) jmax = mj;
            Group g;
            memset(&g, 0, sizeof g);
            g.kind = 1;
            g.len = (unsigned char)(k + jmin);
            g.jokers = (unsigned char)jmin;
            g.cap = (unsigned char)(jmax - jmin);
            g.start = (unsigned char)rank;
            int m = 0;
            g.slots[m++] = (unsigned char)f;
            for (int b = 0; b < no; b++)
                if (mask & (1 << b)) {
                    int k2 = others[b] * 13 + rank - 1;
                    g.slots[m++] = (unsigned char)k2;
                    S->cnt[k2]--;
                }
            for (int b = 0; b < jmin; b++) g.slots[m++] = 52;
            push_and_go(S, &g, f, e - jmin, cost);
            for (int b = 0; b < no; b++)
                if (mask & (1 << b)) S->cnt[others[b] * 13 + rank - 1]++;
        }
    }
    /* loose; a cut card held as a natural is never left loose, because the
     * pass that holds it as a joker covers that case at the same cost */
    if (S->target != T_SHOW && !S->stop && !S->designated_natural[f] && S->nloose < 32) {
        S->loose[S->nloose++] = (unsigned char)f;
        dfs(S, f, e, cost + S->val[f]);
        S->nloose--;
    }
    S->cnt[f]++;
}

/* Is there a pure run (or thennaali) among these naturals at all? */
static int any_pure(const Search *S)
{
    const Config *c = S->cfg;
    for (int s = 0; s < 4; s++) {
        int streak = 0;
        int top = c->wrap ? 13 + 2 : S->pmax;
        for (int q = 1; q <= top; q++) {
            int r = c->wrap ? ((q - 1) % 13) + 1 : rank_at(q);
            if (S->cnt[s * 13 + r - 1]) {
                if (++streak >= 3) return 1;
            } else {
                streak = 0;
            }
        }
    }
    if (c->thennaali)
        for (int k = 0; k < NK; k++)
            if (S->cnt[k] >= 3) return 1;
    return 0;
}

/* One target over every split of the cut cards into naturals and jokers. */
static int solve(Search *S, const unsigned char *cnt, int printed, int target, int bound)
{
    int cut[4] = {0, 0, 0, 0};
    S->target = target;
    S->best = bound;
    S->found = 0;
    S->stop = 0;
    S->depth = 0;
    S->nloose = 0;
    if (S->wild)
        for (int s = 0; s < 4; s++) cut[s] = cnt[s * 13 + S->wild - 1];
    int combos = (cut[0] + 1) * (cut[1] + 1) * (cut[2] + 1) * (cut[3] + 1);
    /* more cut cards held as jokers first: those passes find cheap answers soonest */
    for (int idx = 0; idx < combos && !S->stop; idx++) {
        int x = idx, d[4], e = printed;
        for (int s = 0; s < 4; s++) {
            d[s] = cut[s] - x % (cut[s] + 1); /* d = cut cards held as jokers */
            x /= cut[s] + 1;
        }
        memcpy(S->cnt, cnt, NK);
        memset(S->designated_natural, 0, NK);
        for (int s = 0; s < 4; s++) {
            if (!S->wild) break;
            int k = s * 13 + S->wild - 1;
            S->cnt[k] = (unsigned char)(cut[s] - d[s]);
            if (S->cnt[k]) S->designated_natural[k] = 1;
            e += d[s];
            S->cur_wild_suits[s] = d[s];
        }
        if ((target == T_PURE || target == T_LIVES || target == T_SHOW || target == T_PUREONLY) && !any_pure(S))
            continue;
        dfs(S, 0, e, 0);
    }
    return S->found ? S->best : -1;
}

/* A search for one hand under one config and wild rank (PyMem_Free it). */
static Search *new_search(const Config *c, int wild)
{
    Search *S = PyMem_Malloc(sizeof(Search));
    if (!S) return NULL;
    memset(S, 0, sizeof *S);
    S->cfg = c;
    S->wild = wild;
    S->pmax = c->ace_high ? 14 : 13;
    for (int k = 0; k < NK; k++) {
        int r = k % 13 + 1;
        S->val[k] = (wild && r == wild) ? c->joker_value : c->value[r];
    }
    return S;
}

/* ---- the charge, and the best throw of one card more ----
 *
 * The same questions arrange.py asks per credit mode, here so that the
 * fourteen throws of a turn share one bound: a throw is only searched for a
 * charge below the best found so far. */

static inline int capped(const Config *c, int v) { return (c->full_count >= 0 && v > c->full_count) ? c->full_count : v; }

/* any pure run at all, with every cut card used as itself? */
static int pure_possible(Search *S, const unsigned char *cnt)
{
    memcpy(S->cnt, cnt, NK);
    return any_pure(S);
}

/* The hand's charge when it is below ``bound``; otherwise some value >= bound. */
static int charge_below(Search *S, const unsigned char *cnt, int printed, int total, int bound)
{
    const Config *c = S->cfg;
    int v;
    switch (c->credit) {
    case CREDIT_ALWAYS:
        v = solve(S, cnt, printed, T_NONE, bound);
        return v < 0 ? bound : capped(c, v);
    case CREDIT_PURE:
        if (!pure_possible(S, cnt)) return capped(c, total);
        v = solve(S, cnt, printed, T_PURE, bound);
        return v < 0 ? bound : capped(c, v);
    case CREDIT_LIVES_FLAT:
        v = solve(S, cnt, printed, T_LIVES, bound);
        if (v >= 0) return capped(c, v);
        if (c->full_count >= 0) return c->full_count < bound ? c->full_count : bound;
        return capped(c, total) < bound ? capped(c, total) : bound;
    default: { /* lives_except_pure */
        int best = capped(c, total);
        v = solve(S, cnt, printed, T_LIVES, bound);
        if (v >= 0 && capped(c, v) < best) best = capped(c, v);
        int b2 = best < bound ? best : bound;
        v = solve(S, cnt, printed, T_PUREONLY, b2);
        if (v >= 0 && capped(c, v) < best) best = capped(c, v);
        return best < bound ? best : bound;
    }
    }
}

/* best_throw(config, counts: bytes[53] with the printed jokers last, wild)
 *   -> (finish: bytes of kinds, throw kind, charge after it)
 * A throw that leaves a show beats any charge; then the lowest charge; then
 * the dearest card out of the hand. */
static PyObject *best_throw(PyObject *self, PyObject *args)
{
    PyObject *cap;
    const char *counts_in;
    Py_ssize_t n;
    int wild;
    if (!PyArg_ParseTuple(args, "Oy#i", &cap, &counts_in, &n, &wild)) return NULL;
    Config *c = PyCapsule_GetPointer(cap, "rummykit.arrange.Config");
    if (!c) return NULL;
    if (n != NK + 1 || wild < 0 || wild > 13) {
        PyErr_SetString(PyExc_ValueError, "counts must be 53 bytes; wild 0..13");
        return NULL;
    }
    Search *S = new_search(c, wild);
    if (!S) return PyErr_NoMemory();
    unsigned char cnt[NK + 1];
    memcpy(cnt, counts_in, NK + 1);
    int total = 0;
    for (int k = 0; k < NK; k++) total += cnt[k] * S->val[k];
    total += cnt[NK] * c->joker_value;
    /* throws, dearest first so that ties go to the dearer card */
    int order[NK + 1], m = 0;
    for (int k = 0; k <= NK; k++)
        if (cnt[k]) order[m++] = k;
    for (int i = 1; i < m; i++) {
        int k = order[i], vk = k == NK ? c->joker_value : S->val[k], j = i;
        while (j > 0) {
            int p = order[j - 1], vp = p == NK ? c->joker_value : S->val[p];
            if (vp > vk || (vp == vk && p < k)) break;
            order[j] = p;
            j--;
        }
        order[j] = k;
    }
    unsigned char finish[NK + 1];
    int nf = 0, best_k = -1, best_charge = INF;
    for (int i = 0; i < m; i++) {
        int k = order[i];
        cnt[k]--;
        if (solve(S, cnt, cnt[NK], T_SHOW, INF) >= 0) finish[nf++] = (unsigned char)k;
        cnt[k]++;
    }
    if (nf) {
        best_k = finish[0]; /* the dearest finishing card */
        best_charge = c->complete >= 0 ? c->complete + (wild == 2) : 0;
    } else {
        for (int i = 0; i < m; i++) {
            int k = order[i];
            int vk = k == NK ? c->joker_value : S->val[k];
            cnt[k]--;
            int ch = charge_below(S, cnt, cnt[NK], total - vk, best_charge);
            cnt[k]++;
            if (ch < best_charge) {
                best_charge = ch;
                best_k = k;
                if (ch == 0) break;
            }
        }
    }
    PyMem_Free(S);
    /* finishing cards in kind order */
    for (int i = 1; i < nf; i++)
        for (int j = i; j > 0 && finish[j - 1] > finish[j]; j--) {
            unsigned char t = finish[j];
            finish[j] = finish[j - 1];
            finish[j - 1] = t;
        }
    return Py_BuildValue("(y#ii)", (const char *)finish, (Py_ssize_t)nf, best_k, best_charge);
}

/* ---- cards away from a show ----
 *
 * The fewest exchanges (draw one, throw one) that turn the hand into a show
 * if every draw were the card wanted.  Each natural card is kept in a partial
 * group or thrown; a partial group's missing places are filled by jokers or by
 * cards still to draw ("virtual" cards, naturals, so they keep a run pure).
 * Throws and draws are equal in number, so the answer is the number of cards
 * thrown, which must cover the virtual places plus whatever else is drawn to
 * make thirteen.  Jokers left over go into groups' joker room, a joker-only
 * group, or are thrown.  Copies in the shoe are not counted: a wanted card is
 * assumed still to be had. */

typedef struct {
    unsigned char is_run, pure, len, cap, room;
} AGroup;

typedef struct {
    const Config *cfg;
    int pmax;
    unsigned char cnt[NK];
    AGroup stack[MAXG];
    int depth;
    int best;
    long nodes;
} Away;

static int away_place(const Away *A, int x, int y)
{
    const Config *c = A->cfg;
    int n = A->depth, runs = 0, has_long = 0, i;
    int maxj = c->max_per_group < 0 ? NONE_LIMIT : c->max_per_group;
    int newcap = c->adjacent ? 10 : 2;
    if (newcap > maxj) newcap = maxj;
    for (i = 0; i < n; i++) {
        runs += A->stack[i].is_run;
        if (A->stack[i].is_run && A->stack[i].len >= 4) has_long = 1;
    }
    for (int nn = 0; 3 * nn <= y && nn <= 4; nn++) {
        int yr = y - 3 * nn;
        if (runs + nn < c->runs_needed) continue;
        int roomsum = nn * 10;
        for (i = 0; i < n; i++) roomsum += A->stack[i].room;
        if (yr > roomsum) continue;
        /* P: the run kept pure: an existing pure run, or (n) a new one */
        for (int P = -1; P <= n; P++) {
            if (P == -1) continue;
            if (P < n && !(A->stack[P].is_run && A->stack[P].pure)) continue;
            if (P == n && nn == 0) continue;
            int jcap = (nn - (P == n ? 1 : 0)) * newcap;
            for (i = 0; i < n; i++)
                if (i != P) jcap += A->stack[i].cap;
            if (x > jcap && !(c->jog && x >= 3)) continue;
            if (c->long_req && !has_long) {
                int ok = 0;
                if (yr >= 1 && nn >= 1) ok = 1;
                for (i = 0; i < n && !ok; i++) {
                    if (!A->stack[i].is_run) continue;
                    int need = 4 - A->stack[i].len;
                    if (A->stack[i].room >= need && need <= yr) ok = 1;
                    if (i != P && A->stack[i].cap >= need && need <= x) ok = 1;
                }
                if (!ok && x >= 1 && (nn >= 2 || (nn >= 1 && P != n))) ok = 1;
                if (!ok) continue;
            }
            return 1;
        }
    }
    return 0;
}

static void away_leaf(Away *A, int e, int D, int V)
{
    for (int jd = 0; jd <= e; jd++) {
        int total = D + jd;
        if (total >= A->best) return;
        int y = total - V;
        if (y < 0) continue;
        if (away_place(A, e - jd, y)) {
            A->best = total;
            return;
        }
    }
}

static void away_dfs(Away *A, int from, int e, int D, int V);

static void away_push(Away *A, int is_run, int pure, int len, int jokers, int cap, int room, int f, int e, int D,
                      int V)
{
    if (A->depth >= MAXG) return;
    AGroup *g = &A->stack[A->depth++];
    g->is_run = (unsigned char)is_run;
    g->pure = (unsigned char)pure;
    g->len = (unsigned char)len;
    g->cap = (unsigned char)cap;
    g->room = (unsigned char)room;
    away_dfs(A, f, e - jokers, D, V);
    A->depth--;
}

/* slot codes while building a partial run */
enum { S_NAT = 0, S_JOKER = 1, S_VIRTUAL = 2 };

static void away_finish_run(Away *A, int start, int len, const unsigned char *code, int f, int e, int D, int V)
{
    const Config *c = A->cfg;
    int maxj = c->max_per_group < 0 ? NONE_LIMIT : c->max_per_group;
    int jokers = 0, virt = 0, nat = 0;
    for (int i = 0; i < len; i++) {
        jokers += code[i] == S_JOKER;
        virt += code[i] == S_VIRTUAL;
        nat += code[i] == S_NAT;
        if (!c->adjacent && i > 0 && code[i] == S_JOKER && code[i - 1] == S_JOKER) return;
    }
    if (jokers > e || jokers > maxj || nat + virt < c->min_naturals) return;
    if ((V + virt > D ? V + virt : D) >= A->best) return;
    int roomL, roomR;
    if (c->wrap) {
        roomL = roomR = 13 - len;
    } else {
        roomL = start - 1;
        roomR = A->pmax - (start + len - 1);
    }
    int room = roomL + roomR;
    if (room > 13 - len) room = 13 - len;
    int jl = roomL, jr = roomR;
    if (!c->adjacent) {
        jl = (jl > 0 && code[0] != S_JOKER) ? 1 : 0;
        jr = (jr > 0 && code[len - 1] != S_JOKER) ? 1 : 0;
    }
    int cap = jl + jr;
    if (cap > 13 - len) cap = 13 - len;
    if (cap > maxj - jokers) cap = maxj - jokers;
    away_push(A, 1, jokers == 0, len, jokers, cap, room, f, e, D, V + virt);
}

static void away_build_run(Away *A, int suit, int start, int len, int i, int f_index, unsigned char *code, int f,
                           int e, int D, int V)
{
    const Config *c = A->cfg;
    if (i == len) {
        /* pad to three with jokers or cards to draw, at either end */
        if (len >= 3) {
            away_finish_run(A, start, len, code, f, e, D, V);
            return;
        }
        int need = 3 - len;
        /* the padding places are jokers or cards to draw; only how many of
         * each matters (and the room left), so each split is tried once */
        for (int nj = 0; nj <= need; nj++) {
            int best_room = -1, best_s = 0;
            unsigned char best_full[3];
            for (int l = need; l >= 0; l--) {
                int r = need - l, s2;
                if (c->wrap) {
                    s2 = ((start - 1 - l + 26) % 13) + 1;
                } else {
                    s2 = start - l;
                    if (s2 < 1 || s2 + 2 > A->pmax) continue;
                }
                for (int m = 0; m < (1 << need); m++) {
                    if (__builtin_popcount(m) != nj) continue;
                    unsigned char full[3];
                    int k = 0, b = 0;
                    for (int t = 0; t < l; t++) full[k++] = (m >> b++) & 1 ? S_JOKER : S_VIRTUAL;
                    for (int t = 0; t < len; t++) full[k++] = code[t];
                    for (int t = 0; t < r; t++) full[k++] = (m >> b++) & 1 ? S_JOKER : S_VIRTUAL;
                    if (!c->adjacent) {
                        int bad = 0;
                        for (int t = 1; t < 3; t++)
                            if (full[t] == S_JOKER && full[t - 1] == S_JOKER) bad = 1;
                        if (bad) continue;
                    }
                    /* prefer natural ends (room for jokers) away from the edges */
                    int room = (full[0] != S_JOKER) + (full[2] != S_JOKER) + (s2 > 1) + (s2 + 2 < A->pmax);
                    if (room > best_room) {
                        best_room = room;
                        best_s = s2;
                        memcpy(best_full, full, 3);
                    }
                }
            }
            if (best_room >= 0) away_finish_run(A, best_s, 3, best_full, f, e, D, V);
        }
        return;
    }
    int q = c->wrap ? ((start - 1 + i) % 13) + 1 : start + i;
    int k = suit * 13 + rank_at(q) - 1;
    if (i == f_index) {
        code[i] = S_NAT;
        away_build_run(A, suit, start, len, i + 1, f_index, code, f, e, D, V);
        return;
    }
    int is_end = (i == 0 || i == len - 1);
    if (A->cnt[k]) {
        A->cnt[k]--;
        code[i] = S_NAT;
        away_build_run(A, suit, start, len, i + 1, f_index, code, f, e, D, V);
        A->cnt[k]++;
    } else if (is_end) {
        return;
    }
    if (!is_end) {
        code[i] = S_JOKER;
        away_build_run(A, suit, start, len, i + 1, f_index, code, f, e, D, V);
        code[i] = S_VIRTUAL;
        away_build_run(A, suit, start, len, i + 1, f_index, code, f, e, D, V);
    }
}

static void away_runs(Away *A, int f, int q0, int e, int D, int V)
{
    const Config *c = A->cfg;
    int suit = f / 13;
    unsigned char code[14];
    int slack = A->best - 1 - (D > V ? D : V); /* virtual places a window may still add */
    int budget = e + slack;
    int gapsL = 0;
    for (int dl = 0; dl <= 12; dl++) {
        int a = c->wrap ? ((q0 - 1 - dl + 26) % 13) + 1 : q0 - dl;
        if (!c->wrap && a < 1) break;
        if (dl > 0 && !A->cnt[suit * 13 + rank_at(a) - 1]) {
            if (++gapsL > budget) break;
            continue;
        }
        int gapsR = 0;
        for (int dr = 0; dl + dr <= 12; dr++) {
            int b = c->wrap ? ((q0 - 1 + dr) % 13) + 1 : q0 + dr;
            if (!c->wrap && b > A->pmax) break;
            if (dr > 0 && !A->cnt[suit * 13 + rank_at(b) - 1]) {
                if (gapsL + ++gapsR > budget) break;
                continue;
            }
            away_build_run(A, suit, a, dl + dr + 1, 0, dl, code, f, e, D, V);
        }
    }
}

static void away_dfs(Away *A, int from, int e, int D, int V)
{
    const Config *c = A->cfg;
    A->nodes++;
    if ((D > V ? D : V) >= A->best) return;
    int f = from;
    while (f < NK && !A->cnt[f]) f++;
    if (f == NK) {
        away_leaf(A, e, D, V);
        return;
    }
    int rank = f % 13 + 1, suit = f / 13;
    A->cnt[f]--;
    away_runs(A, f, rank, e, D, V);
    if (!c->wrap && rank == 1 && c->ace_high) away_runs(A, f, 14, e, D, V);
    if (c->thennaali && A->cnt[f] >= 2) {
        A->cnt[f] -= 2;
        away_push(A, 1, 1, 3, 0, 0, 0, f, e, D, V);
        A->cnt[f] += 2;
    }
    /* sets: kept cards of f's rank, jokers, and suits still to draw */
    int others[3], no = 0;
    for (int s2 = suit + 1; s2 < 4; s2++)
        if (A->cnt[s2 * 13 + rank - 1]) others[no++] = s2;
    int mj = NONE_LIMIT;
    if (c->max_in_set >= 0 && c->max_in_set < mj) mj = c->max_in_set;
    if (c->max_per_group >= 0 && c->max_per_group < mj) mj = c->max_per_group;
    for (int mask = (1 << no) - 1; mask >= 0; mask--) {
        int k = 1 + __builtin_popcount(mask);
        for (int b = 0; b < no; b++)
            if (mask & (1 << b)) A->cnt[others[b] * 13 + rank - 1]--;
        for (int j = 0; j <= e && j <= mj && k + j <= 4; j++) {
            for (int v = 0; k + j + v <= 4; v++) {
                int size = k + j + v;
                if (size < 3 || k + v < c->min_naturals) continue;
                if (k == 1 && j < 2) continue; /* the run f + jokers/draws does as much and counts as a run */
                int capj = 4 - size;
                if (capj > mj - j) capj = mj - j;
                away_push(A, 0, 0, size, j, capj, 4 - size, f, e, D, V + v);
            }
        }
        for (int b = 0; b < no; b++)
            if (mask & (1 << b)) A->cnt[others[b] * 13 + rank - 1]++;
    }
    /* thrown */
    away_dfs(A, f, e, D + 1, V);
    A->cnt[f]++;
}

/* ---- Python glue ---- */

static void config_free(PyObject *cap)
{
    void *p = PyCapsule_GetPointer(cap, "rummykit.arrange.Config");
    PyMem_Free(p);
}

/* make_config(ace_high, wrap, max_per_group, max_in_set, min_naturals, adjacent,
 *             jog, thennaali, runs_needed, long_req, values(14 ints), joker_value,
 *             credit, full_count (-1 none), complete_hand_charge (-1 none)) */
static PyObject *make_config(PyObject *self, PyObject *args)
{
    Config c;
    PyObject *values;
    if (!PyArg_ParseTuple(args, "iiiiiiiiiiOiiii", &c.ace_high, &c.wrap, &c.max_per_group, &c.max_in_set,
                          &c.min_naturals, &c.adjacent, &c.jog, &c.thennaali, &c.runs_needed, &c.long_req,
                          &values, &c.joker_value, &c.credit, &c.full_count, &c.complete))
        return NULL;
    PyObject *seq = PySequence_Fast(values, "values must be a sequence");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 14) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "values needs 14 entries (index 0 unused)");
        return NULL;
    }
    for (int i = 0; i < 14; i++) {
        c.value[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    }
    Py_DECREF(seq);
    if (PyErr_Occurred()) return NULL;
    Config *p = PyMem_Malloc(sizeof(Config));
    if (!p) return PyErr_NoMemory();
    *p = c;
    return PyCapsule_New(p, "rummykit.arrange.Config", config_free);
}

static PyObject *group_tuple(const Group *g)
{
    PyObject *slots = PyBytes_FromStringAndSize((const char *)g->slots, g->len);
    if (!slots) return NULL;
    return Py_BuildValue("(iiiiN)", g->kind, g->pure, g->suit, g->start, slots);
}

static PyObject *result_tuple(Search *S, int value)
{
    PyObject *groups = PyList_New(S->best_depth);
    if (!groups) return NULL;
    for (int i = 0; i < S->best_depth; i++) {
        PyObject *t = group_tuple(&S->best_groups[i]);
        if (!t) {
            Py_DECREF(groups);
            return NULL;
        }
        PyList_SET_ITEM(groups, i, t);
    }
    PyObject *loose = PyBytes_FromStringAndSize((const char *)S->best_loose, S->best_nloose);
    if (!loose) {
        Py_DECREF(groups);
        return NULL;
    }
    return Py_BuildValue("(iNN(iiii)ii)", value, groups, loose, S->best_wild_suits[0], S->best_wild_suits[1],
                         S->best_wild_suits[2], S->best_wild_suits[3], S->best_jog, S->best_unplaced);
}

/* search(config, counts: bytes[52], printed_jokers, wild_rank, target)
 *   -> None when the target cannot be met, else
 *      (value, groups, loose, wild_suits, jog, unplaced)
 * groups: (kind 0 run/1 set/2 thennaali, pure, suit, start, slots bytes) */
static PyObject *search(PyObject *self, PyObject *args)
{
    PyObject *cap;
    const char *counts;
    Py_ssize_t n;
    int printed, wild, target;
    if (!PyArg_ParseTuple(args, "Oy#iii", &cap, &counts, &n, &printed, &wild, &target)) return NULL;
    Config *c = PyCapsule_GetPointer(cap, "rummykit.arrange.Config");
    if (!c) return NULL;
    if (n != NK) {
        PyErr_SetString(PyExc_ValueError, "counts must be 52 bytes");
        return NULL;
    }
    if (target < 0 || target > T_SHOW || wild < 0 || wild > 13 || printed < 0 || printed > 40) {
        PyErr_SetString(PyExc_ValueError, "bad target, wild rank or joker count");
        return NULL;
    }
    Search *S = new_search(c, wild);
    if (!S) return PyErr_NoMemory();
    int v = solve(S, (const unsigned char *)counts, printed, target, INF);
    PyObject *res;
    if (v < 0) {
        res = Py_None;
        Py_INCREF(res);
    } else {
        res = result_tuple(S, v);
    }
    PyMem_Free(S);
    return res;
}

/* away(config, counts: bytes[52], printed_jokers, wild_rank) -> int */
static PyObject *away(PyObject *self, PyObject *args)
{
    PyObject *cap;
    const char *counts;
    Py_ssize_t n;
    int printed, wild;
    if (!PyArg_ParseTuple(args, "Oy#ii", &cap, &counts, &n, &printed, &wild)) return NULL;
    Config *c = PyCapsule_GetPointer(cap, "rummykit.arrange.Config");
    if (!c) return NULL;
    if (n != NK || wild < 0 || wild > 13 || printed < 0 || printed > 40) {
        PyErr_SetString(PyExc_ValueError, "counts must be 52 bytes; wild 0..13");
        return NULL;
    }
    Away *A = PyMem_Malloc(sizeof(Away));
    if (!A) return PyErr_NoMemory();
    memset(A, 0, sizeof *A);
    A->cfg = c;
    A->pmax = c->ace_high ? 14 : 13;
    /* every split of the cut cards into naturals and jokers, as in solve();
     * deepening the bound one card at a time keeps the search narrow */
    int cut[4] = {0, 0, 0, 0};
    if (wild)
        for (int s = 0; s < 4; s++) cut[s] = (unsigned char)counts[s * 13 + wild - 1];
    int combos = (cut[0] + 1) * (cut[1] + 1) * (cut[2] + 1) * (cut[3] + 1);
    for (int bound = 1; bound <= 14; bound++) {
        A->best = bound;
        for (int idx = 0; idx < combos && A->best == bound; idx++) {
            int x = idx, e = printed;
            memcpy(A->cnt, counts, NK);
            for (int s = 0; s < 4; s++) {
                int d = cut[s] - x % (cut[s] + 1);
                x /= cut[s] + 1;
                if (wild) A->cnt[s * 13 + wild - 1] = (unsigned char)(cut[s] - d);
                e += d;
            }
            A->depth = 0;
            away_dfs(A, 0, e, 0, 0);
        }
        if (A->best < bound) break;
    }
    int best = A->best;
    PyMem_Free(A);
    return PyLong_FromLong(best);
}

static PyMethodDef methods[] = {
    {"away", away, METH_VARARGS, "Fewest exchanges to a show."},
    {"best_throw", best_throw, METH_VARARGS, "Finishing cards and the best throw of one card more."},
    {"make_config", make_config, METH_VARARGS, "Pack the rules the search needs."},
    {"search", search, METH_VARARGS, "Exact best arrangement for one target."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef mod = {
    PyModuleDef_HEAD_INIT, .m_name = "_arrange", .m_doc = "The arranger's exact search.", .m_size = -1,
    .m_methods = methods};

PyMODINIT_FUNC PyInit__arrange(void)
{
    PyObject *m = PyModule_Create(&mod);
    if (!m) return NULL;
    PyModule_AddIntConstant(m, "T_NONE", T_NONE);
    PyModule_AddIntConstant(m, "T_PURE", T_PURE);
    PyModule_AddIntConstant(m, "T_LIVES", T_LIVES);
    PyModule_AddIntConstant(m, "T_PUREONLY", T_PUREONLY);
    PyModule_AddIntConstant(m, "T_SHOW", T_SHOW);
    return m;
}
